package dialect

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A frame is "NAME {json}" for an SSE event with an event line, or the JSON
// alone.
func splitFrame(f string) (name, data string) {
	if strings.HasPrefix(f, "{") {
		return "", f
	}
	name, data, _ = strings.Cut(f, " ")
	return name, data
}

// foldFrames applies each frame, checking after every event that the change
// records keep a mirror equal to the snapshot and that a rejected event
// (bad input, wrong dialect) changed nothing.
func foldFrames(t testing.TB, r *pipeline, frames []string) []*Change {
	t.Helper()
	m := newMirror(t, r)
	out := make([]*Change, 0, len(frames))
	for i, f := range frames {
		name, data := splitFrame(f)
		before := string(r.Snapshot())
		c := new(Change)
		r.ApplyFrameInto(c, name, []byte(data))
		m.apply(t, c)
		m.check(t, r, "frame "+strconv.Itoa(i)+": "+truncate(f))
		if rejected(c) || hasCode(c, "wrong_dialect") || hasCode(c, "bad_option") {
			require.Empty(t, c.Ops, "rejected frame %d has ops", i)
			require.Equal(t, before, string(r.Snapshot()), "rejected frame %d changed the state", i)
		}
		out = append(out, c)
	}
	return out
}

func runFrameCases(t *testing.T, cases []eventCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := newPipeline(tc.opt)
			cs := foldFrames(t, r, tc.events)
			tc.check(t, snapshotOf(t, r), cs)
			r2 := newPipeline(tc.opt)
			_, err := r2.Restore(r.Snapshot())
			require.NoError(t, err)
			require.Equal(t, string(r.Snapshot()), string(r2.Snapshot()))
		})
	}
}

func TestDialectDetection(t *testing.T) {
	runFrameCases(t, []eventCase{
		{"canonical in a frame named message", Options{}, []string{
			`message {"type":"TEXT_MESSAGE_START","messageId":"m"}`,
			`message {"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"hi"}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, "hi", msg(s, 0)["content"])
			assert.Empty(t, codes(cs))
		}},
		{"canonical type in the SSE event line only", Options{}, []string{
			`TEXT_MESSAGE_START {"messageId":"m"}`,
			`TEXT_MESSAGE_CONTENT {"messageId":"m","delta":"hi"}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, "hi", msg(s, 0)["content"])
		}},
		{"sse-contract error with and without its event line", Options{}, []string{
			`error {"type":"error","message":"one","code":"A"}`,
			`{"type":"error","message":"two","code":"B"}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, map[string]any{"message": "two", "code": "B"}, s["error"])
			assert.Empty(t, codes(cs))
		}},
		{"tanstack error, also in a frame named error", Options{}, []string{
			`{"type":"error","error":{"message":"one","code":"a"}}`,
			`error {"type":"error","error":{"message":"two"}}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, map[string]any{"message": "two"}, s["error"])
		}},
		{"streaming error", Options{}, []string{
			`{"event":"error","thread_id":"t","error_type":"llm","error_message":"boom","recoverable":true}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, map[string]any{"message": "boom", "code": "llm", "recoverable": true}, s["error"])
		}},
		{"unknown shapes are ignored with a warning", Options{}, []string{
			`{"type":"future_chunk","x":1}`,
			`{"event":"heartbeat","thread_id":"t"}`,
			`status {"type":"paused"}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, []string{"unknown_type", "unknown_type", "unknown_type"}, codes(cs))
			assert.Empty(t, msgs(s))
			assert.Equal(t, "idle", s["status"])
		}},
		{"no type, no name, no event field", Options{}, []string{`{"content":"x"}`}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, []string{"bad_event"}, codes(cs))
		}},
	})
}

