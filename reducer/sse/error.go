package sse

import "strconv"

// CodeTooLarge is the [Error.Code] of an event that exceeded
// [Options.MaxEventSize].
const CodeTooLarge = "too_large"

// Error reports a problem with one event of the stream. The parser recovers
// from every error by itself; errors are informational.
type Error struct {
	// Code classifies the error; it is currently always CodeTooLarge.
	Code string
	// Offset is the byte offset, from the start of the stream (counting a
	// byte order mark, if any), of the start of the line at which the
	// problem was detected. It does not depend on how the stream was split.
	Offset int64
	// Limit is the MaxEventSize in force.
	Limit int
}

func (e *Error) Error() string {
	return "sse: " + e.Code + ": event exceeds " + strconv.Itoa(e.Limit) +
		" bytes at line starting at offset " + strconv.FormatInt(e.Offset, 10)
}
