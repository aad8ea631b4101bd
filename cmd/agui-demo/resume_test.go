package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
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

// runFrames POSTs a run (or, with lastID, a resume) and reads its frames
// until the body ends; cut reports that the connection ended without the
// end of the body (a drop).
func runFrames(t *testing.T, srv *httptest.Server, body []byte, lastID string) (resp *http.Response, frames []sse.Event, cut bool) {
	t.Helper()
	req, err := http.NewRequest("POST", srv.URL+"/agent", bytes.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	if lastID != "" {
		req.Header.Set("Last-Event-ID", lastID)
	}
	resp, err = http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Logf("%d %s", resp.StatusCode, raw)
		return resp, nil, false
	}
	events, errs := sse.ParseAll(raw)
	require.Empty(t, errs)
	return resp, events, err != nil
}

func runBody(t *testing.T, runID, scenario string) []byte {
	b, err := json.Marshal(userInput("thread-resume", runID, "x", map[string]any{"scenario": scenario}))
	require.NoError(t, err)
	return b
}

func errorCode(t *testing.T, resp *http.Response, body []byte) string {
	var e struct{ Code string }
	require.NoError(t, json.Unmarshal(body, &e), "%s", body)
	return e.Code
}

// resumeStatus sends a resume and returns its status and error code.
func resumeStatus(t *testing.T, srv *httptest.Server, lastID string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest("POST", srv.URL+"/agent", strings.NewReader("{}"))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Last-Event-ID", lastID)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode == http.StatusOK {
		return resp.StatusCode, ""
	}
	assert.Equal(t, "application/json", resp.Header.Get("Content-Type"))
	return resp.StatusCode, errorCode(t, resp, raw)
}

// parseEventID reads an SSE id of the relay, "<run key>:<seq>".
func parseEventID(id string) (key string, seq int, ok bool) {
	i := strings.LastIndexByte(id, ':')
	if i <= 0 {
		return "", 0, false
	}
	n, err := strconv.Atoi(id[i+1:])
	if err != nil || n < 0 || strconv.Itoa(n) != id[i+1:] {
		return "", 0, false
	}
	return id[:i], n, true
}

// checkIDs asserts frames carry "<key>:<seq>" with consecutive seq from
// first, and returns the key.
func checkIDs(t *testing.T, frames []sse.Event, first int) string {
	t.Helper()
	key := ""
	for i, f := range frames {
		k, seq, ok := parseEventID(f.ID)
		require.True(t, ok, f.ID)
		if key == "" {
			key = k
		}
		assert.Equal(t, key, k, "one run key")
		assert.Equal(t, first+i, seq, "consecutive ids")
	}
	return key
}

// TestFrameIDs: every frame of a run has an SSE id "<run key>:<seq>", seq
// counting from 1, the key short whatever the request; two runs with the
// same run id get different keys.
func TestFrameIDs(t *testing.T) {
	c := testCatalog(t)
	srv := startServer(t, config{catalog: c})
	resp, frames, cut := runFrames(t, srv, runBody(t, "run-7", "tools"), "")
	require.False(t, cut)
	require.Len(t, frames, len(c.byName["tools"].events))
	key := checkIDs(t, frames, 1)
	assert.Equal(t, key, resp.Header.Get("X-Agui-Run"))
	assert.Len(t, key, 16)
	assert.NotContains(t, key, ":")

	seen := map[string]bool{key: true}
	for _, id := range []string{"run-7", "", "a\nb", "a:b", strings.Repeat("x", 1000), "é"} {
		_, again, _ := runFrames(t, srv, runBody(t, id, "text"), "")
		k := checkIDs(t, again, 1)
		assert.False(t, seen[k], "a run id used again is another run: %q", id)
		assert.Len(t, k, 16, "%q", id)
		seen[k] = true
	}
}

// TestResumeFinishedRun: Last-Event-ID of frame k streams frames k+1…N of
// the same run, byte for byte, whatever k.
func TestResumeFinishedRun(t *testing.T) {
	srv := startServer(t, config{})
	body := runBody(t, "r1", "state")
	_, full, _ := runFrames(t, srv, body, "")
	n := len(full)
	require.Greater(t, n, 4)
	for _, k := range []int{0, 1, n / 2, n - 1, n} {
		resp, rest, cut := runFrames(t, srv, body, full[0].ID[:strings.LastIndexByte(full[0].ID, ':')+1]+strconv.Itoa(k))
		require.Equal(t, http.StatusOK, resp.StatusCode, k)
		assert.False(t, cut)
		if k == n {
			assert.Empty(t, rest, "nothing after the last frame")
		} else {
			assert.Equal(t, full[k:], rest, "resume after %d", k)
		}
	}
}

