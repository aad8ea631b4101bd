package reducer

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// state is the snapshot decoded for assertions.
type state = map[string]any

func snapshotOf(t testing.TB, r *Reducer) state {
	t.Helper()
	var s state
	require.NoError(t, json.Unmarshal(r.Snapshot(), &s))
	return s
}

func msgs(s state) []any  { return s["messages"].([]any) }
func tools(s state) []any { return s["toolCalls"].([]any) }
func msg(s state, i int) map[string]any {
	return msgs(s)[i].(map[string]any)
}
func tool(s state, i int) map[string]any { return tools(s)[i].(map[string]any) }

func ids(s state) []string {
	var out []string
	for _, m := range msgs(s) {
		out = append(out, m.(map[string]any)["id"].(string))
	}
	return out
}

func codes(cs []*Change) []string {
	var out []string
	for _, c := range cs {
		for _, d := range c.Diagnostics {
			out = append(out, d.Code)
		}
	}
	return out
}

type eventCase struct {
	name   string
	opt    Options
	events []string
	check  func(t *testing.T, s state, cs []*Change)
}

func runCases(t *testing.T, cases []eventCase) {
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := New(tc.opt)
			cs := foldLines(t, r, tc.events)
			tc.check(t, snapshotOf(t, r), cs)
			// Every state restores to itself.
			r2 := New(tc.opt)
			_, err := r2.Restore(r.Snapshot())
			require.NoError(t, err)
			require.Equal(t, string(r.Snapshot()), string(r2.Snapshot()))
		})
	}
}

