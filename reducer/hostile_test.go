package reducer

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A conversation the hostile events are thrown at: after each one, the
// reducer must still fold the next valid event.
var hostileBase = []string{
	`{"type":"RUN_STARTED","threadId":"t","runId":"r1"}`,
	`{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}`,
	`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"hello"}`,
	`{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"f","parentMessageId":"m1"}`,
	`{"type":"STATE_SNAPSHOT","snapshot":{"a":{"b":[1,2,3]},"n":1}}`,
	`{"type":"ACTIVITY_SNAPSHOT","messageId":"act","activityType":"P","content":{"x":1}}`,
}

func TestHostileInput(t *testing.T) {
	big := strings.Repeat("x", 10<<20)
	deep := strings.Repeat("[", 100000) + strings.Repeat("]", 100000)
	cases := []struct {
		name  string
		event string
		codes []string // expected diagnostic codes, in order
		same  bool     // the state must be byte-identical afterwards
	}{
		{"truncated JSON", `{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","del`, []string{"bad_json"}, true},
		{"empty", ``, []string{"bad_json"}, true},
		{"not an object", `"TEXT_MESSAGE_CONTENT"`, []string{"bad_event"}, true},
		{"trailing garbage", `{"type":"CUSTOM","name":"x"} {}`, []string{"bad_json"}, true},
		{"wrong type for delta", `{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":{"a":1}}`, []string{"bad_event"}, true},
		{"wrong type for id", `{"type":"TOOL_CALL_ARGS","toolCallId":7,"delta":"x"}`, []string{"bad_event"}, true},
		{"wrong type for snapshot messages", `{"type":"MESSAGES_SNAPSHOT","messages":{}}`, []string{"bad_event"}, true},
		{"10 MB string is accepted", `{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"` + big + `"}`, nil, false},
		{"nesting 100,000 deep", `{"type":"CUSTOM","name":"x","value":` + deep + `}`, []string{"bad_json"}, true},
		{"invalid UTF-8 and controls", "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"a\xff\xfe\\u0000\\u001f\\ud800b\"}", nil, false},
		{"raw control character", "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"a\x01\"}", []string{"bad_json"}, true},
		{"NaN is not JSON", `{"type":"STATE_SNAPSHOT","snapshot":NaN}`, []string{"bad_json"}, true},
		{"huge numbers kept exactly", `{"type":"STATE_DELTA","delta":[{"op":"add","path":"/big","value":1e400},{"op":"add","path":"/long","value":123456789012345678901234567890}]}`, nil, false},
		{"content for unknown id", `{"type":"TEXT_MESSAGE_CONTENT","messageId":"nope","delta":"x"}`, []string{"unknown_message"}, true},
		{"end for unknown id", `{"type":"TEXT_MESSAGE_END","messageId":"nope"}`, []string{"unknown_message"}, true},
		{"reasoning content for unknown id", `{"type":"REASONING_MESSAGE_CONTENT","messageId":"nope","delta":"x"}`, []string{"unknown_message"}, true},
		{"reasoning end for unknown id", `{"type":"REASONING_MESSAGE_END","messageId":"nope"}`, []string{"unknown_message"}, true},
		{"args for unknown call", `{"type":"TOOL_CALL_ARGS","toolCallId":"nope","delta":"{}"}`, []string{"unknown_tool_call"}, true},
		{"end for unknown call", `{"type":"TOOL_CALL_END","toolCallId":"nope"}`, []string{"unknown_tool_call"}, true},
		{"activity delta for unknown id", `{"type":"ACTIVITY_DELTA","messageId":"nope","activityType":"P","patch":[]}`, []string{"unknown_message"}, true},
		{"encrypted value for unknown entity", `{"type":"REASONING_ENCRYPTED_VALUE","subtype":"message","entityId":"nope","encryptedValue":"e"}`, nil, true},
		{"step finished, never started", `{"type":"STEP_FINISHED","stepName":"nope"}`, []string{"unknown_step"}, true},
		{"end twice", `{"type":"TEXT_MESSAGE_END","messageId":"m1"}`, nil, false},
		{"patch failing at its last op", `{"type":"STATE_DELTA","delta":[{"op":"replace","path":"/n","value":2},{"op":"add","path":"/a/b/-","value":4},{"op":"remove","path":"/a/b/7"}]}`, []string{"patch_failed"}, true},
		{"patch with __proto__", `{"type":"STATE_DELTA","delta":[{"op":"add","path":"/__proto__/polluted","value":true}]}`, []string{"patch_failed"}, true},
		{"patch with constructor/prototype", `{"type":"STATE_DELTA","delta":[{"op":"add","path":"/constructor/prototype/x","value":1}]}`, []string{"patch_failed"}, true},
		{"__proto__ keys in state are data", `{"type":"STATE_SNAPSHOT","snapshot":{"__proto__":{"polluted":true},"constructor":{"prototype":1}}}`, nil, false},
		{"__proto__ keys in metadata and args", `{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"{\"__proto__\":{\"x\":1}}","metadata":{"__proto__":{"y":2}}}`, nil, false},
		{"unknown event type", `{"type":"FROM_THE_FUTURE"}`, []string{"unknown_type"}, true},
		{"result for unknown call", `{"type":"TOOL_CALL_RESULT","messageId":"r9","toolCallId":"nope","content":"x"}`, nil, false},
		{"run finished without start", `{"type":"RUN_FINISHED","threadId":"t","runId":"other"}`, nil, false},
		{"metadata null", `{"type":"TEXT_MESSAGE_END","messageId":"m1","metadata":null}`, []string{"bad_event"}, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := New(Options{MaxEventBytes: 64 << 20, MaxDepth: 512})
			foldLines(t, r, hostileBase)
			before := r.Snapshot()
			cs := foldLines(t, r, []string{tc.event})
			got := []string{}
			for _, d := range cs[0].Diagnostics {
				got = append(got, d.Code)
			}
			if tc.codes == nil {
				tc.codes = []string{}
			}
			assert.Equal(t, tc.codes, got)
			if tc.same {
				assert.True(t, bytes.Equal(before, r.Snapshot()), "state changed")
				assert.Empty(t, cs[0].Ops)
			}
			// The same reducer keeps working on the next valid event.
			cs = foldLines(t, r, []string{`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"!"}`})
			require.False(t, cs[0].HasError())
			require.True(t, strings.HasSuffix(r.State().Messages[0].Content().(string), "!"))
		})
	}
}