func TestDialectPinned(t *testing.T) {
	canonical := `{"type":"TEXT_MESSAGE_START","messageId":"m"}`
	sseContract := `message {"content":"hi"}`
	tanstack := `{"type":"content","delta":"hi"}`
	variant := `{"type":"TOOL_CALL_START","toolCallId":"c","toolName":"f"}`
	streaming := `{"event":"token","token":"hi"}`
	all := []string{canonical, sseContract, tanstack, variant, streaming}
	cases := []struct {
		dialect string
		want    []string // diagnostic codes, one frame of all after another
	}{
		{AGUI, []string{"wrong_dialect", "wrong_dialect", "bad_event", "wrong_dialect"}},
		{SSEContract, []string{"wrong_dialect", "wrong_dialect", "wrong_dialect", "wrong_dialect"}},
		{TanStack, []string{"wrong_dialect", "wrong_dialect"}},
		{Streaming, []string{"wrong_dialect", "wrong_dialect", "wrong_dialect", "wrong_dialect"}},
		// sse-contract → tanstack → tanstack (variant) → streaming
		{Auto, []string{"mixed_dialects", "mixed_dialects"}},
		{"", []string{"mixed_dialects", "mixed_dialects"}},
		{"klingon", []string{"bad_option", "bad_option", "bad_option", "bad_option", "bad_option"}},
	}
	for _, tc := range cases {
		t.Run("dialect="+tc.dialect, func(t *testing.T) {
			r := newPipeline(Options{Dialect: tc.dialect})
			cs := foldFrames(t, r, all)
			assert.Equal(t, tc.want, codes(cs))
		})
	}
	t.Run("Dialects lists every name", func(t *testing.T) {
		for _, name := range Names() {
			_, ok := parseDialect(name)
			assert.True(t, ok, name)
		}
	})
}

func TestSSEContract(t *testing.T) {
	runFrameCases(t, []eventCase{
		{"text before a tool call owns it; text after opens a new message", Options{}, []string{
			`status {"type":"start","thread_id":"th"}`,
			`message {"content":"Let me search.","agent":"researcher"}`,
			`tool_call_start {"toolCallId":"c1","toolCallName":"search","agent":"researcher"}`,
			`tool_call_args {"toolCallId":"c1","delta":"{\"q\":1}"}`,
			`tool_call_end {"toolCallId":"c1"}`,
			`tool_result {"toolCallId":"c1","content":"found","role":"tool"}`,
			`message {"content":"Found it."}`,
			`status {"type":"complete"}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, []string{"msg-1", "result-c1", "msg-2"}, ids(s))
			assert.Equal(t, "researcher", msg(s, 0)["name"])
			assert.Equal(t, []any{"c1"}, msg(s, 0)["toolCallIds"])
			assert.Equal(t, "Found it.", msg(s, 2)["content"])
			assert.Equal(t, "msg-1", tool(s, 0)["parentMessageId"])
			assert.Equal(t, "idle", s["status"])
			assert.Equal(t, "th", s["threadId"])
			assert.Equal(t, "run-1", s["runId"])
			assert.Empty(t, codes(cs))
		}},
		{"status running does not restart a running run", Options{}, []string{
			`status {"type":"start"}`,
			`status {"type":"running","message":"working"}`,
			`status {"type":"complete"}`,
			`status {"type":"running"}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, "run-2", s["runId"])
			assert.Equal(t, "running", s["status"])
		}},
		{"bad fields are rejected", Options{}, []string{
			`tool_call_start {"toolCallId":"c1"}`,
			`tool_call_args {"toolCallId":"c1","delta":5}`,
			`tool_result {"toolCallId":"c1","content":"x","role":"user"}`,
			`message {"content":["x"]}`,
			`message {"content":"x","thread_id":7}`,
			`status {"message":"no type"}`,
			`error {"type":"error"}`,
			`reasoning_message_start {"messageId":"r","role":"user"}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, []string{"bad_event", "bad_event", "bad_event", "bad_event", "bad_event", "bad_event", "bad_event", "bad_event"}, codes(cs))
			assert.Equal(t, "idle", s["status"])
			assert.Empty(t, s["runId"])
		}},
		{"a truncated argument stream ends with {}", Options{}, []string{
			`tool_call_start {"toolCallId":"call_abc123","toolCallName":"web_search","thread_id":"thread_1"}`,
			`tool_call_args {"toolCallId":"call_abc123","delta":"{\"query\": \"weather"}`,
			`tool_call_end {"toolCallId":"call_abc123"}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, map[string]any{}, tool(s, 0)["args"])
			assert.Equal(t, []string{"bad_args"}, codes(cs))
		}},
	})
}