func TestTextMessages(t *testing.T) {
	runCases(t, []eventCase{
		{"lifecycle", Options{}, []string{
			`{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}`,
			`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"Hello "}`,
			`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"world!"}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, "Hello world!", msg(s, 0)["content"])
			assert.Equal(t, true, msg(s, 0)["streaming"])
			assert.Equal(t, OpAppend, cs[2].Ops[0].Kind, "content streams as an append")
		}},
		{"end stops streaming", Options{}, []string{
			`{"type":"TEXT_MESSAGE_START","messageId":"m1"}`,
			`{"type":"TEXT_MESSAGE_END","messageId":"m1"}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, false, msg(s, 0)["streaming"])
			assert.Equal(t, "assistant", msg(s, 0)["role"], "role defaults to assistant")
			assert.NotContains(t, msg(s, 0), "name")
		}},
		{"name and user role", Options{}, []string{
			`{"type":"TEXT_MESSAGE_START","messageId":"u","role":"user","name":"ann"}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, "ann", msg(s, 0)["name"])
			assert.Equal(t, "user", msg(s, 0)["role"])
		}},
		{"tool role rejected", Options{}, []string{
			`{"type":"TEXT_MESSAGE_START","messageId":"t","role":"tool"}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Empty(t, msgs(s))
			assert.Equal(t, []string{"bad_event"}, codes(cs))
		}},
		{"content for unknown id", Options{}, []string{
			`{"type":"TEXT_MESSAGE_CONTENT","messageId":"nope","delta":"x"}`,
			`{"type":"TEXT_MESSAGE_END","messageId":"nope"}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Empty(t, msgs(s))
			assert.Equal(t, []string{"unknown_message", "unknown_message"}, codes(cs))
			assert.Empty(t, cs[0].Ops)
		}},
		{"start reuses existing message unchanged", Options{}, []string{
			`{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"f","parentMessageId":"a1"}`,
			`{"type":"TEXT_MESSAGE_START","messageId":"a1","role":"user","name":"x"}`,
			`{"type":"TEXT_MESSAGE_CONTENT","messageId":"a1","delta":"hi"}`,
		}, func(t *testing.T, s state, cs []*Change) {
			require.Len(t, msgs(s), 1)
			assert.Equal(t, "assistant", msg(s, 0)["role"])
			assert.NotContains(t, msg(s, 0), "name")
			assert.Equal(t, "hi", msg(s, 0)["content"])
			assert.Equal(t, []any{"c1"}, msg(s, 0)["toolCallIds"])
		}},
		{"content overwrites structured content", Options{}, []string{
			`{"type":"RUN_STARTED","threadId":"t","runId":"r","input":{"threadId":"t","runId":"r","messages":[{"id":"u1","role":"user","content":[{"type":"text","text":"hi"}]}],"tools":[],"context":[],"forwardedProps":{}}}`,
			`{"type":"TEXT_MESSAGE_CONTENT","messageId":"u1","delta":"plain"}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, "plain", msg(s, 0)["content"])
		}},
		{"metadata merges shallow, last write wins", Options{}, []string{
			`{"type":"TEXT_MESSAGE_START","messageId":"m","metadata":{"a":1,"ag-ui":{"x":1}}}`,
			`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"","metadata":{"b":[1],"ag-ui":{"y":2}}}`,
			`{"type":"TEXT_MESSAGE_END","messageId":"m","metadata":{"a":null}}`,
			`{"type":"TEXT_MESSAGE_END","messageId":"m","metadata":{}}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, map[string]any{"a": nil, "b": []any{1.0}, "ag-ui": map[string]any{"y": 2.0}}, msg(s, 0)["metadata"])
		}},
		{"no metadata means no key", Options{}, []string{
			`{"type":"TEXT_MESSAGE_START","messageId":"m"}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.NotContains(t, msg(s, 0), "metadata")
		}},
		{"null metadata rejected", Options{}, []string{
			`{"type":"TEXT_MESSAGE_START","messageId":"m","metadata":null}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Empty(t, msgs(s))
			assert.Equal(t, []string{"bad_event"}, codes(cs))
		}},
	})
}

func TestToolCalls(t *testing.T) {
	start := func(id, name, parent string) string {
		if parent == "" {
			return `{"type":"TOOL_CALL_START","toolCallId":"` + id + `","toolCallName":"` + name + `"}`
		}
		return `{"type":"TOOL_CALL_START","toolCallId":"` + id + `","toolCallName":"` + name + `","parentMessageId":"` + parent + `"}`
	}
	runCases(t, []eventCase{
		{"no parent: assistant keyed by tool call id", Options{}, []string{
			start("c1", "search", ""),
			`{"type":"TOOL_CALL_START","toolCallId":"c2","toolCallName":"s","parentMessageId":""}`,
			`{"type":"TOOL_CALL_START","toolCallId":"c3","toolCallName":"s","parentMessageId":null}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, []string{"c1", "c2", "c3"}, ids(s))
			assert.Equal(t, "running", tool(s, 0)["status"])
			assert.Equal(t, "c1", tool(s, 0)["parentMessageId"])
			assert.Equal(t, map[string]any{}, tool(s, 0)["args"])
			assert.NotContains(t, msg(s, 0), "metadata")
		}},
		{"parent names an existing assistant anywhere", Options{}, []string{
			`{"type":"TEXT_MESSAGE_START","messageId":"a"}`,
			`{"type":"TEXT_MESSAGE_CONTENT","messageId":"a","delta":"let me look"}`,
			`{"type":"TEXT_MESSAGE_START","messageId":"u","role":"user"}`,
			start("c1", "f", "a"),
			start("c2", "g", "a"),
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, []string{"a", "u"}, ids(s))
			assert.Equal(t, []any{"c1", "c2"}, msg(s, 0)["toolCallIds"])
			assert.Equal(t, "let me look", msg(s, 0)["content"])
		}},
		{"parent is not an assistant", Options{}, []string{
			`{"type":"TEXT_MESSAGE_START","messageId":"u","role":"user"}`,
			start("c1", "f", "u"),
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, []string{"u", "c1"}, ids(s))
			assert.Equal(t, []string{"parent_not_assistant"}, codes(cs))
		}},
		{"unknown parent is created", Options{}, []string{start("c1", "f", "p1")}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, []string{"p1"}, ids(s))
			assert.Equal(t, "assistant", msg(s, 0)["role"])
		}},
		{"replayed start is idempotent", Options{}, []string{
			start("c1", "f", ""),
			`{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"{\"q\":1}"}`,
			start("c1", "f", "ghost"),
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Len(t, tools(s), 1)
			assert.Equal(t, []string{"c1"}, ids(s), "no stray parent")
			assert.Equal(t, `{"q":1}`, tool(s, 0)["argsText"])
			assert.Empty(t, cs[2].Ops, "a plain replay changes nothing")
		}},
		{"replayed start renames", Options{}, []string{start("c1", "f", ""), start("c1", "g", "")}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, "g", tool(s, 0)["name"])
			assert.Equal(t, []string{"tool_call_renamed"}, codes(cs))
		}},
		{"args stream live and end exact", Options{}, []string{
			start("c1", "f", ""),
			`{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"{\"query\": \"te"}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, map[string]any{"query": "te"}, tool(s, 0)["args"])
			assert.Equal(t, `{"query": "te`, tool(s, 0)["argsText"])
		}},
		{"args complete at end", Options{}, []string{
			start("c1", "f", ""),
			`{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"{\"a\":[1,2"}`,
			`{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"],\"n\":12"}`,
			`{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"}"}`,
			`{"type":"TOOL_CALL_END","toolCallId":"c1","metadata":{"k":1}}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, map[string]any{"a": []any{1.0, 2.0}, "n": 12.0}, tool(s, 0)["args"])
			assert.Equal(t, "complete", tool(s, 0)["status"])
			assert.Equal(t, map[string]any{"k": 1.0}, tool(s, 0)["metadata"])
			assert.NotContains(t, msg(s, 0), "metadata", "tool-call metadata stays on the tool call")
		}},
		{"invalid args become {} with a diagnostic", Options{}, []string{
			start("c1", "f", ""),
			`{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"{\"a\":1,,"}`,
			`{"type":"TOOL_CALL_END","toolCallId":"c1"}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, map[string]any{}, tool(s, 0)["args"])
			assert.Equal(t, []string{"bad_args"}, codes(cs))
		}},
		{"args for unknown call", Options{}, []string{
			`{"type":"TOOL_CALL_ARGS","toolCallId":"x","delta":"{}"}`,
			`{"type":"TOOL_CALL_END","toolCallId":"x"}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, []string{"unknown_tool_call", "unknown_tool_call"}, codes(cs))
			assert.Empty(t, tools(s))
		}},
		{"result inserted after owner, before trailing text", Options{}, []string{
			start("c1", "f", "a1"),
			`{"type":"TOOL_CALL_END","toolCallId":"c1"}`,
			`{"type":"TEXT_MESSAGE_START","messageId":"a2"}`,
			`{"type":"TOOL_CALL_RESULT","messageId":"r1","toolCallId":"c1","content":"42"}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, []string{"a1", "r1", "a2"}, ids(s))
			assert.Equal(t, "tool", msg(s, 1)["role"])
			assert.Equal(t, "c1", msg(s, 1)["toolCallId"])
			assert.Equal(t, "42", tool(s, 0)["result"])
			assert.Equal(t, "r1", tool(s, 0)["resultMessageId"])
		}},
		{"parallel results keep arrival order", Options{}, []string{
			start("c1", "f", "a"), start("c2", "g", "a"),
			`{"type":"TEXT_MESSAGE_START","messageId":"b"}`,
			`{"type":"TOOL_CALL_RESULT","messageId":"r2","toolCallId":"c2","content":"2"}`,
			`{"type":"TOOL_CALL_RESULT","messageId":"r1","toolCallId":"c1","content":"1"}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, []string{"a", "r2", "r1", "b"}, ids(s))
		}},
		{"result for unknown call is appended", Options{}, []string{
			`{"type":"TEXT_MESSAGE_START","messageId":"a"}`,
			`{"type":"TOOL_CALL_RESULT","messageId":"r","toolCallId":"zz","content":"x"}`,
			`{"type":"TOOL_CALL_RESULT","messageId":"r","toolCallId":"zz","content":"y"}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, []string{"a", "r", "r"}, ids(s), "results are never deduplicated")
		}},
		{"dotnet quirk: result id equals call id", Options{}, []string{
			`{"type":"TOOL_CALL_START","parentMessageId":"","toolCallId":"call_1","toolCallName":"f"}`,
			`{"type":"TOOL_CALL_END","toolCallId":"call_1"}`,
			`{"type":"TOOL_CALL_RESULT","messageId":"call_1","toolCallId":"call_1","content":"ok"}`,
			`{"type":"TOOL_CALL_START","parentMessageId":"","toolCallId":"call_2","toolCallName":"g"}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, []string{"call_1", "call_1", "call_2"}, ids(s))
			assert.Equal(t, "assistant", msg(s, 0)["role"])
			assert.Equal(t, "tool", msg(s, 1)["role"])
		}},
	})
}

func TestReasoning(t *testing.T) {
	clock := 1000.0
	runCases(t, []eventCase{
		{"lifecycle with timestamps", Options{}, []string{
			`{"type":"REASONING_START","messageId":"r"}`,
			`{"type":"REASONING_MESSAGE_START","messageId":"r","role":"reasoning","timestamp":1000}`,
			`{"type":"REASONING_MESSAGE_CONTENT","messageId":"r","delta":"First"}`,
			`{"type":"REASONING_MESSAGE_CONTENT","messageId":"r","delta":"Second"}`,
			`{"type":"REASONING_MESSAGE_END","messageId":"r","timestamp":2500}`,
			`{"type":"REASONING_END","messageId":"r"}`,
		}, func(t *testing.T, s state, cs []*Change) {
			m := msg(s, 0)
			assert.Equal(t, "assistant", m["role"])
			assert.Equal(t, "FirstSecond", m["reasoning"])
			assert.Equal(t, 1500.0, m["reasoningDurationMs"])
			assert.Equal(t, false, m["streaming"])
			assert.Empty(t, cs[0].Ops, "REASONING_START changes nothing")
		}},
		{"duration from the injected clock", Options{Clock: func() float64 { clock += 250; return clock }}, []string{
			`{"type":"REASONING_MESSAGE_START","messageId":"r","role":"reasoning"}`,
			`{"type":"REASONING_MESSAGE_END","messageId":"r"}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, 250.0, msg(s, 0)["reasoningDurationMs"])
		}},
		{"no clock, no timestamps: no duration", Options{}, []string{
			`{"type":"REASONING_MESSAGE_START","messageId":"r","role":"reasoning"}`,
			`{"type":"REASONING_MESSAGE_END","messageId":"r"}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.NotContains(t, msg(s, 0), "reasoningDurationMs")
		}},
		{"reasoning and text share a slot", Options{}, []string{
			`{"type":"REASONING_MESSAGE_START","messageId":"m","role":"reasoning"}`,
			`{"type":"REASONING_MESSAGE_CONTENT","messageId":"m","delta":"think"}`,
			`{"type":"REASONING_MESSAGE_END","messageId":"m"}`,
			`{"type":"TEXT_MESSAGE_START","messageId":"m"}`,
			`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"answer"}`,
		}, func(t *testing.T, s state, cs []*Change) {
			require.Len(t, msgs(s), 1)
			assert.Equal(t, "think", msg(s, 0)["reasoning"])
			assert.Equal(t, "answer", msg(s, 0)["content"])
		}},
		{"unknown reasoning id", Options{}, []string{
			`{"type":"REASONING_MESSAGE_CONTENT","messageId":"x","delta":"a"}`,
			`{"type":"REASONING_MESSAGE_END","messageId":"x"}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, []string{"unknown_message", "unknown_message"}, codes(cs))
		}},
		{"thinking events map to reasoning", Options{}, []string{
			`{"type":"THINKING_START","title":"plan"}`,
			`{"type":"THINKING_TEXT_MESSAGE_START"}`,
			`{"type":"THINKING_TEXT_MESSAGE_CONTENT","delta":"hmm"}`,
			`{"type":"THINKING_TEXT_MESSAGE_END"}`,
			`{"type":"THINKING_END"}`,
		}, func(t *testing.T, s state, cs []*Change) {
			require.Len(t, msgs(s), 1)
			assert.Equal(t, "hmm", msg(s, 0)["reasoning"])
			assert.Equal(t, "thinking-1", msg(s, 0)["id"], "stable id")
		}},
		{"encrypted values", Options{}, []string{
			`{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"f"}`,
			`{"type":"REASONING_MESSAGE_START","messageId":"r","role":"reasoning"}`,
			`{"type":"ACTIVITY_SNAPSHOT","messageId":"act","activityType":"PLAN","content":{}}`,
			`{"type":"REASONING_ENCRYPTED_VALUE","subtype":"tool-call","entityId":"c","encryptedValue":"E1","metadata":{"x":1}}`,
			`{"type":"REASONING_ENCRYPTED_VALUE","subtype":"message","entityId":"r","encryptedValue":"E2"}`,
			`{"type":"REASONING_ENCRYPTED_VALUE","subtype":"message","entityId":"act","encryptedValue":"E3"}`,
			`{"type":"REASONING_ENCRYPTED_VALUE","subtype":"message","entityId":"nobody","encryptedValue":"E4"}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, "E1", tool(s, 0)["encryptedValue"])
			assert.NotContains(t, tool(s, 0), "metadata")
			assert.Equal(t, "E2", msg(s, 1)["encryptedValue"])
			assert.NotContains(t, msg(s, 2), "encryptedValue")
			assert.Empty(t, cs[5].Ops)
			assert.Empty(t, cs[6].Ops)
		}},
	})
}

func TestRunLifecycle(t *testing.T) {
	runCases(t, []eventCase{
		{"started, finished with result and usage", Options{}, []string{
			`{"type":"RUN_STARTED","threadId":"t1","runId":"r1"}`,
			`{"type":"STEP_STARTED","stepName":"plan"}`,
			`{"type":"TEXT_MESSAGE_START","messageId":"m"}`,
			`{"type":"STEP_FINISHED","stepName":"plan"}`,
			`{"type":"RUN_FINISHED","threadId":"t1","runId":"r1","result":{"ok":true},"outcome":{"type":"success"},"usage":[{"inputTokens":3}]}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, "idle", s["status"])
			assert.Equal(t, false, s["isLoading"])
			assert.Equal(t, "t1", s["threadId"])
			assert.Equal(t, map[string]any{"ok": true}, s["result"])
			assert.Equal(t, []any{map[string]any{"inputTokens": 3.0}}, s["usage"])
			assert.Equal(t, []any{map[string]any{"name": "plan", "status": "finished"}}, s["steps"])
			assert.Equal(t, false, msg(s, 0)["streaming"], "finish stops streaming")
		}},
		{"running state", Options{}, []string{`{"type":"RUN_STARTED","threadId":"t1","runId":"r1"}`}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, "running", s["status"])
			assert.Equal(t, true, s["isLoading"])
		}},
		{"interrupt outcome, then cleared", Options{}, []string{
			`{"type":"RUN_STARTED","threadId":"t","runId":"r1"}`,
			`{"type":"RUN_FINISHED","threadId":"t","runId":"r1","outcome":{"type":"interrupt","interrupts":[{"id":"i1","reason":"tool_call"}]}}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, []any{map[string]any{"id": "i1", "reason": "tool_call"}}, s["interrupts"])
		}},
		{"interrupts cleared by a success", Options{}, []string{
			`{"type":"RUN_FINISHED","threadId":"t","runId":"r1","outcome":{"type":"interrupt","interrupts":[{"id":"i1","reason":"x"}]}}`,
			`{"type":"RUN_STARTED","threadId":"t","runId":"r2"}`,
			`{"type":"RUN_FINISHED","threadId":"t","runId":"r2","outcome":null}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, []any{}, s["interrupts"])
		}},
		{"unknown outcome reads as success", Options{}, []string{
			`{"type":"RUN_FINISHED","threadId":"t","runId":"r","outcome":{"type":"maybe"}}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Empty(t, codes(cs))
			assert.Equal(t, "success", s["outcome"])
		}},
		{"bad outcome rejected", Options{}, []string{
			`{"type":"RUN_FINISHED","threadId":"t","runId":"r","outcome":{"type":"success","pendingToolCallIds":[1]}}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, []string{"bad_event"}, codes(cs))
		}},
		{"run error stops what is open", Options{}, []string{
			`{"type":"RUN_STARTED","threadId":"t","runId":"r"}`,
			`{"type":"TEXT_MESSAGE_START","messageId":"m"}`,
			`{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"f"}`,
			`{"type":"RUN_ERROR","message":"boom","code":"E42"}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, "error", s["status"])
			assert.Equal(t, map[string]any{"message": "boom", "code": "E42"}, s["error"])
			assert.Equal(t, false, msg(s, 0)["streaming"])
			assert.Equal(t, "error", tool(s, 0)["status"])
		}},
		{"new run clears error and steps", Options{}, []string{
			`{"type":"RUN_ERROR","message":"boom"}`,
			`{"type":"STEP_STARTED","stepName":"a"}`,
			`{"type":"RUN_STARTED","threadId":"t","runId":"r2"}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Nil(t, s["error"])
			assert.Equal(t, []any{}, s["steps"])
		}},
		{"input messages appended when new", Options{}, []string{
			`{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"user"}`,
			`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"original"}`,
			`{"type":"RUN_STARTED","threadId":"t","runId":"r","input":{"threadId":"t","runId":"r","messages":[{"id":"m1","role":"user","content":"changed"},{"id":"m2","role":"assistant","content":"a","toolCalls":[{"id":"c9","type":"function","function":{"name":"f","arguments":"{\"x\":1}"}}]},{"id":"m3","role":"tool","content":"res","toolCallId":"c9"}]}}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, []string{"m1", "m2", "m3"}, ids(s))
			assert.Equal(t, "original", msg(s, 0)["content"])
			require.Len(t, tools(s), 1)
			assert.Equal(t, map[string]any{"x": 1.0}, tool(s, 0)["args"])
			assert.Equal(t, "res", tool(s, 0)["result"])
		}},
		{"unfinished step", Options{}, []string{`{"type":"STEP_FINISHED","stepName":"x"}`}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, []string{"unknown_step"}, codes(cs))
		}},
	})
}

func TestSharedState(t *testing.T) {
	runCases(t, []eventCase{
		{"snapshot and delta", Options{}, []string{
			`{"type":"STATE_SNAPSHOT","snapshot":{"count":1,"list":[1]}}`,
			`{"type":"STATE_DELTA","delta":[{"op":"replace","path":"/count","value":2},{"op":"add","path":"/list/-","value":2}]}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, map[string]any{"count": 2.0, "list": []any{1.0, 2.0}}, s["state"])
		}},
		{"failing patch changes nothing", Options{}, []string{
			`{"type":"STATE_SNAPSHOT","snapshot":{"count":1}}`,
			`{"type":"STATE_DELTA","delta":[{"op":"replace","path":"/count","value":2},{"op":"replace","path":"/nonexistent","value":3}]}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, map[string]any{"count": 1.0}, s["state"])
			assert.Equal(t, []string{"patch_failed"}, codes(cs))
			assert.Empty(t, cs[1].Ops)
		}},
		{"scalar state", Options{}, []string{
			`{"type":"STATE_SNAPSHOT","snapshot":5}`,
			`{"type":"STATE_DELTA","delta":[{"op":"replace","path":"","value":[1]}]}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, []any{1.0}, s["state"])
		}},
		{"citations bridge", Options{}, []string{
			`{"type":"TEXT_MESSAGE_START","messageId":"m1"}`,
			`{"type":"TEXT_MESSAGE_START","messageId":"m2"}`,
			`{"type":"STATE_SNAPSHOT","snapshot":{"citations":{"m1":["https://a.example"],"m2":[{"title":"B","url":"https://b.example","score":0.5}],"ghost":["x"]}}}`,
			`{"type":"STATE_DELTA","delta":[{"op":"remove","path":"/citations/m1"}]}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.NotContains(t, msg(s, 0), "citations", "stale citations are removed")
			assert.Equal(t, []any{map[string]any{"title": "B", "url": "https://b.example", "extra": map[string]any{"score": 0.5}}}, msg(s, 1)["citations"])
		}},
		{"delta elsewhere does not touch citations", Options{}, []string{
			`{"type":"TEXT_MESSAGE_START","messageId":"m1"}`,
			`{"type":"STATE_SNAPSHOT","snapshot":{"citations":{"m1":["u"]},"n":0}}`,
			`{"type":"STATE_DELTA","delta":[{"op":"replace","path":"/n","value":1}]}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Len(t, cs[2].Ops, 1)
			assert.Equal(t, []any{map[string]any{"url": "u"}}, msg(s, 0)["citations"])
		}},
		{"custom events", Options{}, []string{
			`{"type":"CUSTOM","name":"state_update","value":{"a":1}}`,
			`{"type":"CUSTOM","name":"ping","value":[1]}`,
			`{"type":"CUSTOM","name":"state_update","value":3}`,
			`{"type":"RAW","event":{"x":1},"source":"p"}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, "state_update", cs[0].Events[0].Type)
			assert.Equal(t, `{"events":[{"type":"state_update","state":{"a":1}}]}`, string(cs[0].AppendJSON(nil)))
			assert.Equal(t, `{"events":[{"type":"custom","name":"ping","value":[1]}]}`, string(cs[1].AppendJSON(nil)))
			assert.Equal(t, "custom", cs[2].Events[0].Type, "a non-object state_update is a plain custom event")
			assert.True(t, cs[3].Empty())
		}},
	})
}

func TestMessagesSnapshot(t *testing.T) {
	runCases(t, []eventCase{
		{"local order wins, new ids appended, client-only activity kept", Options{}, []string{
			`{"type":"MESSAGES_SNAPSHOT","messages":[{"id":"m1","role":"user","content":"hi"},{"id":"asst-1","role":"assistant","content":"a"},{"id":"tool-stream","role":"tool","content":"x","toolCallId":"c"}]}`,
			`{"type":"ACTIVITY_SNAPSHOT","messageId":"act-1","activityType":"PLAN","content":{"s":1}}`,
			`{"type":"TEXT_MESSAGE_START","messageId":"asst-2"}`,
			`{"type":"MESSAGES_SNAPSHOT","messages":[{"id":"m1","role":"user","content":"hi"},{"id":"asst-1","role":"assistant","content":"a"},{"id":"tool-canon","role":"tool","content":"x","toolCallId":"c"},{"id":"asst-2","role":"assistant","content":"done"}]}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, []string{"m1", "asst-1", "act-1", "asst-2", "tool-canon"}, ids(s))
			assert.Equal(t, "done", msg(s, 3)["content"])
		}},
		{"reasoning kept without snapshot reasoning, replaced with it", Options{}, []string{
			`{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"user"}`,
			`{"type":"REASONING_MESSAGE_START","messageId":"rs-stream","role":"reasoning"}`,
			`{"type":"MESSAGES_SNAPSHOT","messages":[{"id":"m1","role":"user","content":"q"}]}`,
			`{"type":"MESSAGES_SNAPSHOT","messages":[{"id":"m1","role":"user","content":"q"},{"id":"rs-1","role":"reasoning","content":"why","encryptedValue":"E"}]}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, []string{"m1", "rs-1"}, ids(s))
			assert.Equal(t, "why", msg(s, 1)["reasoning"])
			assert.Equal(t, "E", msg(s, 1)["encryptedValue"])
		}},
		{"snapshot tool calls reflected", Options{}, []string{
			`{"type":"MESSAGES_SNAPSHOT","messages":[{"id":"a","role":"assistant","toolCalls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{\"q\":2}"}}]},{"id":"t","role":"tool","content":"R","toolCallId":"c1"}]}`,
			`{"type":"TOOL_CALL_RESULT","messageId":"t2","toolCallId":"c1","content":"again"}`,
		}, func(t *testing.T, s state, cs []*Change) {
			require.Len(t, tools(s), 1)
			assert.Equal(t, "complete", tool(s, 0)["status"])
			assert.Equal(t, map[string]any{"q": 2.0}, tool(s, 0)["args"])
			assert.Equal(t, []string{"a", "t", "t2"}, ids(s))
		}},
		{"bad snapshot rejected whole", Options{}, []string{
			`{"type":"TEXT_MESSAGE_START","messageId":"keep"}`,
			`{"type":"MESSAGES_SNAPSHOT","messages":[{"id":"a","role":"assistant"},{"id":5,"role":"user"}]}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, []string{"keep"}, ids(s))
			assert.Empty(t, cs[1].Ops)
		}},
	})
}

