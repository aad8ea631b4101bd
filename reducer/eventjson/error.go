package eventjson

import (
	"strconv"

	"github.com/agui-reducer/agui/reducer/jsontree"
)

// Error is a problem with one event: a stable machine-readable code and a
// human-readable message.
type Error struct {
	Code    string
	Message string
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

// Errorf returns an *Error. It is not inlined: it is called from a hundred
// cold error paths, where inlining it would only grow the code.
//
//go:noinline
func Errorf(code, msg string) *Error { return &Error{Code: code, Message: msg} }

// TooLarge is the "too_large" problem of an event of n bytes over limit.
func TooLarge(n, limit int) *Error {
	return Errorf("too_large", "event of "+strconv.Itoa(n)+" bytes exceeds the limit of "+strconv.Itoa(limit))
}

// ParseObject parses one event's JSON text, nested at most maxDepth deep
// (0: DefaultMaxDepth). Text that is not JSON is a "bad_json" problem, JSON
// that is not an object a "bad_event" one.
func ParseObject(data []byte, maxDepth int) (*jsontree.Object, *Error) {
	return ParseObjectWith(nil, data, maxDepth)
}

// ParseObjectWith is ParseObject with p's memory (see jsontree.Parser); a
// nil p is ParseObject.
func ParseObjectWith(p *jsontree.Parser, data []byte, maxDepth int) (*jsontree.Object, *Error) {
	opt := jsontree.ParseOptions{MaxDepth: orDefault(maxDepth, DefaultMaxDepth)}
	var v jsontree.Value
	var err error
	if p != nil {
		v, err = p.Parse(data, opt)
	} else {
		v, err = jsontree.Parse(data, opt)
	}
	if err != nil {
		return nil, Errorf("bad_json", "event is not valid JSON: "+err.Error())
	}
	obj, ok := v.(*jsontree.Object)
	if !ok {
		return nil, Errorf("bad_event", "event is not a JSON object")
	}
	return obj, nil
}
