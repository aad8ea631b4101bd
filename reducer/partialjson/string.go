package partialjson

import (
	"unicode/utf16"
	"unicode/utf8"
)

// replacement is U+FFFD, which stands in for undecodable input, as in
// encoding/json.
const replacement = "\uFFFD"

// strDecoder decodes the contents of a JSON string as it arrives. Decoded
// text goes to buf; anything that cannot be decoded yet (a split escape, a
// high surrogate waiting for its low half, a split UTF-8 sequence) is held
// in the other fields until the bytes that complete it arrive.
type strDecoder struct {
	buf []byte

	esc  int8 // 0: none; 1: after '\'; 2..5: after "\u" and esc-2 hex digits
	code rune // \u value accumulated so far
	high rune // pending high surrogate, 0 if none

	part  [utf8.UTFMax]byte // start of a UTF-8 sequence split across writes
	npart int
}

func (d *strDecoder) reset() {
	d.buf = d.buf[:0]
	d.esc, d.code, d.high, d.npart = 0, 0, 0, 0
}

// plain decodes raw string bytes: none is a quote, a backslash or a
// control character.
func (d *strDecoder) plain(s string) {
	if d.high != 0 {
		d.buf = append(d.buf, replacement...)
		d.high = 0
	}
	// Finish a sequence split by the previous write first.
	for d.npart > 0 && len(s) > 0 {
		d.part[d.npart] = s[0]
		d.npart++
		s = s[1:]
		d.drainPart(false)
	}
	for len(s) > 0 {
		i := 0
		for i < len(s) && s[i] < utf8.RuneSelf {
			i++
		}
		d.buf = append(d.buf, s[:i]...)
		s = s[i:]
		if len(s) == 0 {
			break
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

// rune adds a rune produced by an escape, pairing surrogates the way
// encoding/json does: a high surrogate immediately followed by a low one
// forms one character; any other surrogate becomes U+FFFD.
func (d *strDecoder) rune(r rune) {
	if d.high != 0 {
		if 0xDC00 <= r && r <= 0xDFFF {
			d.buf = utf8.AppendRune(d.buf, utf16.DecodeRune(d.high, r))
			d.high = 0
			return
		}
		d.buf = append(d.buf, replacement...)
		d.high = 0
	}
	switch {
	case 0xD800 <= r && r < 0xDC00:
		d.high = r
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
		d.buf = append(d.buf, replacement...)
		d.high = 0
	}
}
