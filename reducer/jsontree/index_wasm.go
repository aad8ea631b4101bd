//go:build wasm

package jsontree

import "math/bits"

// IndexQuote returns the index of the first '"' or '\\' in b, or -1.
// Within a valid string's text the first one found is the backslash of an
// escape; after a valid string's opening quote, the first quote not
// escaped is its end. In WebAssembly, where bytes.IndexByte is a loop over
// single bytes, it reads eight bytes at a time, as the string scanners do.
func IndexQuote(b []byte) int {
	i := 0
	for i+8 <= len(b) {
		w := le64(b[i:])
		// The lowest flagged byte is exact (see skipStr); bytes with the
		// top bit set are never flagged.
		if m := (((w ^ qq) - lo01) | ((w ^ bsbs) - lo01)) &^ w & hi80; m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
		i += 8
	}
	for ; i < len(b); i++ {
		if b[i] == '"' || b[i] == '\\' {
			return i
		}
	}
	return -1
}
