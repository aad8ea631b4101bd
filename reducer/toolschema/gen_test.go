package toolschema

import (
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/agui-reducer/agui/reducer/jsontree"
)

// corpusTool is one tool of testdata/tools.json: real agent tools'
// parameters schemas (weather, search, calendar, file edits, MCP servers'
// filesystem, GitHub and Slack tools, ...).
type corpusTool struct {
	name   string
	text   string // the parameters schema as JSON
	schema *Schema
}

func loadTools(t testing.TB) []corpusTool {
	t.Helper()
	raw, err := os.ReadFile("testdata/tools.json")
	if err != nil {
		t.Fatal(err)
	}
	v := mustParse(t, string(raw))
	var out []corpusTool
	for _, e := range v.(*jsontree.Array).Elems {
		o := e.(*jsontree.Object)
		name, _ := o.Get("name")
		params, _ := o.Get("parameters")
		s, err := Compile(params)
		if err != nil {
			t.Fatalf("%v: %v", name, err)
		}
		out = append(out, corpusTool{name: name.(string), text: string(jsontree.AppendJSON(nil, params)), schema: s})
	}
	return out
}

// samples are strings that match (or nearly match) the corpus's patterns.
var samples = []string{"2026-11-30", "2026-1-30", "09:30", "24:00", "ada@example.com", "bob@example.org",
	"bob@example", "#ff8800", "#ff88", "C01234ABCD", "c01234abcd", "example.com", "sub.example.co", "no_dots",
	"celsius", "kelvin", "x-color", "Paris", "", "é😀\u2028", "view", "str_replace", "circle", "rect", "admin"}

// generator makes values for a schema: mostly what it asks for, with a
// mutation now and then (rate), so that both verdicts are common.
type generator struct {
	r    *rand.Rand
	rate float64
}

func (g *generator) value(n *node, depth int) jsontree.Value {
	if depth > 6 || g.r.Float64() < g.rate {
		return g.any(depth)
	}
	var props []*node
	p := n
	for _, m := range n.flat {
		switch {
		case len(m.anyOf) > 0 && g.r.IntN(2) == 0:
			return g.value(m.anyOf[g.r.IntN(len(m.anyOf))], depth)
		case len(m.oneOf) > 0:
			return g.value(m.oneOf[g.r.IntN(len(m.oneOf))], depth)
		}
		if m.hasConst || m.hasEnum || m.types != 0 {
			p = m
		}
		if m.props != nil || len(m.required) > 0 {
			props = append(props, m)
		}
	}
	if p.hasConst {
		return p.cnst
	}
	if p.hasEnum && len(p.enum) > 0 {
		return p.enum[g.r.IntN(len(p.enum))]
	}
	types := p.types
	if types == 0 {
		types = tObject
		if len(props) == 0 && p.items == nil && p.prefix == nil {
			return g.any(depth)
		}
		if p.items != nil || p.prefix != nil {
			types = tArray
		}
	}
	var pick []typeSet
	for i := range typeNames {
		if types&(1<<i) != 0 {
			pick = append(pick, 1<<i)
		}
	}
	switch pick[g.r.IntN(len(pick))] {
	case tNull:
		return nil
	case tBoolean:
		return g.r.IntN(2) == 0
	case tInteger:
		return g.integer(p)
	case tNumber:
		if g.r.IntN(2) == 0 {
			return g.integer(p)
		}
		if p.lim[limMultipleOf].set {
			return jsontree.Number(strconv.Itoa(g.r.IntN(21)*5/100) + "." + strconv.Itoa(10 + g.r.IntN(18)*5)[1:])
		}
		return jsontree.Number(strconv.FormatFloat(g.r.Float64()*2, 'g', -1, 64))
	case tString:
		if p.pat != nil && g.r.IntN(5) > 0 {
			var ok []string
			for _, s := range samples {
				if m, _ := p.pat.match(s); m {
					ok = append(ok, s)
				}
			}
			if len(ok) > 0 {
				return ok[g.r.IntN(len(ok))]
			}
		}
		if p.pat != nil || g.r.IntN(4) == 0 {
			return samples[g.r.IntN(len(samples))]
		}
		n := g.r.IntN(8)
		if p.cnt[cntMaxLength] >= 0 && g.r.IntN(3) > 0 {
			n = g.r.IntN(p.cnt[cntMaxLength] + 2)
		}
		return strings.Repeat("ab\"\\é", n)[:n]
	case tArray:
		var a jsontree.Array
		n := g.r.IntN(4)
		if p.cnt[cntMaxItems] >= 0 && g.r.IntN(3) == 0 {
			n = p.cnt[cntMaxItems] + g.r.IntN(2)
		}
		for i := range n {
			if kid := p.item(i); kid != nil {
				a.Elems = append(a.Elems, g.value(kid, depth+1))
			} else {
				a.Elems = append(a.Elems, g.any(depth+1))
			}
		}
		if p.unique && len(a.Elems) > 0 && g.r.IntN(4) == 0 {
			a.Elems = append(a.Elems, a.Elems[0])
		}
		return &a
	default:
		o := jsontree.NewObject(0)
		for _, m := range props {
			for k, kid := range m.props {
				req := false
				for _, r := range m.required {
					req = req || r == k
				}
				if req && g.r.IntN(30) > 0 || g.r.IntN(5) < 3 {
					o.Set(k, g.value(kid, depth+1))
				}
			}
			for _, k := range m.required {
				if _, ok := o.Get(k); !ok && g.r.IntN(10) > 0 {
					o.Set(k, g.any(depth+1))
				}
			}
		}
		for _, pp := range p.patProps {
			if g.r.IntN(3) == 0 {
				o.Set("x-"+strings.Repeat("q", g.r.IntN(3)+1), g.value(pp.n, depth+1))
			}
		}
		if g.r.IntN(8) == 0 {
			o.Set("extra/~field", g.any(depth+1))
		}
		return o
	}
}

