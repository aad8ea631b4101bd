package main

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// escapeControls makes text from the input safe to print on a terminal, one
// diagnostic per line: ids and messages come from the stream, and raw ESC
// sequences, newlines or carriage returns in them could erase the line or
// forge others ("line 99: error …"). C0 and C1 controls, DEL, invalid UTF-8,
// the Unicode line separators and the bidirectional overrides are written
// as Go escapes (\n, \x1b, \u2028); everything else is left as it is.
func escapeControls(s string) string {
	clean := true
	for _, r := range s {
		if unsafeRune(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteString(`\x`)
			b.WriteString(strconv.FormatUint(uint64(s[i])|0x100, 16)[1:])
		case unsafeRune(r):
			q := strconv.QuoteRuneToASCII(r) // '\n', '\x1b', '\u2028'
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

func unsafeRune(r rune) bool {
	switch {
	case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f: // C0, DEL, C1
		return true
	case r == 0x2028, r == 0x2029: // line and paragraph separators
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f: // bidi controls
		return true
	case r == utf8.RuneError:
		return true
	}
	return false
}

// escapeJSONText writes the characters of JSON text that a terminal could
// act on (DEL, C1 controls, line separators, bidirectional controls) as
// \u escapes. They can only occur inside strings, where the escape means
// the same character, so the JSON is unchanged; C0 controls are escaped by
// the encoder already, and the indentation's newlines are kept. Invalid
// UTF-8 becomes \ufffd.
func escapeJSONText(b []byte) []byte {
	var out []byte
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r < 0x7f || !unsafeRune(r) {
			if out != nil {
				out = append(out, b[i:i+size]...)
			}
			i += size
			continue
		}
		if out == nil {
			out = append(make([]byte, 0, len(b)+16), b[:i]...)
		}
		out = append(out, `\u`...)
		out = append(out, strconv.FormatUint(uint64(r)|0x10000, 16)[1:]...)
		i += size
	}
	if out == nil {
		return b
	}
	return out
}