func TestTanStackVariant(t *testing.T) {
	runFrameCases(t, []eventCase{
		{"accumulated content: extend, stale prefix, disagreement", Options{}, []string{
			`{"type":"TEXT_MESSAGE_START","messageId":"m","role":"assistant"}`,
			`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","content":"Hel"}`,
			`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"","content":"Hello"}`,
			`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","content":"He"}`,
			`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","content":"Goodbye"}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, "Goodbye", msg(s, 0)["content"])
			assert.Empty(t, codes(cs))
		}},
		{"accumulated args replace disagreeing ones", Options{}, []string{
			`{"type":"TOOL_CALL_START","toolCallId":"c","toolName":"f"}`,
			`{"type":"TOOL_CALL_ARGS","toolCallId":"c","args":"{\"a\":"}`,
			`{"type":"TOOL_CALL_ARGS","toolCallId":"c","args":"{\"b\":2}"}`,
			`{"type":"TOOL_CALL_END","toolCallId":"c"}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, `{"b":2}`, tool(s, 0)["argsText"])
			assert.Equal(t, map[string]any{"b": 2.0}, tool(s, 0)["args"])
			assert.Equal(t, "f", tool(s, 0)["name"])
		}},
		{"input overrides args that do not parse", Options{}, []string{
			`{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"f"}`,
			`{"type":"TOOL_CALL_ARGS","toolCallId":"c","delta":"{\"a\":"}`,
			`{"type":"TOOL_CALL_END","toolCallId":"c","input":{"a":1},"result":{"ok":true}}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, map[string]any{"a": 1.0}, tool(s, 0)["args"])
			assert.Equal(t, `{"ok":true}`, tool(s, 0)["result"])
			assert.Empty(t, codes(cs), "no bad_args: the input wins")
		}},
		{"approval and client tool requests as CUSTOM events", Options{}, []string{
			`{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"send"}`,
			`{"type":"CUSTOM","name":"approval-requested","value":{"toolCallId":"c","toolName":"send","input":{},"approval":{"id":"ap1","needsApproval":true}}}`,
			`{"type":"CUSTOM","name":"tool-input-available","value":{"toolCallId":"c","toolName":"send","input":{}}}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, map[string]any{"id": "ap1", "needsApproval": true}, tool(s, 0)["approval"])
			assert.Equal(t, true, tool(s, 0)["clientSide"])
			require.Len(t, cs[1].Events, 1, "the custom event is still emitted")
		}},
		{"a canonical STEP_FINISHED after streamed thinking is not an unknown step", Options{}, []string{
			`{"type":"STEP_STARTED","stepName":"think"}`,
			`{"type":"STEP_FINISHED","stepName":"think","delta":"hm"}`,
			`{"type":"STEP_FINISHED","stepName":"think","delta":"m"}`,
			`{"type":"STEP_FINISHED","stepName":"think"}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Empty(t, codes(cs))
			assert.Equal(t, "hmm", msg(s, 0)["reasoning"])
			assert.Equal(t, false, msg(s, 0)["streaming"])
			assert.Equal(t, []any{map[string]any{"name": "think", "status": "finished"}}, s["steps"])
		}},
		{"thinking content reconciled", Options{}, []string{
			`{"type":"STEP_FINISHED","stepId":"s","content":"ab"}`,
			`{"type":"STEP_FINISHED","stepId":"s","content":"abc"}`,
			`{"type":"STEP_FINISHED","stepId":"s","content":"xyz"}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, "xyz", msg(s, 0)["reasoning"])
			assert.Empty(t, s["steps"])
		}},
		{"bad variant fields are rejected", Options{}, []string{
			`{"type":"RUN_FINISHED","finishReason":3}`,
			`{"type":"RUN_FINISHED","usage":{"promptTokens":"many"}}`,
			`{"type":"RUN_ERROR","error":{"code":"x"}}`,
			`{"type":"RUN_ERROR","error":"boom"}`,
			`{"type":"TOOL_CALL_START","toolCallId":"c","toolName":5}`,
			`{"type":"STEP_STARTED","stepId":["s"]}`,
			`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","content":{}}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, []string{"bad_event", "bad_event", "bad_event", "bad_event", "bad_event", "bad_event", "bad_event"}, codes(cs))
		}},
		{"pinned agui keeps canonical semantics", Options{Dialect: AGUI}, []string{
			`{"type":"RUN_STARTED","runId":"r"}`,
			`{"type":"RUN_ERROR","error":{"message":"x"}}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, []string{"bad_event", "bad_event"}, codes(cs))
		}},
	})
}