// TestResumeWhileProducing: a client that drops mid-run and comes back with
// its Last-Event-ID gets the rest of the run as it is produced; the frames
// of both connections are the run, each once.
func TestResumeWhileProducing(t *testing.T) {
	c := testCatalog(t)
	const held = 10 // the run waits before its event 10 until the resume is streaming
	gate := make(chan struct{})
	finished := make(chan int, 1)
	srv := startServer(t, config{catalog: c, resumeGrace: time.Minute,
		beforeEvent: func(i int) {
			if i == held {
				<-gate
			}
		},
		done: func(_ string, n int, _ error) { finished <- n }})
	var once sync.Once
	release := func() { once.Do(func() { close(gate) }) }
	t.Cleanup(release) // before the server's cleanup, which waits for the run
	body := runBody(t, "r-live", "tools")

	// First connection: three frames, then the client goes away.
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "POST", srv.URL+"/agent", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	first := readFrames(t, bufio.NewReader(resp.Body), 3)
	cancel()
	resp.Body.Close()

	// The resume gets frames 4…10 while the run is held, then the rest as
	// it is produced.
	req, _ = http.NewRequest("POST", srv.URL+"/agent", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Last-Event-ID", first[2].ID)
	resp, err = http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	br := bufio.NewReader(resp.Body)
	rest := readFrames(t, br, held-3)
	select {
	case <-finished:
		t.Fatal("the run ended while held")
	default:
	}
	release()
	raw, err := io.ReadAll(br)
	require.NoError(t, err)
	tail, errs := sse.ParseAll(raw)
	require.Empty(t, errs)

	all := append(append(first, rest...), tail...)
	checkIDs(t, all, 1)
	require.Len(t, all, len(c.byName["tools"].events), "every frame once")
	assert.Equal(t, len(all), <-finished)
	datas := make([]string, len(all))
	for i, e := range all {
		datas[i] = e.Data
	}
	f := fold(t, reducer.New(reducer.Options{}), datas)
	assert.Empty(t, f.diags)
	assert.Len(t, f.state["toolCalls"], 1)
}

// readFrames reads n SSE frames from br.
func readFrames(t *testing.T, br *bufio.Reader, n int) []sse.Event {
	t.Helper()
	var out []sse.Event
	p := sse.NewParser(sse.Options{})
	for len(out) < n {
		line, err := br.ReadBytes('\n')
		require.NoError(t, err)
		p.Feed(line, func(e sse.Event) { out = append(out, e) })
	}
	return out
}

// TestDropAfter: -drop-after N cuts every connection after N frames (mid
// body, as a network would); resuming from the last id each time gets the
// whole run, each frame once.
func TestDropAfter(t *testing.T) {
	c := testCatalog(t)
	want := len(c.byName["parallel-tools"].events)
	n := 7
	if want%n == 0 { // a last connection of exactly n frames may or may not be cut
		n = 6
	}
	srv := startServer(t, config{catalog: c, dropAfter: n, resumeGrace: time.Minute})
	body := runBody(t, "r-drop", "parallel-tools")
	var all []sse.Event
	last := ""
	conns := 0
	for {
		resp, frames, cut := runFrames(t, srv, body, last)
		require.Equal(t, http.StatusOK, resp.StatusCode)
		conns++
		assert.LessOrEqual(t, len(frames), n)
		all = append(all, frames...)
		if !cut {
			break
		}
		assert.Len(t, frames, n, "cut after exactly N frames")
		last = frames[len(frames)-1].ID
		require.Less(t, conns, 1000)
	}
	require.Len(t, all, want)
	checkIDs(t, all, 1)
	assert.Equal(t, (want+n-1)/n, conns)
	datas := make([]string, len(all))
	for i, e := range all {
		datas[i] = e.Data
	}
	f := fold(t, reducer.New(reducer.Options{}), datas)
	assert.Empty(t, f.diags)
	assert.Len(t, f.state["toolCalls"], 2)
}

// TestDropAfterRange: -drop-after N-M cuts each connection after a count
// drawn from [N, M]; resuming each time still gets the whole run once.
func TestDropAfterRange(t *testing.T) {
	lo, hi, err := parseDropAfter("3-9")
	require.NoError(t, err)
	assert.Equal(t, [2]int{3, 9}, [2]int{lo, hi})
	lo, hi, err = parseDropAfter("5")
	require.NoError(t, err)
	assert.Equal(t, [2]int{5, 5}, [2]int{lo, hi})
	for _, bad := range []string{"", "x", "-1", "9-3", "0-4", "3-", "3-x"} {
		_, _, err := parseDropAfter(bad)
		assert.Error(t, err, bad)
	}

	c := testCatalog(t)
	want := len(c.byName["reasoning"].events)
	srv := startServer(t, config{catalog: c, dropAfter: 3, dropAfterMax: 9, resumeGrace: time.Minute})
	body := runBody(t, "r-range", "reasoning")
	var all []sse.Event
	last := ""
	for conns := 0; ; conns++ {
		require.Less(t, conns, want, "progress on every connection")
		resp, frames, cut := runFrames(t, srv, body, last)
		require.Equal(t, http.StatusOK, resp.StatusCode)
		all = append(all, frames...)
		if !cut {
			assert.LessOrEqual(t, len(frames), 9)
			break
		}
		assert.GreaterOrEqual(t, len(frames), 3)
		assert.LessOrEqual(t, len(frames), 9)
		last = frames[len(frames)-1].ID
	}
	require.Len(t, all, want)
	checkIDs(t, all, 1)
}

// TestResumeErrors: a malformed id is 400 bad_last_event_id; a run the
// relay does not keep (unknown, or its thread evicted: -resume-runs
// threads are kept, one per keyless run) is 410 resume_unavailable; a run
// stopped before its end (no grace, its client left) ends with the
// relay's RUN_ERROR relay_run_abandoned, which a resume gets.
func TestResumeErrors(t *testing.T) {
	srv := startServer(t, config{logRuns: 2, logTTL: time.Minute})

	for _, id := range []string{"abc", "x:", "x:-1", "x:01", ":3", "x:3a", "x: 3", "AAAAAAAAAAAAAAAA:01"} {
		status, code := resumeStatus(t, srv, id)
		assert.Equal(t, http.StatusBadRequest, status, id)
		assert.Equal(t, "bad_last_event_id", code, id)
	}
	status, code := resumeStatus(t, srv, "AAAAAAAAAAAAAAAA:3")
	assert.Equal(t, http.StatusGone, status)
	assert.Equal(t, "resume_unavailable", code)

	_, a, _ := runFrames(t, srv, runBody(t, "a", "text"), "")
	key := checkIDs(t, a, 1)
	status, code = resumeStatus(t, srv, key+":"+strconv.Itoa(len(a)+1))
	assert.Equal(t, http.StatusBadRequest, status, "past the last frame")
	assert.Equal(t, "bad_last_event_id", code)
	status, _ = resumeStatus(t, srv, a[2].ID)
	assert.Equal(t, http.StatusOK, status)

	// Count: two runs kept; more evict the least recently updated. A run's
	// thread is updated when it starts and again when the relay folds it,
	// after its client has read its end, so which two of the four are
	// evicted depends on when each fold lands; that two are, does not.
	_, b, _ := runFrames(t, srv, runBody(t, "b", "text"), "")
	_, c2, _ := runFrames(t, srv, runBody(t, "c", "text"), "")
	_, d, _ := runFrames(t, srv, runBody(t, "d", "text"), "")
	runs := [][]sse.Event{a, b, c2, d}
	kept := func() (n int) {
		for _, run := range runs {
			if status, _ := resumeStatus(t, srv, run[1].ID); status == http.StatusOK {
				n++
			}
		}
		return n
	}
	n := kept()
	for i := 0; i < 100 && n > 2; i++ {
		time.Sleep(20 * time.Millisecond) // the relay sweeps once a run is stored
		n = kept()
	}
	assert.Equal(t, 2, n, "evicted by count: two of the four runs kept")
	for _, run := range runs {
		status, code = resumeStatus(t, srv, run[1].ID)
		if status != http.StatusOK {
			assert.Equal(t, http.StatusGone, status)
			assert.Equal(t, "resume_unavailable", code)
		}
	}

	// A run stopped when its client left (no grace): a resume gets what it
	// produced, then its end.
	stopped := make(chan int, 1)
	srv = startServer(t, config{speed: 1, done: func(_ string, n int, _ error) { stopped <- n }})
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "POST", srv.URL+"/agent", bytes.NewReader(runBody(t, "g", "reasoning")))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	line, err := bufio.NewReader(resp.Body).ReadString('\n')
	require.NoError(t, err)
	cancel()
	resp.Body.Close()
	produced := <-stopped
	first := strings.TrimSpace(strings.TrimPrefix(line, "id:"))
	resp, rest, _ := runFrames(t, srv, []byte("{}"), first)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.Len(t, rest, produced, "the frames after the first, and the end")
	assert.Contains(t, rest[len(rest)-1].Data, `"code":"`+relay.CodeAbandoned+`"`)
}

