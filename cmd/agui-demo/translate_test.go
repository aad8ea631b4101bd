package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestUpstreamDialect: an upstream that speaks the streaming dialect
// (seeds/003) is re-emitted to the page as canonical AG-UI SSE.
func TestUpstreamDialect(t *testing.T) {
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for _, ev := range []string{
			`{"event":"token","thread_id":"t","token":"Hel"}`,
			`{"event":"token","thread_id":"t","token":"lo"}`,
			`{"event":"message_complete","thread_id":"t","message":{"role":"assistant","content":"Hello"}}`,
		} {
			w.Write([]byte("data: " + ev + "\n\n"))
			w.(http.Flusher).Flush()
		}
	}))
	defer up.Close()
	u, _ := url.Parse(up.URL)
	srv := startServer(t, config{upstream: u, upstreamDialect: "streaming"})
	resp, got := postAgent(t, srv, userInput("t", "r", "hi", nil))
	assert.Equal(t, "text/event-stream", resp.Header.Get("Content-Type"))
	var types []string
	var evs []map[string]any
	for _, data := range got {
		var ev map[string]any
		require.NoError(t, json.Unmarshal([]byte(data), &ev), data)
		evs = append(evs, ev)
		types = append(types, ev["type"].(string))
	}
	assert.Equal(t, []string{"RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END", "RUN_FINISHED"}, types)
	assert.Equal(t, "t", evs[0]["threadId"])
	assert.Equal(t, "lo", evs[3]["delta"])
}
