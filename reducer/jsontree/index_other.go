//go:build !wasm

package jsontree

import "bytes"

// IndexQuote returns the index of the first '"' or '\\' in b, or -1.
// Within a valid string's text the first one found is the backslash of an
// escape; after a valid string's opening quote, the first quote not
// escaped is its end. Natively bytes.IndexByte reads many bytes at a time:
// the quote, then a backslash before it.
func IndexQuote(b []byte) int {
	q := bytes.IndexByte(b, '"')
	if q < 0 {
		q = len(b)
	}
	if i := bytes.IndexByte(b[:q], '\\'); i >= 0 {
		return i
	}
	if q == len(b) {
		return -1
	}
	return q
}
