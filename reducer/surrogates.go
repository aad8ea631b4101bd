package reducer

// Streamed text is JavaScript text: a producer that cuts it by UTF-16 code
// units can end one delta with a high surrogate and start the next with
// the low one. The decoder keeps such a lone surrogate (written \udxxx in
// JSON) as its three-byte WTF-8 form, and appendJS joins a high surrogate
// at the end of the text with a low surrogate at the start of the delta into
// the four-byte UTF-8 of their code point, which is what JavaScript's string
// concatenation yields. A surrogate that never meets its partner stays
// lone, and the encoder writes it back as \udxxx. Only the last three bytes
// and the first three are looked at, so a delta costs O(delta).

// appendJS appends s to dst as JavaScript concatenates strings.
func appendJS(dst []byte, s string) []byte {
	n := len(dst)
	if n >= 3 && len(s) >= 3 && dst[n-3] == 0xED && dst[n-2]&0xF0 == 0xA0 && s[0] == 0xED && s[1]&0xF0 == 0xB0 {
		hi := 0xD000 | rune(dst[n-2]&0x3F)<<6 | rune(dst[n-1]&0x3F)
		lo := 0xD000 | rune(s[1]&0x3F)<<6 | rune(s[2]&0x3F)
		r := 0x10000 + (hi-0xD800)<<10 + (lo - 0xDC00)
		dst = append(dst[:n-3], byte(0xF0|r>>18), byte(0x80|r>>12&0x3F), byte(0x80|r>>6&0x3F), byte(0x80|r&0x3F))
		return append(dst, s[3:]...)
	}
	return append(dst, s...)
}

// endsHighSurrogate reports whether b ends with a lone high surrogate.
func endsHighSurrogate(b []byte) bool {
	n := len(b)
	return n >= 3 && b[n-3] == 0xED && b[n-2]&0xF0 == 0xA0
}
