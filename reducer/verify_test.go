package reducer

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Strict mode reports what @ag-ui/client 1.0.0's verifyEvents throws on
// (client src/verify/verify.ts), with its message: one row per rule. Every
// event of a row but the last must pass; the last must be reported with
// exactly want ("" means it passes too).
func TestVerify10(t *testing.T) {
	const rs = `{"type":"RUN_STARTED","threadId":"t","runId":"r"}`
	tests := []struct {
		name   string
		events []string
		want   string
	}{
		// Run lifecycle.
		{"first event", []string{`{"type":"TEXT_MESSAGE_START","messageId":"m"}`}, "First event must be 'RUN_STARTED'"},
		{"run error first is fine", []string{`{"type":"RUN_ERROR","message":"x"}`}, ""},
		{"after run error", []string{rs, `{"type":"RUN_ERROR","message":"x"}`, `{"type":"CUSTOM","name":"c","value":1}`}, "Cannot send event type 'CUSTOM': The run has already errored with 'RUN_ERROR'. No further events can be sent."},
		{"after run finished", []string{rs, `{"type":"RUN_FINISHED","threadId":"t","runId":"r"}`, `{"type":"STEP_STARTED","stepName":"s"}`}, "Cannot send event type 'STEP_STARTED': The run has already finished with 'RUN_FINISHED'. Start a new run with 'RUN_STARTED'."},
		{"run started while active", []string{rs, `{"type":"RUN_STARTED","threadId":"t","runId":"r2"}`}, "Cannot send 'RUN_STARTED' while a run is still active. The previous run must be finished with 'RUN_FINISHED' before starting a new run."},
		{"a new run after an error", []string{rs, `{"type":"RUN_ERROR","message":"x"}`, rs, `{"type":"TEXT_MESSAGE_START","messageId":"m"}`}, ""},

		// Null checks before the type switch.
		{"null tag", []string{rs, `{"type":"STATE_SNAPSHOT","snapshot":{},"subagentRunId":null}`}, "Cannot send 'STATE_SNAPSHOT' with 'subagentRunId: null'. The field is optional — omit it entirely."},
		{"null tag on a token", []string{rs, `{"type":"TEXT_MESSAGE_START","messageId":"m"}`, `{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"a","subagentRunId":null}`}, "Cannot send 'TEXT_MESSAGE_CONTENT' with 'subagentRunId: null'. The field is optional — omit it entirely."},
		{"null tag on a run event", []string{rs, `{"type":"RUN_FINISHED","threadId":"t","runId":"r","subagentRunId":null}`}, "Cannot send 'RUN_FINISHED' with 'subagentRunId: null'. The field is optional — omit it entirely."},
		{"subagent null description", []string{rs, `{"type":"SUBAGENT_STARTED","subagentRunId":"s","name":"n","description":null}`}, "Cannot send 'SUBAGENT_STARTED' with 'description: null'. The field is optional — omit it entirely."},
		{"subagent null parentSubagentRunId", []string{rs, `{"type":"SUBAGENT_STARTED","subagentRunId":"s","name":"n","parentSubagentRunId":null}`}, "Cannot send 'SUBAGENT_STARTED' with 'parentSubagentRunId: null'. The field is optional — omit it entirely."},
		{"subagent null parentToolCallId", []string{rs, `{"type":"SUBAGENT_STARTED","subagentRunId":"s","name":"n","parentToolCallId":null}`}, "Cannot send 'SUBAGENT_STARTED' with 'parentToolCallId: null'. The field is optional — omit it entirely."},
		{"subagent null parentMessageId", []string{rs, `{"type":"SUBAGENT_STARTED","subagentRunId":"s","name":"n","parentMessageId":null}`}, "Cannot send 'SUBAGENT_STARTED' with 'parentMessageId: null'. The field is optional — omit it entirely."},
		{"subagent null outcome", []string{rs, `{"type":"SUBAGENT_STARTED","subagentRunId":"s","name":"n"}`, `{"type":"SUBAGENT_FINISHED","subagentRunId":"s","outcome":null}`}, "Cannot send 'SUBAGENT_FINISHED' with 'outcome: null'. The field is optional — omit it entirely."},
		{"subagent null code", []string{rs, `{"type":"SUBAGENT_STARTED","subagentRunId":"s","name":"n"}`, `{"type":"SUBAGENT_ERROR","subagentRunId":"s","message":"m","code":null}`}, "Cannot send 'SUBAGENT_ERROR' with 'code: null'. The field is optional — omit it entirely."},
		{"subagent outcome type", []string{rs, `{"type":"SUBAGENT_STARTED","subagentRunId":"s","name":"n"}`, `{"type":"SUBAGENT_FINISHED","subagentRunId":"s","outcome":{"type":"paused"}}`}, `Cannot send 'SUBAGENT_FINISHED' with outcome type 'paused'. The outcome is either { type: "success" } or { type: "suspended" }.`},
		{"interrupt null tag", []string{rs, `{"type":"RUN_FINISHED","threadId":"t","runId":"r","outcome":{"type":"interrupt","interrupts":[{"id":"i1","reason":"x","subagentRunId":null}]}}`}, "Cannot send 'RUN_FINISHED' with an interrupt (id 'i1') carrying 'subagentRunId: null'. The field is optional — omit it entirely."},
		{"snapshot message null tag", []string{rs, `{"type":"MESSAGES_SNAPSHOT","messages":[{"id":"u","role":"user","content":"hi","subagentRunId":null}]}`}, "Cannot send a message (id 'u') with 'subagentRunId: null'. The field is optional — omit it entirely."},
		{"input message null tag", []string{`{"type":"RUN_STARTED","threadId":"t","runId":"r","input":{"threadId":"t","runId":"r","messages":[{"id":"u","role":"user","content":"hi","subagentRunId":null}],"tools":[],"context":[],"state":{},"forwardedProps":{}}}`}, "Cannot send a message (id 'u') with 'subagentRunId: null'. The field is optional — omit it entirely."},

		// Text messages.
		{"text start twice", []string{rs, `{"type":"TEXT_MESSAGE_START","messageId":"m"}`, `{"type":"TEXT_MESSAGE_START","messageId":"m"}`}, "Cannot send 'TEXT_MESSAGE_START' event: A text message with ID 'm' is already in progress. Complete it with 'TEXT_MESSAGE_END' first."},
		{"text content not open", []string{rs, `{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"a"}`}, "Cannot send 'TEXT_MESSAGE_CONTENT' event: No active text message found with ID 'm'. Start a text message with 'TEXT_MESSAGE_START' first."},
		{"text end not open", []string{rs, `{"type":"TEXT_MESSAGE_END","messageId":"m"}`}, "Cannot send 'TEXT_MESSAGE_END' event: No active text message found with ID 'm'. A 'TEXT_MESSAGE_START' event must be sent first."},
		{"text tag disagrees with opener", []string{rs, `{"type":"TEXT_MESSAGE_START","messageId":"m","subagentRunId":"s1"}`, `{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"a","subagentRunId":"s2"}`}, "Cannot send 'TEXT_MESSAGE_CONTENT': subagentRunId 's2' does not match the message 'm' opener's subagent 's1'."},
		{"tag on a parent-owned message", []string{rs, `{"type":"TEXT_MESSAGE_START","messageId":"m"}`, `{"type":"TEXT_MESSAGE_END","messageId":"m","subagentRunId":"s1"}`}, "Cannot send 'TEXT_MESSAGE_END': subagentRunId 's1' does not match the message 'm' opener's subagent '(the parent agent)'."},
		{"untagged continuation agrees", []string{rs, `{"type":"TEXT_MESSAGE_START","messageId":"m","subagentRunId":"s1"}`, `{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"a"}`}, ""},
		{"reopen by another owner after end", []string{rs, `{"type":"TEXT_MESSAGE_START","messageId":"m","subagentRunId":"s1"}`, `{"type":"TEXT_MESSAGE_END","messageId":"m"}`, `{"type":"TEXT_MESSAGE_START","messageId":"m","subagentRunId":"s2"}`}, "Cannot send 'TEXT_MESSAGE_START': subagentRunId 's2' does not match the message 'm' opener's subagent 's1'."},
		{"tool result claims its message", []string{rs, `{"type":"TOOL_CALL_RESULT","messageId":"tm","toolCallId":"c","content":"x","subagentRunId":"s1"}`, `{"type":"TEXT_MESSAGE_START","messageId":"tm","subagentRunId":"s2"}`}, "Cannot send 'TEXT_MESSAGE_START': subagentRunId 's2' does not match the message 'tm' opener's subagent 's1'."},

		// Tool calls.
		{"tool start twice", []string{rs, `{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"f"}`, `{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"f"}`}, "Cannot send 'TOOL_CALL_START' event: A tool call with ID 'c' is already in progress. Complete it with 'TOOL_CALL_END' first."},
		{"tool args not open", []string{rs, `{"type":"TOOL_CALL_ARGS","toolCallId":"c","delta":"{"}`}, "Cannot send 'TOOL_CALL_ARGS' event: No active tool call found with ID 'c'. Start a tool call with 'TOOL_CALL_START' first."},
		{"tool end not open", []string{rs, `{"type":"TOOL_CALL_END","toolCallId":"c"}`}, "Cannot send 'TOOL_CALL_END' event: No active tool call found with ID 'c'. A 'TOOL_CALL_START' event must be sent first."},
		{"tool tag vs parent message", []string{rs, `{"type":"TEXT_MESSAGE_START","messageId":"m","subagentRunId":"s1"}`, `{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"f","parentMessageId":"m","subagentRunId":"s2"}`}, "Cannot send 'TOOL_CALL_START': subagentRunId 's2' does not match its parent message 'm' owner 's1'. A tool call belongs to the message that carries it."},
		{"tool reopened by another tag", []string{rs, `{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"f","subagentRunId":"s1"}`, `{"type":"TOOL_CALL_END","toolCallId":"c"}`, `{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"f","subagentRunId":"s2"}`}, "Cannot send 'TOOL_CALL_START': subagentRunId 's2' does not match the tool call 'c' opener's subagent 's1'."},
		{"untagged tool reopen under another's message", []string{rs, `{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"f","subagentRunId":"s1"}`, `{"type":"TOOL_CALL_END","toolCallId":"c"}`, `{"type":"TEXT_MESSAGE_START","messageId":"m"}`, `{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"f","parentMessageId":"m"}`}, "Cannot send 'TOOL_CALL_START': tool call 'c' is owned by 's1' but its parent message 'm' is owned by '(the parent agent)'. A tool call belongs to the message that carries it."},
		{"tool inherits its message's owner", []string{rs, `{"type":"TEXT_MESSAGE_START","messageId":"m","subagentRunId":"s1"}`, `{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"f","parentMessageId":"m"}`, `{"type":"TOOL_CALL_ARGS","toolCallId":"c","delta":"{","subagentRunId":"s2"}`}, "Cannot send 'TOOL_CALL_ARGS': subagentRunId 's2' does not match the tool call 'c' opener's subagent 's1'."},
		{"snapshot seeds tool owners", []string{rs, `{"type":"MESSAGES_SNAPSHOT","messages":[{"id":"a","role":"assistant","content":"","subagentRunId":"s1","toolCalls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{}"}}]}]}`, `{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"f","subagentRunId":"s2"}`}, "Cannot send 'TOOL_CALL_START': subagentRunId 's2' does not match the tool call 'c' opener's subagent 's1'."},

		// Reasoning (new in 1.0).
		{"reasoning span twice", []string{rs, `{"type":"REASONING_START","messageId":"r1"}`, `{"type":"REASONING_START","messageId":"r1"}`}, "Cannot send 'REASONING_START' event: A reasoning span with ID 'r1' is already in progress. Complete it with 'REASONING_END' first."},
		{"reasoning message twice", []string{rs, `{"type":"REASONING_MESSAGE_START","messageId":"r1","role":"reasoning"}`, `{"type":"REASONING_MESSAGE_START","messageId":"r1","role":"reasoning"}`}, "Cannot send 'REASONING_MESSAGE_START' event: A reasoning message with ID 'r1' is already in progress. Complete it with 'REASONING_MESSAGE_END' first."},
		{"span and message share an id", []string{rs, `{"type":"REASONING_START","messageId":"r1"}`, `{"type":"REASONING_MESSAGE_START","messageId":"r1","role":"reasoning"}`}, ""},
		{"reasoning content not open", []string{rs, `{"type":"REASONING_START","messageId":"r1"}`, `{"type":"REASONING_MESSAGE_CONTENT","messageId":"r1","delta":"a"}`}, "Cannot send 'REASONING_MESSAGE_CONTENT' event: No active reasoning message found with ID 'r1'. Start a reasoning message with 'REASONING_MESSAGE_START' first."},
		{"reasoning message end not open", []string{rs, `{"type":"REASONING_MESSAGE_END","messageId":"r1"}`}, "Cannot send 'REASONING_MESSAGE_END' event: No active reasoning message found with ID 'r1'. Start a reasoning message with 'REASONING_MESSAGE_START' first."},
		{"reasoning end not open", []string{rs, `{"type":"REASONING_END","messageId":"r1"}`}, "Cannot send 'REASONING_END' event: No active reasoning span found with ID 'r1'. A 'REASONING_START' event must be sent first."},
		{"reasoning tag disagrees", []string{rs, `{"type":"REASONING_START","messageId":"r1","subagentRunId":"s1"}`, `{"type":"REASONING_MESSAGE_START","messageId":"r1","role":"reasoning","subagentRunId":"s2"}`}, "Cannot send 'REASONING_MESSAGE_START': subagentRunId 's2' does not match the reasoning message 'r1' opener's subagent 's1'."},
		{"encrypted value on a tool call", []string{rs, `{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"f","subagentRunId":"s1"}`, `{"type":"TOOL_CALL_END","toolCallId":"c"}`, `{"type":"REASONING_ENCRYPTED_VALUE","subtype":"tool-call","entityId":"c","encryptedValue":"x","subagentRunId":"s2"}`}, "Cannot send 'REASONING_ENCRYPTED_VALUE': subagentRunId 's2' does not match the tool call 'c' opener's subagent 's1'."},
		{"encrypted value on a reasoning message", []string{rs, `{"type":"REASONING_MESSAGE_START","messageId":"r1","role":"reasoning","subagentRunId":"s1"}`, `{"type":"REASONING_ENCRYPTED_VALUE","subtype":"message","entityId":"r1","encryptedValue":"x","subagentRunId":"s2"}`}, "Cannot send 'REASONING_ENCRYPTED_VALUE': subagentRunId 's2' does not match the message 'r1' opener's subagent 's1'."},

		// Activity.
		{"activity delta disagrees", []string{rs, `{"type":"ACTIVITY_SNAPSHOT","messageId":"a","activityType":"p","content":{},"subagentRunId":"s1"}`, `{"type":"ACTIVITY_DELTA","messageId":"a","activityType":"p","patch":[],"subagentRunId":"s2"}`}, "Cannot send 'ACTIVITY_DELTA': subagentRunId 's2' does not match the activity 'a' opener's subagent 's1'."},
		{"activity replace:false keeps the owner", []string{rs, `{"type":"ACTIVITY_SNAPSHOT","messageId":"a","activityType":"p","content":{},"subagentRunId":"s1"}`, `{"type":"ACTIVITY_SNAPSHOT","messageId":"a","activityType":"p","content":{},"replace":false,"subagentRunId":"s2"}`, `{"type":"ACTIVITY_DELTA","messageId":"a","activityType":"p","patch":[],"subagentRunId":"s2"}`}, "Cannot send 'ACTIVITY_DELTA': subagentRunId 's2' does not match the activity 'a' opener's subagent 's1'."},
		{"activity delta on an unknown id", []string{rs, `{"type":"ACTIVITY_DELTA","messageId":"zz","activityType":"p","patch":[],"subagentRunId":"s2"}`}, ""},

		// Steps, keyed by owner and name.
		{"step twice", []string{rs, `{"type":"STEP_STARTED","stepName":"s"}`, `{"type":"STEP_STARTED","stepName":"s"}`}, `Step "s" is already active for 'STEP_STARTED'`},
		{"step twice in a subagent", []string{rs, `{"type":"STEP_STARTED","stepName":"s","subagentRunId":"a"}`, `{"type":"STEP_STARTED","stepName":"s","subagentRunId":"a"}`}, `Step "s" is already active for 'STEP_STARTED' in subagent 'a'`},
		{"same step name under two owners", []string{rs, `{"type":"STEP_STARTED","stepName":"s"}`, `{"type":"STEP_STARTED","stepName":"s","subagentRunId":"a"}`}, ""},
		{"step finished by another owner", []string{rs, `{"type":"STEP_STARTED","stepName":"s"}`, `{"type":"STEP_FINISHED","stepName":"s","subagentRunId":"a"}`}, `Cannot send 'STEP_FINISHED' for step "s" attributed to subagent 'a': that step is open under the parent agent. A step must be finished by whoever started it.`},
		{"step not started", []string{rs, `{"type":"STEP_FINISHED","stepName":"s"}`}, `Cannot send 'STEP_FINISHED' for step "s" that was not started`},

		// Subagents.
		{"subagent started twice", []string{rs, `{"type":"SUBAGENT_STARTED","subagentRunId":"s","name":"n"}`, `{"type":"SUBAGENT_STARTED","subagentRunId":"s","name":"n"}`}, "Cannot send 'SUBAGENT_STARTED': subagent 's' is already active. Finish it with 'SUBAGENT_FINISHED' first."},
		{"subagent id reused", []string{rs, `{"type":"SUBAGENT_STARTED","subagentRunId":"s","name":"n"}`, `{"type":"SUBAGENT_FINISHED","subagentRunId":"s"}`, `{"type":"SUBAGENT_STARTED","subagentRunId":"s","name":"n"}`}, "Cannot send 'SUBAGENT_STARTED': subagent 's' has already finished in this run. Subagent IDs are per-invocation and cannot be reused."},
		{"unknown parent subagent", []string{rs, `{"type":"SUBAGENT_STARTED","subagentRunId":"s","name":"n","parentSubagentRunId":"p"}`}, "Cannot send 'SUBAGENT_STARTED': parentSubagentRunId 'p' has not been started in this run."},
		{"empty parent id is an id", []string{rs, `{"type":"SUBAGENT_STARTED","subagentRunId":"s","name":"n","parentSubagentRunId":""}`}, "Cannot send 'SUBAGENT_STARTED': parentSubagentRunId '' has not been started in this run."},
		{"finished parent is fine", []string{rs, `{"type":"SUBAGENT_STARTED","subagentRunId":"p","name":"n"}`, `{"type":"SUBAGENT_ERROR","subagentRunId":"p","message":"x"}`, `{"type":"SUBAGENT_STARTED","subagentRunId":"s","name":"n","parentSubagentRunId":"p"}`}, ""},
		{"subagent finished not active", []string{rs, `{"type":"SUBAGENT_FINISHED","subagentRunId":"s"}`}, "Cannot send 'SUBAGENT_FINISHED': no active subagent found with ID 's'. A 'SUBAGENT_STARTED' event must be sent first."},
		{"subagent error not active", []string{rs, `{"type":"SUBAGENT_ERROR","subagentRunId":"s","message":"x"}`}, "Cannot send 'SUBAGENT_ERROR': no active subagent found with ID 's'. A 'SUBAGENT_STARTED' event must be sent first."},
		{"attribution needs no lifecycle", []string{rs, `{"type":"TEXT_MESSAGE_START","messageId":"m","subagentRunId":"ghost"}`}, ""},

		// RUN_FINISHED's open-entity checks, in their order.
		{"finish with steps", []string{rs, `{"type":"STEP_STARTED","stepName":"b","subagentRunId":"a"}`, `{"type":"STEP_STARTED","stepName":"s"}`, `{"type":"TEXT_MESSAGE_START","messageId":"m"}`, `{"type":"RUN_FINISHED","threadId":"t","runId":"r"}`}, "Cannot send 'RUN_FINISHED' while steps are still active: b (subagent 'a'), s"},
		{"finish with text", []string{rs, `{"type":"TEXT_MESSAGE_START","messageId":"z"}`, `{"type":"TEXT_MESSAGE_START","messageId":"m"}`, `{"type":"REASONING_START","messageId":"r"}`, `{"type":"RUN_FINISHED","threadId":"t","runId":"r"}`}, "Cannot send 'RUN_FINISHED' while text messages are still active: z, m"},
		{"finish with reasoning messages", []string{rs, `{"type":"REASONING_START","messageId":"r"}`, `{"type":"REASONING_MESSAGE_START","messageId":"q","role":"reasoning"}`, `{"type":"RUN_FINISHED","threadId":"t","runId":"r"}`}, "Cannot send 'RUN_FINISHED' while reasoning messages are still active: q"},
		{"finish with reasoning spans", []string{rs, `{"type":"REASONING_START","messageId":"r"}`, `{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"f"}`, `{"type":"RUN_FINISHED","threadId":"t","runId":"r"}`}, "Cannot send 'RUN_FINISHED' while reasoning spans are still active: r"},
		{"finish with tool calls", []string{rs, `{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"f"}`, `{"type":"SUBAGENT_STARTED","subagentRunId":"s","name":"n"}`, `{"type":"RUN_FINISHED","threadId":"t","runId":"r"}`}, "Cannot send 'RUN_FINISHED' while tool calls are still active: c"},
		{"finish with subagents", []string{rs, `{"type":"SUBAGENT_STARTED","subagentRunId":"s","name":"n"}`, `{"type":"RUN_FINISHED","threadId":"t","runId":"r"}`}, "Cannot send 'RUN_FINISHED' while subagents are still active: s"},

		// Removed in 1.0: THINKING_* are unknown types and pass.
		{"thinking passes", []string{rs, `{"type":"THINKING_TEXT_MESSAGE_CONTENT","delta":"x"}`, `{"type":"THINKING_END"}`}, ""},
		// Chunks are verified as what they expand to.
		// The 1.0 transform carries a chunk's null tag onto what it
		// synthesizes (a zero-delta CONTENT/ARGS when nothing else), where
		// the verifier sees it.
		{"null-tag-only text chunk", []string{rs, `{"type":"TEXT_MESSAGE_CHUNK","messageId":"m","delta":"a"}`, `{"type":"TEXT_MESSAGE_CHUNK","subagentRunId":null}`}, "Cannot send 'TEXT_MESSAGE_CONTENT' with 'subagentRunId: null'. The field is optional — omit it entirely."},
		{"null-tag text chunk with a delta", []string{rs, `{"type":"TEXT_MESSAGE_CHUNK","messageId":"m","delta":"a","subagentRunId":"s1"}`, `{"type":"TEXT_MESSAGE_CHUNK","delta":"b","subagentRunId":null}`}, "Cannot send 'TEXT_MESSAGE_CONTENT' with 'subagentRunId: null'. The field is optional — omit it entirely."},
		{"null-tag-only tool chunk", []string{rs, `{"type":"TOOL_CALL_CHUNK","toolCallId":"c","toolCallName":"f"}`, `{"type":"TOOL_CALL_CHUNK","toolCallId":"c","subagentRunId":null}`}, "Cannot send 'TOOL_CALL_ARGS' with 'subagentRunId: null'. The field is optional — omit it entirely."},
		{"null-tag-only reasoning chunk", []string{rs, `{"type":"REASONING_MESSAGE_CHUNK","messageId":"q","delta":"a"}`, `{"type":"REASONING_MESSAGE_CHUNK","subagentRunId":null}`}, "Cannot send 'REASONING_MESSAGE_CONTENT' with 'subagentRunId: null'. The field is optional — omit it entirely."},
		{"null-tag opener chunk", []string{rs, `{"type":"TOOL_CALL_CHUNK","toolCallId":"c","toolCallName":"f","subagentRunId":null}`}, "Cannot send 'TOOL_CALL_START' with 'subagentRunId: null'. The field is optional — omit it entirely."},
		// What the transform throws is reported too (bad_chunk).
		{"chunk tag vs the parent lane", []string{rs, `{"type":"TEXT_MESSAGE_CHUNK","messageId":"m","delta":"a"}`, `{"type":"TEXT_MESSAGE_CHUNK","messageId":"m","delta":"b","subagentRunId":"zz"}`}, "Cannot continue text message 'm': chunk subagentRunId 'zz' does not match the open stream's subagent '(the parent agent)'."},
		{"chunk in a run", []string{rs, `{"type":"TEXT_MESSAGE_CHUNK","messageId":"m","delta":"a"}`, `{"type":"RUN_FINISHED","threadId":"t","runId":"r"}`}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := New(Options{Strict: true})
			for i, e := range tc.events {
				c := r.Apply([]byte(e))
				var order []string
				for _, d := range c.Diagnostics {
					if d.Code == "order" || d.Code == "bad_chunk" {
						order = append(order, d.Message)
					} else {
						require.NotEqual(t, LevelError, d.Level, "%s: %v", e, d)
					}
				}
				if i < len(tc.events)-1 || tc.want == "" {
					require.Empty(t, order, e)
					continue
				}
				require.Len(t, order, 1, e)
				assert.Equal(t, tc.want, order[0])
			}
		})
	}
}

