package dialect

import (
	"fmt"
	"slices"
	"testing"

	"github.com/agui-reducer/agui/reducer"
	"github.com/stretchr/testify/require"
)

// canonicalFrames are canonical events in the shape Pipeline.Apply folds
// past the translator's parse (reducer.Reducer.ApplyCanonical), and near
// misses it must leave to the translator: TanStack's variant fields, step
// thinking, tool requests, malformed events, extra members, SSE event
// names, a replayed run; and frames of other dialects whose translation
// depends on what the translator noted of the canonical ones (ids in use,
// the active message, running tool calls).
var canonicalFrames = []struct{ name, data string }{
	{"", `{"type":"RUN_STARTED","threadId":"t1","runId":"r1"}`},
	{"", `{"type":"REASONING_START","messageId":"rs1"}`},
	{"", `{"type":"REASONING_MESSAGE_START","messageId":"rs1","role":"reasoning"}`},
	{"", `{"type":"REASONING_MESSAGE_CONTENT","messageId":"rs1","delta":"think"}`},
	{"", `{"type":"REASONING_MESSAGE_END","messageId":"rs1"}`},
	{"", `{"type":"REASONING_END","messageId":"rs1"}`},
	{"", `{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}`},
	{"", `{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"Hello"}`},
	{"", `{"type":"TEXT_MESSAGE_END","messageId":"m1"}`},
	{"", `{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"get_weather","parentMessageId":"m1"}`},
	{"", `{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"{\"city\":\"Berlin\"}"}`},
	{"", `{"type":"TOOL_CALL_END","toolCallId":"c1"}`},
	{"", `{"type":"TOOL_CALL_RESULT","messageId":"tr1","toolCallId":"c1","content":"{\"t\":1}","role":"tool"}`},
	{"", `{"type":"CUSTOM","name":"progress","value":{"turn":1}}`},
	{"", `{"type":"RUN_FINISHED","threadId":"t1","runId":"r1"}`},
	// A second run: text without ids, a tool call without a parent.
	{"", `{"type":"RUN_STARTED","threadId":"t1","runId":"r2","timestamp":1700000000000}`},
	{"", `{"type":"TEXT_MESSAGE_START","messageId":"m2"}`},
	{"", `{"type":"TEXT_MESSAGE_START","messageId":"u1","role":"user","name":"Ann"}`},
	{"", `{"type":"content","delta":"tanstack text"}`},
	{"", `{"type":"TEXT_MESSAGE_CONTENT","messageId":"msg-1","delta":" canonical","timestamp":1700000000001}`},
	{"", `{"type":"TEXT_MESSAGE_CONTENT","messageId":"msg-1","delta":" canonical"}`},
	{"", `{"type":"content","delta":"tanstack text canonical canonical more"}`},
	{"", `{"type":"TOOL_CALL_START","toolCallId":"c2","toolName":"search"}`},
	{"", `{"type":"TOOL_CALL_START","toolCallId":"c3","toolCallName":"search"}`},
	{"", `{"type":"TOOL_CALL_END","toolCallId":"c2","input":{"q":"x"},"result":"found"}`},
	{"", `{"type":"TOOL_CALL_END","toolCallId":"c3","metadata":{"k":1}}`},
	{"", `{"type":"tool_call","index":0,"toolCall":{"id":"c1","function":{"name":"f","arguments":"{}"}}}`},
	{"", `{"type":"CUSTOM","name":"approval-requested","value":{"toolCallId":"c3","approval":{"id":"a1"}}}`},
	{"", `{"type":"CUSTOM","name":"tool-input-available","value":{"toolCallId":"c3"}}`},
	{"", `{"type":"CUSTOM","name":"other","value":null}`},
	{"", `{"type":"STEP_STARTED","stepName":"plan"}`},
	{"", `{"type":"STEP_FINISHED","stepName":"plan","delta":"thinking in a step"}`},
	{"", `{"type":"TEXT_MESSAGE_END","messageId":"m2"}`},
	{"", `{"type":"STEP_FINISHED","stepName":"plan"}`},
	{"", `{"type":"STEP_FINISHED","stepName":""}`},
	{"message", `{"type":"TEXT_MESSAGE_START","messageId":"m3","role":"assistant"}`},
	{"TEXT_MESSAGE_END", `{"messageId":"m3"}`},
	{AmendEvent, `{"type":"TEXT_MESSAGE_START","messageId":"m4"}`},
	{"", `{"type":"TEXT_MESSAGE_START","messageId":"m5","extra":true}`},
	{"", `{"type":"TEXT_MESSAGE_START","messageId":"m6","role":null}`},
	{"", `{"type":"TEXT_MESSAGE_START","messageId":"m7","role":"tool"}`},
	{"", `{"type":"TEXT_MESSAGE_START","messageId":"m8","messageId":"m9"}`},
	{"", `{"type":"TEXT_MESSAGE_START","messageId":"m10","metadata":null}`},
	{"", `{"type":"REASONING_MESSAGE_START","messageId":"rs2","role":"assistant"}`},
	{"", `{"type":"TEXT_MESSAGE_START"}`},
	{"", `{"type":"TEXT_MESSAGE_START","messageId":"m11"`},
	{"", `{"type":"TOOL_CALL_RESULT","messageId":"tr2","toolCallId":"c3","content":[{"type":"text","text":"parts"}]}`},
	{"", `{"type":"TOOL_CALL_RESULT","messageId":"tr3","toolCallId":"c2","content":"x","role":"user"}`},
	{"", `{"type":"RUN_ERROR","message":"boom","code":"E1"}`},
	{"", `{"type":"RUN_ERROR","error":{"message":"boom"}}`},
	{"", `{"type":"RUN_FINISHED","threadId":"t1","runId":"r2","finishReason":"stop"}`},
	{"", `{"type":"RUN_FINISHED","outcome":{"type":"cancelled"}}`},
	{"", `{"type":"RUN_STARTED","threadId":"t1","runId":"r2b"}`},
	{"", `{"type":"TOOL_CALL_START","toolCallId":"c4","toolCallName":"f"}`},
	{"", `{"type":"RUN_FINISHED","threadId":"t1","runId":"r2b","outcome":{"type":"interrupt","interrupts":[{"id":"i1"}]},"usage":[{"inputTokens":1}]}`},
	{"", `{"type":"RUN_STARTED","threadId":"t1","runId":"r2c"}`},
	{"", `{"type":"RUN_FINISHED","threadId":"t1","runId":"r2c","outcome":{"type":"later"}}`},
	{"", `{"type":"RUN_STARTED","threadId":"t1","runId":"r2d"}`},
	{"", `{"type":"RUN_FINISHED","threadId":"t1","runId":"r2d","outcome":{"type":"success","pendingToolCallIds":["c4"]},"usage":{"promptTokens":2}}`},
	// A run resent from its start, and a finished run replayed.
	{"", `{"type":"RUN_STARTED","threadId":"t1","runId":"r3"}`},
	{"", `{"type":"TEXT_MESSAGE_START","messageId":"m12"}`},
	{"", `{"type":"RUN_STARTED","threadId":"t1","runId":"r3"}`},
	{"", `{"type":"TEXT_MESSAGE_START","messageId":"m12"}`},
	{"", `{"type":"TEXT_MESSAGE_END","messageId":"m12"}`},
	{"", `{"type":"RUN_FINISHED","threadId":"t1","runId":"r3","result":{"ok":true}}`},
	{"", `{"type":"RUN_STARTED","threadId":"t1","runId":"r1"}`},
	{"", `{"type":"TEXT_MESSAGE_START","messageId":"m13"}`},
	{"", `{"type":"RUN_FINISHED","threadId":"t1","runId":"r1"}`},
	// Another dialect's events after the canonical ones: ids it derives
	// skip those in use.
	{"", `{"event":"token","thread_id":"t1","token":"streaming"}`},
	{"", `{"type":"content","id":"m1","delta":"x"}`},
	{"", `{"type":"tool_call","index":1,"toolCall":{"id":"tr1","function":{"name":"f","arguments":"{}"}}}`},
	{"", `{"type":"done","finishReason":"stop"}`},
}

