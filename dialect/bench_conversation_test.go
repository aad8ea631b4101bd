package dialect

import (
	"testing"

	"github.com/agui-reducer/agui/internal/chatconv"
	"github.com/agui-reducer/agui/reducer"
)

// BenchmarkPipelineConversation: a whole conversation of 25 and 100 turns
// (internal/chatconv) through a Pipeline (auto-detecting translator →
// reducer) as the web module's bridge folds it, each change record written
// as JSON, garbage collection included.
func BenchmarkPipelineConversation(b *testing.B) {
	var out []byte
	chatconv.Bench(b, "../wasm/testdata/chat-turn.jsonl", func(events [][]byte) int {
		r := reducer.New(reducer.Options{})
		p := NewPipeline(r, New(Options{}))
		var c reducer.Change
		for _, ev := range events {
			p.Apply(&c, "", ev)
			out = c.AppendJSON(out[:0])
		}
		return len(r.State().Messages)
	})
}
