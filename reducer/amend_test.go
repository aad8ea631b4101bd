package reducer

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestAmendEvent: the one extension beyond canonical AG-UI (package
// dialect sends it), folded by the reducer and never reported as a custom
// event.
func TestAmendEvent(t *testing.T) {
	const start = `{"type":"RUN_STARTED","threadId":"t","runId":"r"}`
	runCases(t, []eventCase{
		{"whole text: extend, stale prefix, disagreement", Options{}, []string{
			start,
			`{"type":"TEXT_MESSAGE_START","messageId":"m","role":"assistant"}`,
			amendPrefix + `{"messageId":"m","content":"Hel"}`,
			amendPrefix + `{"messageId":"m","content":"Hello"}`,
			amendPrefix + `{"messageId":"m","content":"He"}`,
			amendPrefix + `{"messageId":"m","content":"Bye","metadata":{"k":1}}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, "Bye", msg(s, 0)["content"])
			assert.Equal(t, map[string]any{"k": 1.0}, msg(s, 0)["metadata"])
			assert.Empty(t, codes(cs))
			for _, c := range cs {
				assert.Empty(t, c.Events, "not a custom event for the host")
			}
			assert.Equal(t, OpAppend, cs[3].Ops[0].Kind, "what extends is appended")
			assert.Empty(t, cs[4].Ops, "a stale prefix changes nothing")
		}},
		{"tool call: name, args, approval, clientSide", Options{}, []string{
			start,
			`{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":""}`,
			amendPrefix + `{"toolCallId":"c","name":"f","argsText":"{\"a\""}`,
			amendPrefix + `{"toolCallId":"c","args":{"a":1}}`,
			`{"type":"TOOL_CALL_END","toolCallId":"c"}`,
			amendPrefix + `{"toolCallId":"c","approval":{"id":"ap"},"clientSide":true}`,
		}, func(t *testing.T, s state, cs []*Change) {
			tc := tool(s, 0)
			assert.Equal(t, "f", tc["name"])
			assert.Equal(t, `{"a":1}`, tc["argsText"])
			assert.Equal(t, map[string]any{"a": 1.0}, tc["args"])
			assert.Equal(t, map[string]any{"id": "ap"}, tc["approval"])
			assert.Equal(t, true, tc["clientSide"])
		}},
		{"finish reason and recoverable error", Options{Strict: true}, []string{
			start,
			`{"type":"TEXT_MESSAGE_START","messageId":"m","role":"assistant"}`,
			`{"type":"TEXT_MESSAGE_END","messageId":"m"}`,
			amendPrefix + `{"finishReason":"length"}`,
			`{"type":"RUN_ERROR","message":"boom"}`,
			amendPrefix + `{"recoverable":true}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, map[string]any{"finishReason": "length"}, msg(s, 0)["metadata"])
			assert.Equal(t, true, s["error"].(map[string]any)["recoverable"])
			assert.Empty(t, codes(cs), "strict ordering does not apply to it")
		}},
		{"bad values are rejected; unknown ids warned", Options{}, []string{
			start,
			amendPrefix + `"x"`,
			amendPrefix + `{"content":"x"}`,
			amendPrefix + `{"recoverable":"yes"}`,
			amendPrefix + `{"messageId":"nope","content":"x"}`,
			amendPrefix + `{"toolCallId":"nope","clientSide":true}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, []string{"bad_event", "bad_event", "bad_event", "unknown_message", "unknown_tool_call"}, codes(cs))
		}},
	})
}
