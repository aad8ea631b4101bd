package toolschema

import (
	"strconv"
	"unicode/utf8"

	"github.com/agui-reducer/agui/reducer/jsontree"
)

// Error is one way a value breaks its schema.
type Error struct {
	// Path is the JSON Pointer of the offending value, relative to the
	// arguments ("" is the arguments object itself).
	Path string
	// Keyword is the schema keyword that failed ("type", "enum",
	// "required", ...; "false" for a false schema).
	Keyword string
	// Message says what is wrong, for people.
	Message string
	_       [0]func() // not comparable (no equality function in the module)
}

// maxBranchDepth bounds the nesting of anyOf/oneOf/not/$ref applications
// to one value (a schema that refers to itself without descending); past
// it the value is not judged.
const maxBranchDepth = 64

// checker walks a value against schema nodes and collects errors.
type checker struct {
	partial bool   // the schema has unchecked keywords (Schema.partial)
	path    []byte // JSON Pointer of the value being checked
	errs    []Error
	max     int  // errors kept (more are counted in dropped)
	first   bool // stop at the first error (branch trials)
	found   bool // an error was found (first mode)
	depth   int
	// dropped counts errors past max.
	dropped int
}

//go:noinline
func (c *checker) fail(kw, msg string) {
	c.found = true
	if c.first {
		return
	}
	if c.max > 0 && len(c.errs) >= c.max {
		c.dropped++
		return
	}
	c.errs = append(c.errs, Error{Path: string(c.path), Keyword: kw, Message: msg})
}

func (c *checker) stop() bool { return c.first && c.found }

// Validate checks a complete value and returns its errors (nil if it is
// valid), at most max of them when max > 0.
func (s *Schema) Validate(v jsontree.Value, max int) []Error {
	c := &checker{max: max, partial: s.partial()}
	c.value(s.root, v)
	return c.errs
}

// Valid reports whether v is valid.
func (s *Schema) Valid(v jsontree.Value) bool {
	c := &checker{first: true, partial: s.partial()}
	c.value(s.root, v)
	return !c.found
}

// value checks v against n: n and everything its $ref and allOf bring.
//
//go:noinline
func (c *checker) value(n *node, v jsontree.Value) {
	for _, p := range n.flat {
		c.whole(p, v)
		if c.stop() {
			return
		}
	}
}

// whole checks v against one flattened node: its own keywords, its
// members' subschemas and its branches.
func (c *checker) whole(p *node, v jsontree.Value) {
	c.local(p, v)
	if c.stop() {
		return
	}
	c.members(p, v)
	if c.stop() {
		return
	}
	c.branches(p, v)
}

// local checks the keywords of p that judge v itself.
func (c *checker) local(p *node, v jsontree.Value) {
	if p.never {
		c.fail("false", "no value is allowed here")
		return
	}
	t := typeOf(v)
	if p.types != 0 && p.types&t == 0 {
		c.fail("type", "must be of type "+typeList(p.types))
	}
	if p.hasConst && !equal(v, p.cnst) {
		c.fail("const", "must be "+show(p.cnst))
	}
	if p.hasEnum {
		in := false
		for _, e := range p.enum {
			if equal(v, e) {
				in = true
				break
			}
		}
		if !in {
			c.fail("enum", "must be one of "+show(p.enum...))
		}
	}
	switch x := v.(type) {
	case jsontree.Number:
		c.number(p, parseDecimal(x))
	case string:
		if p.cnt[cntMinLength] >= 0 || p.cnt[cntMaxLength] >= 0 {
			c.count(p, cntMinLength, utf8.RuneCountInString(x), " characters")
		}
		if p.pat != nil {
			if ok, known := p.pat.match(x); known && !ok {
				c.fail("pattern", "must match the pattern "+p.patSrc)
			}
		}
	case *jsontree.Array:
		c.count(p, cntMinItems, len(x.Elems), " items")
		if p.unique {
			if i, j, dup := duplicate(x.Elems); dup {
				c.fail("uniqueItems", "items "+strconv.Itoa(i)+" and "+strconv.Itoa(j)+" are equal")
			}
		}
	case *jsontree.Object:
		for _, k := range p.required {
			if _, ok := x.Get(k); !ok {
				c.fail("required", "missing required property "+strconv.Quote(k))
			}
		}
	}
}

// count checks n against the bounds p.cnt[i] (a minimum) and p.cnt[i+1]
// (a maximum); what names the unit.
func (c *checker) count(p *node, i, n int, what string) {
	if lo := p.cnt[i]; lo >= 0 && n < lo {
		c.fail(countKeywords[i], "must have at least "+strconv.Itoa(lo)+what)
	}
	if hi := p.cnt[i+1]; hi >= 0 && n > hi {
		c.fail(countKeywords[i+1], "must have at most "+strconv.Itoa(hi)+what)
	}
}

// The messages of the numeric keywords (limitKeywords' order) and the
// comparisons with the bound that break them.
var limitMessages = [...]string{"must be at least ", "must be at most ", "must be greater than ", "must be less than "}
var limitBreaks = [...][2]int{{-1, -1}, {1, 1}, {-1, 0}, {1, 0}}

func (c *checker) number(p *node, d decimal) {
	for i, l := range p.lim[:limMultipleOf] {
		if l.set {
			if k := d.cmp(l.d); k == limitBreaks[i][0] || k == limitBreaks[i][1] {
				c.fail(limitKeywords[i], limitMessages[i]+string(l.src))
			}
		}
	}
	if m := &p.lim[limMultipleOf]; m.set {
		if yes, known := multipleOf(d, m.d); known && !yes {
			c.fail("multipleOf", "must be a multiple of "+string(m.src))
		}
	}
}

