package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agui-reducer/agui/reducer"
	"github.com/stretchr/testify/require"
)

// tokenFields returns the kind, id and delta of a token event that
// applyToken takes (exactly type, the id and delta, all strings), else 0.
func tokenFields(line string) (kind int32, id, delta string) {
	var m map[string]any
	if json.Unmarshal([]byte(line), &m) != nil || len(m) != 3 {
		return 0, "", ""
	}
	idKey := "messageId"
	switch m["type"] {
	case "TEXT_MESSAGE_CONTENT":
		kind = 1
	case "REASONING_MESSAGE_CONTENT":
		kind = 2
	case "TOOL_CALL_ARGS":
		kind, idKey = 3, "toolCallId"
	default:
		return 0, "", ""
	}
	id, ok1 := m[idKey].(string)
	delta, ok2 := m["delta"].(string)
	if !ok1 || !ok2 {
		return 0, "", ""
	}
	return kind, id, delta
}

// expand turns applyToken's output into the change record JSON it stands for.
func expand(t *testing.T, got []byte, delta string) string {
	t.Helper()
	if len(got) == 0 {
		return ""
	}
	return expandCompact(t, got, delta)
}

// TestApplyToken: a token folded from its fields (applyToken) makes the same
// change record and the same state as its JSON text through apply, over
// every recorded stream and the dialect streams, with each reducer option
// that changes how tokens fold.
func TestApplyToken(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "testdata", "streams", "*.jsonl"))
	require.NoError(t, err)
	more, err := filepath.Glob(filepath.Join("..", "dialect", "testdata", "*", "*.jsonl"))
	require.NoError(t, err)
	files = append(files, more...)
	files = append(files, filepath.Join("testdata", "chat-turn.jsonl"))
	tokens, deltas, appends := 0, 0, 0
	for _, opts := range []string{`{}`, `{"dialect":"agui"}`, `{"strict":true}`, `{"maxEventBytes":120}`, `{"maxFieldBytes":40}`, `{"dialect":"tanstack"}`} {
		opts = `{"deterministicIds":true,` + opts[1:]
		if opts[len(opts)-2] == ',' {
			opts = opts[:len(opts)-2] + "}"
		}
		for _, f := range files {
			b, err := os.ReadFile(f)
			require.NoError(t, err)
			name := filepath.Base(f)
			a, h := newHandle(t, opts), newHandle(t, opts)
			for i, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
				want, _ := result(apply(a, nil, []byte(l)))
				kind, id, delta := tokenFields(l)
				if kind == 0 {
					result(apply(h, nil, []byte(l)))
					continue
				}
				tokens++
				n := applyToken(h, kind, []byte(id), []byte(delta))
				if n > 0 && out[0] == compactAppendDelta {
					deltas++
				}
				if n > 0 && out[0] == compactAppends && kind == 3 {
					appends++
				}
				raw := out[:max(n, -n)]
				got := expand(t, raw, delta)
				if want != got {
					require.JSONEq(t, want, got, "%s %s line %d", opts, name, i+1)
				}
			}
			require.Equal(t, snap(t, a), snap(t, h), "%s %s", opts, name)
		}
	}
	require.Positive(t, tokens)
	require.Positive(t, deltas)
	require.Positive(t, appends, "tool-argument tokens in the compact appends form")
}

// TestApplyTokenEdges: tokens applyToken must fold as their JSON text
// through apply: an unknown message, an empty delta, text needing escapes,
// non-ASCII text, a delta past maxEventBytes, an unknown kind.
func TestApplyTokenEdges(t *testing.T) {
	start := []string{
		`{"type":"RUN_STARTED","threadId":"t","runId":"r"}`,
		`{"type":"TEXT_MESSAGE_START","messageId":"m","role":"assistant"}`,
		`{"type":"REASONING_MESSAGE_START","messageId":"rm","role":"reasoning"}`,
		`{"type":"TOOL_CALL_START","toolCallId":"tc","toolCallName":"f"}`,
	}
	cases := []struct {
		kind      int32
		id, delta string
	}{
		{1, "m", "plain"}, {1, "nope", "x"}, {1, "m", ""}, {1, "m", "quote \" back \\ nl \n tab \t ctl \x01"},
		{1, "m", "héllo → 😀"}, {2, "rm", "think"}, {2, "m", "no reasoning here"}, {3, "tc", `{"a":`}, {3, "tc", `1}`},
		{3, "nope", "x"}, {1, "m", strings.Repeat("long ", 40)}, {1, "m\"q", "x"},
	}
	for _, opts := range []string{`{}`, `{"dialect":"agui"}`, `{"maxEventBytes":150}`, `{"strict":true}`} {
		a, h := newHandle(t, opts), newHandle(t, opts)
		for _, l := range start {
			result(apply(a, nil, []byte(l)))
			result(apply(h, nil, []byte(l)))
		}
		for _, tc := range cases {
			var ev bytes.Buffer
			ev.WriteString(`{"type":`)
			typ := map[int32]string{1: "TEXT_MESSAGE_CONTENT", 2: "REASONING_MESSAGE_CONTENT", 3: "TOOL_CALL_ARGS"}[tc.kind]
			idKey := map[bool]string{true: "toolCallId", false: "messageId"}[tc.kind == 3]
			e, _ := json.Marshal(map[string]string{"type": typ, idKey: tc.id, "delta": tc.delta})
			ev.Reset()
			ev.Write(e)
			want, wantOK := result(apply(a, nil, ev.Bytes()))
			n := applyToken(h, tc.kind, []byte(tc.id), []byte(tc.delta))
			require.Equal(t, wantOK, n >= 0)
			got := expand(t, out[:max(n, -n)], tc.delta)
			require.JSONEq(t, want, got, "%s %s", opts, ev.String())
		}
		require.Equal(t, snap(t, a), snap(t, h), opts)
	}
	h := newHandle(t, `{}`)
	for _, kind := range []int32{0, 4} {
		n := callGuarded(h, func() int32 { return applyToken(h, kind, nil, nil) })
		require.Negative(t, n)
		require.Contains(t, string(out[:-n]), `"diagnostics"`)
	}
}

// TestAguiDialectMatchesReducer: with the agui dialect pinned (the drop-in
// agent's), the translator hands the reducer the events it parsed (one parse
// per event): every change record and the final state are the reducer's own
// for the JSON text, over every recorded stream.
func TestAguiDialectMatchesReducer(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "testdata", "streams", "*.jsonl"))
	require.NoError(t, err)
	files = append(files, filepath.Join("testdata", "chat-turn.jsonl"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		r := reducer.New(reducer.Options{Clock: clock})
		h := newHandle(t, `{"dialect":"agui","deterministicIds":true}`)
		for i, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			var c reducer.Change
			r.ApplyInto(&c, []byte(l))
			want := string(c.AppendJSON(nil))
			got, _ := result(apply(h, nil, []byte(l)))
			if want != got {
				require.JSONEq(t, want, got, "%s line %d", filepath.Base(f), i+1)
			}
		}
		require.JSONEq(t, string(r.Snapshot()), snap(t, h), filepath.Base(f))
	}
}
