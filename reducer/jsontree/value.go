package jsontree

// Value is a parsed JSON value. Its dynamic type is one of:
//
//	nil       JSON null
//	bool      true / false
//	Number    a number, kept as its JSON text
//	string    a string (valid UTF-8)
//	*Array    an array
//	*Object   an object with insertion-ordered keys
//
// Containers are pointers so that a patch can change them in place; callers
// that hand a Value to someone else and keep mutating must Clone it first.
type Value = any

// Number is a JSON number kept as its exact source text, so that huge or
// very precise numbers round-trip byte for byte.
type Number string

// Array is a JSON array.
type Array struct {
	Elems []Value
}

// NewArray returns an array holding elems (not copied).
func NewArray(elems ...Value) *Array { return &Array{Elems: elems} }

// Len returns the number of elements.
func (a *Array) Len() int { return len(a.Elems) }
