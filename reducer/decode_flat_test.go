package reducer

import (
	"reflect"
	"testing"

	"github.com/agui-reducer/agui/reducer/jsontree"
	"github.com/stretchr/testify/require"
)

// flatCases are events decodeFlat decodes (flat: true) and events it
// leaves to the general decoder: other types, members a type does not
// have, repeated keys, values of other kinds or spellings, malformed JSON.
var flatCases = []struct {
	data string
	flat bool
}{
	{`{"type":"RUN_STARTED","threadId":"t","runId":"r"}`, true},
	{`{"type":"RUN_STARTED","threadId":"t","runId":"r","parentRunId":null,"protocolVersion":"1.0","timestamp":1700000000000}`, true},
	{`{"type":"RUN_STARTED","threadId":"t","runId":"r","subagentRunId":7}`, true},
	{`{"type":"RUN_STARTED","threadId":"t","runId":"r","subagentRunId":null}`, true},
	{`{"type":"RUN_STARTED","threadId":"t","runId":"r","input":{"messages":[]}}`, false},
	{`{"type":"RUN_STARTED","runId":"r"}`, false},
	{`{"type":"RUN_STARTED","threadId":null,"runId":"r"}`, false},
	{`{"type":"RUN_STARTED","threadId":1,"runId":"r"}`, false},
	{`{"type":"RUN_FINISHED","threadId":"t","runId":"r"}`, true},
	{`{"type":"RUN_FINISHED"}`, true},
	{`{"type":"RUN_FINISHED","result":null}`, true},
	{`{"type":"RUN_FINISHED","result":{"a":[1,2,{"b":"c"}]},"rawEvent":"x"}`, true},
	{`{"type":"RUN_FINISHED","outcome":{"type":"cancelled"}}`, false},
	{`{"type":"RUN_FINISHED","outcome":{"type":"success"},"usage":[{"inputTokens":463,"outputTokens":422}]}`, true},
	{`{"type":"RUN_FINISHED","outcome":{"type":"success","pendingToolCallIds":["c1"]}}`, true},
	{`{"type":"RUN_FINISHED","outcome":{"type":"success","pendingToolCallIds":[1]}}`, false},
	{`{"type":"RUN_FINISHED","outcome":{"type":"interrupt","interrupts":[{"id":"i"}]}}`, true},
	{`{"type":"RUN_FINISHED","outcome":{"type":"interrupt"}}`, false},
	{`{"type":"RUN_FINISHED","outcome":{"type":"interrupt","interrupts":null}}`, false},
	{`{"type":"RUN_FINISHED","outcome":{"type":"later"}}`, false},
	{`{"type":"RUN_FINISHED","outcome":null,"usage":null}`, true},
	{`{"type":"RUN_FINISHED","outcome":"success"}`, false},
	{`{"type":"RUN_FINISHED","usage":[]}`, true},
	{`{"type":"RUN_FINISHED","usage":{"promptTokens":1}}`, false},
	{`{"type":"RUN_ERROR","message":"boom","usage":[{"totalTokens":3}]}`, true},
	{`{"type":"RUN_ERROR","message":"boom","usage":3}`, false},
	{`{"type":"RUN_FINISHED","finishReason":"stop"}`, false},
	{`{"type":"RUN_ERROR","message":"boom","code":"E1"}`, true},
	{`{"type":"RUN_ERROR","message":"boom","code":null}`, true},
	{`{"type":"RUN_ERROR","code":"E1"}`, false},
	{`{"type":"TEXT_MESSAGE_START","messageId":"m","role":"assistant"}`, true},
	{`{"type":"TEXT_MESSAGE_START","messageId":"m"}`, true},
	{`{"type":"TEXT_MESSAGE_START","messageId":"m","role":"user","name":"Ann"}`, true},
	{`{"type":"TEXT_MESSAGE_START","messageId":"m","name":null}`, true},
	{`{"type":"TEXT_MESSAGE_START","messageId":"m","role":null}`, false},
	{`{"type":"TEXT_MESSAGE_START","messageId":"m","role":""}`, false},
	{`{"type":"TEXT_MESSAGE_START","messageId":"m","role":"tool"}`, false},
	{`{"type":"TEXT_MESSAGE_START","messageId":"m","name":3}`, false},
	{`{"type":"TEXT_MESSAGE_START","messageId":"m\u00e9\ud83d\ude00","role":"assistant"}`, true},
	{`{"type":"TEXT_MESSAGE_START","messageId":"m\ud83d","role":"assistant"}`, true},
	{"{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"bad \xff\"}", true},
	{`{"type":"TEXT_MESSAGE_START","messageId":"m","messageId":"n"}`, false},
	{`{"type":"TEXT_MESSAGE_START","messageId":"m","extra":1}`, false},
	{`{"type":"TEXT_MESSAGE_START","messageId":"m","subagentRunId":"s1"}`, true},
	{`{"type":"TEXT_MESSAGE_START","messageId":"m","subagentRunId":null}`, true},
	{`{"type":"TEXT_MESSAGE_START","messageId":"m","subagentRunId":1}`, false},
	{` { "type" : "TEXT_MESSAGE_END" , "messageId" : "m" } `, true},
	{`{"type":"TEXT_MESSAGE_END","messageId":"m","metadata":{"k":[1]}}`, true},
	{`{"type":"TEXT_MESSAGE_END","messageId":"m","metadata":null}`, false},
	{`{"type":"TEXT_MESSAGE_END","messageId":"m","metadata":[]}`, false},
	{`{"type":"TEXT_MESSAGE_END","messageId":"m","timestamp":null}`, true},
	{`{"type":"TEXT_MESSAGE_END","messageId":"m","timestamp":"1"}`, false},
	{`{"type":"TEXT_MESSAGE_END","messageId":"m","timestamp":1.5}`, false},
	{`{"type":"TEXT_MESSAGE_END","messageId":"m","timestamp":1e3}`, true},
	{`{"type":"TEXT_MESSAGE_END","messageId":"m","timestamp":9007199254740993}`, false},
	{`{"type":"TEXT_MESSAGE_END"}`, false},
	{`{"type":"TEXT_MESSAGE_END","messageId":"m"`, false},
	{`{"type":"TEXT_MESSAGE_END","messageId":"m"} x`, false},
	{`{"type":"TEXT_MESSAGE_\u0045ND","messageId":"m"}`, false},
	{`{"messageId":"m","type":"REASONING_START"}`, true},
	{`{"type":"REASONING_END","messageId":"m"}`, true},
	{`{"type":"REASONING_MESSAGE_START","messageId":"m","role":"reasoning"}`, true},
	{`{"type":"REASONING_MESSAGE_START","messageId":"m"}`, false},
	{`{"type":"REASONING_MESSAGE_START","messageId":"m","role":"assistant"}`, false},
	{`{"type":"REASONING_MESSAGE_END","messageId":"m","rawEvent":{"x":null}}`, true},
	{`{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"f","parentMessageId":"m"}`, true},
	{`{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"f","parentMessageId":null}`, true},
	{`{"type":"TOOL_CALL_START","toolCallId":"c","toolName":"f"}`, false},
	{`{"type":"TOOL_CALL_END","toolCallId":"c"}`, true},
	{`{"type":"TOOL_CALL_END","toolCallId":"c","input":{}}`, false},
	{`{"type":"TOOL_CALL_RESULT","messageId":"r","toolCallId":"c","content":"{\"a\":1}","role":"tool"}`, true},
	{`{"type":"TOOL_CALL_RESULT","messageId":"r","toolCallId":"c","content":""}`, true},
	{`{"type":"TOOL_CALL_RESULT","messageId":"r","toolCallId":"c","content":"x","role":null}`, true},
	{`{"type":"TOOL_CALL_RESULT","messageId":"r","toolCallId":"c","content":"x","role":"user"}`, false},
	{`{"type":"TOOL_CALL_RESULT","messageId":"r","toolCallId":"c","content":"x","role":""}`, false},
	{`{"type":"TOOL_CALL_RESULT","messageId":"r","toolCallId":"c","content":null}`, false},
	{`{"type":"TOOL_CALL_RESULT","messageId":"r","toolCallId":"c","content":1}`, false},
	{`{"type":"CUSTOM","name":null,"value":1}`, false},
	{`{"type":"RUN_ERROR","message":"boom","code":1}`, false},
	{`{"type":"RUN_STARTED","threadId":"t","runId":"r","parentRunId":1}`, false},
	{`{"type":"REASONING_MESSAGE_START","messageId":"m","role":"reas\u006fning"}`, false},
	{`{"type":"TEXT_MESSAGE_START","messageId":"m","role":"us\u0065r"}`, true},
	{`{"type":"TOOL_CALL_RESULT","messageId":"r","toolCallId":"c","content":[{"type":"text","text":"x"}]}`, false},
	{`{"type":"TOOL_CALL_RESULT","messageId":"r","toolCallId":"c"}`, false},
	{`{"type":"STEP_STARTED","stepName":"s"}`, false},
	{`{"type":"STEP_FINISHED","stepName":"s"}`, false},
	{`{"type":"STEP_FINISHED","stepId":"s"}`, false},
	{`{"type":"CUSTOM","name":"progress","value":{"turn":1,"pct":100}}`, true},
	{`{"type":"CUSTOM","name":"progress","value":null}`, true},
	{`{"type":"CUSTOM","name":"progress","value":"s"}`, true},
	{`{"type":"CUSTOM","name":"progress","value":-1.5e3}`, true},
	{`{"type":"CUSTOM","name":"progress","value":[true,false]}`, true},
	{`{"type":"CUSTOM","name":"progress"}`, false},
	{`{"type":"CUSTOM","value":1}`, false},
	{`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"x"}`, true},
	{`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":""}`, true},
	{`{"delta":"x\n","timestamp":5,"messageId":"m","type":"TEXT_MESSAGE_CONTENT","subagentRunId":"s"}`, true},
	{`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":null}`, false},
	{`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m"}`, false},
	{`{"type":"TEXT_MESSAGE_CONTENT","toolCallId":"m","delta":"x"}`, false},
	{`{"type":"REASONING_MESSAGE_CONTENT","messageId":"m","delta":"x","metadata":{}}`, true},
	{`{"type":"TOOL_CALL_ARGS","toolCallId":"c","delta":"{"}`, true},
	{`{"type":"TOOL_CALL_ARGS","messageId":"c","delta":"{"}`, false},
	{`{"type":"TOOL_CALL_ARGS","toolCallId":"c","delta":1}`, false},
	{`{"type":"TEXT_MESSAGE_CHUNK","messageId":"m","delta":"x"}`, false},
	{`{"type":"STATE_DELTA","delta":[]}`, false},
	{`{"type":"BOGUS"}`, false},
	{`{"type":null}`, false},
	{`{}`, false},
	{`[]`, false},
	{``, false},
}

