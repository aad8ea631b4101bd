package jsonpatch

import "github.com/agui-reducer/agui/reducer/jsontree"

// Operation kinds, the values of Op.Kind.
const (
	KindAdd     = "add"
	KindRemove  = "remove"
	KindReplace = "replace"
	KindMove    = "move"
	KindCopy    = "copy"
	KindTest    = "test"
)

// An Op is one decoded patch operation.
type Op struct {
	Kind     string         // add, remove, replace, move, copy or test
	Path     string         // JSON Pointer of the target location
	From     string         // JSON Pointer of the source (move, copy)
	Value    jsontree.Value // operand of add, replace and test
	HasValue bool           // the operation had a "value" member (null counts)
	HasFrom  bool           // the operation had a string "from" member
}

// Decode turns a parsed patch document (an array of operation objects)
// into Ops, checking each operation as fast-json-patch's validator does:
// an object, a known "op", a string "path" that is empty or starts with
// "/", a string "from" for move and copy, a "value" for add, replace and
// test. The first violation is returned as an *Error whose Index is the
// operation's position.
//
// Decode checks every operation before any is applied, while
// fast-json-patch checks each one only when it reaches it; a patch that is
// malformed at operation j and would fail to apply at an earlier operation
// i is rejected either way, only the reported error differs.
//
// The Ops refer to values inside v without copying them; Apply copies what
// it inserts and never modifies an Op.
func Decode(v jsontree.Value) ([]Op, error) {
	arr, ok := v.(*jsontree.Array)
	if !ok || arr == nil {
		return nil, newError(CodeSequenceNotAnArray, -1)
	}
	ops := make([]Op, len(arr.Elems))
	for i, e := range arr.Elems {
		o, ok := e.(*jsontree.Object)
		if !ok || o == nil {
			return nil, newError(CodeNotAnObject, i)
		}
		op := &ops[i]
		kind, _ := o.Get("op")
		if op.Kind, ok = kind.(string); !ok {
			return nil, newError(CodeOpInvalid, i)
		}
		if !validKind(op.Kind) {
			return nil, newError(CodeOpInvalid, i)
		}
		path, _ := o.Get("path")
		if op.Path, ok = path.(string); !ok {
			return nil, newError(CodePathInvalid, i)
		}
		if from, ok := o.Get("from"); ok {
			op.From, op.HasFrom = from.(string)
		}
		op.Value, op.HasValue = o.Get("value")
		if err := validate(op, i); err != nil {
			return nil, err
		}
	}
	return ops, nil
}

func validKind(k string) bool {
	switch k {
	case KindAdd, KindRemove, KindReplace, KindMove, KindCopy, KindTest:
		return true
	}
	return false
}

// validate applies the document-independent checks of fast-json-patch's
// validator, in its order.
func validate(op *Op, index int) *Error {
	switch {
	case !validKind(op.Kind):
		return newError(CodeOpInvalid, index)
	case op.Path != "" && op.Path[0] != '/':
		return newError(CodePathInvalid, index)
	case (op.Kind == KindMove || op.Kind == KindCopy) && !op.HasFrom:
		return newError(CodeFromRequired, index)
	case (op.Kind == KindAdd || op.Kind == KindReplace || op.Kind == KindTest) && !op.HasValue:
		return newError(CodeValueRequired, index)
	}
	return nil
}
