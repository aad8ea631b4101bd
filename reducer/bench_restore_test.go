package reducer

import (
	"strconv"
	"strings"
	"testing"
)

// manyMessagesSnapshot is a snapshot of n short user messages.
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

// BenchmarkRestore: Restore of a snapshot of 100k messages, and the change
// record a host sends on (the whole document).
func BenchmarkRestore(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			snap := manyMessagesSnapshot(n)
			b.SetBytes(int64(len(snap)))
			var out []byte
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				r := New(Options{})
				c, err := r.Restore(snap)
				if err != nil {
					b.Fatal(err)
				}
				out = c.AppendJSON(out[:0])
			}
		})
	}
}
