package partialjson

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

// argsDoc returns tool-call arguments of about size bytes: an object with
// a long string field full of escapes and some nested arrays, the shape of
// a typical "write this file" call.
func argsDoc(size int) string {
	var b strings.Builder
	b.WriteString(`{"path":"src/app/main.go","content":"`)
	line := `func main() {\n\tfmt.Println(\"h\u00e9llo, w\u00f6rld \ud83d\ude00\")\t// caf\u00e9 \\ path\/to\n}\n`
	for b.Len() < size*7/10 {
		b.WriteString(line)
	}
	b.WriteString(`","edits":[`)
	for i := 0; b.Len() < size-2; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"line":` + strconv.Itoa(i) + `,"range":[` + strconv.Itoa(i*10) + `,-1.5e3,true,null],"tags":["a","b\n",[]]}`)
	}
	b.WriteString("]}")
	return b.String()
}

// benchArgs feeds doc in 16-byte deltas to a parser and consumes every
// edit, as a reducer would.
func benchArgs(b *testing.B, size int) {
	doc := argsDoc(size)
	if !json.Valid([]byte(doc)) {
		b.Fatal("invalid benchmark document")
	}
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	edits := 0
	emit := func(Edit) { edits++ }
	for b.Loop() {
		p := New(Options{})
		for i := 0; i < len(doc); i += 16 {
			p.Write(doc[i:min(i+16, len(doc))], emit)
		}
		p.Close(emit)
		if p.Err() != nil {
			b.Fatal(p.Err())
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(doc)), "ns/byte")
}

func BenchmarkArgs5KB16B(b *testing.B)  { benchArgs(b, 5<<10) }
func BenchmarkArgs50KB16B(b *testing.B) { benchArgs(b, 50<<10) }

// BenchmarkNaiveUnmarshal5KB16B is what clients do today: after each
// 16-byte delta, hand the whole buffer to encoding/json (which fails on
// the incomplete prefix after scanning all of it). The work is quadratic.
func BenchmarkNaiveUnmarshal5KB16B(b *testing.B) {
	doc := argsDoc(5 << 10)
	b.SetBytes(int64(len(doc)))
	for b.Loop() {
		for i := 16; i < len(doc)+16; i += 16 {
			var v any
			_ = json.Unmarshal([]byte(doc[:min(i, len(doc))]), &v)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(doc)), "ns/byte")
}

// BenchmarkNaiveReparse5KB16B uses this package without its
// incrementality: a new parser over the whole buffer after each delta.
func BenchmarkNaiveReparse5KB16B(b *testing.B) {
	doc := argsDoc(5 << 10)
	b.SetBytes(int64(len(doc)))
	for b.Loop() {
		for i := 16; i < len(doc)+16; i += 16 {
			p := New(Options{})
			p.Write(doc[:min(i, len(doc))], nil)
			p.Value()
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(doc)), "ns/byte")
}

// BenchmarkLongString20B: a write_file call's arguments, a 100 KB string of
// prose with newlines and quotes (escaped), written in 20-byte deltas, as
// tool-argument tokens stream it: the cost of reading a string's bytes.
func BenchmarkLongString20B(b *testing.B) {
	words := strings.Fields(`the a of to and in is it that for on with as "quoted" value result error file path`)
	var text strings.Builder
	for i := 0; text.Len() < 100_000; i++ {
		if i%9 == 8 {
			text.WriteString("\n")
		}
		text.WriteString(words[i*7919%len(words)] + " ")
	}
	raw, _ := json.Marshal(map[string]string{"content": text.String()})
	doc := string(raw)
	b.SetBytes(int64(len(doc)))
	emit := func(Edit) {}
	for b.Loop() {
		p := New(Options{JSText: true, Ends: true})
		for i := 0; i < len(doc); i += 20 {
			p.Write(doc[i:min(i+20, len(doc))], emit)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(doc)), "ns/byte")
}