func (g *generator) integer(p *node) jsontree.Value {
	lo, hi := -5, 30
	if p.lim[0].set {
		if m, e, ok := p.lim[0].d.mantissa(); ok && e == 0 && m < 1000 {
			lo = int(m) - 2
			if p.lim[0].d.neg {
				lo = -int(m) - 2
			}
		}
	}
	if p.lim[1].set {
		if m, e, ok := p.lim[1].d.mantissa(); ok && e >= 0 && e < 4 {
			for ; e > 0; e-- {
				m *= 10
			}
			hi = int(m) + 2
		}
	}
	if hi < lo {
		hi = lo + 10
	}
	v := lo + g.r.IntN(hi-lo+1)
	if p.lim[limMultipleOf].set && g.r.IntN(4) > 0 {
		if m, e, ok := p.lim[limMultipleOf].d.mantissa(); ok && e == 0 && m > 0 {
			v -= v % int(m)
		}
	}
	if g.r.IntN(10) == 0 {
		return jsontree.Number(strconv.Itoa(v) + ".0")
	}
	return jsontree.Number(strconv.Itoa(v))
}

// any returns a random value of any type.
func (g *generator) any(depth int) jsontree.Value {
	k := g.r.IntN(7)
	if depth > 5 && k >= 5 {
		k = 0
	}
	switch k {
	case 0:
		return nil
	case 1:
		return g.r.IntN(2) == 0
	case 2:
		return jsontree.Number(strconv.Itoa(g.r.IntN(200) - 50))
	case 3:
		return jsontree.Number("1.5e1")
	case 4:
		return samples[g.r.IntN(len(samples))]
	case 5:
		return jsontree.NewArray(g.any(depth+1), g.any(depth+1))
	}
	o := jsontree.NewObject(0)
	o.Set("k", g.any(depth+1))
	return o
}

// TestToolCorpus: on the corpus's tools, generated arguments (valid and
// invalid) get the oracle's verdict.
func TestToolCorpus(t *testing.T) {
	tools := loadTools(t)
	g := &generator{r: rand.New(rand.NewPCG(1, 2)), rate: 0.04}
	for _, tool := range tools {
		o := oracle(t, tool.text)
		if o == nil {
			t.Fatalf("%s: the oracle cannot compile it", tool.name)
		}
		if u := tool.schema.Unchecked(); len(u) > 0 {
			t.Errorf("%s: unchecked %v", tool.name, u)
		}
		valid, invalid := 0, 0
		for range 400 {
			v := g.value(tool.schema.root, 0)
			text := string(jsontree.AppendJSON(nil, v))
			want := oracleValid(t, o, text)
			got := tool.schema.Valid(mustParse(t, text))
			if got != want {
				t.Fatalf("%s: %s: valid=%v, the oracle says %v (%v)", tool.name, text, got, want, tool.schema.Validate(mustParse(t, text), 0))
			}
			if want {
				valid++
			} else {
				invalid++
			}
		}
		t.Logf("%-22s %3d valid, %3d invalid: all agree", tool.name, valid, invalid)
		if valid < 20 || invalid < 20 {
			t.Errorf("%s: %d valid, %d invalid: the generator should make both often", tool.name, valid, invalid)
		}
	}
}