// TestResumeProxy: with -upstream, the frames carry the relay's ids; an
// upstream answer cut mid-frame is resumed by the relay with the
// upstream's Last-Event-ID, and the client gets one run, each frame once.
func TestResumeProxy(t *testing.T) {
	var mu sync.Mutex
	var got []string
	frames := []string{
		`{"type":"RUN_STARTED","threadId":"t","runId":"r"}`,
		`{"type":"TEXT_MESSAGE_START","messageId":"m","role":"assistant"}`,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"one "}`,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"two"}`,
		`{"type":"TEXT_MESSAGE_END","messageId":"m"}`,
		`{"type":"RUN_FINISHED","threadId":"t","runId":"r"}`,
	}
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		last := r.Header.Get("Last-Event-ID")
		mu.Lock()
		got = append(got, last)
		mu.Unlock()
		from := 0
		if last != "" {
			n, _ := strconv.Atoi(strings.TrimPrefix(last, "up-run:"))
			from = n + 1
		}
		w.Header().Set("Content-Type", "text/event-stream")
		for i := from; i < len(frames); i++ {
			if last == "" && i == 3 {
				w.Write([]byte("id: up-run:3\ndata: {\"type\":\"TEXT_"))
				w.(http.Flusher).Flush()
				panic(http.ErrAbortHandler) // cut mid-frame
			}
			fmt.Fprintf(w, "id: up-run:%d\ndata: %s\n\n", i, frames[i])
			w.(http.Flusher).Flush()
		}
	}))
	defer up.Close()
	u, _ := url.Parse(up.URL)
	srv := startServer(t, config{upstream: u})
	resp, out, cut := runFrames(t, srv, runBody(t, "r", "text"), "")
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.False(t, cut)
	checkIDs(t, out, 1)
	require.Len(t, out, len(frames))
	for i, f := range out {
		assert.JSONEq(t, frames[i], f.Data)
	}
	mu.Lock()
	defer mu.Unlock()
	assert.Equal(t, []string{"", "up-run:2"}, got, "the cut answer resumed after the last whole event")
}

