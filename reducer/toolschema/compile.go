package toolschema

import (
	"errors"
	"slices"
	"strings"

	"github.com/agui-reducer/agui/reducer/jsontree"
)

// typeSet is a set of JSON types; integer is its own bit so that "integer"
// and "number" can be told apart.
type typeSet uint8

const (
	tNull typeSet = 1 << iota
	tBoolean
	tInteger
	tNumber
	tString
	tArray
	tObject
)

var typeNames = [...]string{"null", "boolean", "integer", "number", "string", "array", "object"}

// limit is an optional numeric bound.
type limit struct {
	set bool
	d   decimal
	src jsontree.Number
	_   [0]func() // not comparable: no equality function in the module
}

// The numeric keywords, in the order of node.lim.
var limitKeywords = [...]string{"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"}

const limMultipleOf = 4

// The counting keywords, in the order of node.cnt: a string's length in
// code points, an array's items.
var countKeywords = [...]string{"minLength", "maxLength", "minItems", "maxItems"}

const (
	cntMinLength = iota
	cntMaxLength
	cntMinItems
	cntMaxItems
)

// patternProp is one patternProperties entry.
type patternProp struct {
	pat *pattern
	n   *node
}

// node is one compiled schema object (or boolean schema).
type node struct {
	never bool // the schema false

	types    typeSet // 0: any type
	hasEnum  bool
	enum     []jsontree.Value
	hasConst bool
	cnst     jsontree.Value

	lim [len(limitKeywords)]limit
	cnt [len(countKeywords)]int // -1: none

	pat    *pattern
	patSrc string
	unique bool
	prefix []*node
	items  *node

	required   []string
	props      map[string]*node
	patProps   []patternProp
	patUnknown bool // a patternProperties pattern outside the subset: additionalProperties is not judged
	addl       *node

	allOf, anyOf, oneOf []*node
	not                 *node
	ref                 *node

	branching bool    // anyOf, oneOf or not: judged on the complete value
	flat      []*node // this node, then what $ref and allOf add, expanded (flatten)
}

// ErrNotSchema is Compile's error for a value that is neither an object
// nor a boolean.
var ErrNotSchema = errors.New("toolschema: a schema must be an object or a boolean")

// Schema is a compiled tool parameters schema.
type Schema struct {
	root      *node
	unchecked []string
}

// partial reports whether a keyword is not checked somewhere: a value that
// matches a subschema may then not really match it, so not and oneOf's
// "more than one" do not count on matches.
func (s *Schema) partial() bool { return len(s.unchecked) > 0 }

// Unchecked returns the keywords the schema uses that are not checked
// (each once, in the order the schema first uses them): a value is never
// found invalid because of them.
func (s *Schema) Unchecked() []string { return s.unchecked }

// notChecked lists the assertion and applicator keywords of draft 2020-12
// this package does not implement. Any other unknown keyword is an
// annotation, as the specification says, and is ignored silently.
const notChecked = " minProperties maxProperties contains minContains maxContains propertyNames dependentRequired dependentSchemas dependencies" +
	" if then else unevaluatedItems unevaluatedProperties $dynamicRef $recursiveRef additionalItems contentSchema "

type compiler struct {
	root      jsontree.Value
	refs      map[string]*node
	unchecked []string
	depth     int
	all       []*node
}

// Compile compiles a tool's parameters schema: an object or a boolean. A
// schema of another type is an error; a keyword it uses that is not
// implemented, or a $ref that is not a local JSON Pointer, is listed by
// Unchecked and otherwise ignored.
func Compile(schema jsontree.Value) (*Schema, error) {
	switch schema.(type) {
	case *jsontree.Object, bool:
	default:
		return nil, ErrNotSchema
	}
	c := &compiler{root: schema, refs: map[string]*node{}}
	s := &Schema{root: c.node(schema)}
	for _, n := range c.all {
		n.flatList() // now: a compiled Schema is only read
	}
	s.unchecked = c.unchecked
	return s, nil
}

