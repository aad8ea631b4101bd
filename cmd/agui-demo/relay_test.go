package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agui-reducer/agui/reducer"
	"github.com/agui-reducer/agui/reducer/sse"
	"github.com/agui-reducer/agui/relay"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// dialectUpstream is an agent speaking the streaming dialect (seeds/003)
// whose answer is "Hello brave new world", one token a frame, with SSE ids
// "u:1"…; it resumes after the Last-Event-ID it is sent. cutAfter, when
// > 0, cuts its first answer after that many frames, mid-body.
type dialectUpstream struct {
	cutAfter int

	mu       sync.Mutex
	requests []string // the Last-Event-ID of each request ("" none)
	bodies   []string
}

var upstreamEvents = []string{
	`{"event":"token","thread_id":"t","token":"Hello "}`,
	`{"event":"token","thread_id":"t","token":"brave "}`,
	`{"event":"token","thread_id":"t","token":"new "}`,
	`{"event":"token","thread_id":"t","token":"world"}`,
	`{"event":"message_complete","thread_id":"t","message":{"role":"assistant","content":"Hello brave new world"}}`,
}

func (u *dialectUpstream) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	last := r.Header.Get("Last-Event-ID")
	u.mu.Lock()
	u.requests = append(u.requests, last)
	u.bodies = append(u.bodies, string(body))
	first := len(u.requests) == 1
	u.mu.Unlock()
	from := 0
	if last != "" {
		n, err := strconv.Atoi(strings.TrimPrefix(last, "u:"))
		if err != nil || n > len(upstreamEvents) {
			http.Error(w, "bad id", http.StatusBadRequest)
			return
		}
		from = n
	}
	w.Header().Set("Content-Type", "text/event-stream")
	for i := from; i < len(upstreamEvents); i++ {
		if first && u.cutAfter > 0 && i == u.cutAfter {
			panic(http.ErrAbortHandler) // a cut: the body ends without its end
		}
		w.Write([]byte("id: u:" + strconv.Itoa(i+1) + "\ndata: " + upstreamEvents[i] + "\n\n"))
		w.(http.Flusher).Flush()
	}
}

// relayClient runs one run as a resuming client does: it POSTs, reads
// frames until the body ends or, on the first connection, until dropAfter
// frames (then it goes away), and while the run's RUN_FINISHED has not
// come, POSTs again with the Last-Event-ID it has. It returns every frame
// it read, in order.
func relayClient(t *testing.T, srvURL string, body []byte, dropAfter int) []sse.Event {
	t.Helper()
	var all []sse.Event
	lastID := ""
	for attempt := range 5 {
		ctx, cancel := context.WithCancel(context.Background())
		req, err := http.NewRequestWithContext(ctx, "POST", srvURL+"/agent", bytes.NewReader(body))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		if lastID != "" {
			req.Header.Set("Last-Event-ID", lastID)
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, resp.StatusCode, "attempt %d", attempt)
		p := sse.NewParser(sse.Options{})
		br := bufio.NewReader(resp.Body)
		buf := make([]byte, 256)
		finished := false
	read:
		for {
			n, err := br.Read(buf)
			for _, e := range parseSome(p, buf[:n]) {
				all = append(all, e)
				if e.ID != "" {
					lastID = e.ID
				}
				if strings.Contains(e.Data, `"RUN_FINISHED"`) || strings.Contains(e.Data, `"RUN_ERROR"`) {
					finished = true
				}
				if attempt == 0 && dropAfter > 0 && len(all) == dropAfter {
					break read // the client's connection drops
				}
			}
			if err != nil {
				break
			}
		}
		cancel()
		resp.Body.Close()
		if finished {
			return all
		}
	}
	t.Fatalf("no RUN_FINISHED after 5 requests; frames: %v", all)
	return nil
}

func parseSome(p *sse.Parser, b []byte) []sse.Event {
	var out []sse.Event
	p.Feed(b, func(e sse.Event) { out = append(out, e) })
	return out
}

// relayText folds frames into a reducer and returns the assistant
// messages' text.
func relayText(t *testing.T, frames []sse.Event) []string {
	t.Helper()
	datas := make([]string, len(frames))
	for i, f := range frames {
		datas[i] = f.Data
	}
	f := fold(t, reducer.New(reducer.Options{}), datas)
	assert.Empty(t, f.diags)
	var texts []string
	msgs, _ := f.state["messages"].([]any)
	for _, m := range msgs {
		if m := m.(map[string]any); m["role"] == "assistant" {
			texts = append(texts, m["content"].(string))
		}
	}
	return texts
}

