package toolschema

import "unicode/utf8"

// A pattern is a compiled ECMA-262 regular expression of the subset tool
// schemas write: literals, '.', classes ([a-z0-9_], [^...], \d \w \s and
// their negations), anchors ^ $ \b \B, groups ((...), (?:...), (?<name>...)),
// alternation and the quantifiers * + ? {n} {n,} {n,m} (greedy or lazy).
// Lookaround, backreferences, \p{...} and flags are not in it: compiling
// them fails and the keyword is reported as not checked. The matcher
// backtracks under a step budget; a pattern that exhausts it on a string
// is not judged (never a false "invalid").
//
// Package regexp would do (and agrees on this subset) but costs the
// WebAssembly module about 100 KB brotli; this matcher costs a few.
type pattern struct {
	root *rnode
}

type rkind uint8

const (
	rLit rkind = iota
	rAny
	rClass
	rBegin
	rEnd
	rWordB
	rNotWordB
	rCat
	rAlt
	rRepeat
	rEmpty
)

type rnode struct {
	kind     rkind
	r        rune
	class    *rclass
	kids     []*rnode
	min, max int // rRepeat: max < 0 is unbounded
	lazy     bool
}

type rrange struct{ lo, hi rune }

type rclass struct {
	neg    bool
	ranges []rrange
}

func (c *rclass) has(r rune) bool {
	in := false
	for _, x := range c.ranges {
		if r >= x.lo && r <= x.hi {
			in = true
			break
		}
	}
	return in != c.neg
}

var (
	digitRanges = []rrange{{'0', '9'}}
	wordRanges  = []rrange{{'0', '9'}, {'A', 'Z'}, {'_', '_'}, {'a', 'z'}}
	spaceRanges = []rrange{{'\t', '\r'}, {' ', ' '}, {0xa0, 0xa0}, {0x1680, 0x1680}, {0x2000, 0x200a},
		{0x2028, 0x2029}, {0x202f, 0x202f}, {0x205f, 0x205f}, {0x3000, 0x3000}, {0xfeff, 0xfeff}}
)

type rparser struct {
	s   string
	i   int
	bad bool
}

// compilePattern compiles src; nil for syntax outside the subset.
func compilePattern(src string) *pattern {
	p := &rparser{s: src}
	n := p.alt(0)
	if p.bad || p.i != len(p.s) {
		return nil
	}
	return &pattern{root: n}
}

func (p *rparser) peek() rune {
	if p.i >= len(p.s) {
		return -1
	}
	r, _ := utf8.DecodeRuneInString(p.s[p.i:])
	return r
}

func (p *rparser) next() rune {
	r, n := utf8.DecodeRuneInString(p.s[p.i:])
	p.i += n
	return r
}

func (p *rparser) alt(depth int) *rnode {
	if depth > 100 {
		p.bad = true
		return nil
	}
	var alts []*rnode
	for {
		alts = append(alts, p.cat(depth))
		if p.bad || p.peek() != '|' {
			break
		}
		p.i++
	}
	if len(alts) == 1 {
		return alts[0]
	}
	return &rnode{kind: rAlt, kids: alts}
}

func (p *rparser) cat(depth int) *rnode {
	var seq []*rnode
	for !p.bad && p.i < len(p.s) && p.peek() != '|' && p.peek() != ')' {
		atom := p.atom(depth)
		if p.bad {
			return nil
		}
		seq = append(seq, p.quant(atom))
	}
	if len(seq) == 1 {
		return seq[0]
	}
	if len(seq) == 0 {
		return &rnode{kind: rEmpty}
	}
	return &rnode{kind: rCat, kids: seq}
}

func (p *rparser) quant(atom *rnode) *rnode {
	min, max := -1, -1
	switch p.peek() {
	case '*':
		min, max = 0, -1
		p.i++
	case '+':
		min, max = 1, -1
		p.i++
	case '?':
		min, max = 0, 1
		p.i++
	case '{':
		save := p.i
		p.i++
		lo, ok := p.int()
		if !ok {
			// A '{' that starts no quantifier is a literal in the
			// web-compatible grammar; not in the subset.
			p.i = save
			p.bad = true
			return nil
		}
		hi := lo
		if p.peek() == ',' {
			p.i++
			hi = -1
			if p.peek() != '}' {
				if hi, ok = p.int(); !ok {
					p.bad = true
					return nil
				}
			}
		}
		if p.peek() != '}' || hi >= 0 && hi < lo {
			p.bad = true
			return nil
		}
		p.i++
		min, max = lo, hi
	default:
		return atom
	}
	switch atom.kind {
	case rBegin, rEnd, rWordB, rNotWordB:
		p.bad = true
		return nil
	}
	n := &rnode{kind: rRepeat, kids: []*rnode{atom}, min: min, max: max}
	if p.peek() == '?' {
		n.lazy = true
		p.i++
	}
	if p.peek() == '*' || p.peek() == '+' || p.peek() == '?' || p.peek() == '{' {
		p.bad = true
	}
	return n
}

