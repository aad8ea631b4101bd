package main

import (
	"io"
	"strings"
	"testing"

	"github.com/agui-reducer/agui/dialect"
	"github.com/agui-reducer/agui/reducer"
	"github.com/agui-reducer/agui/reducer/sse"
	"github.com/stretchr/testify/require"
)

// What canonical AG-UI has no event for (here TanStack's whole-text
// content and a client-side tool) reaches the page through the
// translating proxy as amendment frames, which a page that detects the
// dialect folds: the same state as folding the upstream directly.
func TestProxyPassesAmendments(t *testing.T) {
	upstream := strings.Join([]string{
		`data: {"type":"RUN_STARTED","runId":"r1","threadId":"t"}`,
		`data: {"type":"TEXT_MESSAGE_START","messageId":"m","role":"assistant"}`,
		`data: {"type":"TEXT_MESSAGE_CONTENT","messageId":"m","content":"Hello"}`,
		`data: {"type":"TEXT_MESSAGE_CONTENT","messageId":"m","content":"Hello world"}`,
		`data: {"type":"TEXT_MESSAGE_END","messageId":"m"}`,
		`data: {"type":"CUSTOM","name":"tool-input-available","value":{"toolCallId":"c","toolName":"pick","input":{"a":1}}}`,
		`data: {"type":"RUN_FINISHED","runId":"r1","finishReason":"stop"}`,
	}, "\n\n") + "\n\n"
	fold := func(body string, name string) string {
		r := reducer.New(reducer.Options{})
		tr := dialect.New(dialect.Options{Dialect: name})
		p := sse.NewParser(sse.Options{})
		c := new(reducer.Change)
		p.FeedEach([]byte(body), func(e sse.Event) {
			tr.TranslateTo(e.Type, []byte(e.Data), func(ev []byte) { r.ApplyAppend(c, ev) }, func(v []byte) { r.Amend(c, v) })
		}, func(error) {})
		return string(r.Snapshot())
	}
	proxied := &translatedBody{
		in:   io.NopCloser(strings.NewReader(upstream)),
		p:    sse.NewParser(sse.Options{}),
		t:    dialect.New(dialect.Options{Dialect: dialect.TanStack}),
		logf: func(string, ...any) {},
	}
	out, err := io.ReadAll(proxied)
	require.NoError(t, err)
	require.Contains(t, string(out), "event: "+dialect.AmendEvent)
	direct := fold(upstream, dialect.TanStack)
	require.Contains(t, direct, `"content":"Hello world"`)
	require.Equal(t, direct, fold(string(out), ""))
}
