package sse

import (
	"strconv"
	"strings"
	"testing"
)

// benchStream returns about 1 MB of AG-UI events of about 200 bytes each.
func benchStream() []byte {
	var b strings.Builder
	for i := 0; b.Len() < 1<<20; i++ {
		ev := "id: " + strconv.Itoa(i) + "\n" +
			`data: {"type":"TEXT_MESSAGE_CONTENT","messageId":"msg_0123456789","delta":"`
		pad := 200 - len(ev) - len("\"}\n\n")
		ev += strings.Repeat("héllo wörld ", pad/13+1)[:pad-2] + "😀" + "\"}\n\n"
		b.WriteString(ev)
	}
	return []byte(b.String())
}

func BenchmarkFeed(b *testing.B) {
	in := benchStream()
	want, _ := ParseAll(in)
	for _, size := range []int{len(in), 1024, 7} {
		chunks := bytesChunks(in, size)
		name := "chunk=" + strconv.Itoa(size)
		if size == len(in) {
			name = "whole"
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			b.ReportAllocs()
			p := NewParser(Options{})
			n := 0
			emit := func(Event) { n++ }
			for b.Loop() {
				n = 0
				for _, c := range chunks {
					p.Feed(c, emit)
				}
				p.Close(emit)
			}
			if n != len(want) {
				b.Fatalf("got %d events, want %d", n, len(want))
			}
		})
	}
}

// BenchmarkLongLine feeds a single 1 MB data line in small chunks, which
// would be quadratic if the partial line were re-scanned on every Feed.
func BenchmarkLongLine(b *testing.B) {
	in := []byte("data: " + strings.Repeat("0123456789abcdef", 1<<16) + "\n\n")
	for _, size := range []int{len(in), 1024, 7} {
		chunks := bytesChunks(in, size)
		name := "chunk=" + strconv.Itoa(size)
		if size == len(in) {
			name = "whole"
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			p := NewParser(Options{})
			n := 0
			emit := func(Event) { n++ }
			for b.Loop() {
				for _, c := range chunks {
					p.Feed(c, emit)
				}
			}
			if n == 0 {
				b.Fatal("no event")
			}
		})
	}
}
