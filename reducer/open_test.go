package reducer

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestRunEndStopsWhatIsOpen: a run's end stops every streaming message
// (and running tool call), those of earlier runs reopened or restored
// included, as a scan of the whole conversation does.
func TestRunEndStopsWhatIsOpen(t *testing.T) {
	for _, tc := range []struct{ name, events string }{
		{"reopened", `{"type":"RUN_STARTED","threadId":"t","runId":"r0"}
{"type":"TEXT_MESSAGE_START","messageId":"a"}
{"type":"REASONING_MESSAGE_START","messageId":"b","role":"reasoning"}
{"type":"RUN_FINISHED"}
{"type":"RUN_STARTED","threadId":"t","runId":"r1"}
{"type":"TEXT_MESSAGE_START","messageId":"c"}
{"type":"TEXT_MESSAGE_START","messageId":"a"}
{"type":"REASONING_MESSAGE_START","messageId":"b","role":"reasoning"}
{"type":"RUN_FINISHED"}`},
		{"snapshot", `{"type":"RUN_STARTED","threadId":"t","runId":"r0"}
{"type":"TEXT_MESSAGE_START","messageId":"a"}
{"type":"RUN_FINISHED"}
{"type":"RUN_STARTED","threadId":"t","runId":"r1"}
{"type":"MESSAGES_SNAPSHOT","messages":[{"id":"x","role":"user","content":"hi"}]}
{"type":"TEXT_MESSAGE_START","messageId":"y"}
{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"f","parentMessageId":"y"}
{"type":"RUN_ERROR","message":"boom"}`},
		{"resent", `{"type":"RUN_STARTED","threadId":"t","runId":"r0"}
{"type":"TEXT_MESSAGE_START","messageId":"a"}
{"type":"TOOL_CALL_START","toolCallId":"c0","toolCallName":"f","parentMessageId":"a"}
{"type":"RUN_STARTED","threadId":"t","runId":"r0"}
{"type":"TEXT_MESSAGE_START","messageId":"a"}
{"type":"RUN_FINISHED"}`},
	} {
		r := New(Options{})
		for _, ev := range strings.Split(tc.events, "\n") {
			r.Apply([]byte(ev))
		}
		for _, m := range r.State().Messages {
			require.False(t, m.Streaming, "%s: message %s", tc.name, m.ID)
		}
		for _, c := range r.State().ToolCalls {
			require.NotEqual(t, ToolRunning, c.Status, "%s: tool call %s", tc.name, c.ID)
		}
		// Restored mid-run, the run's end stops what the snapshot shows open.
		snap := r.Snapshot()
		open := strings.Replace(strings.Replace(string(snap), `"streaming":false`, `"streaming":true`, 1), `"status":"idle"`, `"status":"running"`, 1)
		require.NoError(t, r.Load([]byte(open)))
		r.Apply([]byte(`{"type":"RUN_FINISHED"}`))
		for _, m := range r.State().Messages {
			require.False(t, m.Streaming, "%s, restored: message %s", tc.name, m.ID)
		}
	}
}
