package reducer

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The verified example streams of the AG-UI 1.0 reference, each with the
// official 1.0.0 reducer's output ({messages, state}, activity messages
// filtered out): ours must export the same messages (RunInput) and state.
func TestAGUI10Examples(t *testing.T) {
	pending := map[string]string{
		// runAgent's compatibility boundary turns THINKING_* into reasoning
		// messages (the bare pipeline ignores them): ours folds them as
		// runAgent does.
		"E19": "THINKING_* at the boundary",
	}
	files, _ := filepath.Glob("testdata/agui10/E*.bare.json")
	require.NotEmpty(t, files)
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".bare.json")
		t.Run(name, func(t *testing.T) {
			if why, ok := pending[name]; ok {
				t.Skip(why)
			}
			r := New(Options{})
			data, err := os.ReadFile("testdata/agui10/" + name + ".jsonl")
			require.NoError(t, err)
			sc := bufio.NewScanner(bytes.NewReader(data))
			for sc.Scan() {
				if line := bytes.TrimSpace(sc.Bytes()); len(line) > 0 {
					c := r.Apply(line)
					require.False(t, c.HasError(), "%s: %v", line, c.Diagnostics)
				}
			}
			want, err := os.ReadFile(f)
			require.NoError(t, err)
			var in struct {
				Messages []any `json:"messages"`
				State    any   `json:"state"`
			}
			require.NoError(t, json.Unmarshal(r.RunInput(RunInputOptions{RunID: "x"}), &in))
			var exp struct {
				Messages []any `json:"messages"`
				State    any   `json:"state"`
			}
			require.NoError(t, json.Unmarshal(want, &exp))
			assert.Equal(t, exp.Messages, in.Messages)
			assert.Equal(t, exp.State, snapshotOf(t, r)["state"])
		})
	}
}

// E04's full message list (activity included) from the reference.
func TestAGUI10ActivityAttribution(t *testing.T) {
	r := New(Options{})
	data, err := os.ReadFile("testdata/agui10/E04.jsonl")
	require.NoError(t, err)
	for _, line := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
		require.False(t, r.Apply(line).HasError())
	}
	s := snapshotOf(t, r)
	msgs := s["messages"].([]any)
	require.Len(t, msgs, 2)
	assert.Equal(t, "sa1", msgs[0].(map[string]any)["subagentRunId"])
	assert.Equal(t, map[string]any{"steps": []any{"a", "b"}}, msgs[0].(map[string]any)["content"])
	assert.NotContains(t, msgs[1].(map[string]any), "subagentRunId")
	assert.Equal(t, map[string]any{"n": 2.0}, msgs[1].(map[string]any)["content"])
}

// E15 and E16: what the official transform throws is a diagnostic here,
// with the same text, and the chunk changes nothing.
func TestAGUI10ChunkErrors(t *testing.T) {
	for name, want := range map[string]string{
		"E15": "Cannot continue text message 'm1': chunk role 'user' does not match the open stream's role 'assistant'.",
		"E16": "Ambiguous TEXT_MESSAGE_CHUNK: it carries neither a messageId nor a subagentRunId, but 2 lanes have an open text message. Attribute the chunk to the subagent it belongs to.",
	} {
		t.Run(name, func(t *testing.T) {
			r := New(Options{})
			data, err := os.ReadFile("testdata/agui10/" + name + ".jsonl")
			require.NoError(t, err)
			var msgs []string
			for _, line := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
				before := string(r.Snapshot())
				c := r.Apply(line)
				if c.HasError() {
					msgs = append(msgs, c.Diagnostics[0].Message)
					assert.Equal(t, before, string(r.Snapshot()), "a refused chunk leaves the state as it was")
				}
			}
			assert.Equal(t, []string{want}, msgs)
		})
	}
}

// The state additions for UIs: subagents with their status, content-part
// results with a text form, the last run's pendingToolCallIds.
func TestAGUI10StateForUIs(t *testing.T) {
	runCases(t, []eventCase{
		{"subagents nest and end", Options{}, []string{
			`{"type":"RUN_STARTED","threadId":"t","runId":"r"}`,
			`{"type":"SUBAGENT_STARTED","subagentRunId":"a","name":"lead","description":"plans","parentToolCallId":"tc0","timestamp":10}`,
			`{"type":"SUBAGENT_STARTED","subagentRunId":"b","name":"helper","parentSubagentRunId":"a","timestamp":11}`,
			`{"type":"SUBAGENT_STARTED","subagentRunId":"c","name":"waiter"}`,
			`{"type":"SUBAGENT_ERROR","subagentRunId":"b","message":"boom","code":"E","timestamp":12}`,
			`{"type":"SUBAGENT_FINISHED","subagentRunId":"c","outcome":{"type":"suspended","interruptIds":["i1"]}}`,
			`{"type":"SUBAGENT_FINISHED","subagentRunId":"a","result":{"ok":true},"timestamp":20}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Empty(t, codes(cs))
			subs := s["subagents"].([]any)
			require.Len(t, subs, 3)
			a, b, c := subs[0].(map[string]any), subs[1].(map[string]any), subs[2].(map[string]any)
			assert.Equal(t, map[string]any{"id": "a", "name": "lead", "description": "plans", "parentToolCallId": "tc0", "status": "finished", "result": map[string]any{"ok": true}, "startTime": 10.0, "endTime": 20.0}, a)
			assert.Equal(t, "a", b["parentSubagentRunId"])
			assert.Equal(t, "error", b["status"])
			assert.Equal(t, map[string]any{"message": "boom", "code": "E"}, b["error"])
			assert.Equal(t, "suspended", c["status"])
			assert.Equal(t, []any{"i1"}, c["interruptIds"])
			assert.Empty(t, s["messages"], "SUBAGENT_* create no message")
		}},
		{"content-part result and pending calls", Options{}, []string{
			`{"type":"RUN_STARTED","threadId":"t","runId":"r"}`,
			`{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"f","subagentRunId":"s"}`,
			`{"type":"TOOL_CALL_START","toolCallId":"c2","toolCallName":"g"}`,
			`{"type":"TOOL_CALL_RESULT","messageId":"r1","toolCallId":"c1","content":[{"type":"text","text":"a"},{"type":"image","source":{"type":"url","value":"https://e.x/i.png"}},{"type":"text","text":"b"}]}`,
			`{"type":"RUN_FINISHED","threadId":"t","runId":"r"}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Empty(t, codes(cs))
			tcs := s["toolCalls"].([]any)
			c1 := tcs[0].(map[string]any)
			assert.Equal(t, "s", c1["subagentRunId"])
			assert.Equal(t, "a\nb", c1["result"])
			assert.Len(t, c1["resultContent"], 3)
			assert.NotContains(t, tcs[1].(map[string]any), "subagentRunId")
			assert.Equal(t, []any{"c2"}, s["pendingToolCallIds"])
			assert.Equal(t, "success", s["outcome"])
			msgs := s["messages"].([]any)
			assert.Len(t, msgs[1].(map[string]any)["content"], 3, "the tool message keeps the parts")
		}},
		{"bad content parts refused", Options{}, []string{
			`{"type":"TOOL_CALL_RESULT","messageId":"r1","toolCallId":"c1","content":[1]}`,
			`{"type":"TOOL_CALL_RESULT","messageId":"r1","toolCallId":"c1","content":5}`,
			`{"type":"SUBAGENT_STARTED","name":"x"}`,
		}, func(t *testing.T, s state, cs []*Change) {
			assert.Equal(t, []string{"bad_event", "bad_event", "bad_event"}, codes(cs))
			assert.Empty(t, s["messages"])
		}},
	})
}
