package jsonpatch

import "strconv"

// Codes reported in Error.Code. Apart from CodePathBanned they are the
// names fast-json-patch gives its JsonPatchError.
const (
	CodeSequenceNotAnArray    = "SEQUENCE_NOT_AN_ARRAY"
	CodeNotAnObject           = "OPERATION_NOT_AN_OBJECT"
	CodeOpInvalid             = "OPERATION_OP_INVALID"
	CodePathInvalid           = "OPERATION_PATH_INVALID"
	CodeFromRequired          = "OPERATION_FROM_REQUIRED"
	CodeValueRequired         = "OPERATION_VALUE_REQUIRED"
	CodePathCannotAdd         = "OPERATION_PATH_CANNOT_ADD"
	CodePathUnresolvable      = "OPERATION_PATH_UNRESOLVABLE"
	CodeFromUnresolvable      = "OPERATION_FROM_UNRESOLVABLE"
	CodePathIllegalArrayIndex = "OPERATION_PATH_ILLEGAL_ARRAY_INDEX"
	CodeValueOutOfBounds      = "OPERATION_VALUE_OUT_OF_BOUNDS"
	CodeTestFailed            = "TEST_OPERATION_FAILED"

	// CodePathBanned reports a path through __proto__ or
	// constructor/prototype; fast-json-patch throws a TypeError there.
	CodePathBanned = "OPERATION_PATH_BANNED"

	// CodeTooLarge reports an operation that would grow the document past
	// Bounds.MaxSize; CodeRootNotObject a patch whose result is not an
	// object under Bounds.ObjectRoot.
	CodeTooLarge      = "TOO_LARGE"
	CodeRootNotObject = "ROOT_NOT_OBJECT"
)

// An Error reports why a patch was rejected.
type Error struct {
	Code  string // one of the Code constants
	Index int    // index of the failing operation; -1 for the patch as a whole
	Msg   string // human-readable description
}

func (e *Error) Error() string {
	if e.Index < 0 {
		return "jsonpatch: " + e.Msg + " (" + e.Code + ")"
	}
	return "jsonpatch: operation " + strconv.Itoa(e.Index) + ": " + e.Msg + " (" + e.Code + ")"
}

// message returns the description of code, worded after fast-json-patch.
func message(code string) string {
	switch code {
	case CodeSequenceNotAnArray:
		return "patch sequence must be an array"
	case CodeNotAnObject:
		return "operation is not an object"
	case CodeOpInvalid:
		return "operation `op` property is not one of operations defined in RFC-6902"
	case CodePathInvalid:
		return "operation `path` property must be a string that is empty or starts with \"/\""
	case CodeFromRequired:
		return "operation `from` property is not present (applicable in `move` and `copy` operations)"
	case CodeValueRequired:
		return "operation `value` property is not present (applicable in `add`, `replace` and `test` operations)"
	case CodePathCannotAdd:
		return "cannot perform an `add` operation at the desired path"
	case CodePathUnresolvable:
		return "cannot perform the operation at a path that does not exist"
	case CodeFromUnresolvable:
		return "cannot move or copy from a path that does not exist"
	case CodePathIllegalArrayIndex:
		return "expected an unsigned base-10 integer value, making the new referenced value the array element with the zero-based index"
	case CodeValueOutOfBounds:
		return "the specified index MUST NOT be greater than the number of elements in the array"
	case CodeTestFailed:
		return "test operation failed"
	case CodePathBanned:
		return "modifying `__proto__` or `constructor/prototype` is banned"
	case CodeTooLarge:
		return "the document would exceed its size limit"
	case CodeRootNotObject:
		return "the patched document must remain an object"
	}
	return code
}

func newError(code string, index int) *Error {
	return &Error{Code: code, Index: index, Msg: message(code)}
}