func (p *rparser) int() (int, bool) {
	start, v := p.i, 0
	for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
		if v < 100000 {
			v = v*10 + int(p.s[p.i]-'0')
		}
		p.i++
	}
	return v, p.i > start && v < 100000
}

func (p *rparser) atom(depth int) *rnode {
	switch r := p.next(); r {
	case '.':
		return &rnode{kind: rAny}
	case '^':
		return &rnode{kind: rBegin}
	case '$':
		return &rnode{kind: rEnd}
	case '(':
		if p.peek() == '?' {
			p.i++
			switch {
			case p.peek() == ':':
				p.i++
			case p.peek() == '<' && p.i+1 < len(p.s) && p.s[p.i+1] != '=' && p.s[p.i+1] != '!':
				for p.i < len(p.s) && p.s[p.i] != '>' {
					p.i++
				}
				if p.i == len(p.s) {
					p.bad = true
					return nil
				}
				p.i++
			default: // lookaround, flags
				p.bad = true
				return nil
			}
		}
		n := p.alt(depth + 1)
		if p.bad || p.peek() != ')' {
			p.bad = true
			return nil
		}
		p.i++
		return n
	case '[':
		return p.class()
	case '\\':
		return p.escape(false)
	case '*', '+', '?', '{', ')', ']', '}':
		p.bad = true
		return nil
	default:
		return &rnode{kind: rLit, r: r}
	}
}

// escape reads what follows a backslash; inClass allows only what a class
// may hold.
func (p *rparser) escape(inClass bool) *rnode {
	if p.i >= len(p.s) {
		p.bad = true
		return nil
	}
	r := p.next()
	switch r {
	case 'd', 'D', 'w', 'W', 's', 'S':
		c := &rclass{}
		switch r {
		case 'd', 'D':
			c.ranges = digitRanges
		case 'w', 'W':
			c.ranges = wordRanges
		default:
			c.ranges = spaceRanges
		}
		c.neg = r == 'D' || r == 'W' || r == 'S'
		return &rnode{kind: rClass, class: c}
	case 'b':
		if inClass {
			return &rnode{kind: rLit, r: '\b'}
		}
		return &rnode{kind: rWordB}
	case 'B':
		if inClass {
			p.bad = true
			return nil
		}
		return &rnode{kind: rNotWordB}
	case 't':
		return &rnode{kind: rLit, r: '\t'}
	case 'n':
		return &rnode{kind: rLit, r: '\n'}
	case 'r':
		return &rnode{kind: rLit, r: '\r'}
	case 'f':
		return &rnode{kind: rLit, r: '\f'}
	case 'v':
		return &rnode{kind: rLit, r: '\v'}
	case '0':
		if p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
			p.bad = true
			return nil
		}
		return &rnode{kind: rLit, r: 0}
	case 'x', 'u':
		n := 2
		if r == 'u' {
			n = 4
		}
		if p.i+n > len(p.s) {
			p.bad = true
			return nil
		}
		v := rune(0)
		for _, c := range []byte(p.s[p.i : p.i+n]) {
			h := hexVal(c)
			if h < 0 {
				p.bad = true
				return nil
			}
			v = v*16 + rune(h)
		}
		p.i += n
		if v >= 0xd800 && v < 0xe000 {
			p.bad = true // surrogates: JS matches UTF-16 units, Go strings hold none
			return nil
		}
		return &rnode{kind: rLit, r: v}
	}
	// Identity escapes of syntax characters; anything else (\1, \p, \c,
	// \k) is outside the subset.
	switch r {
	case '^', '$', '\\', '.', '*', '+', '?', '(', ')', '[', ']', '{', '}', '|', '/', '-':
		return &rnode{kind: rLit, r: r}
	}
	p.bad = true
	return nil
}