// TestPipelineCanonical: canonical events Pipeline.Apply folds past the
// translator's parse make the records and state the translator's own
// route makes, and leave the translator remembering what it would, in
// each dialect, strict or not, with the reducer's size limit below the
// translator's, and with its depth limit different (no shortcut then).
func TestPipelineCanonical(t *testing.T) {
	for _, d := range []string{"", "agui", "tanstack", "streaming", "sse-contract"} {
		for _, variant := range []string{"default", "strict", "small", "depth"} {
			fast, slow := canonicalPipelines(d, variant)
			var cf, cs reducer.Change
			for i, f := range canonicalFrames {
				fast.p.Apply(&cf, f.name, []byte(f.data))
				translated(slow.p, &cs, f.name, []byte(f.data))
				require.Equal(t, string(cs.AppendJSON(nil)), string(cf.AppendJSON(nil)), "dialect %q, %s, frame %d %s", d, variant, i, f.data)
				require.Equal(t, memoryOf(slow.t), memoryOf(fast.t), "dialect %q, %s, frame %d %s", d, variant, i, f.data)
			}
			require.Equal(t, string(slow.Snapshot()), string(fast.Snapshot()), "dialect %q, %s", d, variant)
		}
	}
}

// canonicalPipelines returns two equal pipelines of dialect d: "strict"
// reducers, "small" ones (an event size limit of 90 bytes), or "depth"
// ones (a depth limit other than the translator's).
func canonicalPipelines(d, variant string) (fast, slow *pipeline) {
	fast, slow = newPipeline(Options{Dialect: d}), newPipeline(Options{Dialect: d})
	var o reducer.Options
	switch variant {
	case "strict":
		o.Strict = true
	case "small":
		o.MaxEventBytes = 90
	case "depth":
		o.MaxDepth = 64
	default:
		return fast, slow
	}
	for _, p := range []*pipeline{fast, slow} {
		o.Clock = fixedClock()
		p.r = reducer.New(o)
		p.p = NewPipeline(p.r, p.t)
	}
	return fast, slow
}