// skip records that keyword kw is not checked.
//
// (Small functions called from many places are kept out of line here and
// in the checker: inlined, they cost the WebAssembly module kilobytes.)
//
//go:noinline
func (c *compiler) skip(_ *node, kw string) {
	if indexOf(c.unchecked, kw) < 0 {
		c.unchecked = append(c.unchecked, kw)
	}
}

//go:noinline
func (c *compiler) newNode() *node {
	n := &node{}
	for i := range n.cnt {
		n.cnt[i] = -1
	}
	c.all = append(c.all, n)
	return n
}

func (c *compiler) node(v jsontree.Value) *node {
	n := c.newNode()
	switch s := v.(type) {
	case bool:
		n.never = !s
		return n
	case *jsontree.Object:
		if c.depth > 200 {
			c.skip(n, "(nesting)")
			return n
		}
		c.depth++
		c.object(n, s)
		c.depth--
	}
	return n
}

// The keywords object handles by index (a loop of comparisons is much
// smaller in the WebAssembly module than a switch on strings), then
// limitKeywords and countKeywords.
var keywords = [...]string{"type", "nullable", "enum", "const", "pattern", "uniqueItems", "required",
	"properties", "patternProperties", "additionalProperties", "items", "prefixItems", "allOf", "anyOf",
	"oneOf", "not", "$ref"}

func (c *compiler) object(n *node, s *jsontree.Object) {
	nullable := false
	for i := 0; i < s.Len(); i++ {
		k, v := s.KeyAt(i), s.ValueAt(i)
		arr, _ := v.(*jsontree.Array)
		obj, _ := v.(*jsontree.Object)
		kw := indexOf(keywords[:], k)
		switch kw {
		case 0:
			n.types = c.types(n, v)
		case 1:
			nullable = v == true
		case 2:
			if arr == nil {
				c.skip(n, k)
				break
			}
			n.hasEnum, n.enum = true, arr.Elems
		case 3:
			n.hasConst, n.cnst = true, v
		case 4:
			src, _ := v.(string)
			if n.pat = compilePattern(src); n.pat == nil {
				c.skip(n, k)
			}
			n.patSrc = src
		case 5:
			n.unique = v == true
		case 6:
			if arr == nil {
				c.skip(n, k)
				break
			}
			for _, e := range arr.Elems {
				if s, ok := e.(string); ok {
					n.required = append(n.required, s)
				}
			}
		case 7, 8:
			if obj == nil {
				c.skip(n, k)
				break
			}
			if kw == 7 {
				n.props = make(map[string]*node, obj.Len())
			}
			for j := 0; j < obj.Len(); j++ {
				kid := c.node(obj.ValueAt(j))
				if kw == 7 {
					n.props[obj.KeyAt(j)] = kid
				} else if p := compilePattern(obj.KeyAt(j)); p != nil {
					n.patProps = append(n.patProps, patternProp{pat: p, n: kid})
				} else {
					c.skip(n, k)
					n.patUnknown = true
				}
			}
		case 9:
			n.addl = c.node(v)
		case 10:
			if arr != nil {
				c.skip(n, k) // the tuple form of earlier drafts
				break
			}
			n.items = c.node(v)
		case 11, 12, 13, 14:
			if arr == nil {
				c.skip(n, k)
				break
			}
			list := make([]*node, 0, len(arr.Elems))
			for _, e := range arr.Elems {
				list = append(list, c.node(e))
			}
			*[...]*[]*node{&n.prefix, &n.allOf, &n.anyOf, &n.oneOf}[kw-11] = list
		case 15:
			n.not = c.node(v)
		case 16:
			ref, _ := v.(string)
			n.ref = c.ref(ref)
		default:
			if i := indexOf(limitKeywords[:], k); i >= 0 {
				num, ok := v.(jsontree.Number)
				d := parseDecimal(num)
				if !ok || i == limMultipleOf && d.sign() <= 0 {
					c.skip(n, k)
					break
				}
				n.lim[i] = limit{set: true, d: d, src: num}
			} else if i := indexOf(countKeywords[:], k); i >= 0 {
				n.cnt[i] = c.count(n, v, k)
			} else if strings.Contains(notChecked, " "+k+" ") {
				c.skip(n, k)
			}
		}
	}
	if nullable && n.types != 0 {
		n.types |= tNull
	}
	n.branching = len(n.anyOf) > 0 || len(n.oneOf) > 0 || n.not != nil
	if n.patUnknown {
		n.addl = nil
	}
}

