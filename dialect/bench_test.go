package dialect

import (
	"testing"

	"github.com/agui-reducer/agui/reducer"
)

// benchCases are one streamed token in each dialect, after a start that
// opens the message: "agui" is the canonical token every default host
// (createReducer({}), auto detection) passes through the translator.
var benchCases = []struct{ name, sse, start, ev string }{
	{"agui", "", `{"type":"TEXT_MESSAGE_START","messageId":"live","role":"assistant"}`, `{"type":"TEXT_MESSAGE_CONTENT","messageId":"live","delta":" token"}`},
	{"streaming", "", `{"event":"token","token":"x"}`, `{"event":"token","thread_id":"t1","token":" token"}`},
	{"tanstack", "", `{"type":"content","id":"r1","delta":"x"}`, `{"type":"content","id":"r1","delta":" token"}`},
	{"sse-contract", "message", `{"content":"x"}`, `{"content":" token"}`},
}

// BenchmarkDialectFold: one token through translator → reducer (auto
// detection), change record as JSON: the path of the web module's apply().
func BenchmarkDialectFold(b *testing.B) {
	for _, k := range benchCases {
		b.Run(k.name, func(b *testing.B) {
			var p *pipeline
			var c reducer.Change
			start := func() {
				p = newPipeline(Options{})
				p.ApplyFrameInto(&c, k.sse, []byte(k.start))
			}
			start()
			ev := []byte(k.ev)
			var out []byte
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if i%(1<<20) == 0 && i > 0 {
					b.StopTimer()
					start() // stay under the field limit
					b.StartTimer()
				}
				p.ApplyFrameInto(&c, k.sse, ev)
				out = c.AppendJSON(out[:0])
			}
			if c.HasError() {
				b.Fatal(c.Diagnostics)
			}
		})
	}
}

// BenchmarkTranslate: the translator alone, its events discarded.
func BenchmarkTranslate(b *testing.B) {
	for _, k := range benchCases {
		b.Run(k.name, func(b *testing.B) {
			t := New(Options{})
			n := 0
			emit := func([]byte) { n++ }
			t.Translate(k.sse, []byte(k.start), emit)
			ev := []byte(k.ev)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if d := t.Translate(k.sse, ev, emit); len(d) > 0 {
					b.Fatal(d)
				}
			}
		})
	}
}
