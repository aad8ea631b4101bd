package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The bound every memory test checks: what the server holds after its
// requests, measured as the live heap after a collection, never exceeds
// the run log's byte bound plus a constant per run kept or running
// (runOverhead's order) plus a constant for the process (connections,
// buffers, the runtime's own, the test's measurements).
const (
	memRunConstant  = 64 << 10
	memProcessSlack = 3 << 20
)

// liveHeap is the heap in use once garbage is collected.
func liveHeap() int64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

// memServer starts a server whose run log is small (1 MiB, 4 runs) and
// returns it with a client of its own (whose idle connections the test
// closes before it measures).
func memServer(t *testing.T, cfg config) (*server, *httptest.Server, *http.Client) {
	t.Helper()
	if cfg.catalog == nil {
		cfg.catalog = testCatalog(t)
	}
	cfg.webDir = t.TempDir()
	cfg.logRuns, cfg.logBytes = 4, 1<<20
	ctx, cancel := context.WithCancel(context.Background())
	cfg.ctx = ctx
	s := newServer(cfg)
	srv := httptest.NewServer(s)
	client := &http.Client{Transport: &http.Transport{}}
	t.Cleanup(func() {
		client.CloseIdleConnections()
		srv.Close()
		cancel()
		s.wait()
	})
	return s, srv, client
}

// oversized is a RunAgentInput whose every field a server might echo or
// keep is large: the thread and run ids, the message ids and text, a tool
// name, an interrupt id, the forwarded props.
func oversized(t *testing.T, n int, tag string) []byte {
	big := func(c string) string { return tag + strings.Repeat(c, n) }
	in := map[string]any{
		"threadId": big("t"), "runId": big("r"), "state": map[string]any{"k": big("s")},
		"messages": []any{
			map[string]any{"id": big("m"), "role": "user", "content": "use the tool " + big("c")},
			map[string]any{"id": big("a"), "role": "assistant", "content": "",
				"toolCalls": []any{map[string]any{"id": big("i"), "type": "function",
					"function": map[string]any{"name": big("n"), "arguments": "{}"}}}},
		},
		"tools":          []any{map[string]any{"name": big("n"), "description": big("d"), "parameters": map[string]any{}}},
		"context":        []any{},
		"forwardedProps": map[string]any{"scenario": "tools", "other": big("f")},
	}
	b, err := json.Marshal(in)
	require.NoError(t, err)
	return b
}

// onceReader reads its bytes once and then lets go of them: the client's
// transport keeps a request for as long as its response is read, and the
// test measures the server's memory, not the client's.
type onceReader struct{ b []byte }

func (r *onceReader) Read(p []byte) (int, error) {
	if len(r.b) == 0 {
		r.b = nil
		return 0, io.EOF
	}
	n := copy(p, r.b)
	r.b = r.b[n:]
	if len(r.b) == 0 {
		r.b = nil
	}
	return n, nil
}

func memPost(t *testing.T, client *http.Client, url string, body []byte, lastID string) (*http.Response, error) {
	req, err := http.NewRequest("POST", url+"/agent", &onceReader{body})
	require.NoError(t, err)
	req.ContentLength = int64(len(body))
	req.Header.Set("Content-Type", "application/json")
	if lastID != "" {
		req.Header.Set("Last-Event-ID", lastID)
	}
	return client.Do(req)
}

// TestMemoryBoundedOversizedFields: runs whose request fields are 512 KiB
// each (thread and run ids, message ids, tool names…), more runs than the
// log keeps: the server's heap grows by no more than the run log's byte
// bound plus a constant per run, and the log's own count of what it holds
// stays within its bound. Every id the server derives from the request is
// short.
func TestMemoryBoundedOversizedFields(t *testing.T) {
	s, srv, client := memServer(t, config{})
	base := liveHeap()
	var peak int64
	for i := range 12 {
		body := oversized(t, 512<<10, string(rune('a'+i)))
		resp, err := memPost(t, client, srv.URL, body, "")
		require.NoError(t, err)
		raw, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, resp.StatusCode, "%.200s", raw)
		body, raw = nil, nil
		client.CloseIdleConnections()
		peak = max(peak, liveHeap()-base)
	}
	bound := s.logBytes + int64(s.logRuns)*memRunConstant + memProcessSlack
	t.Logf("live heap growth after each run: at most %d KiB (bound %d KiB)", peak>>10, bound>>10)
	assert.LessOrEqual(t, peak, bound, "the heap grows by the run log's bound plus a constant")

	s.runs.mu.Lock()
	defer s.runs.mu.Unlock()
	assert.LessOrEqual(t, s.runs.held, s.logBytes, "the log's count stays within its bound")
	assert.LessOrEqual(t, len(s.runs.runs), s.logRuns)
	for key, run := range s.runs.runs {
		assert.LessOrEqual(t, len(key), maxIDBytes, "run keys are short")
		assert.LessOrEqual(t, len(run.runID), maxIDBytes, "run ids are short")
		for _, f := range run.frames {
			assert.Less(t, len(f), 16<<10, "no frame echoes a request field whole: %.120s", f)
		}
	}
}

