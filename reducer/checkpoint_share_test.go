package reducer

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCheckpointSharesMessages: a run's checkpoint shares the message
// list with the state; a handler that changes the list in place (a tool
// result inserted before earlier messages, an activity snapshot replacing
// a message) copies it first, so that a resent run rewinds to the list as
// it was, in each order.
func TestCheckpointSharesMessages(t *testing.T) {
	before := []string{
		`{"type":"RUN_STARTED","threadId":"t","runId":"r0"}`,
		`{"type":"TEXT_MESSAGE_START","messageId":"a0"}`,
		`{"type":"TOOL_CALL_START","toolCallId":"c0","toolCallName":"f","parentMessageId":"a0"}`,
		`{"type":"TOOL_CALL_END","toolCallId":"c0"}`,
		`{"type":"TEXT_MESSAGE_START","messageId":"b0"}`,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"b0","delta":"b"}`,
		`{"type":"RUN_FINISHED","threadId":"t","runId":"r0"}`,
	}
	inPlace := []string{
		`{"type":"TOOL_CALL_RESULT","messageId":"tr0","toolCallId":"c0","content":"x"}`,
		`{"type":"ACTIVITY_SNAPSHOT","messageId":"b0","activityType":"plan","content":{"a":1}}`,
		`{"type":"TEXT_MESSAGE_START","messageId":"d1"}`,
	}
	for _, order := range [][]int{{0, 1, 2}, {1, 0, 2}, {2, 1, 0}, {0}, {1}} {
		r := New(Options{})
		for _, ev := range before {
			require.Empty(t, r.Apply([]byte(ev)).Diagnostics, ev)
		}
		start := `{"type":"RUN_STARTED","threadId":"t","runId":"r1"}`
		r.Apply([]byte(start))
		atStart := string(r.Snapshot())
		for _, i := range order {
			require.Empty(t, r.Apply([]byte(inPlace[i])).Diagnostics, inPlace[i])
		}
		c := r.Apply([]byte(start)) // resent: rewound to its start
		require.Equal(t, "resent_run", c.Diagnostics[0].Code)
		require.JSONEq(t, atStart, string(r.Snapshot()), "order %v", order)
		for _, i := range order {
			r.Apply([]byte(inPlace[i]))
		}
		once := New(Options{})
		for _, ev := range before {
			once.Apply([]byte(ev))
		}
		once.Apply([]byte(start))
		for _, i := range order {
			once.Apply([]byte(inPlace[i]))
		}
		require.JSONEq(t, string(once.Snapshot()), string(r.Snapshot()), "order %v", order)
	}
}