// TestRelayResumesOneRun: through the relay and its translator, a run whose
// upstream answer is cut, and whose client's connection drops too, is one
// canonical run: the client's resume continues it from its Last-Event-ID,
// the upstream is asked for the rest after the upstream id the proxy has,
// and the answer is whole ("Hello brave new world", not "new world").
func TestRelayResumesOneRun(t *testing.T) {
	for _, c := range []struct {
		name                string
		upstreamCut, client int
	}{
		{"upstream cut", 2, 0},
		{"client drop", 0, 3},
		{"both", 2, 4},
	} {
		t.Run(c.name, func(t *testing.T) {
			up := &dialectUpstream{cutAfter: c.upstreamCut}
			upSrv := httptest.NewServer(up)
			defer upSrv.Close()
			u, _ := url.Parse(upSrv.URL)
			srv := startServer(t, config{upstream: u, upstreamDialect: "streaming", resumeGrace: 30 * time.Second})
			body := runBody(t, "r-relay", "text")
			frames := relayClient(t, srv.URL, body, c.client)

			assert.Equal(t, []string{"Hello brave new world"}, relayText(t, frames))
			var types []string
			runIDs := map[string]bool{}
			for _, f := range frames {
				var ev struct{ Type, RunID string }
				require.NoError(t, json.Unmarshal([]byte(f.Data), &ev))
				types = append(types, ev.Type)
				if ev.RunID != "" {
					runIDs[ev.RunID] = true
				}
			}
			assert.Equal(t, []string{"RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_CONTENT",
				"TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END", "RUN_FINISHED"}, types, "each event once")
			assert.Len(t, runIDs, 1, "one canonical run")
			checkIDs(t, frames, 1)

			up.mu.Lock()
			defer up.mu.Unlock()
			want := []string{""}
			if c.upstreamCut > 0 {
				want = append(want, "u:"+strconv.Itoa(c.upstreamCut))
			}
			assert.Equal(t, want, up.requests, "the upstream is resumed after the last upstream id translated, by the relay")
			for _, b := range up.bodies {
				assert.JSONEq(t, string(body), b, "the same request each time")
			}
		})
	}
}

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

// TestRelayUpstreamError: an upstream that answers an HTTP error, or
// cannot be reached, ends the run with the relay's RUN_ERROR saying so
// (relay_upstream_status, relay_upstream_unreachable), as a frame with an
// id like any other.
func TestRelayUpstreamError(t *testing.T) {
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusTooManyRequests)
		w.Write([]byte(`{"error":"slow down"}`))
	}))
	defer up.Close()
	gone := httptest.NewServer(http.NotFoundHandler())
	gone.Close()
	for _, c := range []struct{ url, code string }{{up.URL, relay.CodeUpstreamStatus}, {gone.URL, relay.CodeUpstreamUnreachable}} {
		u, _ := url.Parse(c.url)
		srv := startServer(t, config{upstream: u, upstreamDialect: "streaming"})
		resp, frames, _ := runFrames(t, srv, runBody(t, "r", "text"), "")
		require.Equal(t, http.StatusOK, resp.StatusCode)
		require.Len(t, frames, 1)
		checkIDs(t, frames, 1)
		assert.Contains(t, frames[0].Data, `"code":"`+c.code+`"`)
	}
}

// TestRelayRunCap: relayed runs count against -max-runs, and a request
// beyond the cap is refused before it reaches the upstream.
func TestRelayRunCap(t *testing.T) {
	gate := make(chan struct{})
	var mu sync.Mutex
	requests := 0
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		requests++
		mu.Unlock()
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write([]byte("id: u:1\ndata: " + upstreamEvents[0] + "\n\n"))
		w.(http.Flusher).Flush()
		select {
		case <-gate:
		case <-r.Context().Done():
		}
	}))
	defer up.Close()
	defer close(gate)
	u, _ := url.Parse(up.URL)
	srv := startServer(t, config{upstream: u, upstreamDialect: "streaming", maxRuns: 1})
	req, _ := http.NewRequest("POST", srv.URL+"/agent", bytes.NewReader(runBody(t, "r1", "text")))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	readFrames(t, bufio.NewReader(resp.Body), 1)

	status, code, _ := agentRequest(t, srv, nil, runBody(t, "r2", "text"))
	assert.Equal(t, http.StatusServiceUnavailable, status)
	assert.Equal(t, "too_many_runs", code)
	mu.Lock()
	defer mu.Unlock()
	assert.Equal(t, 1, requests, "the refused run never reached the upstream")
}
