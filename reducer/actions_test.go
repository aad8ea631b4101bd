package reducer

import (
	"encoding/json"
	"testing"

	"github.com/agui-reducer/agui/reducer/jsontree"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLocalActions(t *testing.T) {
	r := New(Options{})
	m := newMirror(t, r)
	step := func(c *Change) {
		t.Helper()
		m.apply(t, c)
		m.check(t, r, "action")
	}

	step(r.AddUserMessage("hello", ""))
	step(r.AddUserMessage(jsontree.NewArray(), "u-custom"))
	c := r.AddUserMessage(5.0, "")
	assert.Equal(t, []string{"bad_argument"}, codes([]*Change{c}))
	step(c)

	foldLines(t, r, []string{
		`{"type":"RUN_STARTED","threadId":"t","runId":"r"}`,
		`{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"pick_color"}`,
		`{"type":"TOOL_CALL_END","toolCallId":"c1"}`,
		`{"type":"RUN_FINISHED","threadId":"t","runId":"r"}`,
	})
	m = newMirror(t, r)
	step(r.AddToolResult("c1", `"blue"`))
	s := snapshotOf(t, r)
	assert.Equal(t, []string{"user-1", "u-custom", "c1", "result-c1"}, ids(s))
	assert.Equal(t, `"blue"`, tool(s, 0)["result"])

	c = r.AddToolResult("", "x")
	assert.Equal(t, []string{"bad_argument"}, codes([]*Change{c}))

	step(r.Fail("HTTP 502: Bad Gateway", "502"))
	s = snapshotOf(t, r)
	assert.Equal(t, "error", s["status"])
	assert.Equal(t, map[string]any{"message": "HTTP 502: Bad Gateway", "code": "502"}, s["error"])

	snap := r.Snapshot()
	step(r.Reset())
	assert.Empty(t, msgs(snapshotOf(t, r)))
	rc, err := r.Restore(snap)
	require.NoError(t, err)
	step(rc)
	assert.Equal(t, string(snap), string(r.Snapshot()), "restore(snapshot()) round-trips exactly")

	before := string(r.Snapshot())
	_, err = r.Restore([]byte(`{"messages":[{"id":1}]}`))
	require.Error(t, err)
	_, err = r.Restore([]byte(`not json`))
	require.Error(t, err)
	assert.Equal(t, before, string(r.Snapshot()), "a failed restore changes nothing")
}

func TestRunInput(t *testing.T) {
	r := New(Options{NewID: func(kind string) string { return kind + "-fixed" }})
	foldLines(t, r, []string{
		`{"type":"RUN_STARTED","threadId":"th","runId":"r1"}`,
		`{"type":"STATE_SNAPSHOT","snapshot":{"n":1}}`,
		`{"type":"REASONING_MESSAGE_START","messageId":"rs","role":"reasoning"}`,
		`{"type":"REASONING_MESSAGE_CONTENT","messageId":"rs","delta":"hmm"}`,
		`{"type":"REASONING_MESSAGE_END","messageId":"rs"}`,
		`{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"f","parentMessageId":"a1","metadata":{"x":1}}`,
		`{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"{\"q\":1}"}`,
		`{"type":"TOOL_CALL_END","toolCallId":"c1"}`,
		`{"type":"TOOL_CALL_RESULT","messageId":"t1","toolCallId":"c1","content":"ok"}`,
		`{"type":"ACTIVITY_SNAPSHOT","messageId":"act","activityType":"P","content":{}}`,
		`{"type":"RUN_FINISHED","threadId":"th","runId":"r1"}`,
	})
	r.AddUserMessage("next", "u2")
	var in map[string]any
	tools := jsontree.NewArray(jsontree.NewObject(0))
	require.NoError(t, json.Unmarshal(r.RunInput(RunInputOptions{Tools: tools, Resume: jsontree.NewArray()}), &in))
	assert.Equal(t, "th", in["threadId"])
	assert.Equal(t, "run-fixed", in["runId"])
	assert.Equal(t, map[string]any{"n": 1.0}, in["state"])
	assert.Equal(t, []any{map[string]any{}}, in["tools"])
	assert.Equal(t, []any{}, in["context"])
	assert.Equal(t, map[string]any{}, in["forwardedProps"])
	assert.Equal(t, []any{}, in["resume"])
	assert.Equal(t, []any{
		map[string]any{"id": "rs", "role": "reasoning", "content": "hmm"},
		map[string]any{"id": "a1", "role": "assistant", "toolCalls": []any{map[string]any{
			"id": "c1", "type": "function", "function": map[string]any{"name": "f", "arguments": `{"q":1}`}, "metadata": map[string]any{"x": 1.0},
		}}},
		map[string]any{"id": "t1", "role": "tool", "content": "ok", "toolCallId": "c1"},
		map[string]any{"id": "u2", "role": "user", "content": "next"},
	}, in["messages"], "activity is left out; reasoning becomes a reasoning message")
}

func TestThreadID(t *testing.T) {
	input := func(r *Reducer, opt RunInputOptions) map[string]any {
		t.Helper()
		var in map[string]any
		require.NoError(t, json.Unmarshal(r.RunInput(opt), &in))
		return in
	}

	r := New(Options{ThreadID: "mine"})
	assert.Equal(t, "mine", snapshotOf(t, r)["threadId"], "the chosen thread id is in the state from the start")
	assert.Equal(t, "mine", input(r, RunInputOptions{})["threadId"])
	r.Reset()
	assert.Equal(t, "mine", snapshotOf(t, r)["threadId"], "reset keeps the chosen thread id")

	r = New(Options{})
	first := input(r, RunInputOptions{})["threadId"]
	assert.NotEmpty(t, first)
	assert.Equal(t, first, input(r, RunInputOptions{})["threadId"], "one thread id for every request before the first run")
	foldLines(t, r, []string{`{"type":"RUN_STARTED","threadId":"server","runId":"r"}`})
	assert.Equal(t, "server", input(r, RunInputOptions{})["threadId"])

	in := input(r, RunInputOptions{
		ThreadID: "other",
		State:    jsontree.NewObject(0),
		Messages: jsontree.NewArray(),
	})
	assert.Equal(t, "other", in["threadId"], "runInput's threadId is honoured")
	assert.Equal(t, map[string]any{}, in["state"])
	assert.Equal(t, []any{}, in["messages"])
}

func TestSetStateAndMessages(t *testing.T) {
	r := New(Options{})
	m := newMirror(t, r)
	step := func(c *Change) {
		t.Helper()
		m.apply(t, c)
		m.check(t, r, "action")
	}
	parse := func(s string) jsontree.Value {
		t.Helper()
		v, err := jsontree.Parse([]byte(s), jsontree.ParseOptions{})
		require.NoError(t, err)
		return v
	}

	c := r.SetState(parse(`{"n":1,"citations":{"a1":["https://x.test"]}}`))
	assert.NotEmpty(t, c.Ops)
	step(c)
	assert.Equal(t, map[string]any{"n": 1.0, "citations": map[string]any{"a1": []any{"https://x.test"}}}, snapshotOf(t, r)["state"])

	step(r.AddUserMessage("old", "u0"))
	c = r.SetMessages(parse(`[
		{"id":"u1","role":"user","content":"hi"},
		{"id":"a1","role":"assistant","content":"hello","toolCalls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{\"q\":1}"}}]},
		{"id":"t1","role":"tool","content":"ok","toolCallId":"c1"}
	]`))
	assert.Empty(t, c.Diagnostics)
	step(c)
	s := snapshotOf(t, r)
	assert.Equal(t, []string{"u1", "a1", "t1"}, ids(s), "the list replaces the conversation (no merge)")
	assert.Equal(t, "ok", tool(s, 0)["result"], "tool calls mirrored")
	assert.NotNil(t, msgs(s)[1].(map[string]any)["citations"], "state citations bridged onto the new messages")

	before := string(r.Snapshot())
	for _, bad := range []string{`{}`, `[{"id":"x","role":"nobody","content":""}]`, `[{"id":"ok","role":"user","content":"a"},{"role":"user"}]`} {
		c = r.SetMessages(parse(bad))
		require.NotEmpty(t, c.Diagnostics, bad)
		assert.Empty(t, c.Ops, bad)
		assert.Equal(t, before, string(r.Snapshot()), "a rejected list changes nothing: %s", bad)
	}

	step(r.SetMessages(parse(`[]`)))
	assert.Empty(t, msgs(snapshotOf(t, r)))
}