// A strict reducer reports; it folds the same state as a tolerant one.
func TestVerify10SameState(t *testing.T) {
	events := []string{
		`{"type":"RUN_STARTED","threadId":"t","runId":"r"}`,
		`{"type":"TEXT_MESSAGE_START","messageId":"m","subagentRunId":"s1"}`,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"a","subagentRunId":"s2"}`,
		`{"type":"REASONING_MESSAGE_CONTENT","messageId":"x","delta":"b"}`,
		`{"type":"RUN_FINISHED","threadId":"t","runId":"r"}`,
	}
	strict, loose := New(Options{Strict: true}), New(Options{})
	n := 0
	for _, e := range events {
		for _, d := range strict.Apply([]byte(e)).Diagnostics {
			if d.Code == "order" {
				n++
			}
		}
		loose.Apply([]byte(e))
	}
	assert.Equal(t, 3, n)
	assert.Equal(t, strings.TrimSpace(string(loose.Snapshot())), strings.TrimSpace(string(strict.Snapshot())))
}

// Out of strict mode the zero-delta carrier of a null-tag-only chunk
// changes nothing and reports nothing (null reads as absent).
func TestNullTagCarrierTolerant(t *testing.T) {
	r := New(Options{})
	for _, e := range []string{
		`{"type":"RUN_STARTED","threadId":"t","runId":"r"}`,
		`{"type":"TEXT_MESSAGE_CHUNK","messageId":"m","delta":"a"}`,
	} {
		require.False(t, r.Apply([]byte(e)).HasError())
	}
	before := string(r.Snapshot())
	c := r.Apply([]byte(`{"type":"TEXT_MESSAGE_CHUNK","subagentRunId":null}`))
	assert.Empty(t, c.Diagnostics)
	assert.Empty(t, c.Ops)
	assert.Equal(t, before, string(r.Snapshot()))
}
