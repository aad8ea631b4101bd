package sse

import "unicode/utf8"

// appendUTF8 appends src to dst, replacing each maximal ill-formed
// subsequence of src with U+FFFD, as the WHATWG "UTF-8 decode" algorithm
// does. (Go's own conversions replace every bad byte separately, which gives
// a different number of U+FFFDs for a truncated sequence.)
//
// The parser only decodes whole lines or parts of lines split at ASCII bytes.
// Since CR, LF, colon and space can never be part of a multi-byte sequence,
// decoding the pieces separately gives the same text as decoding the stream.
func appendUTF8(dst, src []byte) []byte {
	if utf8.Valid(src) {
		return append(dst, src...)
	}
	for i := 0; i < len(src); {
		if c := src[i]; c < utf8.RuneSelf {
			dst = append(dst, c)
			i++
			continue
		}
		if r, size := utf8.DecodeRune(src[i:]); r != utf8.RuneError || size > 1 {
			dst = append(dst, src[i:i+size]...)
			i += size
			continue
		}
		dst = append(dst, "\uFFFD"...)
		i += maximalSubpart(src[i:])
	}
	return dst
}

// maximalSubpart returns the length of the ill-formed sequence at the start
// of b: the longest prefix that could begin a well-formed sequence, or 1.
// b must not start with a well-formed sequence.
func maximalSubpart(b []byte) int {
	need := 0
	lo, hi := byte(0x80), byte(0xBF)
	switch c := b[0]; {
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
		return 1
	}
	i := 1
	for ; i <= need && i < len(b); i++ {
		if b[i] < lo || b[i] > hi {
			break
		}
		lo, hi = 0x80, 0xBF
	}
	return i
}

// decodeString returns src decoded as by appendUTF8, reusing old (and so
// not allocating) when the result is unchanged.
func decodeString(old string, src []byte) string {
	if !utf8.Valid(src) {
		return string(appendUTF8(nil, src))
	}
	if string(src) == old { // no allocation for the comparison
		return old
	}
	return string(src)
}
