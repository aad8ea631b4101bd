package reducer

import (
	"strconv"

	"github.com/agui-reducer/agui/reducer/jsontree"
)

// checkEvent vets an Event a Go caller built (ApplyEvent): DecodeEvent
// guarantees the shapes the handlers rely on, a hand-made value does not.
// It refuses what DecodeEvent would have refused for the fields the
// reducer reads, and any value tree that is not a plain JSON tree (a type
// jsontree does not know, an invalid Number, a node shared between two
// places, a cycle, nesting past MaxDepth). Sharing matters because patches
// change values in place: a shared node would change in two places while
// the change record names one.
func (r *Reducer) checkEvent(ev *Event) *Error {
	bad := func(msg string) *Error { return errorf("bad_event", string(ev.Type)+": "+msg) }
	if ev.HasTimestamp && !validTimestamp(ev.Timestamp) {
		return bad("timestamp must be an integer within ±(2^53-1)")
	}
	switch ev.Type {
	case ToolCallResult:
		if _, ok := ev.Content.(string); !ok {
			return bad("content must be a string")
		}
	case ActivitySnapshot:
		if o, ok := ev.Content.(*jsontree.Object); !ok || o == nil {
			return bad("content must be an object")
		}
	case MessagesSnapshot:
		if ev.Messages == nil {
			return bad("messages is required")
		}
	case StateDelta:
		if a, ok := ev.Patch.(*jsontree.Array); !ok || a == nil {
			return bad("delta must be an array")
		}
	case ActivityDelta:
		if a, ok := ev.Patch.(*jsontree.Array); ev.Patch != nil && (!ok || a == nil) {
			return bad("patch must be an array")
		}
	}
	seen := make(map[any]bool)
	for _, v := range [...]jsontree.Value{ev.RawEvent, ev.Metadata, ev.Content, ev.Patch, ev.Messages, ev.Snapshot, ev.Input, ev.Result, ev.Outcome, ev.Usage, ev.Value, ev.RawBody} {
		if err := r.checkTree(v, seen); err != "" {
			return bad(err)
		}
	}
	return nil
}

// checkTree walks v iteratively; seen holds the containers met so far.
func (r *Reducer) checkTree(v jsontree.Value, seen map[any]bool) string {
	type item struct {
		v     jsontree.Value
		depth int
	}
	stack := []item{{v, 0}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if it.depth > r.opt.MaxDepth {
			return "value nested deeper than " + strconv.Itoa(r.opt.MaxDepth)
		}
		switch x := it.v.(type) {
		case nil, bool, string:
		case jsontree.Number:
			if !validNumber(string(x)) {
				return "invalid number '" + string(x) + "'"
			}
		case *jsontree.Array:
			if x == nil {
				if it.depth > 0 {
					return "a nil *Array inside a value"
				}
				continue
			}
			if seen[x] {
				return "a value appears twice in the event"
			}
			seen[x] = true
			for _, e := range x.Elems {
				stack = append(stack, item{e, it.depth + 1})
			}
		case *jsontree.Object:
			if x == nil {
				if it.depth > 0 {
					return "a nil *Object inside a value"
				}
				continue
			}
			if seen[x] {
				return "a value appears twice in the event"
			}
			seen[x] = true
			for i := 0; i < x.Len(); i++ {
				stack = append(stack, item{x.ValueAt(i), it.depth + 1})
			}
		default:
			return "a value is not JSON"
		}
	}
	return ""
}

// plainNil turns a nil *Array or *Object held in a Value into nil, which
// is what the handlers take for an absent value.
func plainNil(v jsontree.Value) jsontree.Value {
	switch x := v.(type) {
	case *jsontree.Array:
		if x == nil {
			return nil
		}
	case *jsontree.Object:
		if x == nil {
			return nil
		}
	}
	return v
}

// validNumber reports whether s is a JSON number.
func validNumber(s string) bool {
	v, err := jsontree.Parse([]byte(s), jsontree.ParseOptions{MaxDepth: 1})
	_, ok := v.(jsontree.Number)
	return err == nil && ok
}