func TestActivity(t *testing.T) {
	runCases(t, []eventCase{
		{"snapshot then delta", Options{}, []string{
			`{"type":"ACTIVITY_SNAPSHOT","messageId":"a","activityType":"PLAN","content":{"tasks":["x"]}}`,
			`{"type":"ACTIVITY_DELTA","messageId":"a","activityType":"PLAN","patch":[{"op":"replace","path":"/tasks/0","value":"y"},{"op":"add","path":"/tasks/-","value":"z"}]}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, map[string]any{"tasks": []any{"y", "z"}}, msg(s, 0)["content"])
			assert.Equal(t, "activity", msg(s, 0)["role"])
			assert.Equal(t, "PLAN", msg(s, 0)["activityType"])
		}},
		{"replace false keeps content, merges metadata", Options{}, []string{
			`{"type":"ACTIVITY_SNAPSHOT","messageId":"a","activityType":"P","content":{"v":1},"metadata":{"m":1}}`,
			`{"type":"ACTIVITY_SNAPSHOT","messageId":"a","activityType":"P","content":{"v":2},"replace":false,"metadata":{"n":2}}`,
			`{"type":"ACTIVITY_SNAPSHOT","messageId":"a","activityType":"Q","content":{"v":3}}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, map[string]any{"v": 3.0}, msg(s, 0)["content"])
			assert.Equal(t, "Q", msg(s, 0)["activityType"])
			assert.Equal(t, map[string]any{"m": 1.0, "n": 2.0}, msg(s, 0)["metadata"])
		}},
		{"replace true turns a user message into activity", Options{}, []string{
			`{"type":"TEXT_MESSAGE_START","messageId":"u","role":"user","metadata":{"old":1}}`,
			`{"type":"ACTIVITY_SNAPSHOT","messageId":"u","activityType":"P","content":{"v":1}}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, "activity", msg(s, 0)["role"])
			assert.NotContains(t, msg(s, 0), "metadata")
		}},
		{"replace false leaves a user message alone", Options{}, []string{
			`{"type":"TEXT_MESSAGE_START","messageId":"u","role":"user"}`,
			`{"type":"ACTIVITY_SNAPSHOT","messageId":"u","activityType":"P","content":{"v":1},"replace":false}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, "user", msg(s, 0)["role"])
			assert.Empty(t, cs[1].Ops)
		}},
		{"failed delta keeps its metadata", Options{}, []string{
			`{"type":"ACTIVITY_SNAPSHOT","messageId":"a","activityType":"P","content":{"v":1}}`,
			`{"type":"ACTIVITY_DELTA","messageId":"a","activityType":"P","patch":[{"op":"replace","path":"/nope","value":1}],"metadata":{"k":true}}`,
			`{"type":"ACTIVITY_DELTA","messageId":"ghost","activityType":"P","patch":[]}`,
			`{"type":"TEXT_MESSAGE_START","messageId":"t"}`,
			`{"type":"ACTIVITY_DELTA","messageId":"t","activityType":"P","patch":[]}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, map[string]any{"v": 1.0}, msg(s, 0)["content"])
			assert.Equal(t, map[string]any{"k": true}, msg(s, 0)["metadata"])
			assert.Equal(t, []string{"patch_failed", "unknown_message", "not_activity"}, codes(cs))
		}},
	})
}

func TestChunks(t *testing.T) {
	runCases(t, []eventCase{
		{"text chunks then finish", Options{}, []string{
			`{"type":"TEXT_MESSAGE_CHUNK","messageId":"m","delta":"Hel"}`,
			`{"type":"TEXT_MESSAGE_CHUNK","delta":"lo"}`,
			`{"type":"RUN_FINISHED","threadId":"t","runId":"r"}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, "Hello", msg(s, 0)["content"])
			assert.Equal(t, false, msg(s, 0)["streaming"])
		}},
		{"raw does not close, custom does", Options{}, []string{
			`{"type":"TEXT_MESSAGE_CHUNK","messageId":"m","delta":"a"}`,
			`{"type":"RAW","event":1}`,
			`{"type":"TEXT_MESSAGE_CHUNK","delta":"b"}`,
			`{"type":"CUSTOM","name":"x","value":1}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, "ab", msg(s, 0)["content"])
			assert.Equal(t, false, msg(s, 0)["streaming"])
		}},
		{"switching kinds closes the open stream", Options{}, []string{
			`{"type":"TEXT_MESSAGE_CHUNK","messageId":"m","role":"assistant","delta":"x"}`,
			`{"type":"TOOL_CALL_CHUNK","toolCallId":"c","toolCallName":"f","parentMessageId":"m","delta":"{\"a\":"}`,
			`{"type":"TOOL_CALL_CHUNK","delta":"1}"}`,
			`{"type":"REASONING_MESSAGE_CHUNK","messageId":"r","delta":"hm"}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, []string{"m", "r"}, ids(s))
			assert.Equal(t, false, msg(s, 0)["streaming"])
			assert.Equal(t, "complete", tool(s, 0)["status"])
			assert.Equal(t, map[string]any{"a": 1.0}, tool(s, 0)["args"])
			assert.Equal(t, "hm", msg(s, 1)["reasoning"])
		}},
		{"first chunk needs ids", Options{}, []string{
			`{"type":"TEXT_MESSAGE_CHUNK","delta":"x"}`,
			`{"type":"TOOL_CALL_CHUNK","toolCallId":"c"}`,
			`{"type":"REASONING_MESSAGE_CHUNK","delta":"x"}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, []string{"bad_chunk", "bad_chunk", "bad_chunk"}, codes(cs))
			assert.Empty(t, msgs(s))
		}},
		{"metadata-only chunk is a zero-delta carrier", Options{}, []string{
			`{"type":"TEXT_MESSAGE_CHUNK","messageId":"m","delta":"x"}`,
			`{"type":"TEXT_MESSAGE_CHUNK","metadata":{"usage":3}}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, map[string]any{"usage": 3.0}, msg(s, 0)["metadata"])
			assert.Equal(t, "x", msg(s, 0)["content"])
		}},
		{"a new id closes and reopens", Options{}, []string{
			`{"type":"TEXT_MESSAGE_CHUNK","messageId":"a","delta":"1"}`,
			`{"type":"TEXT_MESSAGE_CHUNK","messageId":"b","delta":"2"}`,
			`{"type":"TEXT_MESSAGE_CHUNK","messageId":"a","delta":"3"}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, []string{"a", "b"}, ids(s))
			assert.Equal(t, "13", msg(s, 0)["content"])
			assert.Equal(t, false, msg(s, 1)["streaming"])
		}},
	})
}

func TestBadInput(t *testing.T) {
	runCases(t, []eventCase{
		{"malformed", Options{}, []string{`{"type":`, `[]`, `{"type":5}`, `{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":7}`}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, []string{"bad_json", "bad_event", "bad_event", "bad_event"}, codes(cs))
		}},
		{"unknown type", Options{}, []string{`{"type":"FUTURE_EVENT","x":1}`}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, []string{"unknown_type"}, codes(cs))
			assert.Equal(t, LevelWarning, cs[0].Diagnostics[0].Level)
		}},
		{"too deep", Options{MaxDepth: 8}, []string{`{"type":"CUSTOM","name":"x","value":[[[[[[[[[[1]]]]]]]]]]}`}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, []string{"bad_json"}, codes(cs))
		}},
		{"too large", Options{MaxEventBytes: 64}, []string{`{"type":"CUSTOM","name":"` + strings.Repeat("x", 100) + `"}`}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, []string{"too_large"}, codes(cs))
		}},
		{"field limit", Options{MaxFieldBytes: 4}, []string{
			`{"type":"TEXT_MESSAGE_START","messageId":"m"}`,
			`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"abc"}`,
			`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"de"}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, "abc", msg(s, 0)["content"])
			assert.Equal(t, []string{"too_large"}, codes(cs))
		}},
	})
}

func TestStrict(t *testing.T) {
	runCases(t, []eventCase{
		{"ordering violations reported, events still applied", Options{Strict: true}, []string{
			`{"type":"TEXT_MESSAGE_START","messageId":"m"}`,
			`{"type":"RUN_STARTED","threadId":"t","runId":"r"}`,
			`{"type":"TEXT_MESSAGE_CONTENT","messageId":"x","delta":"a"}`,
			`{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"f"}`,
			`{"type":"RUN_FINISHED","threadId":"t","runId":"r"}`,
			`{"type":"CUSTOM","name":"late","value":1}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, []string{"order", "order", "unknown_message", "order", "order"}, codes(cs))
			assert.Len(t, msgs(s), 2)
		}},
		{"tolerant by default", Options{}, []string{`{"type":"TEXT_MESSAGE_START","messageId":"m"}`}, func(t *testing.T, s state, cs []*Change) {
			assert.Empty(t, codes(cs))
		}},
	})
}
