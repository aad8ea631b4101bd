package partialjson

import (
	"math/rand/v2"
	"testing"

	"github.com/agui-reducer/agui/reducer/jsontree"
)

// TestEnds: with Options.Ends, every string, array and object gets an End
// edit once complete, innermost first, carrying its complete value, and
// nothing else changes: without End edits the edits are those of a parser
// without Ends.
func TestEnds(t *testing.T) {
	doc := `{"a":"x\u00e9","b":[1,{"c":[]},"y"],"d":{},"e":true}`
	want := []string{`"xé"`, `[]`, `{"c":[]}`, `"y"`, `[1,{"c":[]},"y"]`, `{}`, `{"a":"xé","b":[1,{"c":[]},"y"],"d":{},"e":true}`}
	r := rand.New(rand.NewPCG(1, 2))
	for range 50 {
		pieces := chunk(r, doc, 1+r.IntN(6))
		var ends []string
		var with, without []Edit
		p := New(Options{Ends: true})
		q := New(Options{})
		for _, s := range pieces {
			p.Write(s, func(e Edit) {
				if e.Op == End {
					ends = append(ends, string(jsontree.AppendJSON(nil, e.Value)))
					return
				}
				with = append(with, e)
			})
			q.Write(s, func(e Edit) { without = append(without, e) })
		}
		p.Close(nil)
		if len(ends) != len(want) {
			t.Fatalf("%q: ends %v, want %v", pieces, ends, want)
		}
		for i := range want {
			if ends[i] != want[i] {
				t.Fatalf("%q: end %d is %s, want %s", pieces, i, ends[i], want[i])
			}
		}
		if len(with) != len(without) {
			t.Fatalf("%q: %d edits with Ends, %d without", pieces, len(with), len(without))
		}
		for i := range with {
			if with[i].Op != without[i].Op || with[i].Path != without[i].Path || with[i].Text != without[i].Text {
				t.Fatalf("%q: edit %d differs: %+v vs %+v", pieces, i, with[i], without[i])
			}
		}
	}
}