// TestDecodeFlat: decodeFlat decodes what it takes as the general decoder
// does, and leaves the rest to it.
func TestDecodeFlat(t *testing.T) {
	var parser jsontree.Parser // its memory carried from one event to the next
	for _, tc := range flatCases {
		var flat Event
		ok := decodeFlat(&flat, &parser, []byte(tc.data), DefaultMaxDepth)
		if ok != tc.flat {
			t.Errorf("%s: decodeFlat reports %v, want %v", tc.data, ok, tc.flat)
		}
		if ok {
			checkFlat(t, []byte(tc.data), &flat)
		}
	}
}

// checkFlat fails unless the general decoder decodes data to flat.
func checkFlat(t *testing.T, data []byte, flat *Event) {
	t.Helper()
	ev, err := DecodeEvent(data, DecodeOptions{})
	if err != nil {
		t.Fatalf("%s: decodeFlat took it, the general decoder refuses it: %v", data, err)
	}
	if !reflect.DeepEqual(ev, *flat) {
		t.Fatalf("%s: decodeFlat %#v, general decoder %#v", data, *flat, ev)
	}
}

// TestApplyFlatMatchesGeneral: a stream of flat events folds into the
// records and state the general decoder's events fold into, strict mode
// included.
func TestApplyFlatMatchesGeneral(t *testing.T) {
	for _, strict := range []bool{false, true} {
		fast, slow := New(Options{Strict: strict}), New(Options{Strict: strict})
		var cf, cs Change
		for _, tc := range flatCases {
			cf.Reset()
			cs.Reset()
			fast.ApplyAppend(&cf, []byte(tc.data))
			general(slow, &cs, []byte(tc.data))
			if a, b := string(cs.AppendJSON(nil)), string(cf.AppendJSON(nil)); a != b {
				t.Fatalf("strict %v, %s: general %s, ApplyAppend %s", strict, tc.data, a, b)
			}
		}
		if a, b := string(slow.Snapshot()), string(fast.Snapshot()); a != b {
			t.Fatalf("strict %v: states differ: general %s, ApplyAppend %s", strict, a, b)
		}
	}
}

