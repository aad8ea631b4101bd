// Package partialjson parses a JSON document that arrives in pieces, such
// as the arguments of a tool call streamed as TOOL_CALL_ARGS deltas, and
// keeps a live view of the value while it streams.
//
// A Parser consumes the text incrementally: each byte is examined once and
// the parser keeps its position (an explicit stack of open containers, the
// state of the token being read) between calls, so the cost of a Write is
// proportional to the delta, not to everything received so far. Clients
// that re-parse the whole buffer on every delta do quadratic work.
//
// # The live value
//
// After every Write the live value is the value of the longest prefix of
// the input that is still valid JSON so far, read as follows:
//
//   - Before any non-whitespace byte there is no value.
//   - An array or object appears as soon as its '[' or '{' arrives, empty,
//     and fills up as members complete.
//   - An unterminated string shows the text decoded so far. Pieces that
//     cannot be decoded yet are held back: an escape sequence split across
//     deltas, a multi-byte UTF-8 sequence split across deltas, and a high
//     surrogate escape waiting for its low half. A surrogate escape without
//     its partner decodes to U+FFFD, as invalid UTF-8 does, matching
//     encoding/json; with Options.JSText it stays a lone surrogate (WTF-8),
//     as in JavaScript.
//   - An object member appears once its key is closed, the colon has
//     arrived and the value has started; a partial key is left out.
//   - A number appears only once a byte that ends it has arrived and is
//     valid there (',', '}', ']' or whitespace), or, for a number at the
//     top level, when Close declares the input complete. Until then "12"
//     could still become "123". Partial literals such as "tru" are left
//     out; "true" appears when its last letter arrives.
//
// The first syntax error stops the parser: the live value stays what it
// was just before the offending byte, Err reports the error and later
// writes are ignored. Non-whitespace after a complete top-level value is an
// error, and so is nesting deeper than Options.MaxDepth.
//
// # Edits
//
// Write reports every change of the live value as an Edit, so that a
// consumer (a Go tree, a JavaScript mirror) can follow along in time
// proportional to the change rather than copying the whole value. Paths
// are JSON Pointers relative to the root. Applying the edits in order to an
// empty document reproduces Value exactly:
//
//   - Replace at "" sets the root value;
//   - Add at an object member sets that member (JSON Patch "add" semantics:
//     a duplicate key overwrites the value in the key's original position);
//   - Add at an array index equal to the array's length appends;
//   - Append adds decoded text to the end of the string at Path.
//
// With Options.Ends, the completion of every string, array and object is
// reported too, as an End edit carrying the complete value (innermost
// first), for a consumer that judges values once they are complete, such
// as a schema validator; the other edits are the same.
//
// The Value of a container Add is always a new, empty container that the
// consumer may keep; its members follow as further edits. A string starts
// as an Add of "" and its text follows as Appends, at most one per Write.
// A number or literal is added once complete. Value always equals the
// result of applying every edit so far.
//
// # Cost
//
// A Write costs O(len(delta)) amortised plus O(depth) per emitted edit to
// build its path; the path of a string's Appends is built once, when the
// string starts. The string being read is kept in an append-only buffer
// (as in strings.Builder), not a growing Go string: its Append edits' texts
// and its value once complete are views of that buffer, never copies, so
// a Write inside a string allocates nothing but the buffer's amortised
// growth. Value builds fresh containers for the live value and costs
// O(size); it is meant for snapshots, not for every delta.
package partialjson
