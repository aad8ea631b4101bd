package partialjson

import (
	"strconv"

	"github.com/agui-reducer/agui/reducer/jsontree"
)

// EditOp is the kind of an Edit.
type EditOp uint8

// The edit operations. Their meaning follows JSON Patch (RFC 6902) where
// one exists.
const (
	// Add sets an object member or appends an array element at Path.
	Add EditOp = iota + 1
	// Append appends Text to the string at Path.
	Append
	// Replace sets the root value; Path is always "".
	Replace
	// End says that the string, array or object most recently started
	// and still open is complete; Value is it, complete (the parser's own
	// container: read it, do not change or keep it). Path is empty. Only
	// a Parser with Options.Ends emits End, after the edit that completes
	// the value's text.
	End
)

// String returns the lower-case name of the operation.
func (op EditOp) String() string {
	switch op {
	case Add:
		return "add"
	case Append:
		return "append"
	case Replace:
		return "replace"
	case End:
		return "end"
	}
	return "EditOp(" + strconv.Itoa(int(op)) + ")"
}

// Edit is one change to a Parser's live value.
type Edit struct {
	Op EditOp
	// Path is a JSON Pointer relative to the root value: "" is the root,
	// object keys are escaped with ~0 and ~1, array elements are indexes.
	Path string
	// Value is the value added or replaced. A container is always new and
	// empty; its members arrive as later edits. A string is always "" and
	// its text arrives as Append edits.
	Value jsontree.Value
	// Text is the decoded text appended by an Append edit.
	Text string
}
