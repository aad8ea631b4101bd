package reducer

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// restore(snapshot()) is exact mid-run: the reducer restored at any point
// of a run with tool calls reports the same pendingToolCallIds at its end,
// and snapshots the same bytes after every later event.
func TestTallyRestoreMidRun(t *testing.T) {
	lines := []string{
		`{"type":"RUN_STARTED","threadId":"t","runId":"r1"}`,
		`{"type":"TOOL_CALL_START","toolCallId":"a","toolCallName":"search","parentMessageId":"m1"}`,
		`{"type":"TOOL_CALL_END","toolCallId":"a"}`,
		`{"type":"TOOL_CALL_RESULT","messageId":"ra","toolCallId":"b","content":"early"}`,
		`{"type":"TOOL_CALL_START","toolCallId":"b","toolCallName":"fetch","parentMessageId":"m1"}`,
		`{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"ask","parentMessageId":"m1"}`,
		`{"type":"TOOL_CALL_RESULT","messageId":"rc","toolCallId":"c","content":"done"}`,
		`{"type":"TOOL_CALL_START","toolCallId":"a","toolCallName":"search"}`,
		`{"type":"RUN_FINISHED","threadId":"t","runId":"r1"}`,
	}
	whole := New(Options{})
	foldLines(t, whole, lines)
	require.Equal(t, []string{"a"}, whole.State().PendingToolCallIDs)
	require.True(t, whole.State().RunToolCalls.empty(), "the run's end clears the tally")
	for cut := 1; cut < len(lines); cut++ {
		r := New(Options{})
		foldLines(t, r, lines[:cut])
		r2 := New(Options{})
		_, err := r2.Restore(r.Snapshot())
		require.NoError(t, err)
		for i, l := range lines[cut:] {
			r.Apply([]byte(l))
			r2.Apply([]byte(l))
			require.JSONEq(t, string(r.Snapshot()), string(r2.Snapshot()), "cut %d, event %d", cut, cut+i)
		}
		require.Equal(t, []string{"a"}, r2.State().PendingToolCallIDs, "cut %d", cut)
	}
}

// A snapshot made before the tally was kept (no runToolCalls) restores as
// a snapshot of no tally; a malformed tally is bad_snapshot.
func TestTallyRestoreOlderSnapshot(t *testing.T) {
	r := New(Options{})
	_, err := r.Restore([]byte(`{"threadId":"t","runId":"r1","status":"running","isLoading":true,"error":null,"messages":[],"toolCalls":[],"state":{},"steps":[],"interrupts":[],"usage":[],"pendingToolCallIds":[],"subagents":[]}`))
	require.NoError(t, err)
	r.Apply([]byte(`{"type":"TOOL_CALL_START","toolCallId":"a","toolCallName":"x"}`))
	c := r.Apply([]byte(`{"type":"RUN_FINISHED","threadId":"t","runId":"r1"}`))
	require.False(t, refused(c))
	require.Equal(t, []string{"a"}, r.State().PendingToolCallIDs)

	_, err = r.Restore([]byte(`{"threadId":"t","runId":"r1","status":"running","messages":[],"toolCalls":[],"state":{},"runToolCalls":{"started":[1]}}`))
	require.Error(t, err)
	require.Equal(t, "bad_snapshot", err.(*Error).Code)
}
