// Package jsontree holds JSON documents as mutable, insertion-ordered trees.
//
// A [Value] is nil, bool, [Number], string, *[Array] or *[Object]. Objects
// remember the order in which keys were first inserted, as JavaScript objects
// do, so a document parsed, patched and re-encoded comes out with its keys in
// the order a JavaScript client would print them with JSON.stringify.
// (JavaScript additionally moves integer-like keys such as "1" to the front of
// every object; jsontree does not, it keeps plain insertion order.)
// Numbers are kept as their exact source text, so 1e400 or a 30-digit integer
// survives a round trip byte for byte; [Equal] compares them by numeric value.
//
// [Parse] is a strict RFC 8259 parser. It never recurses: nesting is tracked
// on an explicit stack and limited by [ParseOptions].MaxDepth, so hostile
// input cannot exhaust the goroutine stack. It decodes strings the way a
// browser would see them: invalid UTF-8 is replaced by U+FFFD using the
// WHATWG "maximal subpart" rule (what TextDecoder does before JSON.parse
// runs). An unpaired UTF-16 surrogate written as a \u escape stays a lone
// surrogate, as JSON.parse keeps it: it is held as its three-byte WTF-8
// form, which AppendString writes back as the escape, so text a producer
// cut between the two halves of a pair joins exactly when concatenated.
// A duplicated object key keeps its first position and its last value, which
// is what JSON.parse does.
//
// [ScanObject] validates exactly as Parse does but builds nothing: it hands
// each top-level member of an object to a callback as its key and the raw
// text of its value, which [KindOf], [UnquoteString], [AppendUnquoted] or
// Parse then decode as needed. A decoder that wants a few fields of a large
// object pays for validating the rest, not for materialising it.
// [ScanArray] does the same for the elements of an array.
//
// [StringEnd], [HasPrefix] and [IndexQuote] are the byte scanners the
// streamed tokens' fast paths share (here, in package reducer and in the
// dialect translators): they read eight bytes or more at a time, where under
// WebAssembly package bytes and Go's string comparison go one byte at a time.
//
// [AppendJSON] writes compact JSON with the escaping of JSON.stringify
// (no HTML escaping, no escaping of U+2028/U+2029). [Equal], [Clone] and
// [AppendJSON] are iterative too, because trees built by successive patches
// can be deeper than any single parsed document.
//
// Containers are pointers and are changed in place by their owner; a Value
// handed to code that keeps it must be cloned first. Errors are returned as
// values carrying a short machine-readable code; nothing in this package
// panics on bad input.
package jsontree
