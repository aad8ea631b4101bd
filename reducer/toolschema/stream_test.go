package toolschema

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agui-reducer/agui/reducer/jsontree"
	"github.com/agui-reducer/agui/reducer/partialjson"
)

// streamRun is what a Stream reported while a text arrived in pieces.
type streamRun struct {
	errs   []Error
	at     []int          // the piece whose write reported errs[i]
	done   map[string]int // a value's path → the piece that completed it
	parsed bool           // the text parsed completely
}

// runStream writes pieces to a parser with Ends and a Stream over s.
func runStream(s *Schema, pieces []string, close bool) streamRun {
	p := partialjson.New(partialjson.Options{JSText: true, Ends: true})
	st := s.Stream(0)
	out := streamRun{done: map[string]int{}}
	var open []string
	piece := 0
	emit := func(e partialjson.Edit) {
		st.Edit(e)
		for len(out.at) < len(st.Errors()) {
			out.at = append(out.at, piece)
		}
		switch e.Op {
		case partialjson.Add, partialjson.Replace:
			switch e.Value.(type) {
			case *jsontree.Object, *jsontree.Array, string:
				open = append(open, e.Path)
			default:
				out.done[e.Path] = piece
			}
		case partialjson.End:
			out.done[open[len(open)-1]] = piece
			open = open[:len(open)-1]
		}
	}
	for i, s := range pieces {
		piece = i
		p.Write(s, emit)
	}
	if close {
		p.Close(emit)
	}
	out.errs = st.Errors()
	out.parsed = close && p.Err() == nil
	return out
}

// split cuts text into random pieces (some empty, some one byte).
func split(r *rand.Rand, text string) []string {
	var out []string
	for len(text) > 0 {
		n := min(len(text), r.IntN(12))
		if r.IntN(8) == 0 {
			n = min(len(text), 1+r.IntN(200))
		}
		out = append(out, text[:n])
		text = text[n:]
	}
	return out
}

// spaced writes v as JSON with random whitespace between tokens.
func spaced(r *rand.Rand, v jsontree.Value) string {
	compact := jsontree.AppendJSON(nil, v)
	if r.IntN(2) == 0 {
		return string(compact)
	}
	var b strings.Builder
	inStr, esc := false, false
	for _, c := range compact {
		b.WriteByte(c)
		switch {
		case inStr && esc:
			esc = false
		case inStr && c == '\\':
			esc = true
		case c == '"':
			inStr = !inStr
		case !inStr && (c == ',' || c == ':' || c == '[' || c == '{'):
			b.WriteString([]string{"", " ", "\n  ", "\t"}[r.IntN(4)])
		}
	}
	return b.String()
}

type errKey struct{ path, keyword string }

func keys(errs []Error) []errKey {
	var out []errKey
	for _, e := range errs {
		out = append(out, errKey{e.Path, e.Keyword})
	}
	slices.SortFunc(out, func(a, b errKey) int { return strings.Compare(a.path+"\x00"+a.keyword, b.path+"\x00"+b.keyword) })
	return out
}

// checkStream checks the streaming properties for one document.
func checkStream(t *testing.T, r *rand.Rand, name string, s *Schema, text string) {
	t.Helper()
	pieces := split(r, text)
	run := runStream(s, pieces, true)
	if !run.parsed {
		t.Fatalf("%s: %q does not parse", name, text)
	}
	final := s.Validate(mustParse(t, text), 0)
	// The same errors as the final verdict.
	if got, want := keys(run.errs), keys(final); !slices.Equal(got, want) {
		t.Fatalf("%s: %s\nstreamed %v\nfinal    %v", name, text, run.errs, final)
	}
	// Each no later than the piece that completed the offending value.
	for i, e := range run.errs {
		done, ok := run.done[e.Path]
		if !ok {
			t.Fatalf("%s: %s: error %v at a path that never completed", name, text, e)
		}
		if run.at[i] > done {
			t.Fatalf("%s: %s: error %v reported at piece %d, the value completed at piece %d", name, text, e, run.at[i], done)
		}
	}
	// Cut at a random byte: what the prefix reports, its continuation
	// (the rest of the text) cannot repair; a valid document reports
	// nothing on any prefix.
	cut := r.IntN(len(text) + 1)
	prefix := runStream(s, split(r, text[:cut]), false)
	fk := keys(final)
	for _, k := range keys(prefix.errs) {
		if !slices.Contains(fk, k) {
			t.Fatalf("%s: %s cut at %d reports %v, which the whole text does not have (%v)", name, text, cut, k, final)
		}
	}
}

// TestStreamProperties: for generated arguments of the corpus's tools,
// valid and invalid, written with random whitespace and split into random
// deltas, and for the JSON Schema Test Suite's cases: the streamed errors
// are the final ones, each reported no later than the delta that completes
// its value, and a prefix never reports what its continuation repairs.
func TestStreamProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	g := &generator{r: r, rate: 0.04}
	docs := 0
	for _, tool := range loadTools(t) {
		for range 300 {
			v := g.value(tool.schema.root, 0)
			checkStream(t, r, tool.name, tool.schema, spaced(r, v))
			docs++
		}
	}
	if dir := suiteDirIfPresent(); dir != "" {
		for _, name := range suiteFiles {
			raw, err := os.ReadFile(filepath.Join(dir, name+".json"))
			if err != nil {
				t.Fatal(err)
			}
			var groups []suiteGroup
			if err := json.Unmarshal(raw, &groups); err != nil {
				t.Fatal(err)
			}
			for _, grp := range groups {
				s, err := Compile(mustParse(t, string(grp.Schema)))
				if err != nil {
					continue
				}
				for _, tc := range grp.Tests {
					data := mustParse(t, string(tc.Data))
					if dupKeys(string(tc.Data)) {
						continue // the stream also judges a value a later duplicate replaces
					}
					checkStream(t, r, name+"/"+grp.Description+"/"+tc.Description, s, spaced(r, data))
					docs++
				}
			}
		}
	}
	t.Logf("%d documents streamed", docs)
}

// dupKeys reports whether an object in text repeats a key.
func dupKeys(text string) bool {
	dec := json.NewDecoder(strings.NewReader(text))
	type level struct {
		obj  bool
		seen map[string]bool
		key  bool // next string token is a key
	}
	var stack []*level
	for {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		top := (*level)(nil)
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		switch x := tok.(type) {
		case json.Delim:
			switch x {
			case '{':
				stack = append(stack, &level{obj: true, seen: map[string]bool{}, key: true})
				continue
			case '[':
				stack = append(stack, &level{})
				continue
			default:
				stack = stack[:len(stack)-1]
			}
		case string:
			if top != nil && top.obj && top.key {
				if top.seen[x] {
					return true
				}
				top.seen[x] = true
				top.key = false
				continue
			}
		}
		if len(stack) > 0 && stack[len(stack)-1].obj {
			stack[len(stack)-1].key = true
		}
	}
}
