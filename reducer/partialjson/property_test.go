package partialjson

import (
	"encoding/json"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// handwritten are documents that exercise the corners of the grammar.
var handwritten = []string{
	`{}`, `[]`, `0`, `-0.0e-0`, `12345678901234567890.5E+300`, `"x"`, `true`, `false`, `null`, `""`,
	`{"query": "weather in Paris", "units": "metric", "days": 3}`,
	`{"a":[1,2,{"b":[true,false,null]}],"c":{"d":{"e":{}}},"f":[[],[[]],{}]}`,
	`{"s":"caf\u00e9 \ud83d\ude00 \u4e2d\u6587 \"q\" \\ \/ \b\f\n\r\t"}`,
	"{\"raw\":\"café 😀 中文 \xff \xe2\x82 end\"}",
	`["\ud83d", "\ude00", "\ud83d\ud83d\ude00", "\ud83dx", "\ud83d\n", "\u0000"]`,
	`{"k":1,"k":2,"j":{"k":3},"k":[4]}`,
	`{"a/b":{"~0":{"~1/~":"x"}},"":""}`,
	" \t\n{ \"a\" : [ 1 , -2.5 , 3e10 ] ,\r\n \"b\" : \"c\" } \n ",
	`[-1,0,1,-0.5,0.25,1e3,1E-3,1.5e+3,-0e0]`,
}

// genDoc writes a random JSON document with random whitespace.
func genDoc(r *rand.Rand, b *strings.Builder, depth int) {
	ws := func() {
		for r.IntN(4) == 0 {
			b.WriteByte(" \t\n\r"[r.IntN(4)])
		}
	}
	ws()
	k := r.IntN(10)
	if depth >= 5 && k < 4 {
		k += 4
	}
	switch {
	case k < 2:
		b.WriteByte('{')
		n := r.IntN(6)
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			ws()
			genString(r, b, r.IntN(3) == 0)
			ws()
			b.WriteByte(':')
			genDoc(r, b, depth+1)
		}
		ws()
		b.WriteByte('}')
	case k < 4:
		b.WriteByte('[')
		n := r.IntN(6)
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			genDoc(r, b, depth+1)
		}
		ws()
		b.WriteByte(']')
	case k < 7:
		genString(r, b, false)
	case k < 9:
		genNumber(r, b)
	default:
		b.WriteString([]string{"true", "false", "null"}[r.IntN(3)])
	}
	ws()
}

// stringPieces are the fragments random strings are made of.
var stringPieces = []string{
	"a", "b", "key", "hello world", " ", "/", "~", "a/b", "~1",
	`\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`,
	`\u0041`, `\u00e9`, `\u00E9`, `\u4e2d`, `\u0000`, `\u001f`, `\uffff`,
	`\ud83d\ude00`, `\uD83D\uDE00`, `\ud800`, `\udfff`, `\ud83d\u0041`,
	"é", "中文", "😀", "\xff", "\xe2\x82", "\xed\xa0\x80",
}

// genString writes a random string literal; a key comes from a small set
// so that duplicates occur.
func genString(r *rand.Rand, b *strings.Builder, key bool) {
	b.WriteByte('"')
	if key {
		b.WriteString([]string{"a", "b", "a/b", "~", "é"}[r.IntN(5)])
	} else {
		for range r.IntN(12) {
			b.WriteString(stringPieces[r.IntN(len(stringPieces))])
		}
	}
	b.WriteByte('"')
}

func genNumber(r *rand.Rand, b *strings.Builder) {
	if r.IntN(3) == 0 {
		b.WriteByte('-')
	}
	if r.IntN(4) == 0 {
		b.WriteByte('0')
	} else {
		b.WriteString(strconv.Itoa(1 + r.IntN(100000)))
	}
	if r.IntN(3) == 0 {
		b.WriteString("." + strconv.Itoa(r.IntN(1000)))
	}
	if r.IntN(4) == 0 {
		b.WriteString([]string{"e", "E", "e+", "e-", "E-"}[r.IntN(5)] + strconv.Itoa(r.IntN(40)))
	}
}

// chunk splits s into pieces of 1 to max bytes.
func chunk(r *rand.Rand, s string, max int) []string {
	var out []string
	for len(s) > 0 {
		n := min(len(s), 1+r.IntN(max))
		out = append(out, s[:n])
		s = s[n:]
	}
	return out
}

// TestProperties feeds many documents in random chunks and checks after
// every write that the edits replay to Value and that Value matches the
// reference, and at the end that Value matches encoding/json.
func TestProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	docs := append([]string(nil), handwritten...)
	for range 300 {
		var b strings.Builder
		genDoc(r, &b, 0)
		docs = append(docs, b.String())
	}
	for i, doc := range docs {
		if !json.Valid([]byte(doc)) {
			t.Fatalf("doc %d is not valid JSON: %q", i, doc)
		}
		splits := [][]string{{doc}, chunk(r, doc, 1), chunk(r, doc, 16), chunk(r, doc, 4)}
		for _, pieces := range splits {
			checkPieces(t, doc, pieces)
		}
	}
}

func checkPieces(t *testing.T, doc string, pieces []string) {
	t.Helper()
	p := New(Options{})
	var rp replayer
	var editErr error
	emit := func(e Edit) {
		if err := rp.apply(e); err != nil && editErr == nil {
			editErr = err
		}
	}
	check := func(prefix string, closed bool) bool {
		t.Helper()
		got := encode(p.Value())
		if editErr != nil {
			t.Errorf("%q after %q: bad edit: %v", doc, prefix, editErr)
			return false
		}
		if replayed := encode(rp.root, rp.present); replayed != got {
			t.Errorf("%q after %q: replayed edits = %s, Value = %s", doc, prefix, replayed, got)
			return false
		}
		ref, failed := refEncode(prefix, closed, 0)
		if ref != got {
			t.Errorf("%q after %q: Value = %s, reference = %s", doc, prefix, got, ref)
			return false
		}
		if failed != (p.Err() != nil) {
			t.Errorf("%q after %q: Err = %v, reference failed: %v", doc, prefix, p.Err(), failed)
			return false
		}
		return true
	}
	n := 0
	for _, s := range pieces {
		p.Write(s, emit)
		n += len(s)
		if !check(doc[:n], false) {
			return
		}
	}
	p.Close(emit)
	if !check(doc, true) {
		return
	}
	if p.Err() != nil || !p.Complete() {
		t.Errorf("%q: Err = %v, Complete = %v", doc, p.Err(), p.Complete())
	}
	v, _ := p.Value()
	if ok, msg := sameAsStd(v, []byte(doc)); !ok {
		t.Errorf("%q: %s", doc, msg)
	}
}