// memoryOf prints what a translator remembers of the stream.
func memoryOf(t *Translator) string {
	tools := func(m map[string]*toolRec) string {
		s := ""
		for _, id := range slices.Sorted(func(yield func(string) bool) {
			for id := range m {
				if !yield(id) {
					return
				}
			}
		}) {
			if r := m[id]; r != nil {
				s += fmt.Sprintf("%q:%+v ", id, *r)
			} else {
				s += fmt.Sprintf("%q:nil ", id)
			}
		}
		return s
	}
	texts := map[string]string{}
	for id, r := range t.texts {
		texts[id] = string(r.text) + "|" + string(r.reasoning)
	}
	s := fmt.Sprintf("last %v n %v msgs %v act %v tools %s texts %v steps %v running %v thread %q run %q done %v replayed %q seg %q %v %v %v %q indexed %v pending %v active %q step %q %q %q %q %q",
		t.last, t.n, t.msgs, t.activities, tools(t.tools), texts, t.steps, t.running, t.thread, t.run, t.done, t.replayed,
		t.seg, t.segText, t.segReasoning, t.segDone, t.segs, t.indexed, t.pending, t.active, t.step, t.stepMsg, t.stepStarted, t.stepTS, t.lastStep)
	if cp := t.cp; cp != nil {
		s += fmt.Sprintf(" cp %q %q %v %v %q %q %v %s", cp.thread, cp.run, cp.n, cp.last, cp.msgs, cp.activities, cp.allMsgs, tools(cp.tools))
	}
	return s
}

// FuzzPipelineCanonical: any frame among canonical events folds through
// Pipeline.Apply as through the translator's own route, and leaves the
// translator remembering the same.
func FuzzPipelineCanonical(f *testing.F) {
	for _, fr := range canonicalFrames {
		f.Add(fr.name, []byte(fr.data))
	}
	f.Fuzz(func(t *testing.T, name string, data []byte) {
		fast, slow := canonicalPipelines("", "default")
		var cf, cs reducer.Change
		frames := append(canonicalFrames[:7:7], struct{ name, data string }{name, string(data)}, canonicalFrames[8], canonicalFrames[9], struct{ name, data string }{name, string(data)})
		frames = append(frames, canonicalFrames[59:]...)
		for _, fr := range frames {
			fast.p.Apply(&cf, fr.name, []byte(fr.data))
			translated(slow.p, &cs, fr.name, []byte(fr.data))
			if a, b := string(cs.AppendJSON(nil)), string(cf.AppendJSON(nil)); a != b {
				t.Fatalf("frame %q: translated %s, Pipeline.Apply %s", fr.data, a, b)
			}
			if a, b := memoryOf(slow.t), memoryOf(fast.t); a != b {
				t.Fatalf("frame %q: the translator remembers\n%s\nnot\n%s", fr.data, b, a)
			}
		}
		if a, b := string(slow.Snapshot()), string(fast.Snapshot()); a != b {
			t.Fatalf("states differ: translated %s, Pipeline.Apply %s", a, b)
		}
	})
}
