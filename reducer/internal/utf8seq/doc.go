// Package utf8seq measures UTF-8 sequences as the WHATWG Encoding standard
// decodes them (§4.1, "UTF-8 decoder"), which is what a browser's
// TextDecoder does: an ill-formed sequence is replaced by one U+FFFD per
// "maximal subpart", where Go's own conversions replace every bad byte. The
// JSON parser (jsontree) and the SSE parser (sse) both decode so.
package utf8seq
