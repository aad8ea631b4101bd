package jsontree

// Size returns the budget size of v: about its compact JSON length, defined
// so that it adds up exactly. A scalar counts its text (a string its bytes
// plus two quotes, a Number its text, null 4, a boolean 5), a container 2
// plus, per member, the member's size plus 1 (an array element) or plus the
// key's length plus 4 (an object member). Anything that is not a Value
// counts as null. So the size of a container is 2 plus the sum of
// MemberSize over its members, whatever order they were added in, and a
// document's size can be kept incrementally: a caller adds the size of what
// it inserts and subtracts the size of what it removes.
//
// The walk is iterative; its cost is proportional to the nodes of v.
func Size(v Value) int64 {
	var n int64
	stack := []Value{v}
	for len(stack) > 0 {
		v = stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch x := v.(type) {
		case bool:
			n += 5
		case Number:
			n += int64(len(x))
		case string:
			n += int64(len(x)) + 2
		case *Array:
			if x == nil {
				n += 4
				continue
			}
			n += 2 + int64(len(x.Elems))
			stack = append(stack, x.Elems...)
		case *Object:
			if x == nil {
				n += 4
				continue
			}
			n += 2
			for _, k := range x.keys {
				n += int64(len(k)) + 4
			}
			stack = append(stack, x.vals...)
		default:
			n += 4
		}
	}
	return n
}

// MemberSize is what one member adds to its container's Size: the value's
// size plus 1 for an array element (key ""), plus len(key)+4 for an object
// member.
func MemberSize(key string, isObject bool, v Value) int64 {
	if isObject {
		return Size(v) + int64(len(key)) + 4
	}
	return Size(v) + 1
}
