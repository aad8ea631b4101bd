package sse

import (
	"unicode/utf8"

	"github.com/agui-reducer/agui/reducer/internal/utf8seq"
)

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
		n, _ := utf8seq.Len(src, i) // the maximal subpart
		i += n
	}
	return dst
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
