package toolschema

import (
	"sort"
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
}

// patternProp is one patternProperties entry.
type patternProp struct {
	pat *pattern
	n   *node
}

// node is one compiled schema object (or boolean schema).
type node struct {
	never bool // the schema false (or a "not": {} of it)

	types    typeSet // 0: any type
	hasEnum  bool
	enum     []jsontree.Value
	hasConst bool
	cnst     jsontree.Value

	min, max, exMin, exMax, mult limit

	minLen, maxLen int // -1: none
	pat            *pattern
	patSrc         string

	minItems, maxItems int // -1: none
	unique             bool
	prefix             []*node
	items              *node

	minProps, maxProps int // -1: none
	required           []string
	props              map[string]*node
	patProps           []patternProp
	patUnknown         bool // a patternProperties pattern outside the subset: additionalProperties is not judged
	addl               *node

	allOf, anyOf, oneOf []*node
	not                 *node
	ref                 *node

	partial   bool    // a keyword of this node is not checked
	uncertain bool    // partial, or a subschema is: a match may be a false one
	branching bool    // anyOf, oneOf or not: judged on the complete value
	flat      []*node // this node, then what $ref and allOf add, expanded
}

// Schema is a compiled tool parameters schema.
type Schema struct {
	root      *node
	unchecked []string
}

// Unchecked returns the keywords the schema uses that are not checked
// (sorted, each once): a value is never found invalid because of them.
func (s *Schema) Unchecked() []string { return s.unchecked }

// notChecked lists the assertion and applicator keywords of draft 2020-12
// this package does not implement. Any other unknown keyword is an
// annotation, as the specification says, and is ignored silently.
var notChecked = map[string]bool{
	"contains": true, "minContains": true, "maxContains": true, "propertyNames": true,
	"dependentRequired": true, "dependentSchemas": true, "dependencies": true,
	"if": true, "then": true, "else": true, "unevaluatedItems": true, "unevaluatedProperties": true,
	"$dynamicRef": true, "$recursiveRef": true, "additionalItems": true, "contentSchema": true,
}

type compiler struct {
	root      jsontree.Value
	refs      map[string]*node
	unchecked map[string]bool
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
		return nil, &Error{Keyword: "schema", Message: "a schema must be an object or a boolean"}
	}
	c := &compiler{root: schema, refs: map[string]*node{}, unchecked: map[string]bool{}}
	root := c.node(schema)
	flatten(root)
	for _, n := range c.refs {
		flatten(n)
	}
	uncertainty(c.all)
	s := &Schema{root: root}
	for k := range c.unchecked {
		s.unchecked = append(s.unchecked, k)
	}
	sort.Strings(s.unchecked)
	return s, nil
}

// skip records that n does not check keyword kw.
func (c *compiler) skip(n *node, kw string) {
	c.unchecked[kw] = true
	n.partial = true
}

func (c *compiler) newNode() *node {
	n := &node{minLen: -1, maxLen: -1, minItems: -1, maxItems: -1, minProps: -1, maxProps: -1}
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
		defer func() { c.depth-- }()
		c.object(n, s)
	}
	return n
}

func (c *compiler) list(n *node, v jsontree.Value, kw string) []*node {
	a, _ := v.(*jsontree.Array)
	if a == nil {
		c.skip(n, kw)
		return nil
	}
	out := make([]*node, 0, len(a.Elems))
	for _, e := range a.Elems {
		out = append(out, c.node(e))
	}
	return out
}

