package jsontree

import (
	"maps"
	"slices"
)

// Clone returns a deep copy of v: every *Array and *Object is new, while
// strings and Numbers, which are immutable, are shared. The copy is made
// iteratively, so arbitrarily deep trees are safe.
func Clone(v Value) Value {
	root, ok := cloneShallow(v)
	if !ok {
		return v
	}
	// Every container on the stack is already a fresh copy whose members
	// still point into the original; replace those that are containers.
	stack := []Value{root}
	for len(stack) > 0 {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		var members []Value
		switch x := c.(type) {
		case *Array:
			members = x.Elems
		case *Object:
			members = x.vals
		}
		for i, m := range members {
			if n, ok := cloneShallow(m); ok {
				members[i] = n
				stack = append(stack, n)
			}
		}
	}
	return root
}

// cloneShallow copies a non-nil container one level deep.
func cloneShallow(v Value) (Value, bool) {
	switch x := v.(type) {
	case *Array:
		if x == nil {
			return nil, false
		}
		return &Array{Elems: slices.Clone(x.Elems)}, true
	case *Object:
		if x == nil {
			return nil, false
		}
		return &Object{keys: slices.Clone(x.keys), vals: slices.Clone(x.vals), index: maps.Clone(x.index)}, true
	}
	return nil, false
}
