package dialect

import (
	"strconv"
	"testing"

	"github.com/agui-reducer/agui/internal/chatconv"
	"github.com/agui-reducer/agui/reducer"
)

// chatConversation returns the events of a conversation of n turns
// (internal/chatconv: the recorded chat turn, its ids made each turn's own).
func chatConversation(tb testing.TB, n int) [][]byte {
	events, err := chatconv.Read("../wasm/testdata/chat-turn.jsonl", n)
	if err != nil {
		tb.Fatal(err)
	}
	return events
}

// BenchmarkPipelineConversation: a whole conversation of 25 and 100 turns
// through a Pipeline (auto-detecting translator → reducer) as the web
// module's bridge folds it, each change record written as JSON, garbage
// collection included. Its cost per event must not grow with the
// conversation.
func BenchmarkPipelineConversation(b *testing.B) {
	for _, turns := range []int{25, 100} {
		events := chatConversation(b, turns)
		b.Run("turns="+strconv.Itoa(turns), func(b *testing.B) {
			b.ReportAllocs()
			var out []byte
			for b.Loop() {
				r := reducer.New(reducer.Options{})
				p := NewPipeline(r, New(Options{}))
				var c reducer.Change
				for _, ev := range events {
					p.Apply(&c, "", ev)
					out = c.AppendJSON(out[:0])
				}
				if len(r.State().Messages) != 3*turns {
					b.Fatalf("%d messages after %d turns", len(r.State().Messages), turns)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(events)), "ns/event")
		})
	}
}
