//go:build js && wasm

package main

import (
	"runtime"
	"sync/atomic"
	"testing"
)

// TestPacerYields: under js/wasm (one thread, no preemption) a goroutine
// that is ready runs only when the calling goroutine yields. The pacer
// does not yield before its every-th call, nor ever when every is 0, and
// its yields let the goroutine run (which one the scheduler picks first
// after a yield is its own business, so within a few of them).
func TestPacerYields(t *testing.T) {
	for _, every := range []uint32{0, 1, 3} {
		var ran atomic.Bool
		go ran.Store(true)
		p := pacer{every: every}
		quiet := every - 1 // calls before the first yield
		if every == 0 {
			quiet = 100
		}
		for range quiet {
			p.tick()
		}
		if ran.Load() {
			t.Fatalf("every %d: the ready goroutine ran within %d calls, before any yield", every, quiet)
		}
		if every != 0 {
			for range 20 * every {
				p.tick()
				if ran.Load() {
					break
				}
			}
			if !ran.Load() {
				t.Fatalf("every %d: the ready goroutine never ran in %d calls", every, 20*every)
			}
		}
		for !ran.Load() {
			runtime.Gosched() // let it finish before the next case
		}
	}
}
