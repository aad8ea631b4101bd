package reducer

import (
	"testing"

	"github.com/agui-reducer/agui/internal/chatconv"
)

// BenchmarkFoldConversation: a whole conversation of 25 and 100 turns
// (internal/chatconv) folded by a fresh reducer, each event's change record
// written as JSON (as the wasm bridge does), garbage collection included:
// the reducer's part of what a page pays for a whole chat.
func BenchmarkFoldConversation(b *testing.B) {
	var out []byte
	chatconv.Bench(b, "../wasm/testdata/chat-turn.jsonl", func(events [][]byte) int {
		r := New(Options{})
		var c Change
		for _, ev := range events {
			r.ApplyInto(&c, ev)
			out = c.AppendJSON(out[:0])
		}
		return len(r.State().Messages)
	})
}
