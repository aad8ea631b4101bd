package toolschema

import (
	"strconv"
	"strings"

	"github.com/agui-reducer/agui/reducer/jsontree"
	"github.com/agui-reducer/agui/reducer/partialjson"
)

// Stream validates one document while it streams, from the edits of a
// partialjson.Parser created with Options.Ends (see the package
// documentation). The zero Stream is not usable; call [Schema.Stream].
type Stream struct {
	s     *Schema
	c     checker
	ents  []*node  // the subschemas of the open values, frame after frame
	stack []sframe // the open strings, arrays and objects, outermost first
}

// sframe is an open value.
type sframe struct {
	start    int    // its subschemas are ents[start:]...
	end      int    // ...up to end
	path     string // its JSON Pointer
	n        int    // array: items started so far
	isArray  bool
	isObject bool
	_        [0]func() // not comparable: no equality function in the module
}

// Stream returns a validator for one streamed value. max > 0 bounds the
// errors it keeps (Dropped counts the rest).
func (s *Schema) Stream(max int) *Stream {
	return &Stream{s: s, c: checker{max: max, partial: s.partial()}}
}

// Errors returns the errors found so far, in the order found. The slice
// grows as edits arrive; its elements never change.
func (st *Stream) Errors() []Error { return st.c.errs }

// Dropped returns how many errors were found past the limit.
func (st *Stream) Dropped() int { return st.c.dropped }

// Edit takes the parser's next edit and reports how many errors it added.
func (st *Stream) Edit(e partialjson.Edit) int {
	before := len(st.c.errs) + st.c.dropped
	switch e.Op {
	case partialjson.Add, partialjson.Replace:
		st.start(e)
	case partialjson.End:
		st.end(e.Value)
	}
	return len(st.c.errs) + st.c.dropped - before
}

// start handles a value that begins (a container or string) or arrives
// whole (a number or literal).
func (st *Stream) start(e partialjson.Edit) {
	from := len(st.ents)
	if len(st.stack) == 0 {
		st.ents = append(st.ents, st.s.root)
	} else {
		top := &st.stack[len(st.stack)-1]
		switch {
		case top.isObject:
			st.memberSchemas(top, e.Path)
		case top.isArray:
			st.itemSchemas(top)
		}
	}
	switch e.Value.(type) {
	case *jsontree.Object, *jsontree.Array, string:
		_, isObj := e.Value.(*jsontree.Object)
		_, isArr := e.Value.(*jsontree.Array)
		st.stack = append(st.stack, sframe{start: from, end: len(st.ents), path: e.Path, isObject: isObj, isArray: isArr})
	default:
		// A number or literal arrives complete.
		st.c.path = append(st.c.path[:0], e.Path...)
		for _, n := range st.ents[from:] {
			st.c.value(n, e.Value)
		}
		st.ents = st.ents[:from]
	}
}

// memberSchemas pushes the subschemas of the member whose value starts at
// path, and reports the member if additionalProperties forbids it.
func (st *Stream) memberSchemas(top *sframe, path string) {
	key := lastToken(path)
	for _, n := range st.ents[top.start:top.end] {
		for _, p := range n.flat {
			if p.branching {
				continue // judged whole at the end
			}
			var forbidden bool
			if st.ents, forbidden = p.memberNodes(st.ents, key); forbidden {
				st.c.path = append(st.c.path[:0], path...)
				st.c.fail("additionalProperties", "property "+strconv.Quote(key)+" is not allowed")
			}
		}
	}
}

// itemSchemas pushes the subschemas of the next item of the array top.
func (st *Stream) itemSchemas(top *sframe) {
	i := top.n
	top.n++
	for _, n := range st.ents[top.start:top.end] {
		for _, p := range n.flat {
			if kid := p.item(i); kid != nil && !p.branching {
				st.ents = append(st.ents, kid)
			}
		}
	}
}

// end judges the value of the innermost open frame, now complete.
func (st *Stream) end(v jsontree.Value) {
	if len(st.stack) == 0 {
		return
	}
	f := st.stack[len(st.stack)-1]
	st.stack = st.stack[:len(st.stack)-1]
	st.c.path = append(st.c.path[:0], f.path...)
	for _, n := range st.ents[f.start:f.end] {
		for _, p := range n.flat {
			if p.branching {
				st.c.whole(p, v)
			} else {
				// Its members were judged as they came.
				st.c.local(p, v)
			}
		}
	}
	st.ents = st.ents[:f.start]
}

// lastToken returns the unescaped last token of a JSON Pointer.
//
//go:noinline
func lastToken(path string) string {
	k := path[strings.LastIndexByte(path, '/')+1:]
	if strings.IndexByte(k, '~') >= 0 {
		k = unescapePointer(k)
	}
	return k
}

// OpenFree reports whether the innermost open value, just started, is one
// every value of its kind satisfies as far as its subschemas go: a string
// that only its type constrains (no enum, const, pattern, length, branch)
// is valid at every prefix, so a consumer may show it while it streams.
func (st *Stream) OpenFree() bool {
	if len(st.stack) == 0 {
		return false
	}
	f := st.stack[len(st.stack)-1]
	for _, n := range st.ents[f.start:f.end] {
		for _, p := range n.flat {
			if p.never || p.branching || p.hasEnum || p.hasConst || p.pat != nil ||
				p.cnt[cntMinLength] >= 0 || p.cnt[cntMaxLength] >= 0 || p.types != 0 && p.types&tString == 0 {
				return false
			}
		}
	}
	return true
}
