package partialjson

import (
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// replacement is U+FFFD, which stands in for undecodable input, as in
// encoding/json.
const replacement = "\uFFFD"

// strDecoder decodes the contents of a JSON string as it arrives. Decoded
// text goes to buf; anything that cannot be decoded yet (a split escape, a
// high surrogate waiting for its low half, a split UTF-8 sequence) is held
// in the other fields until the bytes that complete it arrive.
//
// buf is only appended to until reset, which starts a new buffer (as
// strings.Builder does): the bytes it holds never change, so its text (the
// string's value, and each Append edit's text, a slice of it) is a view,
// not a copy.
type strDecoder struct {
	buf []byte

	esc  int8 // 0: none; 1: after '\'; 2..5: after "\u" and esc-2 hex digits
	code rune // \u value accumulated so far
	high rune // pending high surrogate, 0 if none

	part  [utf8.UTFMax]byte // start of a UTF-8 sequence split across writes
	npart int

	js bool // Options.JSText
}

func (d *strDecoder) reset() {
	d.buf = nil
	d.esc, d.code, d.high, d.npart = 0, 0, 0, 0 // js is an option: kept
}

// text is the decoded text so far, a view of buf (see strDecoder).
func (d *strDecoder) text() string {
	return unsafe.String(unsafe.SliceData(d.buf), len(d.buf))
}

// plain decodes raw string bytes: none is a quote, a backslash or a
// control character. A lone surrogate held as WTF-8 (a JavaScript string
// cut between the halves of a pair) pairs with its partner like an escape.
func (d *strDecoder) plain(s string) {
	if d.high != 0 && d.npart > 0 {
		d.flushHigh()
	}
	// Finish a sequence split by the previous write first.
	for d.npart > 0 && len(s) > 0 {
		d.part[d.npart] = s[0]
		d.npart++
		s = s[1:]
		d.drainPart(false)
	}
	for len(s) > 0 {
		if r, ok := wtf8Surrogate(s); ok && d.js {
			d.rune(r)
			s = s[3:]
			continue
		}
		if d.high != 0 {
			d.flushHigh()
		}
		i := 0
		for i < len(s) && s[i] < utf8.RuneSelf {
			i++
		}
		d.buf = append(d.buf, s[:i]...)
		s = s[i:]
		if len(s) == 0 {
			break
		}
		if _, ok := wtf8Surrogate(s); ok && d.js {
			continue
		}
		if !utf8.FullRuneInString(s) {
			// Only possible at the end of s: wait for the rest.
			d.npart = copy(d.part[:], s)
			break
		}
		r, size := utf8.DecodeRuneInString(s)
		if r == utf8.RuneError && size == 1 {
			d.buf = append(d.buf, replacement...)
		} else {
			d.buf = append(d.buf, s[:size]...)
		}
		s = s[size:]
	}
}

// wtf8Surrogate decodes a surrogate held as WTF-8 at the start of s.
func wtf8Surrogate(s string) (rune, bool) {
	if len(s) < 3 || s[0] != 0xED || s[1]&0xE0 != 0xA0 || s[2]&0xC0 != 0x80 {
		return 0, false
	}
	return 0xD000 | rune(s[1]&0x3F)<<6 | rune(s[2]&0x3F), true
}

// appendSurrogate appends a lone surrogate as WTF-8: JavaScript keeps it.
func appendSurrogate(b []byte, r rune) []byte {
	return append(b, 0xED, byte(0x80|r>>6&0x3F), byte(0x80|r&0x3F))
}

// flushHigh emits a pending high surrogate that met no low half: lone in
// JavaScript text, else U+FFFD as encoding/json decodes it. (Rare: not
// inlined.)
//
//go:noinline
func (d *strDecoder) flushHigh() {
	if d.js {
		d.buf = appendSurrogate(d.buf, d.high)
	} else {
		d.buf = append(d.buf, replacement...)
	}
	d.high = 0
}

// drainPart decodes what it can of part. With all set, nothing more will
// follow, so an incomplete sequence is decoded as errors.
func (d *strDecoder) drainPart(all bool) {
	for d.npart > 0 && (all || utf8.FullRune(d.part[:d.npart])) {
		r, size := utf8.DecodeRune(d.part[:d.npart])
		if r == utf8.RuneError && size == 1 {
			d.buf = append(d.buf, replacement...)
		} else {
			d.buf = append(d.buf, d.part[:size]...)
		}
		d.npart = copy(d.part[:], d.part[size:d.npart])
	}
}

// startEscape handles a backslash. A pending high surrogate stays pending:
// the escape may be its low half.
func (d *strDecoder) startEscape() {
	d.drainPart(true)
	d.esc = 1
}

// escapeByte consumes a byte of an escape sequence. It returns a
// description of the error, or "".
func (d *strDecoder) escapeByte(c byte) string {
	if d.esc == 1 {
		var r rune
		switch c {
		case '"', '\\', '/':
			r = rune(c)
		case 'b':
			r = '\b'
		case 'f':
			r = '\f'
		case 'n':
			r = '\n'
		case 'r':
			r = '\r'
		case 't':
			r = '\t'
		case 'u':
			d.esc, d.code = 2, 0
			return ""
		default:
			return "in string escape code"
		}
		d.esc = 0
		d.rune(r)
		return ""
	}
	var v byte
	switch {
	case '0' <= c && c <= '9':
		v = c - '0'
	case 'a' <= c && c <= 'f':
		v = c - 'a' + 10
	case 'A' <= c && c <= 'F':
		v = c - 'A' + 10
	default:
		return "in \\u hexadecimal character escape"
	}
	d.code = d.code<<4 | rune(v)
	if d.esc++; d.esc == 6 {
		d.esc = 0
		d.rune(d.code)
	}
	return ""
}

// rune adds a rune produced by an escape (or a surrogate held as WTF-8),
// pairing surrogates as JavaScript strings pair code units: a high
// surrogate immediately followed by a low one forms one character; any
// other surrogate stays lone. A high surrogate is held back until the next
// character shows whether it pairs, so live text never shows half a pair.
func (d *strDecoder) rune(r rune) {
	if d.high != 0 {
		if 0xDC00 <= r && r <= 0xDFFF {
			d.buf = utf8.AppendRune(d.buf, utf16.DecodeRune(d.high, r))
			d.high = 0
			return
		}
		d.flushHigh()
	}
	switch {
	case 0xD800 <= r && r < 0xDC00:
		d.high = r
	case 0xDC00 <= r && r <= 0xDFFF && d.js:
		d.buf = appendSurrogate(d.buf, r)
	case 0xDC00 <= r && r <= 0xDFFF:
		d.buf = append(d.buf, replacement...)
	default:
		d.buf = utf8.AppendRune(d.buf, r)
	}
}

// finish handles the closing quote: whatever is still held back can no
// longer be completed.
func (d *strDecoder) finish() {
	d.drainPart(true)
	if d.high != 0 {
		d.flushHigh()
	}
}
