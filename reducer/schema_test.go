package reducer

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The 1.0 zod schema (@ag-ui/core 1.0.0, src/generated/schemas.ts) as
// diagnostics: a value the schema rejects (fatal in runAgent's enforcement)
// is refused here, the state untouched and the run going on; an unknown
// member of an array (a patch op, a content part) is removed with a
// warning, as enforcement removes it.
func TestSchema10(t *testing.T) {
	const setup = `{"type":"RUN_STARTED","threadId":"t","runId":"r"}
{"type":"STATE_SNAPSHOT","snapshot":{"a":1}}
{"type":"TEXT_MESSAGE_START","messageId":"m","role":"assistant"}
{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"x"}
{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"f"}
{"type":"TOOL_CALL_END","toolCallId":"c"}`
	tests := []struct {
		name, event string
		code        string // error code; "" accepted
		msg         string // part of the diagnostic
		warn        string // a warning's code, when accepted
		state       string // the shared state afterwards ("" unchanged)
		content     string // the last message's content afterwards, as JSON
	}{
		// timestamp: z.int().min(-(2^53-1)).max(2^53-1)
		{name: "float timestamp", event: `{"type":"CUSTOM","name":"x","value":1,"timestamp":1.5}`, code: "bad_event", msg: "timestamp must be an integer"},
		{name: "float timestamp on a token", event: `{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"y","timestamp":1.5}`, code: "bad_event", msg: "timestamp must be an integer"},
		{name: "timestamp past 2^53-1", event: `{"type":"CUSTOM","name":"x","value":1,"timestamp":9007199254740992}`, code: "bad_event", msg: "timestamp must be an integer"},
		{name: "huge timestamp", event: `{"type":"CUSTOM","name":"x","value":1,"timestamp":1e400}`, code: "bad_event", msg: "timestamp must be an integer"},
		{name: "integer timestamp", event: `{"type":"CUSTOM","name":"x","value":1,"timestamp":1700000000000}`},
		{name: "integral float spelling", event: `{"type":"CUSTOM","name":"x","value":1,"timestamp":1.0e3}`},
		{name: "negative integer timestamp", event: `{"type":"CUSTOM","name":"x","value":1,"timestamp":-9007199254740991}`},
		// CUSTOM value / RAW event: z.any().refine(v => v !== undefined)
		{name: "custom without value", event: `{"type":"CUSTOM","name":"x"}`, code: "bad_event", msg: "value is required"},
		{name: "custom value null", event: `{"type":"CUSTOM","name":"x","value":null}`},
		{name: "raw without event", event: `{"type":"RAW","source":"p"}`, code: "bad_event", msg: "event is required"},
		{name: "raw event null", event: `{"type":"RAW","event":null}`},
		// JsonPointerSchema: ^(/([^/~]|~[01])*)*$
		{name: "pointer without slash", event: `{"type":"STATE_DELTA","delta":[{"op":"replace","path":"a","value":2}]}`, code: "bad_event", msg: "delta/0/path must be a JSON Pointer"},
		{name: "pointer bad escape", event: `{"type":"STATE_DELTA","delta":[{"op":"add","path":"/a~2","value":2}]}`, code: "bad_event", msg: "delta/0/path must be a JSON Pointer"},
		{name: "pointer trailing tilde", event: `{"type":"STATE_DELTA","delta":[{"op":"add","path":"/a~","value":2}]}`, code: "bad_event", msg: "JSON Pointer"},
		{name: "from not a pointer", event: `{"type":"STATE_DELTA","delta":[{"op":"move","from":"a","path":"/b"}]}`, code: "bad_event", msg: "delta/0/from must be a JSON Pointer"},
		{name: "move without from", event: `{"type":"STATE_DELTA","delta":[{"op":"copy","path":"/b"}]}`, code: "bad_event", msg: "delta/0/from is required"},
		{name: "path missing", event: `{"type":"STATE_DELTA","delta":[{"op":"remove"}]}`, code: "bad_event", msg: "delta/0/path is required"},
		{name: "add without value", event: `{"type":"STATE_DELTA","delta":[{"op":"add","path":"/b"}]}`, code: "bad_event", msg: "delta/0/value is required"},
		{name: "test without value", event: `{"type":"STATE_DELTA","delta":[{"op":"test","path":"/a"}]}`, code: "bad_event", msg: "delta/0/value is required"},
		{name: "op not a string", event: `{"type":"STATE_DELTA","delta":[{"op":1,"path":"/a"}]}`, code: "bad_event", msg: "delta/0/op"},
		{name: "op not an object", event: `{"type":"STATE_DELTA","delta":[3]}`, code: "bad_event", msg: "delta/0 must be an object"},
		{name: "escaped pointer is fine", event: `{"type":"STATE_DELTA","delta":[{"op":"add","path":"/~0~1","value":2}]}`, state: `{"a":1,"~/":2}`},
		{name: "unknown op removed", event: `{"type":"STATE_DELTA","delta":[{"op":"frob","path":"x"},{"op":"replace","path":"/a","value":2}]}`, warn: "unknown_member", state: `{"a":2}`},
		{name: "activity patch pointer", event: `{"type":"ACTIVITY_DELTA","messageId":"act","activityType":"p","patch":[{"op":"add","path":"x","value":1}]}`, code: "bad_event", msg: "patch/0/path must be a JSON Pointer"},
		// ContentPartSchema: a discriminated union on type
		{name: "parts: unknown type removed", event: `{"type":"TOOL_CALL_RESULT","messageId":"r","toolCallId":"c","content":[{"type":"text","text":"a"},{"type":"sticker","id":"s"}]}`, warn: "unknown_member", content: `[{"type":"text","text":"a"}]`},
		{name: "parts: unknown source type removes the part", event: `{"type":"TOOL_CALL_RESULT","messageId":"r","toolCallId":"c","content":[{"type":"image","source":{"type":"ftp","value":"x"}},{"type":"text","text":"b"}]}`, warn: "unknown_member", content: `[{"type":"text","text":"b"}]`},
		{name: "parts: file source", event: `{"type":"TOOL_CALL_RESULT","messageId":"r","toolCallId":"c","content":[{"type":"document","id":"d","source":{"type":"file","value":"f-1","provider":"openai"}}]}`, content: `[{"type":"document","id":"d","source":{"type":"file","value":"f-1","provider":"openai"}}]`},
		{name: "parts: text without text", event: `{"type":"TOOL_CALL_RESULT","messageId":"r","toolCallId":"c","content":[{"type":"text"}]}`, code: "bad_event", msg: "content/0/text is required"},
		{name: "parts: text not a string", event: `{"type":"TOOL_CALL_RESULT","messageId":"r","toolCallId":"c","content":[{"type":"text","text":1}]}`, code: "bad_event", msg: "content/0/text must be a string"},
		{name: "parts: text metadata null", event: `{"type":"TOOL_CALL_RESULT","messageId":"r","toolCallId":"c","content":[{"type":"text","text":"a","metadata":null}]}`, code: "bad_event", msg: "content/0/metadata"},
		{name: "parts: id not a string", event: `{"type":"TOOL_CALL_RESULT","messageId":"r","toolCallId":"c","content":[{"type":"text","text":"a","id":2}]}`, code: "bad_event", msg: "content/0/id must be a string"},
		{name: "parts: image without source", event: `{"type":"TOOL_CALL_RESULT","messageId":"r","toolCallId":"c","content":[{"type":"image"}]}`, code: "bad_event", msg: "content/0/source is required"},
		{name: "parts: data source without mimeType", event: `{"type":"TOOL_CALL_RESULT","messageId":"r","toolCallId":"c","content":[{"type":"audio","source":{"type":"data","value":"AAA"}}]}`, code: "bad_event", msg: "content/0/source/mimeType is required"},
		{name: "parts: url source without value", event: `{"type":"TOOL_CALL_RESULT","messageId":"r","toolCallId":"c","content":[{"type":"video","source":{"type":"url"}}]}`, code: "bad_event", msg: "content/0/source/value is required"},
		{name: "parts: legacy binary part is unknown", event: `{"type":"TOOL_CALL_RESULT","messageId":"r","toolCallId":"c","content":[{"type":"binary","mimeType":"image/png","data":"AA"},{"type":"text","text":"t"}]}`, warn: "unknown_member", content: `[{"type":"text","text":"t"}]`},
		// Falsy chunk fields: the 1.0 transform no longer repairs them and
		// the schema rejects them.
		{name: "chunk role empty", event: `{"type":"TEXT_MESSAGE_CHUNK","messageId":"k","role":"","delta":"a"}`, code: "bad_event", msg: "role must be one of"},
		{name: "chunk role null", event: `{"type":"TEXT_MESSAGE_CHUNK","messageId":"k","role":null,"delta":"a"}`, code: "bad_event", msg: "role must be one of"},
		{name: "chunk delta null", event: `{"type":"TEXT_MESSAGE_CHUNK","messageId":"k","delta":null}`, code: "bad_event", msg: "delta must be a string"},
		{name: "start role empty", event: `{"type":"TEXT_MESSAGE_START","messageId":"k","role":""}`, code: "bad_event", msg: "role must be one of"},
		{name: "start role null", event: `{"type":"TEXT_MESSAGE_START","messageId":"k","role":null}`, code: "bad_event", msg: "role must be one of"},
		{name: "start role absent", event: `{"type":"TEXT_MESSAGE_START","messageId":"k"}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := New(Options{})
			for _, line := range strings.Split(setup, "\n") {
				require.False(t, r.Apply([]byte(line)).HasError(), line)
			}
			if strings.Contains(tc.event, "ACTIVITY_DELTA") {
				require.False(t, r.Apply([]byte(`{"type":"ACTIVITY_SNAPSHOT","messageId":"act","activityType":"p","content":{}}`)).HasError())
			}
			before := snapshotOf(t, r)
			c := r.Apply([]byte(tc.event))
			if tc.code != "" {
				require.True(t, c.HasError(), "%v", c.Diagnostics)
				assert.Equal(t, tc.code, c.Diagnostics[0].Code)
				assert.Contains(t, c.Diagnostics[0].Message, tc.msg)
				assert.Empty(t, c.Ops)
				assert.Equal(t, before, snapshotOf(t, r), "state untouched")
				// The run goes on.
				require.False(t, r.Apply([]byte(`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"!"}`)).HasError())
				return
			}
			require.False(t, c.HasError(), "%v", c.Diagnostics)
			if tc.warn != "" {
				require.NotEmpty(t, c.Diagnostics)
				assert.Equal(t, tc.warn, c.Diagnostics[0].Code)
			}
			s := snapshotOf(t, r)
			if tc.state != "" {
				assert.JSONEq(t, tc.state, mustJSON(t, s["state"]))
			}
			if tc.content != "" {
				msgs := s["messages"].([]any)
				assert.JSONEq(t, tc.content, mustJSON(t, msgs[len(msgs)-1].(map[string]any)["content"]))
			}
		})
	}
}

// A Go caller's event meets the same timestamp rule.
func TestSchema10ApplyEventTimestamp(t *testing.T) {
	r := New(Options{})
	c := r.ApplyEvent(Event{Type: RunStarted, ThreadID: "t", RunID: "r", Timestamp: 1.5, HasTimestamp: true})
	require.True(t, c.HasError())
	assert.Contains(t, c.Diagnostics[0].Message, "timestamp must be an integer")
	assert.False(t, r.ApplyEvent(Event{Type: RunStarted, ThreadID: "t", RunID: "r", Timestamp: 3, HasTimestamp: true}).HasError())
}

func mustJSON(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}
