package toolschema

import (
	"math/rand/v2"
	"testing"
	"unicode/utf8"

	"github.com/agui-reducer/agui/reducer/jsontree"
	"github.com/agui-reducer/agui/reducer/partialjson"
)

// FuzzStream streams data, cut into pieces of the sizes in cuts, against
// a tool of the corpus: a complete document gets the same errors as
// Validate, each no later than its value completed, and nothing panics on
// any input.
func FuzzStream(f *testing.F) {
	tools := loadTools(f)
	f.Add(uint8(0), `{"city":"Paris","unit":"kelvin","days":20}`, []byte{3, 1, 4, 1, 5, 9})
	f.Add(uint8(2), `{"title":"Sync","date":"2026-11-30","start":"09:30","attendees":[{"email":"a@b"},{"email":"x","x":1}],"reminder":{"minutes_before":-1}}`, []byte{7})
	f.Add(uint8(7), `{"to":["bob@example.org","nope"],"subject":"hi","body":"","priority":"urgent"}`, []byte{2, 0, 13})
	f.Add(uint8(8), `{"shape":{"kind":"circle","radius":0},"opacity":0.33}`, []byte{1})
	f.Add(uint8(10), `{"name":{"first":""},"tags":["admin","admin"],"settings":{"x-a":1,"theme":"blue"}}`, []byte{5, 5})
	f.Add(uint8(3), `{"command":"view","path":"/a","view_range":[1,2,3]`, []byte{4})
	f.Fuzz(func(t *testing.T, tool uint8, data string, cuts []byte) {
		s := tools[int(tool)%len(tools)].schema
		var pieces []string
		rest := data
		for i := 0; len(rest) > 0; i++ {
			n := len(rest)
			if i < len(cuts) {
				n = min(n, int(cuts[i]))
			}
			pieces = append(pieces, rest[:n])
			rest = rest[n:]
		}
		run := runStream(s, pieces, true)
		if !run.parsed || dupKeys(data) || !utf8.ValidString(data) {
			// Ill-formed UTF-8 decodes differently on purpose: partialjson
			// gives a U+FFFD per byte as encoding/json does, jsontree one
			// per maximal subpart as WHATWG's decoder does, so a key's
			// path may differ (a JavaScript string never reaches either so).
			return
		}
		v, err := jsontree.Parse([]byte(data), jsontree.ParseOptions{JSText: true})
		if err != nil {
			return // partialjson and jsontree differ only past the depth limit
		}
		final := s.Validate(v, 0)
		got, want := keys(run.errs), keys(final)
		if len(got) != len(want) {
			t.Fatalf("%s: streamed %v, final %v", data, run.errs, final)
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("%s: streamed %v, final %v", data, run.errs, final)
			}
		}
		for i, e := range run.errs {
			if done, ok := run.done[e.Path]; !ok || run.at[i] > done {
				t.Fatalf("%s: %v reported at piece %d, completed at %d (%v)", data, e, run.at[i], done, ok)
			}
		}
	})
}

// FuzzCompile compiles any JSON as a schema and validates generated
// values against it: nothing panics or loops, whatever the schema.
func FuzzCompile(f *testing.F) {
	f.Add(`{"type":"object","properties":{"a":{"$ref":"#"}},"anyOf":[{"$ref":"#/properties/a"}]}`, `{"a":{"a":1}}`)
	f.Add(`{"pattern":"^(a+)+$","maxLength":3}`, `"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab"`)
	f.Add(`{"oneOf":[{"not":{"$ref":"#"}}]}`, `[1,{"x":null}]`)
	f.Add(`{"multipleOf":1e-300,"maximum":1e308}`, `1e308`)
	f.Fuzz(func(t *testing.T, schema, data string) {
		sv, err := jsontree.Parse([]byte(schema), jsontree.ParseOptions{MaxDepth: 64})
		if err != nil {
			return
		}
		s, err := Compile(sv)
		if err != nil {
			return
		}
		if dv, err := jsontree.Parse([]byte(data), jsontree.ParseOptions{MaxDepth: 64}); err == nil {
			errs := s.Validate(dv, 0)
			if s.Valid(dv) != (len(errs) == 0) {
				t.Fatalf("Valid and Validate disagree: %v", errs)
			}
		}
		p := partialjson.New(partialjson.Options{MaxDepth: 64, Ends: true})
		st := s.Stream(10)
		r := rand.New(rand.NewPCG(uint64(len(data)), 1))
		for rest := data; len(rest) > 0; {
			n := min(len(rest), 1+r.IntN(8))
			p.Write(rest[:n], func(e partialjson.Edit) { st.Edit(e) })
			rest = rest[n:]
		}
	})
}
