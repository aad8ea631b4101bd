package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
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
	fold := func(body string, name string) *reducer.Reducer {
		r := reducer.New(reducer.Options{})
		tr := dialect.New(dialect.Options{Dialect: name})
		p := sse.NewParser(sse.Options{})
		c := new(reducer.Change)
		p.FeedEach([]byte(body), func(e sse.Event) {
			tr.TranslateTo(e.Type, []byte(e.Data), func(ev []byte) { r.ApplyAppend(c, ev) }, func(v []byte) { r.Amend(c, v) })
		}, func(error) {})
		return r
	}
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, upstream)
	}))
	defer up.Close()
	u, _ := url.Parse(up.URL)
	srv := startServer(t, config{upstream: u, upstreamDialect: dialect.TanStack})
	body, err := json.Marshal(userInput("t", "r", "hi", nil))
	require.NoError(t, err)
	resp, err := http.Post(srv.URL+"/agent", "application/json", bytes.NewReader(body))
	require.NoError(t, err)
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	require.Contains(t, string(out), "event: "+dialect.AmendEvent)

	direct := fold(upstream, dialect.TanStack).State()
	proxied := fold(string(out), "").State()
	require.Equal(t, "Hello world", direct.Messages[len(direct.Messages)-1].Content())
	// The proxy names its own run and thread; the conversation is the same.
	require.Equal(t, len(direct.Messages), len(proxied.Messages))
	for i := range direct.Messages {
		require.Equal(t, direct.Messages[i].Content(), proxied.Messages[i].Content())
	}
	require.Equal(t, len(direct.ToolCalls), len(proxied.ToolCalls))
	for i := range direct.ToolCalls {
		require.Equal(t, direct.ToolCalls[i].ClientSide, proxied.ToolCalls[i].ClientSide)
		require.Equal(t, direct.ToolCalls[i].Args, proxied.ToolCalls[i].Args)
	}
}