// general folds data through the general decoder.
func general(r *Reducer, c *Change, data []byte) {
	if err := decodeEventInto(&r.hot, &r.parser, data, r.opt.MaxDepth); err != nil {
		r.hot = Event{}
		c.failErr(err)
		return
	}
	r.applyHot(c)
}

// FuzzDecodeFlat: whatever decodeFlat takes, the general decoder decodes
// to the same event.
func FuzzDecodeFlat(f *testing.F) {
	for _, tc := range flatCases {
		f.Add([]byte(tc.data))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var flat Event
		if decodeFlat(&flat, nil, data, DefaultMaxDepth) {
			checkFlat(t, data, &flat)
		}
	})
}

// TestSameText: sameText says two trees are the same only when their JSON
// texts are.
func TestSameText(t *testing.T) {
	for _, tc := range []struct{ a, b string }{
		{`{"a":1,"b":[true,null,"x",{"c":1.50}]}`, `{"a":1,"b":[true,null,"x",{"c":1.50}]}`},
		{`{"a":1,"b":2}`, `{"b":2,"a":1}`},
		{`{"a":1}`, `{"a":1.0}`},
		{`{"a":"1"}`, `{"a":1}`},
		{`[1,2]`, `[1,2,3]`},
		{`{"a":{}}`, `{"a":[]}`},
		{`"\ud800"`, `"\ud800"`},
		{`null`, `null`},
		{`false`, `true`},
	} {
		a, err := jsontree.Parse([]byte(tc.a), jsontree.ParseOptions{})
		require.NoError(t, err)
		b, err := jsontree.Parse([]byte(tc.b), jsontree.ParseOptions{})
		require.NoError(t, err)
		same := string(jsontree.AppendJSON(nil, a)) == string(jsontree.AppendJSON(nil, b))
		if got := sameText(a, b); got && !same || tc.a == tc.b && !got {
			t.Errorf("sameText(%s, %s) = %v", tc.a, tc.b, got)
		}
	}
	require.False(t, sameText((*jsontree.Object)(nil), (*jsontree.Object)(nil)))
}
