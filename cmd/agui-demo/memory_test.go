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
	"time"

	"github.com/agui-reducer/agui/reducer/sse"
	"github.com/agui-reducer/agui/relay"
	"github.com/agui-reducer/agui/relay/store"
	"github.com/agui-reducer/agui/relay/store/memstore"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The bound every memory test checks: what the server holds after its
// requests, measured as the live heap after a collection, never exceeds
// the relay store's byte bound (-resume-bytes) plus a constant per run
// kept or running plus a constant for the process (connections, buffers,
// the runtime's own, the test's measurements).
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

// memServer starts a server whose relay store is small (4 MiB, 4 runs:
// runs of 256 KiB at most, bodies of 1 MiB) and returns it with a client of its own (whose
// idle connections the test closes before it measures).
func memServer(t *testing.T, cfg config) (*server, *httptest.Server, *http.Client) {
	t.Helper()
	if cfg.catalog == nil {
		cfg.catalog = testCatalog(t)
	}
	cfg.webDir = t.TempDir()
	cfg.logRuns, cfg.logBytes, cfg.maxBody = 4, 4<<20, 1<<20
	ctx, cancel := context.WithCancel(context.Background())
	cfg.ctx = ctx
	s, err := newServer(cfg)
	require.NoError(t, err)
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

// storedRuns is what the relay's memory store holds: every run kept,
// with its frames.
func storedRuns(t *testing.T, s *server) map[string][]store.Frame {
	t.Helper()
	ms := s.store.(*memstore.Store)
	out := map[string][]store.Frame{}
	for _, k := range ms.RunKeys() {
		fs, _, err := ms.Read(context.Background(), k, 0, 1<<20, 0)
		require.NoError(t, err)
		out[k] = fs
	}
	return out
}

// TestMemoryBoundedOversizedFields: runs whose request fields are large
// (thread and run ids, message ids, tool names…), more runs than the
// store keeps: the server's heap grows by no more than the store's byte
// bound plus a constant per run, the store keeps at most -resume-runs
// runs, every id the server derives from the request is short, and no
// frame echoes a request field whole. A request whose new messages
// outgrow a run (the relay's -max-run-bytes, a sixteenth of
// -resume-bytes), or over -max-body, is refused, and leaves nothing
// behind.
func TestMemoryBoundedOversizedFields(t *testing.T) {
	s, srv, client := memServer(t, config{})
	base := liveHeap()
	var peak int64
	ids := map[string]bool{}
	for i := range 12 {
		size, want := 24<<10, http.StatusOK
		switch {
		case i == 11: // over -max-body: refused unread
			size, want = 512<<10, http.StatusRequestEntityTooLarge
		case i%3 == 2: // new messages over a run's bound
			size, want = 64<<10, http.StatusRequestEntityTooLarge
		}
		body := oversized(t, size, string(rune('a'+i)))
		resp, err := memPost(t, client, srv.URL, body, "")
		require.NoError(t, err)
		raw, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		require.NoError(t, err)
		require.Equal(t, want, resp.StatusCode, "%.200s", raw)
		if want == http.StatusOK {
			events, errs := sse.ParseAll(raw)
			require.Empty(t, errs)
			for _, e := range events {
				assert.Less(t, len(e.ID), 40, "event ids are short: %.80s", e.ID)
				assert.Less(t, len(e.Data), 16<<10, "no frame echoes a request field whole: %.120s", e.Data)
				assert.False(t, ids[e.ID], "event ids are unique: %s", e.ID)
				ids[e.ID] = true
			}
		}
		body, raw = nil, nil
		client.CloseIdleConnections()
		peak = max(peak, liveHeap()-base)
	}
	bound := s.logBytes + int64(s.logRuns)*memRunConstant + memProcessSlack
	t.Logf("live heap growth after each run: at most %d KiB (bound %d KiB)", peak>>10, bound>>10)
	assert.LessOrEqual(t, peak, bound, "the heap grows by the store's bound plus a constant")

	// The relay sweeps after a run is folded, which may come after its
	// client read the end: wait for the last sweep (bounded).
	used, err := s.store.Usage(context.Background())
	require.NoError(t, err)
	runs := storedRuns(t, s)
	for i := 0; i < 100 && (used > s.logBytes || len(runs) > s.logRuns); i++ {
		time.Sleep(20 * time.Millisecond)
		used, err = s.store.Usage(context.Background())
		require.NoError(t, err)
		runs = storedRuns(t, s)
	}
	assert.LessOrEqual(t, used, s.logBytes, "the store's count stays within its bound")
	assert.LessOrEqual(t, len(runs), s.logRuns, "runs kept")
	for key, frames := range runs {
		assert.LessOrEqual(t, len(key), 64, "run keys are short")
		for _, f := range frames {
			assert.Less(t, len(f.Data), 16<<10, "no frame echoes a request field whole: %.120s", f.Data)
		}
	}
}

// TestMemoryBoundedWhileRunning: runs held half-way, each started by a
// request with large fields: while they are being produced and streamed,
// the server keeps at most two copies of each request (the body the relay
// sends its upstream, and the run's new messages in the store) and a
// constant per run.
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
	size := 0
	for i := range runs {
		body := oversized(t, 40<<10, string(rune('a'+i)))
		size = len(body)
		resp, err := memPost(t, client, srv.URL, body, "")
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, resp.StatusCode)
		readFrames(t, bufio.NewReader(resp.Body), 20)
		bodies = append(bodies, resp.Body)
	}
	growth := liveHeap() - base
	bound := int64(runs*2*size) + runs*memRunConstant + memProcessSlack
	t.Logf("live heap growth with %d runs of %d KiB requests held: %d KiB (bound %d KiB)", runs, size>>10, growth>>10, bound>>10)
	assert.LessOrEqual(t, growth, bound, "a running run keeps its request at most twice")
	release()
	for _, b := range bodies {
		_, _ = io.Copy(io.Discard, b)
		b.Close()
	}
}

// TestMemoryBoundedRelay: an upstream whose answer is larger than the
// store, in large events with large ids and thread ids: while the answer
// is being relayed, and after, the server holds no more than the store's
// bound plus a constant: the run ends (relay_run_too_large) when it
// outgrows a run's bound, and the client gets that end.
func TestMemoryBoundedRelay(t *testing.T) {
	const events, size = 192, 32 << 10
	gate := make(chan struct{})
	var once sync.Once
	release := func() { once.Do(func() { close(gate) }) }
	t.Cleanup(release)
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		thread := strings.Repeat("t", size)
		for i := range events {
			if i == 4 {
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
	resp, err := memPost(t, client, srv.URL, runBody(t, strings.Repeat("r", 64<<10), "text"), "")
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	br := bufio.NewReader(resp.Body)
	first := readFrames(t, br, 3)
	during := liveHeap() - base
	release()
	raw, _ := io.ReadAll(br)
	resp.Body.Close()
	client.CloseIdleConnections()
	rest, _ := sse.ParseAll(raw)
	after := liveHeap() - base
	bound := s.logBytes + memRunConstant + memProcessSlack
	t.Logf("read %d frames; live heap growth while relaying: %d KiB, after: %d KiB (bound %d KiB)", len(first)+len(rest), during>>10, after>>10, bound>>10)
	require.NotEmpty(t, rest)
	assert.Contains(t, rest[len(rest)-1].Data, relay.CodeRunTooLarge, "the run ends when it outgrows its bound")
	assert.LessOrEqual(t, during, bound)
	assert.LessOrEqual(t, after, bound)
}
