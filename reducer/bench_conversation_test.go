package reducer

import (
	"strconv"
	"testing"

	"github.com/agui-reducer/agui/internal/chatconv"
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

// BenchmarkFoldConversation: a whole conversation of 25 and 100 turns
// folded by a fresh reducer, each event's change record written as JSON
// (as the wasm bridge does), garbage collection included: the reducer's
// part of what a page pays for a whole chat. Its cost per event must not
// grow with the conversation.
func BenchmarkFoldConversation(b *testing.B) {
	for _, turns := range []int{25, 100} {
		events := chatConversation(b, turns)
		b.Run("turns="+strconv.Itoa(turns), func(b *testing.B) {
			b.ReportAllocs()
			var out []byte
			for b.Loop() {
				r := New(Options{})
				var c Change
				for _, ev := range events {
					r.ApplyInto(&c, ev)
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
