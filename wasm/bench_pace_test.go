package main

import (
	"strconv"
	"testing"

	"github.com/agui-reducer/agui/internal/chatconv"
)

// BenchmarkBridgePace: whole conversations of 25 and 100 turns folded
// through the bridge as JS calls it (create, applyCompact per event), with
// the pacer's yield every yieldEvery calls (what the exports do) and with
// none. It measures what it should under GOOS=js GOARCH=wasm (make bench
// runs it so): there the collector's mark worker runs only when the caller
// yields (pace.go). Natively the worker has threads of its own.
func BenchmarkBridgePace(b *testing.B) {
	fold := func(p *pacer, events [][]byte) int {
		h := create([]byte(`{"dialect":"agui"}`))
		for _, ev := range events {
			if applyCompact(h, nil, ev) < 0 {
				b.Fatal("apply failed")
			}
			p.tick()
		}
		n := len(instances[h].r.State().Messages)
		dispose(h)
		return n
	}
	// Untimed: V8 runs WebAssembly on its baseline compiler until a
	// function is hot, which would fall on the first sub-benchmark.
	events, err := chatconv.Read("testdata/chat-turn.jsonl", 25)
	if err != nil {
		b.Fatal(err)
	}
	for range 4 {
		fold(&pacer{every: yieldEvery}, events)
	}
	for _, every := range []uint32{0, yieldEvery} {
		b.Run("yieldEvery="+strconv.Itoa(int(every)), func(b *testing.B) {
			p := pacer{every: every}
			chatconv.Bench(b, "testdata/chat-turn.jsonl", func(events [][]byte) int { return fold(&p, events) })
		})
	}
}
