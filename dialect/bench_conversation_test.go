package dialect

import (
	"bytes"
	"os"
	"strconv"
	"testing"

	"github.com/agui-reducer/agui/reducer"
)

// chatConversation returns the events of a conversation of n turns, each
// turn ../wasm/testdata/chat-turn.jsonl (bench/gen.mjs's turn: reasoning,
// a streamed answer, a tool call with its result, a state delta; 261
// events, nearly all streamed tokens) with its ids made the turn's own.
// The state snapshot is the first turn's only, so the state grows by a
// note and a fact per turn, as bench/gen.mjs's does. (The same as package
// reducer's benchmark builds.)
func chatConversation(tb testing.TB, n int) [][]byte {
	data, err := os.ReadFile("../wasm/testdata/chat-turn.jsonl")
	if err != nil {
		tb.Fatal(err)
	}
	turn := bytes.Split(bytes.TrimSpace(data), []byte("\n"))
	ids := [][]byte{[]byte(`msg_RshYtgszWQ8DFqT6BjWqHLPu"`), []byte(`rs_YbBZSrAuXP820kp7TFkYU3Ui"`), []byte(`tool_rh4KS02ioMMnfwNT7Q3JNEcO"`),
		[]byte(`call_uGhbmQQhQGdNgGBtEe2manQH"`), []byte(`be8aca44-14f9-407c-b3d1-882611fd30f9"`), []byte(`berlin_1"`)}
	var events [][]byte
	for k := range n {
		suffix := []byte("_" + strconv.Itoa(k) + `"`)
		for _, ev := range turn {
			if k > 0 && bytes.HasPrefix(ev, []byte(`{"type":"STATE_SNAPSHOT"`)) {
				continue
			}
			for _, id := range ids {
				ev = bytes.ReplaceAll(ev, id, append(id[:len(id)-1:len(id)-1], suffix...))
			}
			events = append(events, ev)
		}
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
