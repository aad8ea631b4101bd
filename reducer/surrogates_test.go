package reducer

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Producers that cut text by UTF-16 code units (JavaScript's str.slice) can
// split a surrogate pair across two deltas; the halves must join exactly as
// JavaScript string concatenation joins them.
var splitPairEvents = []string{
	`{"type":"RUN_STARTED","threadId":"t","runId":"r"}`,
	`{"type":"TEXT_MESSAGE_START","messageId":"m","role":"assistant"}`,
	`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"hi \ud83c"}`,
	`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"\udf89!"}`,
	`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":" lone \ud83c"}`,
	`{"type":"TEXT_MESSAGE_END","messageId":"m"}`,
	`{"type":"REASONING_MESSAGE_START","messageId":"rs","role":"reasoning"}`,
	`{"type":"REASONING_MESSAGE_CONTENT","messageId":"rs","delta":"\ud83d"}`,
	`{"type":"REASONING_MESSAGE_CONTENT","messageId":"rs","delta":"\ude00 ok"}`,
	`{"type":"REASONING_MESSAGE_END","messageId":"rs"}`,
	`{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"f","parentMessageId":"m"}`,
	`{"type":"TOOL_CALL_ARGS","toolCallId":"c","delta":"{\"a\":\"x\ud83c"}`,
	`{"type":"TOOL_CALL_ARGS","toolCallId":"c","delta":"\udf89\"}"}`,
	`{"type":"TOOL_CALL_END","toolCallId":"c"}`,
	`{"type":"RUN_FINISHED","threadId":"t","runId":"r"}`,
}

func checkSplitPairs(t *testing.T, r *Reducer) {
	t.Helper()
	snap := string(r.Snapshot())
	assert.NotContains(t, snap, "\uFFFD")
	assert.Contains(t, snap, `"content":"hi 🎉! lone \ud83c"`)
	assert.Contains(t, snap, `"reasoning":"😀 ok"`)
	assert.Contains(t, snap, `"argsText":"{\"a\":\"x🎉\"}","args":{"a":"x🎉"}`)
	in := string(r.RunInput(RunInputOptions{RunID: "next"}))
	assert.NotContains(t, in, "\uFFFD")
	assert.Contains(t, in, `"content":"hi 🎉! lone \ud83c"`)
	assert.Contains(t, in, `"arguments":"{\"a\":\"x🎉\"}"`)
	// A lone surrogate survives a restore.
	r2 := New(Options{})
	_, err := r2.Restore(r.Snapshot())
	require.NoError(t, err)
	assert.Equal(t, snap, string(r2.Snapshot()))
}

func TestSplitSurrogatePairsApply(t *testing.T) {
	r := New(Options{})
	var live []string
	for _, e := range splitPairEvents {
		c := r.Apply([]byte(e))
		require.False(t, c.HasError(), "%s: %v", e, c.Diagnostics)
		if strings.Contains(e, "TOOL_CALL_ARGS") {
			live = append(live, string(r.Snapshot()))
		}
	}
	// The args shown live while the pair is cut hold no replacement
	// character: the high half waits for its partner.
	assert.NotContains(t, live[0], "\uFFFD")
	assert.Contains(t, live[0], `"args":{"a":"x"}`)
	checkSplitPairs(t, r)
}

func TestSplitSurrogatePairsFeed(t *testing.T) {
	var sse strings.Builder
	for _, e := range splitPairEvents {
		sse.WriteString("data: " + e + "\n\n")
	}
	body := []byte(sse.String())
	for _, size := range []int{1, 2, 3, 5, 7, 64} {
		r := New(Options{})
		s := r.NewStream()
		for i := 0; i < len(body); i += size {
			s.Feed(body[i:min(i+size, len(body))], func(c *Change) {
				require.False(t, c.HasError(), "%v", c.Diagnostics)
			})
		}
		s.Close()
		checkSplitPairs(t, r)
	}
}

func TestAppendJS(t *testing.T) {
	for _, tc := range []struct{ a, b, want string }{
		{"hi \xed\xa0\xbc", "\xed\xbe\x89!", "hi 🎉!"},
		{"\xed\xa0\xbc", "x", "\xed\xa0\xbcx"},                       // no partner: stays lone
		{"\xed\xbc\x89", "\xed\xbc\x89", "\xed\xbc\x89\xed\xbc\x89"}, // low then low
		{"a", "\xed\xbc\x89", "a\xed\xbc\x89"},
		{"", "", ""},
	} {
		assert.Equal(t, tc.want, string(appendJS([]byte(tc.a), tc.b)))
	}
}

// TestArgsOpTextKept: the text of an argsText append is a view of the
// call's argument text, which a split surrogate pair's low half rewrites
// in place; every change keeps the text it was given, whatever follows.
func TestArgsOpTextKept(t *testing.T) {
	r := New(Options{})
	for _, e := range splitPairEvents[:11] {
		r.Apply([]byte(e))
	}
	deltas := []string{`{\"a\":\"x`, `\ud83c`, `\udf89 y`, `z\ud83d`, `\ude00`, `\ud83c`, `\udf89\"}`}
	var changes []*Change
	var want []string
	for _, d := range deltas {
		c := r.Apply([]byte(`{"type":"TOOL_CALL_ARGS","toolCallId":"c","delta":"` + d + `"}`))
		require.Equal(t, "/toolCalls/0/argsText", c.Ops[0].Path)
		changes = append(changes, c)
		want = append(want, strings.Clone(c.Ops[0].Text))
	}
	for i, c := range changes {
		assert.Equal(t, want[i], c.Ops[0].Text, "change %d", i)
	}
	assert.Equal(t, "\xed\xa0\xbc", want[1])
	assert.Contains(t, string(r.Snapshot()), `"argsText":"{\"a\":\"x🎉 yz😀🎉\"}"`)
}