func (c *compiler) object(n *node, s *jsontree.Object) {
	nullable := false
	for i := 0; i < s.Len(); i++ {
		k, v := s.KeyAt(i), s.ValueAt(i)
		switch k {
		case "type":
			n.types = c.types(n, v)
		case "nullable":
			nullable = v == true
		case "enum":
			if a, ok := v.(*jsontree.Array); ok {
				n.hasEnum, n.enum = true, a.Elems
			} else {
				c.skip(n, k)
			}
		case "const":
			n.hasConst, n.cnst = true, v
		case "minimum":
			n.min = c.limit(n, v, k)
		case "maximum":
			n.max = c.limit(n, v, k)
		case "exclusiveMinimum":
			n.exMin = c.limit(n, v, k)
		case "exclusiveMaximum":
			n.exMax = c.limit(n, v, k)
		case "multipleOf":
			n.mult = c.limit(n, v, k)
			if n.mult.set && n.mult.d.sign() <= 0 {
				n.mult.set = false
				c.skip(n, k)
			}
		case "minLength":
			n.minLen = c.count(n, v, k)
		case "maxLength":
			n.maxLen = c.count(n, v, k)
		case "pattern":
			src, _ := v.(string)
			if p, ok := compilePattern(src); ok {
				n.pat, n.patSrc = p, src
			} else {
				c.skip(n, k)
			}
		case "minItems":
			n.minItems = c.count(n, v, k)
		case "maxItems":
			n.maxItems = c.count(n, v, k)
		case "uniqueItems":
			n.unique = v == true
		case "minProperties":
			n.minProps = c.count(n, v, k)
		case "maxProperties":
			n.maxProps = c.count(n, v, k)
		case "required":
			a, _ := v.(*jsontree.Array)
			if a == nil {
				c.skip(n, k)
				break
			}
			for _, e := range a.Elems {
				if s, ok := e.(string); ok {
					n.required = append(n.required, s)
				}
			}
		case "properties":
			o, _ := v.(*jsontree.Object)
			if o == nil {
				c.skip(n, k)
				break
			}
			n.props = make(map[string]*node, o.Len())
			for j := 0; j < o.Len(); j++ {
				n.props[o.KeyAt(j)] = c.node(o.ValueAt(j))
			}
		case "patternProperties":
			o, _ := v.(*jsontree.Object)
			if o == nil {
				c.skip(n, k)
				break
			}
			for j := 0; j < o.Len(); j++ {
				p, ok := compilePattern(o.KeyAt(j))
				if !ok {
					c.skip(n, k)
					n.patUnknown = true
					continue
				}
				n.patProps = append(n.patProps, patternProp{pat: p, n: c.node(o.ValueAt(j))})
			}
		case "additionalProperties":
			n.addl = c.node(v)
		case "items":
			if _, ok := v.(*jsontree.Array); ok {
				c.skip(n, "items") // the tuple form of earlier drafts
				break
			}
			n.items = c.node(v)
		case "prefixItems":
			n.prefix = c.list(n, v, k)
		case "allOf":
			n.allOf = c.list(n, v, k)
		case "anyOf":
			n.anyOf = c.list(n, v, k)
		case "oneOf":
			n.oneOf = c.list(n, v, k)
		case "not":
			n.not = c.node(v)
		case "$ref":
			ref, _ := v.(string)
			n.ref = c.ref(ref)
			if n.ref == nil {
				n.partial = true
			}
		default:
			if notChecked[k] {
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

func (c *compiler) limit(n *node, v jsontree.Value, kw string) limit {
	num, ok := v.(jsontree.Number)
	if !ok {
		c.skip(n, kw)
		return limit{}
	}
	return limit{set: true, d: parseDecimal(num), src: num}
}

// count reads a non-negative integer keyword; -1 when absent or bad.
func (c *compiler) count(n *node, v jsontree.Value, kw string) int {
	num, ok := v.(jsontree.Number)
	if ok {
		d := parseDecimal(num)
		if d.integer() && !d.neg && d.point <= 9 {
			m, e, _ := d.mantissa()
			for ; e > 0; e-- {
				m *= 10
			}
			return int(m)
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
		c.unchecked["$ref"] = true
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
	if !strings.HasPrefix(ref, "#/") {
		return nil, false
	}
	cur := c.root
	for _, tok := range strings.Split(ref[2:], "/") {
		tok = unescapePointer(percentDecode(tok))
		switch v := cur.(type) {
		case *jsontree.Object:
			next, ok := v.Get(tok)
			if !ok {
				return nil, false
			}
			cur = next
		case *jsontree.Array:
			i := 0
			for _, ch := range []byte(tok) {
				if ch < '0' || ch > '9' || i > 1e6 {
					return nil, false
				}
				i = i*10 + int(ch-'0')
			}
			if tok == "" || i >= len(v.Elems) {
				return nil, false
			}
			cur = v.Elems[i]
		default:
			return nil, false
		}
	}
	switch cur.(type) {
	case *jsontree.Object, bool:
		return cur, true
	}
	return nil, false
}

func unescapePointer(s string) string {
	if !strings.Contains(s, "~") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
}

func percentDecode(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	var b []byte
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) && hexVal(s[i+1]) >= 0 && hexVal(s[i+2]) >= 0 {
			b = append(b, byte(hexVal(s[i+1])<<4|hexVal(s[i+2])))
			i += 2
			continue
		}
		b = append(b, s[i])
	}
	return string(b)
}

// flatten computes n.flat: n, then the nodes its $ref and allOf bring, in
// order, each once. The nodes in flat all apply to the same value.
func flatten(n *node) {
	if n == nil || n.flat != nil {
		return
	}
	seen := map[*node]bool{}
	var out []*node
	var walk func(m *node)
	walk = func(m *node) {
		if m == nil || seen[m] {
			return
		}
		seen[m] = true
		out = append(out, m)
		walk(m.ref)
		for _, a := range m.allOf {
			walk(a)
		}
	}
	walk(n)
	n.flat = out
	for _, m := range out {
		for _, kid := range m.kids() {
			flatten(kid)
		}
	}
}

// kids returns the subschemas of n that apply to other values or branches.
func (n *node) kids() []*node {
	var out []*node
	for _, p := range n.props {
		out = append(out, p)
	}
	for _, p := range n.patProps {
		out = append(out, p.n)
	}
	out = append(out, n.addl, n.items, n.not, n.ref)
	out = append(out, n.prefix...)
	out = append(out, n.allOf...)
	out = append(out, n.anyOf...)
	out = append(out, n.oneOf...)
	return out
}

// uncertainty marks the nodes under which a keyword is not checked: a
// value that matches them may not really match, so "not" and oneOf's
// "more than one" do not count on such a match.
func uncertainty(all []*node) {
	for _, n := range all {
		n.uncertain = n.partial
	}
	for changed := true; changed; {
		changed = false
		for _, n := range all {
			if n.uncertain {
				continue
			}
			for _, k := range n.kids() {
				if k != nil && k.uncertain {
					n.uncertain, changed = true, true
					break
				}
			}
		}
	}
}
