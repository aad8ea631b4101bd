package chatconv

import (
	"bytes"
	"os"
	"strconv"
	"testing"
)

// The ids of the recorded turn, each with its closing quote, so that one
// that is a prefix of another is not renamed inside it.
var turnIDs = [][]byte{[]byte(`msg_RshYtgszWQ8DFqT6BjWqHLPu"`), []byte(`rs_YbBZSrAuXP820kp7TFkYU3Ui"`), []byte(`tool_rh4KS02ioMMnfwNT7Q3JNEcO"`),
	[]byte(`call_uGhbmQQhQGdNgGBtEe2manQH"`), []byte(`be8aca44-14f9-407c-b3d1-882611fd30f9"`), []byte(`berlin_1"`)}

// Read returns the events of a conversation of n turns of the recorded
// turn at path (the JSON Lines of wasm/testdata/chat-turn.jsonl), one
// event's JSON text per element.
func Read(path string, n int) ([][]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	turn := bytes.Split(bytes.TrimSpace(data), []byte("\n"))
	var events [][]byte
	for k := range n {
		suffix := []byte("_" + strconv.Itoa(k) + `"`)
		for _, ev := range turn {
			if k > 0 && bytes.HasPrefix(ev, []byte(`{"type":"STATE_SNAPSHOT"`)) {
				continue
			}
			for _, id := range turnIDs {
				ev = bytes.ReplaceAll(ev, id, append(id[:len(id)-1:len(id)-1], suffix...))
			}
			events = append(events, ev)
		}
	}
	return events, nil
}

// Bench runs b over whole conversations of 25 and 100 turns read from path
// (a sub-benchmark each): fold folds one conversation's events with a fresh
// folder and returns how many messages it holds then (3 per turn, else the
// benchmark fails). Allocations, garbage collection included, and the time
// per event are reported: the cost per event must not grow with the
// conversation.
func Bench(b *testing.B, path string, fold func(events [][]byte) int) {
	for _, turns := range []int{25, 100} {
		events, err := Read(path, turns)
		if err != nil {
			b.Fatal(err)
		}
		b.Run("turns="+strconv.Itoa(turns), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if n := fold(events); n != 3*turns {
					b.Fatalf("%d messages after %d turns", n, turns)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(events)), "ns/event")
		})
	}
}
