package dialect

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// translate runs frames through a translator alone and returns the
// canonical events it emitted, as JSON text.
func translate(t *testing.T, tr *Translator, frames ...string) []string {
	t.Helper()
	var out []string
	for _, f := range frames {
		name, data := splitFrame(f)
		for _, d := range tr.Translate(name, []byte(data), func(ev []byte) { out = append(out, string(ev)) }) {
			require.True(t, d.Warning, "%s: %s", f, d.Error())
		}
	}
	return out
}

// TestTranslatorAlone: the translator on its own emits canonical AG-UI,
// with no reducer behind it.
func TestTranslatorAlone(t *testing.T) {
	got := translate(t, New(Options{}),
		`{"event":"token","thread_id":"t","token":"Hi"}`,
		`{"event":"tool_execution_request","execution_id":"x1","tool_name":"f","arguments":{"a":1}}`,
		`{"event":"error","error_message":"boom","recoverable":true}`,
	)
	assert.Equal(t, []string{
		`{"type":"RUN_STARTED","threadId":"t","runId":"run-1"}`,
		`{"type":"TEXT_MESSAGE_START","messageId":"msg-1","role":"assistant"}`,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"msg-1","delta":"Hi"}`,
		`{"type":"TEXT_MESSAGE_END","messageId":"msg-1"}`,
		`{"type":"TOOL_CALL_START","toolCallId":"x1","toolCallName":"f","parentMessageId":"msg-1"}`,
		`{"type":"TOOL_CALL_ARGS","toolCallId":"x1","delta":"{\"a\":1}"}`,
		`{"type":"TOOL_CALL_END","toolCallId":"x1"}`,
		`{"type":"CUSTOM","name":"agui.amend","value":{"toolCallId":"x1","clientSide":true}}`,
		`{"type":"RUN_ERROR","message":"boom"}`,
		`{"type":"CUSTOM","name":"agui.amend","value":{"recoverable":true}}`,
	}, got)
}

// TestPassThrough: canonical events go on as they came, the same bytes,
// streamed tokens without being parsed.
func TestPassThrough(t *testing.T) {
	for _, ev := range []string{
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"a\"b"}`,
		`{"type":"TOOL_CALL_ARGS","toolCallId":"c","delta":""}`,
		`{"type":"STATE_DELTA","delta":[{"op":"add","path":"/a","value":1}]}`,
		`{"type":"RUN_STARTED","threadId":"t","runId":"r"}`,
		`{"messageId":"m","type":"TEXT_MESSAGE_CONTENT","delta":"x","timestamp":1}`,
	} {
		for _, pin := range []string{"", AGUI, TanStack} {
			var got [][]byte
			data := []byte(ev)
			diags := New(Options{Dialect: pin}).Translate("", data, func(b []byte) { got = append(got, b) })
			require.Empty(t, diags, ev)
			require.Len(t, got, 1, ev)
			assert.Equal(t, ev, string(got[0]))
		}
	}
	hot := func(s string) bool { _, ok := hotCanonical([]byte(s)); return ok }
	assert.True(t, hot(`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"a\"b"}`))
	assert.False(t, hot(`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":""}`), "an empty delta may be TanStack's content")
	assert.False(t, hot(`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"x","content":"x"}`))
	assert.True(t, opaqueCanonical([]byte(`{"type":"STATE_SNAPSHOT","snapshot":{}}`)))
	assert.False(t, opaqueCanonical([]byte(`{"type":"STATE_SNAPSHOTS"}`)))
}

// TestWrongDialectEmitsNothing: a pinned dialect rejects the others'
// events before anything is emitted.
func TestWrongDialectEmitsNothing(t *testing.T) {
	tr := New(Options{Dialect: SSEContract})
	n := 0
	d := tr.Translate("", []byte(`{"event":"token","token":"x"}`), func([]byte) { n++ })
	require.Len(t, d, 1)
	assert.Equal(t, "wrong_dialect", d[0].Code)
	assert.False(t, d[0].Warning)
	assert.Zero(t, n)
	d = New(Options{Dialect: "klingon"}).Translate("", []byte(`{}`), func([]byte) { n++ })
	assert.Equal(t, "bad_option", d[0].Code)
}
