package reducer

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// interleavedArgs is three write_file calls streaming their arguments in
// turns, as a model writing files concurrently does: each token switches
// calls, deltas split escapes (\n, \", \u00e9, a surrogate pair) and
// multi-byte characters, and each call streams two string members, an
// array and a number.
func interleavedArgs() (start []string, ids []string, deltas [][]string) {
	start = []string{
		`{"type":"RUN_STARTED","threadId":"t","runId":"r"}`,
		`{"type":"TEXT_MESSAGE_START","messageId":"m","role":"assistant"}`,
	}
	ids = []string{"call_a1", "call_b2", "call_c3"}
	for i, id := range ids {
		start = append(start, `{"type":"TOOL_CALL_START","toolCallId":"`+id+`","toolCallName":"write_file","parentMessageId":"m"}`)
		content := strings.Repeat("line \"q\" caf\u00e9 \U0001F600 tab\tend\n", 6+i)
		raw, _ := json.Marshal(map[string]any{"path": "src/f" + id + ".txt", "content": content, "tags": []string{"a", "b\\c"}, "mode": 420})
		// json.Marshal writes é and 😀 as UTF-8: escape some, as
		// providers do, so that deltas split \u escapes too.
		text := strings.Replace(string(raw), "é", `\u00e9`, 3)
		text = strings.Replace(text, "😀", `\ud83d\ude00`, 2)
		var ds []string
		for at, n := 0, 0; at < len(text); n++ {
			size := 3 + (n*7+i)%11
			end := min(at+size, len(text))
			// Keep UTF-8 whole: a delta is JavaScript text.
			for end < len(text) && text[end]&0xC0 == 0x80 {
				end++
			}
			ds = append(ds, text[at:end])
			at = end
		}
		deltas = append(deltas, ds)
	}
	return start, ids, deltas
}

// tokenJSON is the JSON text of a TOOL_CALL_ARGS token.
func tokenJSON(id, delta string) []byte {
	return AppendToken(nil, ToolCallArgs, []byte(id), []byte(delta))
}

// TestApplyTokenInterleavedArgs: tool-argument tokens of interleaved calls
// folded from their fields (ApplyToken) make the same changes, op for op,
// as their JSON text (ApplyAppend), and the same final state: each edit's
// pointer names its own call and member, whatever the previous token's
// was.
func TestApplyTokenInterleavedArgs(t *testing.T) {
	start, ids, deltas := interleavedArgs()
	byToken, byJSON := New(Options{}), New(Options{})
	var ct, cj Change
	for _, ev := range start {
		ct.Reset()
		byToken.ApplyAppend(&ct, []byte(ev))
		cj.Reset()
		byJSON.ApplyAppend(&cj, []byte(ev))
	}
	for n := 0; ; n++ {
		more := false
		for i, id := range ids {
			if n >= len(deltas[i]) {
				continue
			}
			more = true
			d := deltas[i][n]
			ct.Reset()
			byToken.ApplyToken(&ct, ToolCallArgs, []byte(id), []byte(d))
			cj.Reset()
			byJSON.ApplyAppend(&cj, tokenJSON(id, d))
			require.Equal(t, string(cj.AppendJSON(nil)), string(ct.AppendJSON(nil)), "call %s, delta %d %q", id, n, d)
		}
		if !more {
			break
		}
	}
	for i, id := range ids {
		end := []byte(`{"type":"TOOL_CALL_END","toolCallId":"` + id + `"}`)
		ct.Reset()
		byToken.ApplyAppend(&ct, end)
		cj.Reset()
		byJSON.ApplyAppend(&cj, end)
		require.Equal(t, string(cj.AppendJSON(nil)), string(ct.AppendJSON(nil)))
		// The live args matched the exact parse: TOOL_CALL_END replaces
		// nothing.
		require.NotContains(t, string(ct.AppendJSON(nil)), "/args\"", "call %d", i)
	}
	require.JSONEq(t, string(byJSON.Snapshot()), string(byToken.Snapshot()))
}

// TestApplyTokenArgsAllocs: a tool-argument token allocates only the copy
// of its delta (the change keeps it), however the calls interleave and
// whether or not the delta holds escapes: the call is looked up by the
// id's bytes, the pointer of the parsed member's append is reused, and the
// append's text is a view of the parsed string.
func TestApplyTokenArgsAllocs(t *testing.T) {
	start, ids, _ := interleavedArgs()
	r := New(Options{})
	var c Change
	for _, ev := range start {
		c.Reset()
		r.ApplyAppend(&c, []byte(ev))
	}
	for _, id := range ids {
		c.Reset()
		r.ApplyToken(&c, ToolCallArgs, []byte(id), []byte(`{"path":"a.txt","content":"`))
	}
	for _, tc := range []struct{ name, delta string }{
		{"plain", "some text of a file "},
		{"escapes", `say \"hi\"\n\ttab \u00e9`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			keys := [][]byte{[]byte(ids[0]), []byte(ids[1]), []byte(ids[2])}
			delta := []byte(tc.delta)
			n := 0
			allocs := testing.AllocsPerRun(3000, func() {
				// Interleaved: the next token is another call's.
				n++
				c.Reset()
				r.ApplyToken(&c, ToolCallArgs, keys[n%len(keys)], delta)
			})
			// Slices grow now and then (amortised): under 1.1 on average.
			require.Less(t, allocs, 1.1)
			require.Len(t, c.Ops, 2, "argsText and the content's append")
		})
	}
}

// TestApplyTokenArgsUnknownCall: a token of a call the reducer never saw,
// or one over the field limit, gets the diagnostic its JSON text gets.
func TestApplyTokenArgsUnknownCall(t *testing.T) {
	for _, tc := range []struct{ name, id, delta string }{
		{"unknown", "call_zz", `{"a":1}`},
		{"too large", "call_a1", strings.Repeat("x", 64)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, byToken := range []bool{false, true} {
				r := New(Options{MaxFieldBytes: 32})
				var c Change
				for _, ev := range []string{
					`{"type":"RUN_STARTED","threadId":"t","runId":"r"}`,
					`{"type":"TOOL_CALL_START","toolCallId":"call_a1","toolCallName":"f"}`,
				} {
					c.Reset()
					r.ApplyAppend(&c, []byte(ev))
				}
				c.Reset()
				if byToken {
					r.ApplyToken(&c, ToolCallArgs, []byte(tc.id), []byte(tc.delta))
				} else {
					r.ApplyAppend(&c, tokenJSON(tc.id, tc.delta))
				}
				require.Len(t, c.Diagnostics, 1)
				got = append(got, string(c.AppendJSON(nil)))
			}
			require.Equal(t, got[0], got[1])
		})
	}
}
