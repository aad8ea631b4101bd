package main

import "runtime"

// A pacer gives the Go scheduler a turn every few bridge calls.
//
// Why: js/wasm runs on one thread and nothing preempts a call, so the
// collector's background mark worker runs only when the goroutine JS called
// into yields, and that goroutine never blocks. A collection's mark phase
// then lasts until allocation assists finish it: in a 100-turn fold, 48 ms
// of the fold's ~100, every pointer write paying the write barrier and
// every allocation its assist. A yield every 64 calls lets the worker mark
// in slices between events: the phase lasts ~10 ms and the fold is ~10%
// faster (BenchmarkBridgePace under GOOS=js). A yield with nothing else to
// run costs ~0.4 µs, so yielding on every call would cost more than it
// saves.
type pacer struct {
	every uint32 // 0: never yield
	calls uint32
}

// yieldEvery is how many calls the bridge's pacer lets pass between yields.
const yieldEvery = 64

// pace paces the exports (recoverCall ticks it after every call that
// returns normally).
var pace = pacer{every: yieldEvery}

// tick counts a call and yields on every p.every-th.
func (p *pacer) tick() {
	p.calls++
	if p.every != 0 && p.calls%p.every == 0 {
		runtime.Gosched()
	}
}