// TestResumeProxyDialect: with -upstream-dialect, the frames carry the
// relay's ids, one per canonical event, and a Last-Event-ID is the
// relay's business: it never goes to the upstream (an unknown one is
// answered 410).
func TestResumeProxyDialect(t *testing.T) {
	up := &dialectUpstream{}
	upSrv := httptest.NewServer(up)
	defer upSrv.Close()
	u, _ := url.Parse(upSrv.URL)
	srv := startServer(t, config{upstream: u, upstreamDialect: "streaming"})
	resp, frames, _ := runFrames(t, srv, runBody(t, "r", "text"), "")
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.Len(t, frames, 8)
	checkIDs(t, frames, 1)

	status, code := resumeStatus(t, srv, "AAAAAAAAAAAAAAAA:2")
	assert.Equal(t, http.StatusGone, status)
	assert.Equal(t, "resume_unavailable", code)
	resp, rest, _ := runFrames(t, srv, runBody(t, "r", "text"), frames[4].ID)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, frames[5:], rest)
	up.mu.Lock()
	defer up.mu.Unlock()
	assert.Equal(t, []string{""}, up.requests, "one upstream request, without Last-Event-ID")
}

// TestRunCapCountsDetachedRuns: a run whose client left goes on for the
// grace period and counts against -max-runs; it can still be resumed.
func TestRunCapCountsDetachedRuns(t *testing.T) {
	srv := startServer(t, config{maxRuns: 1, speed: 1, resumeGrace: time.Minute})
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "POST", srv.URL+"/agent", bytes.NewReader(runBody(t, "r1", "reasoning")))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	line, err := bufio.NewReader(resp.Body).ReadString('\n')
	require.NoError(t, err)
	cancel()
	resp.Body.Close()

	status, code, _ := agentRequest(t, srv, nil, runBody(t, "r2", "text"))
	assert.Equal(t, http.StatusServiceUnavailable, status)
	assert.Equal(t, "too_many_runs", code)

	// The first run, resumed after its first frame, streams on; the test
	// reads one more frame and leaves (the run then stops: nobody is back
	// when the server closes).
	req, _ = http.NewRequest("POST", srv.URL+"/agent", strings.NewReader("{}"))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Last-Event-ID", strings.TrimSpace(strings.TrimPrefix(line, "id:")))
	ctx2, cancel2 := context.WithCancel(context.Background())
	defer cancel2()
	resp, err = http.DefaultClient.Do(req.WithContext(ctx2))
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	next, err := bufio.NewReader(resp.Body).ReadString('\n')
	require.NoError(t, err)
	_, seq, ok := parseEventID(strings.TrimSpace(strings.TrimPrefix(next, "id:")))
	require.True(t, ok, next)
	assert.Equal(t, 2, seq)
}
