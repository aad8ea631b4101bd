package main

import (
	"strconv"
	"strings"
	"testing"
)

// manyMessagesSnapshot is a snapshot of n short user messages, as
// bench/reliability.mjs makes it.
func manyMessagesSnapshot(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"threadId":"t","runId":"","status":"idle","isLoading":false,"error":null,"messages":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		id := strconv.Itoa(i)
		b.WriteString(`{"id":"m` + id + `","role":"user","content":"message number ` + id + `","streaming":false}`)
	}
	b.WriteString(`],"toolCalls":[],"state":{},"steps":[],"interrupts":[],"usage":[],"pendingToolCallIds":[],"subagents":[]}`)
	return []byte(b.String())
}

// BenchmarkBridgeRestore: the bridge's restore call on a fresh reducer (the
// reducer's Restore, the translator's Resume, the change record written
// out), as bench/reliability.mjs times the wasm call.
func BenchmarkBridgeRestore(b *testing.B) {
	snap := manyMessagesSnapshot(100_000)
	b.SetBytes(int64(len(snap)))
	b.ReportAllocs()
	for b.Loop() {
		h := create([]byte(`{}`))
		if _, ok := result(restore(h, snap)); !ok {
			b.Fatal("restore failed")
		}
		dispose(h)
	}
}