func TestTanStackLegacy(t *testing.T) {
	runFrameCases(t, []eventCase{
		{"a fractional timestamp counts as absent", Options{}, []string{
			`{"type":"thinking","id":"r","content":"hm","timestamp":1700000000000.5}`,
			`{"type":"content","id":"r","delta":"hi","timestamp":1700000000001.5}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Empty(t, codes(cs))
			assert.Equal(t, "hm", msg(s, 0)["reasoning"])
		}},
		{"content completes open tool calls", Options{}, []string{
			`{"type":"tool_call","id":"r","toolCall":{"id":"c","function":{"name":"f","arguments":"{\"a\":1}"}},"index":0}`,
			`{"type":"content","id":"r","delta":"done"}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, "complete", tool(s, 0)["status"])
			assert.Equal(t, []string{"r", "r-2"}, ids(s))
			assert.Equal(t, "running", s["status"])
		}},
		{"chunks without ids get stable ones", Options{}, []string{
			`{"type":"thinking","content":"hm"}`,
			`{"type":"tool_call","toolCall":{"function":{"name":"f"}},"index":0}`,
			`{"type":"tool_call","toolCall":{"function":{"arguments":"{}"}},"index":0}`,
			`{"type":"done"}`,
			`{"type":"content","delta":"again"}`,
		}, func(t *testing.T, s state, cs []*Change) {
			// The thinking opened a reasoning message (msg-1); a tool call
			// naming it as parent gets an assistant message of its own, as
			// the official client resolves a parent that is not an assistant.
			assert.Equal(t, []string{"msg-1", "tool-1", "msg-2"}, ids(s))
			assert.Equal(t, "tool-1", tool(s, 0)["id"])
			assert.Equal(t, "tool-1", tool(s, 0)["parentMessageId"])
			assert.Equal(t, "run-2", s["runId"])
		}},
		{"a name arriving after the arguments", Options{}, []string{
			`{"type":"tool_call","toolCall":{"id":"c","function":{"arguments":"{"}},"index":0}`,
			`{"type":"tool_call","toolCall":{"function":{"name":"late","arguments":"}"}},"index":0}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, "late", tool(s, 0)["name"])
			assert.Equal(t, "{}", tool(s, 0)["argsText"])
			assert.Empty(t, codes(cs))
		}},
		{"a new id at a used index is a new call", Options{}, []string{
			`{"type":"tool_call","toolCall":{"id":"a","function":{"name":"f"}},"index":0}`,
			`{"type":"tool_call","toolCall":{"id":"b","function":{"name":"g"}},"index":0}`,
			`{"type":"tool_call","toolCall":{"function":{"arguments":"[1]"}},"index":0}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, "", tool(s, 0)["argsText"])
			assert.Equal(t, "[1]", tool(s, 1)["argsText"])
		}},
		{"bad chunks are rejected", Options{}, []string{
			`{"type":"content"}`,
			`{"type":"content","delta":1}`,
			`{"type":"tool_call","index":0}`,
			`{"type":"tool_call","toolCall":{"function":{"name":"f"}}}`,
			`{"type":"tool_call","toolCall":{"id":"c"},"index":-1}`,
			`{"type":"tool_call","toolCall":{"id":"c"},"index":1.5}`,
			`{"type":"approval-requested","toolCallId":"c","input":{}}`,
			`{"type":"tool-input-available","input":{}}`,
			`{"type":"tool_result","toolCallId":"c"}`,
			`{"type":"done","usage":{"totalTokens":true}}`,
			`{"type":"error","error":{"message":7}}`,
			`{"type":"error"}`,
		}, func(t *testing.T, s state, cs []*Change) {
			for i, c := range cs {
				assert.Equal(t, []string{"bad_event"}, codes([]*Change{c}), "chunk %d", i)
			}
			assert.Empty(t, msgs(s))
			assert.Equal(t, "idle", s["status"])
		}},
	})
}