//go:noinline
func indexOf(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}

func (c *compiler) types(n *node, v jsontree.Value) typeSet {
	var names []jsontree.Value
	switch t := v.(type) {
	case string:
		names = []jsontree.Value{t}
	case *jsontree.Array:
		names = t.Elems
	}
	var set typeSet
	for _, e := range names {
		s, _ := e.(string)
		found := false
		for i, name := range typeNames {
			if s == name {
				set |= 1 << i
				found = true
			}
		}
		if !found {
			c.skip(n, "type")
			return 0
		}
	}
	if len(names) == 0 {
		c.skip(n, "type")
		return 0
	}
	if set&tNumber != 0 {
		set |= tInteger
	}
	return set
}

// count reads a non-negative integer keyword; -1 when absent or bad.
func (c *compiler) count(n *node, v jsontree.Value, kw string) int {
	num, ok := v.(jsontree.Number)
	if ok {
		if n, ok := parseDecimal(num).smallInt(); ok {
			return n
		}
	}
	c.skip(n, kw)
	return -1
}

// ref resolves a local reference ("#", "#/$defs/x", "#/definitions/x",
// any "#/..." JSON Pointer into the root schema). Anything else is not
// checked: the reference then allows every value.
func (c *compiler) ref(ref string) *node {
	if n, ok := c.refs[ref]; ok {
		return n
	}
	target, ok := c.resolve(ref)
	if !ok {
		c.skip(nil, "$ref")
		return nil
	}
	n := c.newNode()
	c.refs[ref] = n // before compiling: recursive schemas refer to themselves
	*n = *c.node(target)
	return n
}

func (c *compiler) resolve(ref string) (jsontree.Value, bool) {
	if ref == "#" {
		return c.root, true
	}
	if !strings.HasPrefix(ref, "#/") || strings.Contains(ref, "%") {
		return nil, false // (percent-encoded pointers are not resolved)
	}
	cur := c.root
	for rest := ref[1:]; rest != ""; {
		rest = rest[1:]
		tok := rest
		if j := strings.IndexByte(rest, '/'); j >= 0 {
			tok, rest = rest[:j], rest[j:]
		} else {
			rest = ""
		}
		o, _ := cur.(*jsontree.Object)
		if o == nil {
			return nil, false // (pointers into arrays are not resolved)
		}
		next, ok := o.Get(unescapePointer(tok))
		if !ok {
			return nil, false
		}
		cur = next
	}
	switch cur.(type) {
	case *jsontree.Object, bool:
		return cur, true
	}
	return nil, false
}

//go:noinline
func unescapePointer(s string) string {
	if !strings.Contains(s, "~") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
}

// flatList computes n.flat: the nodes that apply to a value n applies
// to: n, then what its $ref and allOf bring, in order, each once.
func (n *node) flatList() []*node {
	if n.flat != nil {
		return n.flat
	}
	// Depth first, in order, with an explicit stack (refs may cycle).
	var out []*node
	stack := []*node{n}
	for len(stack) > 0 {
		m := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if slices.Contains(out, m) {
			continue
		}
		out = append(out, m)
		for i := len(m.allOf) - 1; i >= 0; i-- {
			stack = append(stack, m.allOf[i])
		}
		if m.ref != nil {
			stack = append(stack, m.ref)
		}
	}
	n.flat = out
	return out
}
