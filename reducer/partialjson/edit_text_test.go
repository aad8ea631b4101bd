package partialjson

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestEditTextsStay: an edit's text and values stay what they were when
// emitted, after any later write: a consumer may keep them (a change
// record queued for the JS mirror does) and replay them all at the end.
func TestEditTextsStay(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	docs := append([]string(nil), handwritten...)
	for range 100 {
		var b strings.Builder
		genDoc(r, &b, 0)
		docs = append(docs, b.String())
	}
	docs = append(docs, argsDoc(3000))
	for _, doc := range docs {
		for _, pieces := range [][]string{{doc}, chunk(r, doc, 1), chunk(r, doc, 16)} {
			p := New(Options{JSText: true})
			var kept []Edit
			var texts []string
			emit := func(e Edit) {
				kept = append(kept, e)
				texts = append(texts, strings.Clone(e.Text))
			}
			for _, s := range pieces {
				p.Write(s, emit)
			}
			p.Close(emit)
			var rp replayer
			for i, e := range kept {
				if e.Text != texts[i] {
					t.Fatalf("%q: edit %d's text changed from %q to %q", doc, i, texts[i], e.Text)
				}
				if err := rp.apply(e); err != nil {
					t.Fatalf("%q: edit %d: %v", doc, i, err)
				}
			}
			v, _ := p.Value()
			if got, want := encode(rp.root, rp.present), encode(v, true); got != want {
				t.Fatalf("%q: edits replayed at the end = %s, Value = %s", doc, got, want)
			}
		}
	}
}

// TestAppendAllocs: a write inside a string allocates nothing (amortised:
// the string's buffer grows now and then), escapes or not; its Append
// edit's text is a view of the string's text.
func TestAppendAllocs(t *testing.T) {
	for _, delta := range []string{"plain text of a file", `say \"hi\"\n\t\u00e9 \ud83d\ude00`} {
		p := New(Options{JSText: true})
		p.Write(`{"path":"a.txt","content":"`, nil)
		appends := 0
		emit := func(e Edit) {
			if e.Op == Append {
				appends++
			}
		}
		allocs := testing.AllocsPerRun(2000, func() { p.Write(delta, emit) })
		if allocs != 0 || appends == 0 || p.Err() != nil {
			t.Errorf("%q: %v allocations per write, %d appends, err %v", delta, allocs, appends, p.Err())
		}
	}
}

// TestPendingBeforeASCII: printable ASCII written as it is does not
// overtake what the string holds back: a high surrogate waiting for its
// low half, a UTF-8 sequence split across writes.
func TestPendingBeforeASCII(t *testing.T) {
	for _, tc := range []struct {
		pieces []string
		want   string
	}{
		{[]string{`"a\ud83d`, `bc"`}, "a\xed\xa0\xbdbc"},
		{[]string{`"a\ud83d`, `\ude00bc"`}, "a\U0001F600bc"},
		{[]string{"\"a\xc3", "\xa9bc\""}, "aébc"},
		{[]string{"\"a\xe2\x82", "\xacbc\""}, "a€bc"},
	} {
		p := New(Options{JSText: true})
		var text strings.Builder
		for _, s := range tc.pieces {
			p.Write(s, func(e Edit) { text.WriteString(e.Text) })
		}
		v, _ := p.Value()
		if v != tc.want || text.String() != tc.want || p.Err() != nil {
			t.Errorf("%q: value %q, appends %q, err %v; want %q", tc.pieces, v, text.String(), p.Err(), tc.want)
		}
	}
}