func TestStreaming(t *testing.T) {
	runFrameCases(t, []eventCase{
		{"tool_end matches the oldest running tool_start of its name", Options{}, []string{
			`{"event":"tool_start","thread_id":"t","tool_name":"f","arguments":{"n":1}}`,
			`{"event":"tool_start","thread_id":"t","tool_name":"f","arguments":{"n":2}}`,
			`{"event":"tool_end","thread_id":"t","tool_name":"f","result":"one","execution_time_ms":5}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, "one", tool(s, 0)["result"])
			assert.Equal(t, "running", tool(s, 1)["status"])
			assert.Equal(t, map[string]any{"executionTimeMs": 5.0}, tool(s, 0)["metadata"])
		}},
		{"message_complete supplies what the tokens missed", Options{}, []string{
			`{"event":"token","thread_id":"t","token":"Hel"}`,
			`{"event":"message_complete","thread_id":"t","message":{"role":"assistant","content":"Hello","metadata":{"k":1}}}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, "Hello", msg(s, 0)["content"])
			assert.Equal(t, map[string]any{"k": 1.0}, msg(s, 0)["metadata"])
			assert.Equal(t, "idle", s["status"])
		}},
		{"message_complete replaces tokens that disagree", Options{}, []string{
			`{"event":"token","thread_id":"t","token":"Helo"}`,
			`{"event":"message_complete","thread_id":"t","message":{"role":"assistant","content":"Hello"}}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, "Hello", msg(s, 0)["content"])
			assert.Len(t, msgs(s), 1)
		}},
		{"message_complete of a user message", Options{}, []string{
			`{"event":"message_complete","thread_id":"t","message":{"role":"user","content":"Hi"}}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, "user", msg(s, 0)["role"])
			assert.Equal(t, "Hi", msg(s, 0)["content"])
		}},
		{"tool_execution_complete for an unknown id", Options{}, []string{
			`{"event":"tool_execution_complete","thread_id":"t","execution_id":"x"}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, []string{"unknown_tool_call"}, codes(cs))
			assert.Equal(t, "idle", s["status"], "no run for an event that changed nothing")
		}},
		{"bad events are rejected", Options{}, []string{
			`{"event":"token","thread_id":"t"}`,
			`{"event":"token","thread_id":5,"token":"x"}`,
			`{"event":"tool_start","thread_id":"t","arguments":{}}`,
			`{"event":"tool_start","thread_id":"t","tool_name":"f","arguments":[1]}`,
			`{"event":"tool_end","thread_id":"t","tool_name":"f"}`,
			`{"event":"tool_end","thread_id":"t","tool_name":"f","result":1,"execution_time_ms":"fast"}`,
			`{"event":"tool_execution_request","thread_id":"t","tool_name":"f"}`,
			`{"event":"message_complete","thread_id":"t","message":{"role":"tool","content":"x"}}`,
			`{"event":"message_complete","thread_id":"t"}`,
			`{"event":"error","thread_id":"t","error_message":"x","recoverable":"yes"}`,
		}, func(t *testing.T, s state, cs []*Change) {
			for i, c := range cs {
				assert.Equal(t, []string{"bad_event"}, codes([]*Change{c}), "event %d", i)
			}
			assert.Empty(t, msgs(s))
		}},
	})
}

func TestDialectIDs(t *testing.T) {
	runFrameCases(t, []eventCase{
		{"assigned ids skip ids in use", Options{}, []string{
			`{"type":"TEXT_MESSAGE_START","messageId":"msg-1"}`,
			`{"type":"TOOL_CALL_START","toolCallId":"tool-1","toolCallName":"f"}`,
			`{"type":"RUN_FINISHED"}`,
			`{"event":"token","token":"a"}`,
			`{"event":"tool_start","tool_name":"g"}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, []string{"msg-1", "tool-1", "msg-2"}, ids(s))
			assert.Equal(t, "tool-2", tool(s, 1)["id"])
		}},
		{"the host's NewID names them", Options{NewID: func(kind string) string { return "host-" + kind }}, []string{
			`{"event":"token","token":"a"}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, []string{"host-msg"}, ids(s))
			assert.Equal(t, "host-run", s["runId"])
		}},
	})

	t.Run("after a restore the next run is not taken for a replay", func(t *testing.T) {
		r := newPipeline(Options{})
		foldFrames(t, r, []string{`{"event":"token","token":"a"}`, `{"event":"message_complete","message":{"role":"assistant","content":"a"}}`})
		r2 := newPipeline(Options{})
		_, err := r2.Restore(r.Snapshot())
		require.NoError(t, err)
		cs := foldFrames(t, r2, []string{`{"event":"token","token":"b"}`})
		assert.Empty(t, codes(cs))
		s := snapshotOf(t, r2)
		assert.Equal(t, "run-2", s["runId"])
		assert.Equal(t, []string{"msg-1", "msg-2"}, ids(s))
		assert.Equal(t, "b", msg(s, 1)["content"])
	})

	t.Run("the same input yields the same ids", func(t *testing.T) {
		frames := []string{
			`{"type":"thinking","content":"x"}`,
			`{"type":"tool_call","toolCall":{"function":{"name":"f"}},"index":0}`,
			`{"event":"tool_start","tool_name":"g"}`,
			`message {"content":"y"}`,
			`{"type":"done"}`,
		}
		a, b := newPipeline(Options{}), newPipeline(Options{})
		foldFrames(t, a, frames)
		foldFrames(t, b, frames)
		assert.Equal(t, string(a.Snapshot()), string(b.Snapshot()))
	})
}

func TestDialectLimits(t *testing.T) {
	runFrameCases(t, []eventCase{
		{"oversized text is rejected before a run starts", Options{MaxFieldBytes: 4}, []string{
			`{"event":"token","token":"12345"}`,
			`message {"content":"12345"}`,
			`{"type":"content","delta":"12345"}`,
			`{"type":"thinking","delta":"12345"}`,
			`{"type":"tool_call","toolCall":{"id":"c","function":{"arguments":"12345"}},"index":0}`,
			`{"event":"tool_start","tool_name":"f","arguments":{"a":1}}`,
			`{"event":"message_complete","message":{"role":"assistant","content":"12345"}}`,
			`reasoning_message_content {"messageId":"r","delta":"12345"}`,
		}, func(t *testing.T, s state, cs []*Change) {
			for i, c := range cs {
				assert.Equal(t, []string{"too_large"}, codes([]*Change{c}), "event %d", i)
			}
			assert.Equal(t, "idle", s["status"])
			assert.Empty(t, msgs(s))
		}},
		{"growth past the limit is rejected", Options{MaxFieldBytes: 4}, []string{
			`{"event":"token","token":"123"}`,
			`{"event":"token","token":"45"}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, "123", msg(s, 0)["content"])
			assert.Equal(t, []string{"too_large"}, codes(cs))
		}},
	})
}