// TestMemoryBoundedWhileRunning: runs held half-way, each started by a
// request with 1 MiB fields: while they are being produced and streamed,
// the server keeps no more of their requests than a constant per run.
func TestMemoryBoundedWhileRunning(t *testing.T) {
	const runs = 4
	gate := make(chan struct{})
	var once sync.Once
	release := func() { once.Do(func() { close(gate) }) }
	_, srv, client := memServer(t, config{maxRuns: runs,
		beforeEvent: func(i int) {
			if i == 20 {
				<-gate
			}
		}})
	t.Cleanup(release)
	base := liveHeap()
	var bodies []io.ReadCloser
	for i := range runs {
		resp, err := memPost(t, client, srv.URL, oversized(t, 700<<10, string(rune('a'+i))), "")
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, resp.StatusCode)
		readFrames(t, bufio.NewReader(resp.Body), 20)
		bodies = append(bodies, resp.Body)
	}
	growth := liveHeap() - base
	bound := int64(1<<20) + runs*memRunConstant + memProcessSlack
	t.Logf("live heap growth with %d runs held: %d KiB (bound %d KiB)", runs, growth>>10, bound>>10)
	assert.LessOrEqual(t, growth, bound, "a running run keeps a constant of its request")
	release()
	for _, b := range bodies {
		_, _ = io.Copy(io.Discard, b)
		b.Close()
	}
}

// TestMemoryBoundedRelay: an upstream whose answer is larger than the run
// log, in large events with large ids and thread ids: while the answer is
// being relayed, and after, the server holds no more than the log's bound
// plus a constant: the run is stopped when what it holds outgrows the
// bound (the request kept for resuming, the frames not yet written, what
// the translator was fed).
func TestMemoryBoundedRelay(t *testing.T) {
	const events, size = 48, 128 << 10
	gate := make(chan struct{})
	var once sync.Once
	release := func() { once.Do(func() { close(gate) }) }
	t.Cleanup(release)
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		thread := strings.Repeat("t", size)
		for i := range events {
			if i == events/2 {
				select {
				case <-gate:
				case <-r.Context().Done():
					return
				}
			}
			ev, _ := json.Marshal(map[string]any{"event": "token", "thread_id": thread, "token": strings.Repeat("w", size)})
			if _, err := w.Write([]byte("id: " + strings.Repeat("u", size) + strconv.Itoa(i) + "\ndata: " + string(ev) + "\n\n")); err != nil {
				return
			}
			w.(http.Flusher).Flush()
		}
	}))
	defer up.Close()
	u, _ := url.Parse(up.URL)
	s, srv, client := memServer(t, config{upstream: u, upstreamDialect: "streaming"})
	base := liveHeap()
	resp, err := memPost(t, client, srv.URL, runBody(t, strings.Repeat("r", 256<<10), "text"), "")
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	br := bufio.NewReader(resp.Body)
	var read int64
	for read < 1<<20 { // the client reads 1 MiB, or what the run streams before it is stopped
		line, err := br.ReadString('\n')
		read += int64(len(line))
		if err != nil {
			break
		}
	}
	during := liveHeap() - base
	release()
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	client.CloseIdleConnections()
	after := liveHeap() - base
	bound := s.logBytes + memRunConstant + memProcessSlack
	t.Logf("read %d KiB; live heap growth while relaying: %d KiB, after: %d KiB (bound %d KiB)", read>>10, during>>10, after>>10, bound>>10)
	assert.Greater(t, read, int64(128<<10), "the answer streams")
	assert.LessOrEqual(t, during, bound)
	assert.LessOrEqual(t, after, bound)
}