func hexVal(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

func (p *rparser) class() *rnode {
	c := &rclass{}
	if p.peek() == '^' {
		c.neg = true
		p.i++
	}
	first := true
	for {
		if p.i >= len(p.s) {
			p.bad = true
			return nil
		}
		if p.peek() == ']' && !first {
			p.i++
			break
		}
		first = false
		lo, set := p.classAtom()
		if p.bad {
			return nil
		}
		if set != nil {
			if set.neg {
				p.bad = true // [\D] and friends: rare, left out
				return nil
			}
			c.ranges = append(c.ranges, set.ranges...)
			continue
		}
		if p.peek() == '-' && p.i+1 < len(p.s) && p.s[p.i+1] != ']' {
			p.i++
			hi, set2 := p.classAtom()
			if p.bad || set2 != nil || hi < lo {
				p.bad = true
				return nil
			}
			c.ranges = append(c.ranges, rrange{lo, hi})
			continue
		}
		c.ranges = append(c.ranges, rrange{lo, lo})
	}
	return &rnode{kind: rClass, class: c}
}

// classAtom reads one character of a class, or a class escape (\d ...).
func (p *rparser) classAtom() (rune, *rclass) {
	r := p.next()
	if r == '\\' {
		n := p.escape(true)
		if p.bad {
			return 0, nil
		}
		if n.kind == rClass {
			return 0, n.class
		}
		return n.r, nil
	}
	if r == '[' && p.peek() == ':' {
		p.bad = true
		return 0, nil
	}
	return r, nil
}

// matchBudget bounds the steps of one match; past it the string is not
// judged.
const matchBudget = 200000

type rmatcher struct {
	s     string
	steps int
	over  bool
}

// match reports whether the pattern matches somewhere in s; known is
// false when the step budget ran out.
func (pt *pattern) match(s string) (matched, known bool) {
	m := &rmatcher{s: s}
	for i := 0; ; {
		if m.node(pt.root, i, func(int) bool { return true }) {
			return true, true
		}
		if m.over {
			return false, false
		}
		if i >= len(s) {
			return false, true
		}
		_, n := utf8.DecodeRuneInString(s[i:])
		i += n
	}
}

func isWord(r rune) bool {
	return r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '_'
}

func (m *rmatcher) wordAt(i int) bool {
	if i < 0 || i >= len(m.s) {
		return false
	}
	return isWord(rune(m.s[i]))
}

func (m *rmatcher) node(n *rnode, i int, k func(int) bool) bool {
	if m.steps++; m.steps > matchBudget {
		m.over = true
		return false
	}
	switch n.kind {
	case rEmpty:
		return k(i)
	case rLit, rAny, rClass:
		if i >= len(m.s) {
			return false
		}
		r, w := utf8.DecodeRuneInString(m.s[i:])
		var ok bool
		switch n.kind {
		case rLit:
			ok = r == n.r
		case rAny:
			ok = r != '\n' && r != '\r' && r != 0x2028 && r != 0x2029
		default:
			ok = n.class.has(r)
		}
		return ok && k(i+w)
	case rBegin:
		return i == 0 && k(i)
	case rEnd:
		return i == len(m.s) && k(i)
	case rWordB, rNotWordB:
		at := m.wordAt(i-1) != m.wordAt(i)
		return at == (n.kind == rWordB) && k(i)
	case rCat:
		return m.seq(n.kids, i, k)
	case rAlt:
		for _, a := range n.kids {
			if m.node(a, i, k) || m.over {
				return !m.over
			}
		}
		return false
	case rRepeat:
		return m.repeat(n, 0, i, -1, k)
	}
	return false
}

func (m *rmatcher) seq(kids []*rnode, i int, k func(int) bool) bool {
	if len(kids) == 0 {
		return k(i)
	}
	return m.node(kids[0], i, func(j int) bool { return m.seq(kids[1:], j, k) })
}

// repeat matches n.kids[0] count more times from i; last is where the
// previous iteration started, so an iteration matching empty ends the loop.
func (m *rmatcher) repeat(n *rnode, count, i, last int, k func(int) bool) bool {
	more := func() bool {
		if n.max >= 0 && count >= n.max || i == last && count >= n.min {
			return false
		}
		return m.node(n.kids[0], i, func(j int) bool { return m.repeat(n, count+1, j, i, k) })
	}
	if count < n.min {
		return more()
	}
	if n.lazy {
		return k(i) || !m.over && more()
	}
	return more() || !m.over && k(i)
}