func TestDialectRestoreMidStream(t *testing.T) {
	r := newPipeline(Options{})
	foldFrames(t, r, []string{`{"event":"token","token":"a"}`})
	_, err := r.Restore(r.Snapshot())
	require.NoError(t, err)
	foldFrames(t, r, []string{`{"event":"token","token":"b"}`})
	s := snapshotOf(t, r)
	// The restored message goes on: a restore mid-message does not start
	// a second assistant message.
	assert.Equal(t, []string{"msg-1"}, ids(s))
	assert.Equal(t, "ab", msg(s, 0)["content"])
	// So does reasoning streaming when the snapshot was taken, and the
	// text that follows it goes into the same message.
	r = newPipeline(Options{})
	foldFrames(t, r, []string{`{"type":"thinking","id":"x","delta":"hm"}`})
	_, err = r.Restore(r.Snapshot())
	require.NoError(t, err)
	foldFrames(t, r, []string{`{"type":"thinking","id":"x","delta":"m"}`, `{"type":"content","id":"x","delta":"ok"}`})
	s = snapshotOf(t, r)
	assert.Len(t, msgs(s), 1)
	assert.Equal(t, "hmm", msg(s, 0)["reasoning"])
	assert.Equal(t, "ok", msg(s, 0)["content"])
}

func TestDialectAfterTransportFailure(t *testing.T) {
	r := newPipeline(Options{})
	foldFrames(t, r, []string{
		`{"type":"content","id":"r","delta":"ab"}`,
		`{"type":"tool_call","toolCall":{"id":"c","function":{"name":"f"}},"index":0}`,
	})
	r.Fail("connection lost", "network")
	// The host retries: the dialect's memory of the failed run must not
	// leak into the new one.
	cs := foldFrames(t, r, []string{
		`{"type":"content","id":"r","content":"xy"}`,
		`{"type":"tool_call","toolCall":{"function":{"arguments":"{}"}},"index":0}`,
	})
	assert.Empty(t, codes(cs))
	s := snapshotOf(t, r)
	assert.Equal(t, []string{"r", "r-2"}, ids(s))
	assert.Equal(t, "ab", msg(s, 0)["content"])
	assert.Equal(t, "xy", msg(s, 1)["content"])
	assert.Equal(t, "tool-1", tool(s, 1)["id"], "index 0 of the new run is a new call")
	assert.Equal(t, "run-2", s["runId"])
}