// members checks an object's members and an array's items against the
// subschemas p gives them.
func (c *checker) members(p *node, v jsontree.Value) {
	n := len(c.path)
	switch x := v.(type) {
	case *jsontree.Object:
		for i := 0; i < x.Len() && !c.stop(); i++ {
			k := x.KeyAt(i)
			c.path = jsontree.AppendPointerToken(append(c.path, '/'), k)
			c.member(p, k, x.ValueAt(i))
			c.path = c.path[:n]
		}
	case *jsontree.Array:
		for i, e := range x.Elems {
			if c.stop() {
				break
			}
			if kid := p.item(i); kid != nil {
				c.path = strconv.AppendInt(append(c.path, '/'), int64(i), 10)
				c.value(kid, e)
				c.path = c.path[:n]
			}
		}
	}
}

// member checks the member k (at c.path) against what p gives it.
func (c *checker) member(p *node, k string, v jsontree.Value) {
	var buf [4]*node
	kids, forbidden := p.memberNodes(buf[:0], k)
	if forbidden {
		c.fail("additionalProperties", "property "+strconv.Quote(k)+" is not allowed")
	}
	for _, kid := range kids {
		c.value(kid, v)
	}
}

// memberNodes appends to dst the subschemas p gives its member key:
// properties, patternProperties, else additionalProperties; forbidden
// when additionalProperties is false and nothing else takes the key.
func (p *node) memberNodes(dst []*node, key string) (_ []*node, forbidden bool) {
	matched := false
	if kid, ok := p.props[key]; ok {
		matched = true
		dst = append(dst, kid)
	}
	for _, pp := range p.patProps {
		ok, known := pp.pat.match(key)
		if ok && known {
			dst = append(dst, pp.n)
		}
		matched = matched || ok || !known // a key it cannot judge is not "additional"
	}
	if matched || p.addl == nil {
		return dst, false
	}
	if p.addl.never {
		return dst, true
	}
	return append(dst, p.addl), false
}

// item returns the subschema of array item i, or nil.
func (p *node) item(i int) *node {
	if i < len(p.prefix) {
		return p.prefix[i]
	}
	return p.items
}

// branches checks anyOf, oneOf and not.
func (c *checker) branches(p *node, v jsontree.Value) {
	if !p.branching {
		return
	}
	if c.depth >= maxBranchDepth {
		return // not judged
	}
	c.depth++
	if len(p.anyOf) > 0 {
		ok := false
		for _, b := range p.anyOf {
			if c.trial(b, v) {
				ok = true
				break
			}
		}
		if !ok {
			c.fail("anyOf", "must match at least one of "+strconv.Itoa(len(p.anyOf))+" schemas")
		}
	}
	if len(p.oneOf) > 0 {
		sure, maybe := -1, false
		for i, b := range p.oneOf {
			if !c.trial(b, v) {
				continue
			}
			if c.partial {
				maybe = true // matches, perhaps: neither "none" nor "two" is sure
				continue
			}
			if sure >= 0 {
				c.fail("oneOf", "must match exactly one schema, matches "+strconv.Itoa(sure)+" and "+strconv.Itoa(i))
				sure = -2
				break
			}
			sure = i
		}
		if sure == -1 && !maybe {
			c.fail("oneOf", "must match exactly one of "+strconv.Itoa(len(p.oneOf))+" schemas, matches none")
		}
	}
	if p.not != nil && !c.partial && c.trial(p.not, v) {
		c.fail("not", "must not match the schema in not")
	}
	c.depth--
}

// trial reports whether v is valid against n, reporting nothing.
//
//go:noinline
func (c *checker) trial(n *node, v jsontree.Value) bool {
	t := checker{first: true, depth: c.depth, partial: c.partial}
	t.value(n, v)
	return !t.found
}

func typeOf(v jsontree.Value) typeSet {
	switch x := v.(type) {
	case nil:
		return tNull
	case bool:
		return tBoolean
	case jsontree.Number:
		if parseDecimal(x).integer() {
			return tInteger | tNumber
		}
		return tNumber
	case string:
		return tString
	case *jsontree.Array:
		return tArray
	case *jsontree.Object:
		return tObject
	}
	return 0
}

func typeList(t typeSet) string {
	if t&tNumber != 0 {
		t &^= tInteger
	}
	s := ""
	for i, name := range typeNames {
		if t&(1<<i) != 0 {
			s += " or " + name
		}
	}
	return s[4:]
}

// show renders a schema value in a message: a string as its text, anything
// else as JSON.
func show(vs ...jsontree.Value) string {
	var b []byte
	for i, v := range vs {
		if i > 0 {
			b = append(b, ", "...)
		}
		if s, ok := v.(string); ok {
			b = append(b, s...)
		} else {
			b = jsontree.AppendJSON(b, v)
		}
		if len(b) > 120 {
			return string(b[:117]) + "..."
		}
	}
	return string(b)
}

// equal is JSON equality (1 equals 1.0).
func equal(a, b jsontree.Value) bool { return jsontree.Equal(a, b) }

// duplicate finds two equal items.
func duplicate(vs []jsontree.Value) (int, int, bool) {
	for i := range vs {
		for j := i + 1; j < len(vs); j++ {
			if equal(vs[i], vs[j]) {
				return i, j, true
			}
		}
	}
	return 0, 0, false
}
