package jsontree

import (
	"strconv"
)

// Equal reports whether a and b are the same JSON value, the way
// JavaScript compares two JSON.parse results structurally: object key order
// is ignored, and numbers are equal when they denote the same float64
// (so 1, 1.0 and 1e0 are equal, and so are 1e400 and 2e400, both Infinity).
// A nil *Array or *Object equals null.
//
// The comparison is iterative, so arbitrarily deep trees are safe.
func Equal(a, b Value) bool {
	type pair struct{ a, b Value }
	var stack []pair
	for {
		switch x := normalize(a).(type) {
		case *Array:
			y, ok := normalize(b).(*Array)
			if !ok || len(x.Elems) != len(y.Elems) {
				return false
			}
			for i, e := range x.Elems {
				if eq, scalar := scalarEqual(e, y.Elems[i]); scalar {
					if !eq {
						return false
					}
					continue
				}
				stack = append(stack, pair{e, y.Elems[i]})
			}
		case *Object:
			y, ok := normalize(b).(*Object)
			if !ok || len(x.keys) != len(y.keys) {
				return false
			}
			// Keys are unique and the counts match, so finding every key
			// of x in y proves the key sets equal.
			for i, k := range x.keys {
				j := y.Find(k)
				if j < 0 {
					return false
				}
				if eq, scalar := scalarEqual(x.vals[i], y.vals[j]); scalar {
					if !eq {
						return false
					}
					continue
				}
				stack = append(stack, pair{x.vals[i], y.vals[j]})
			}
		default:
			if eq, _ := scalarEqual(a, b); !eq {
				return false
			}
		}
		if len(stack) == 0 {
			return true
		}
		a, b = stack[len(stack)-1].a, stack[len(stack)-1].b
		stack = stack[:len(stack)-1]
	}
}

// normalize maps nil containers to nil.
func normalize(v Value) Value {
	switch x := v.(type) {
	case *Array:
		if x == nil {
			return nil
		}
	case *Object:
		if x == nil {
			return nil
		}
	}
	return v
}

// scalarEqual compares a and b if at least one of them is a scalar (and
// so the answer needs no descent). scalar is false when both are non-nil
// containers.
func scalarEqual(a, b Value) (eq, scalar bool) {
	a, b = normalize(a), normalize(b)
	switch x := a.(type) {
	case *Array, *Object:
		switch b.(type) {
		case *Array, *Object:
			return false, false
		}
		return false, true
	case nil:
		return b == nil, true
	case bool:
		y, ok := b.(bool)
		return ok && x == y, true
	case string:
		y, ok := b.(string)
		return ok && x == y, true
	case Number:
		y, ok := b.(Number)
		return ok && numberEqual(x, y), true
	}
	return false, true
}

// numberEqual compares two number texts by float64 value, as === does
// after JSON.parse.
func numberEqual(x, y Number) bool {
	if x == y {
		return true
	}
	fx, okx := parseFloat(x)
	fy, oky := parseFloat(y)
	return okx && oky && fx == fy
}

func parseFloat(n Number) (float64, bool) {
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil {
		// Out of range still yields ±Inf or 0, which is what JS uses.
		// ParseFloat's errors are always a *NumError: a type assertion
		// says as much as errors.As, which would bring reflection
		// (internal/reflectlite) into the wasm module.
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return f, true
		}
		return 0, false
	}
	return f, true
}
