package dialect

import (
	"encoding/json"
	"strconv"
	"testing"
	"unicode/utf8"

	"github.com/agui-reducer/agui/reducer"
	"github.com/stretchr/testify/require"
)

// tokenOf returns the type, id and delta of a token frame (exactly type,
// the id and delta, all strings), as a host holding it decoded would pass
// them to FoldToken.
func tokenOf(data string) (typ reducer.EventType, id, delta string, ok bool) {
	var m map[string]any
	if json.Unmarshal([]byte(data), &m) != nil || len(m) != 3 {
		return "", "", "", false
	}
	idKey := "messageId"
	switch t, _ := m["type"].(string); reducer.EventType(t) {
	case reducer.TextMessageContent, reducer.ReasoningMessageContent:
	case reducer.ToolCallArgs:
		idKey = "toolCallId"
	default:
		return "", "", "", false
	}
	id, ok1 := m[idKey].(string)
	delta, ok2 := m["delta"].(string)
	typ = reducer.EventType(m["type"].(string))
	return typ, id, delta, ok1 && ok2
}

// foldToken folds a token through Pipeline.FoldToken into c, writing the
// append it stands for into c when FoldToken took it itself.
func foldToken(p *Pipeline, c *reducer.Change, typ reducer.EventType, id, delta string) {
	index, appended := p.FoldToken(c, typ, []byte(id), []byte(delta))
	if !appended {
		return
	}
	field := "/content"
	if typ == reducer.ReasoningMessageContent {
		field = "/reasoning"
	}
	c.Ops = append(c.Ops, reducer.Op{Kind: reducer.OpAppend, Path: "/messages/" + strconv.Itoa(index) + field, Text: delta})
}

// TestPipelineFoldToken: tokens given by their fields through
// Pipeline.FoldToken make the records and state that their frames make
// through the translator's own route, in each dialect and with the
// reducer's size limit below the translator's.
func TestPipelineFoldToken(t *testing.T) {
	folded := 0
	for _, d := range []string{"", "agui", "tanstack", "streaming", "sse-contract", "nope"} {
		for _, limit := range []int{0, 200} {
			fast, slow := shortcutPipelines(d, limit)
			var cf, cs reducer.Change
			for i, f := range shortcutFrames {
				typ, id, delta, ok := tokenOf(f.data)
				if ok && f.name == "" {
					// The fields as a host holds them (a lone surrogate
					// decoded to U+FFFD): the reference folds their JSON.
					folded++
					foldToken(fast.p, &cf, typ, id, delta)
					translated(slow.p, &cs, "", reducer.AppendToken(nil, typ, []byte(id), []byte(delta)))
				} else {
					fast.p.Apply(&cf, f.name, []byte(f.data))
					translated(slow.p, &cs, f.name, []byte(f.data))
				}
				require.Equal(t, string(cs.AppendJSON(nil)), string(cf.AppendJSON(nil)), "dialect %q, reducer limit %d, frame %d %s", d, limit, i, f.data)
			}
			require.Equal(t, string(slow.Snapshot()), string(fast.Snapshot()), "dialect %q, reducer limit %d", d, limit)
		}
	}
	require.Positive(t, folded)
}

// FuzzPipelineFoldToken: any token given by its fields (valid UTF-8),
// after a run with a text and a reasoning message and a tool call open,
// folds through Pipeline.FoldToken as its JSON text through the
// translator's own route.
func FuzzPipelineFoldToken(f *testing.F) {
	f.Add(uint8(0), "m1", "Hello", false)
	f.Add(uint8(1), "rs1", "think", false)
	f.Add(uint8(2), "c1", `{"a":"b`, false)
	f.Add(uint8(0), "m1", "", true)
	f.Add(uint8(0), "nope", "x", false)
	f.Add(uint8(1), "m1", "quote \" \n é 😀", true)
	types := []reducer.EventType{reducer.TextMessageContent, reducer.ReasoningMessageContent, reducer.ToolCallArgs}
	f.Fuzz(func(t *testing.T, kind uint8, id, delta string, small bool) {
		if !utf8.ValidString(id) || !utf8.ValidString(delta) {
			return // FoldToken's contract
		}
		limit := 0
		if small {
			limit = 200
		}
		typ := types[int(kind)%len(types)]
		fast, slow := shortcutPipelines("", limit)
		var cf, cs reducer.Change
		for _, fr := range []string{
			`{"type":"RUN_STARTED","threadId":"t1","runId":"r1"}`,
			`{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}`,
			`{"type":"REASONING_MESSAGE_START","messageId":"rs1","role":"reasoning"}`,
			`{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"f","parentMessageId":"m1"}`,
		} {
			fast.p.Apply(&cf, "", []byte(fr))
			translated(slow.p, &cs, "", []byte(fr))
		}
		for range 2 {
			foldToken(fast.p, &cf, typ, id, delta)
			data := reducer.AppendToken(nil, typ, []byte(id), []byte(delta))
			translated(slow.p, &cs, "", data)
			if a, b := string(cs.AppendJSON(nil)), string(cf.AppendJSON(nil)); a != b {
				t.Fatalf("token %s: translated %s, FoldToken %s", data, a, b)
			}
		}
		if a, b := string(slow.Snapshot()), string(fast.Snapshot()); a != b {
			t.Fatalf("states differ: translated %s, FoldToken %s", a, b)
		}
	})
}
