package utf8seq

import "unicode/utf8"

// Len measures the UTF-8 sequence at s[i]. It reports a well-formed
// sequence and its length, or an ill-formed one and the length of its
// maximal subpart, which is what one U+FFFD replaces.
func Len[T ~string | ~[]byte](s T, i int) (n int, ok bool) {
	c := s[i]
	need := 0
	lo, hi := byte(0x80), byte(0xBF)
	switch {
	case c < utf8.RuneSelf:
		return 1, true
	case 0xC2 <= c && c <= 0xDF:
		need = 1
	case c == 0xE0:
		need, lo = 2, 0xA0
	case c == 0xED:
		need, hi = 2, 0x9F // no surrogates
	case 0xE1 <= c && c <= 0xEF:
		need = 2
	case c == 0xF0:
		need, lo = 3, 0x90
	case 0xF1 <= c && c <= 0xF3:
		need = 3
	case c == 0xF4:
		need, hi = 3, 0x8F // nothing above U+10FFFF
	default:
		return 1, false
	}
	j := i + 1
	for ; need > 0; need-- {
		if j >= len(s) || s[j] < lo || s[j] > hi {
			return j - i, false
		}
		lo, hi = 0x80, 0xBF
		j++
	}
	return j - i, true
}