func TestHugeNumbersRoundTrip(t *testing.T) {
	r := New(Options{})
	foldLines(t, r, []string{`{"type":"STATE_SNAPSHOT","snapshot":{"big":1e400,"long":123456789012345678901234567890,"neg":-0.0}}`})
	assert.Contains(t, string(r.Snapshot()), `"state":{"big":1e400,"long":123456789012345678901234567890,"neg":-0.0}`)
}

func TestReplayConverges(t *testing.T) {
	stream := readLines(t, "../testdata/streams/02_tool_call.jsonl")
	once := New(Options{})
	foldLines(t, once, stream)
	twice := New(Options{})
	cs := foldLines(t, twice, append(append([]string{}, stream...), stream...))
	assert.Equal(t, string(once.Snapshot()), string(twice.Snapshot()))
	assert.Contains(t, codes(cs), "replayed_run")

	// After a restore the last run is known too.
	restored := New(Options{})
	_, err := restored.Restore(once.Snapshot())
	require.NoError(t, err)
	foldLines(t, restored, stream)
	assert.Equal(t, string(once.Snapshot()), string(restored.Snapshot()))
}

func TestOutOfOrder(t *testing.T) {
	r := New(Options{})
	cs := foldLines(t, r, []string{
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"early"}`,
		`{"type":"TEXT_MESSAGE_START","messageId":"m"}`,
		`{"type":"TEXT_MESSAGE_END","messageId":"m"}`,
		`{"type":"TEXT_MESSAGE_END","messageId":"m"}`,
		`{"type":"TOOL_CALL_END","toolCallId":"c"}`,
		`{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"f"}`,
		`{"type":"TOOL_CALL_END","toolCallId":"c"}`,
		`{"type":"TOOL_CALL_END","toolCallId":"c"}`,
	})
	assert.Equal(t, []string{"unknown_message", "unknown_tool_call"}, codes(cs))
	s := snapshotOf(t, r)
	assert.Equal(t, "", msg(s, 0)["content"])
	assert.Equal(t, "complete", tool(s, 0)["status"])
}
