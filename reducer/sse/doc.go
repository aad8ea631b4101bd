// Package sse implements an incremental parser for Server-Sent Events
// (text/event-stream), following the "Interpreting an event stream" rules
// of the WHATWG HTML standard (section 9.2.6).
//
// A [Parser] is fed the raw bytes of a response body in whatever pieces the
// network delivers them. A piece may end anywhere: inside a line, inside a
// UTF-8 sequence, inside the leading byte order mark, or between the CR and
// the LF of a CRLF line ending. The parser keeps just enough state to make
// the result independent of where the pieces were cut: the events (and
// errors) produced by any split of a stream are exactly those produced by
// feeding it whole. Each input byte is scanned once; a line that arrives in
// many small pieces is accumulated in a buffer and never re-scanned.
//
// The stream is interpreted as in the standard. It is decoded as UTF-8,
// each maximal ill-formed subsequence becoming U+FFFD, and one byte order
// mark at the very start is dropped (a U+FEFF anywhere else is kept as a
// character). Lines end with CRLF, LF or CR. A line starting with a colon is
// a comment. Any other line is split at its first colon into a field name and
// a value, with one leading space removed from the value; a line without a
// colon is a field name with an empty value. The fields "event", "data",
// "id" and "retry" fill the event being assembled; other fields are ignored.
// A blank line dispatches that event, unless it has no data, in which case
// the event is silently dropped.
//
// The event type of a dispatched [Event] is "" when the stream gave none (or
// gave an empty one). The standard, and the browser EventSource, then use
// "message"; the parser leaves that choice to the caller so that an absent
// type can be told apart from an explicit "message".
//
// At the end of the stream, [Parser.Close] discards an event that has not
// been terminated by a blank line, as the standard requires: a truncated
// body must not produce a truncated event. A stream that ends with a final
// event must therefore end with a blank line.
//
// To bound memory, an event whose data buffer plus current line grows past
// [Options.MaxEventSize] is abandoned: the parser reports an [*Error] with
// code [CodeTooLarge], skips the input up to the next blank line, and then
// carries on with the following events. Lines of the event read before the
// limit was crossed keep their effect: an "id" field there still becomes the
// last event ID, so that a client reconnecting with it is not sent the same
// oversized event again.
//
// The package is pure Go with no global state, so it behaves the same when
// compiled to WebAssembly; no input makes it panic.
package sse
