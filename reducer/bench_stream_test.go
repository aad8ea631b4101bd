package reducer

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkFoldCorpus: every stream of testdata/streams folded by a fresh
// reducer per stream, in default and strict mode: the mix of event kinds
// real agents send (text, tools, reasoning, state, activity, chunks).
func BenchmarkFoldCorpus(b *testing.B) {
	files, _ := filepath.Glob("../testdata/streams/*.jsonl")
	var streams [][][]byte
	events := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		var lines [][]byte
		for _, l := range bytes.Split(data, []byte("\n")) {
			if l = bytes.TrimSpace(l); len(l) > 0 {
				lines = append(lines, l)
			}
		}
		streams = append(streams, lines)
		events += len(lines)
	}
	for _, strict := range []bool{false, true} {
		name := "default"
		if strict {
			name = "strict"
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			b.ReportMetric(float64(events), "events/op")
			var c Change
			for i := 0; i < b.N; i++ {
				for _, s := range streams {
					r := New(Options{Strict: strict})
					for _, ev := range s {
						r.ApplyInto(&c, ev)
					}
				}
			}
		})
	}
}
