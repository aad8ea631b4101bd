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

// TestFrameIDs: every frame of a run has an SSE id "<runId>.<tag>:<seq>",
// seq counting from 1; two runs with the same run id get different keys.
func TestFrameIDs(t *testing.T) {
	c := testCatalog(t)
	srv := startServer(t, config{catalog: c})
	_, frames, cut := runFrames(t, srv, runBody(t, "run-7", "tools"), "")
	require.False(t, cut)
	require.Len(t, frames, len(c.byName["tools"].events))
	key := checkIDs(t, frames, 1)
	assert.True(t, strings.HasPrefix(key, "run-7."), key)

	_, again, _ := runFrames(t, srv, runBody(t, "run-7", "tools"), "")
	assert.NotEqual(t, key, checkIDs(t, again, 1), "a reused run id is another run")

	for _, id := range []string{"", "a\nb", "a:b", strings.Repeat("x", 100), "é"} {
		k := runKey(id)
		assert.True(t, strings.HasPrefix(k, "run."), "%q → %q", id, k)
		assert.NotContains(t, k, ":")
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
		assert.Equal(t, "state", resp.Header.Get("X-Agui-Scenario"))
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

// TestResumeErrors: a malformed id is 400 bad_last_event_id; a run the log
// does not have (unknown, expired, evicted) is 410 resume_unavailable; a
// run stopped before its end, resumed past its last frame, is 410
// run_stopped.
func TestResumeErrors(t *testing.T) {
	var mu sync.Mutex
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	now := func() time.Time { mu.Lock(); defer mu.Unlock(); return clock }
	advance := func(d time.Duration) { mu.Lock(); clock = clock.Add(d); mu.Unlock() }
	srv := startServer(t, config{logRuns: 2, logTTL: time.Minute, now: now})

	for _, id := range []string{"abc", "x:", "x:-1", "x:01", ":3", "x:3a", "x: 3"} {
		status, code := resumeStatus(t, srv, id)
		assert.Equal(t, http.StatusBadRequest, status, id)
		assert.Equal(t, "bad_last_event_id", code, id)
	}
	status, code := resumeStatus(t, srv, "nope.1234:3")
	assert.Equal(t, http.StatusGone, status)
	assert.Equal(t, "resume_unavailable", code)

	_, a, _ := runFrames(t, srv, runBody(t, "a", "text"), "")
	key := checkIDs(t, a, 1)
	status, code = resumeStatus(t, srv, key+":"+strconv.Itoa(len(a)+1))
	assert.Equal(t, http.StatusBadRequest, status, "past the last frame")
	assert.Equal(t, "bad_last_event_id", code)

	// TTL: kept for a minute after it ended.
	advance(59 * time.Second)
	status, _ = resumeStatus(t, srv, a[2].ID)
	assert.Equal(t, http.StatusOK, status)
	advance(2 * time.Second)
	status, code = resumeStatus(t, srv, a[2].ID)
	assert.Equal(t, http.StatusGone, status, "expired")
	assert.Equal(t, "resume_unavailable", code)

	// Count: two runs kept; a third evicts the oldest.
	_, b, _ := runFrames(t, srv, runBody(t, "b", "text"), "")
	advance(time.Second)
	_, c2, _ := runFrames(t, srv, runBody(t, "c", "text"), "")
	advance(time.Second)
	_, d, _ := runFrames(t, srv, runBody(t, "d", "text"), "")
	status, _ = resumeStatus(t, srv, b[1].ID)
	assert.Equal(t, http.StatusGone, status, "evicted by count")
	for _, run := range [][]sse.Event{c2, d} {
		status, _ = resumeStatus(t, srv, run[1].ID)
		assert.Equal(t, http.StatusOK, status)
	}

	// Bytes: a budget smaller than two runs keeps the newest only.
	srv = startServer(t, config{logBytes: 30000}) // one run, not two (each holds some 20 KB)
	_, e, _ := runFrames(t, srv, runBody(t, "e", "tools"), "")
	_, f, _ := runFrames(t, srv, runBody(t, "f", "text"), "")
	status, _ = resumeStatus(t, srv, e[1].ID)
	assert.Equal(t, http.StatusGone, status, "evicted by size")
	status, _ = resumeStatus(t, srv, f[1].ID)
	assert.Equal(t, http.StatusOK, status, "the newest run stays")

	// A run stopped when its client left (no grace) cannot be resumed past
	// what it produced.
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
	gKey, _, ok := parseEventID(strings.TrimSpace(strings.TrimPrefix(line, "id:")))
	require.True(t, ok, line)
	status, code = resumeStatus(t, srv, gKey+":"+strconv.Itoa(produced))
	assert.Equal(t, http.StatusGone, status)
	assert.Equal(t, "run_stopped", code)
}

// TestResumeProxy: in proxy mode Last-Event-ID goes to the upstream and the
// upstream's ids come back unchanged; resuming is the upstream's business.
func TestResumeProxy(t *testing.T) {
	var got string
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r.Header.Get("Last-Event-ID")
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write([]byte("id: up-run:8\ndata: {\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m\"}\n\nid: up-run:9\ndata: {\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n"))
	}))
	defer up.Close()
	u, _ := url.Parse(up.URL)
	srv := startServer(t, config{upstream: u})
	resp, frames, _ := runFrames(t, srv, runBody(t, "r", "text"), "up-run:7")
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, "up-run:7", got)
	require.Len(t, frames, 2)
	assert.Equal(t, "up-run:8", frames[0].ID)
	assert.Equal(t, "up-run:9", frames[1].ID)
}

// TestResumeProxyDialect: with -upstream-dialect, the frames carry this
// server's ids, one per canonical event, and a Last-Event-ID is this
// server's business: it never goes to the upstream (an unknown one is
// answered 410 by the server).
func TestResumeProxyDialect(t *testing.T) {
	up := &dialectUpstream{}
	upSrv := httptest.NewServer(up)
	defer upSrv.Close()
	u, _ := url.Parse(upSrv.URL)
	srv := startServer(t, config{upstream: u, upstreamDialect: "streaming"})
	resp, frames, _ := runFrames(t, srv, runBody(t, "r", "text"), "")
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.Len(t, frames, 8)
	key := checkIDs(t, frames, 1)
	assert.True(t, strings.HasPrefix(key, "r."), key)

	status, code := resumeStatus(t, srv, "u:2")
	assert.Equal(t, http.StatusGone, status)
	assert.Equal(t, "resume_unavailable", code)
	resp, rest, _ := runFrames(t, srv, runBody(t, "r", "text"), frames[4].ID)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, frames[5:], rest)
	up.mu.Lock()
	defer up.mu.Unlock()
	assert.Equal(t, []string{""}, up.requests, "one upstream request, without Last-Event-ID")
}

func TestParseEventID(t *testing.T) {
	for _, c := range []struct {
		id  string
		key string
		seq int
		ok  bool
	}{
		{"run-1.ab12cd34:17", "run-1.ab12cd34", 17, true},
		{"a:b:0", "a:b", 0, true},
		{"x:01", "", 0, false},
		{"x:+1", "", 0, false},
		{":1", "", 0, false},
		{"x", "", 0, false},
		{"x:99999999999999999999", "", 0, false},
	} {
		key, seq, ok := parseEventID(c.id)
		assert.Equal(t, c.ok, ok, c.id)
		if c.ok {
			assert.Equal(t, c.key, key, c.id)
			assert.Equal(t, c.seq, seq, c.id)
		}
	}
	assert.Equal(t, "k:3", eventID("k", 3))
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

// TestRunLogEviction: the log's bounds evict finished runs first (oldest
// first), then the oldest running one; an evicted run still being produced
// counts as running until it ends.
func TestRunLogEviction(t *testing.T) {
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	tick := func() time.Time { clock = clock.Add(time.Second); return clock }
	l := newRunLog(3, 1<<20, time.Hour, tick)
	mk := func(key string) *loggedRun { return &loggedRun{key: key, cancel: func() {}} }
	add := func(r *loggedRun, max int) bool {
		_, ok := l.add(r, max)
		return ok
	}
	a, b, c, d := mk("a"), mk("b"), mk("c"), mk("d")
	for _, r := range []*loggedRun{a, b, c} {
		require.True(t, add(r, 10))
		l.append(r, []byte(`{"type":"RUN_STARTED"}`))
	}
	l.finish(b, true)
	require.True(t, add(d, 10))
	assert.Nil(t, l.get("b"), "the finished run goes first, though a is older")
	assert.NotNil(t, l.get("a"))

	e := mk("e")
	require.True(t, add(e, 10))
	assert.Nil(t, l.get("a"), "then the oldest running run")
	assert.Equal(t, 4, l.running, "a, c, d, e are produced")
	assert.False(t, add(mk("f"), 4), "the cap counts the evicted running run")
	l.finish(a, false)
	assert.True(t, add(mk("g"), 4))
}

// TestRunLogBytes: what the log holds (frames, their overhead, each run's
// record) stays within its byte bound: older runs go; a run larger than
// the bound alone is not resumable and keeps only the frames its
// connections have yet to write; when those exceed the bound, it is
// stopped; an evicted run nobody reads is stopped and, once done, holds
// nothing.
func TestRunLogBytes(t *testing.T) {
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	tick := func() time.Time { clock = clock.Add(time.Second); return clock }
	frame := func(n int) []byte { return bytes.Repeat([]byte("x"), n) }
	const bound = 2*runOverhead + 600
	l := newRunLog(100, bound, time.Hour, tick)
	cancelled := map[string]bool{}
	mk := func(key string) *loggedRun {
		return &loggedRun{key: key, cancel: func() { cancelled[key] = true }}
	}
	cost := func(n int) int64 { return int64(cap(frame(n))) + frameOverhead }

	// Older finished runs go.
	x, y := mk("x"), mk("y")
	rx, _ := l.add(x, 10)
	l.append(x, frame(800))
	l.finish(x, true)
	l.detach(x, rx, 0)
	ry, _ := l.add(y, 10)
	l.append(y, frame(400))
	assert.Nil(t, l.get("x"))
	assert.True(t, x.released)
	assert.Equal(t, runOverhead+cost(400), l.held)
	assert.LessOrEqual(t, l.held, int64(bound))

	// y grows past the bound alone: not resumable any more, and holds
	// only what its connection has not written.
	for range 3 {
		l.append(y, frame(400))
	}
	assert.Nil(t, l.get("y"), "a run larger than the bound is not resumable")
	assert.True(t, y.evicted)
	assert.Greater(t, l.held, int64(bound), "its connection has written nothing yet")
	assert.True(t, cancelled["y"], "what is not written exceeds the bound: stopped")
	assert.Equal(t, stopTooLarge, l.stopReason(y))
	frames, _, _ := l.next(y, ry)
	assert.Len(t, frames, 4, "the connection still gets what was produced")
	for range frames {
		l.advance(y, ry)
	}
	assert.Equal(t, int64(runOverhead), l.held, "written frames of an evicted run are dropped")
	l.finish(y, true)
	assert.False(t, y.complete, "a stopped run is not complete")
	l.detach(y, ry, time.Hour)
	assert.Equal(t, int64(0), l.held, "an evicted run, done and unread, holds nothing")

	// An evicted run nobody reads is stopped at once, whatever the grace.
	l = newRunLog(1, 1<<20, time.Hour, tick)
	z, w := mk("z"), mk("w")
	rz, _ := l.add(z, 10)
	l.detach(z, rz, time.Hour)
	assert.False(t, cancelled["z"], "within its grace")
	rw, _ := l.add(w, 10)
	assert.Nil(t, l.get("z"))
	assert.True(t, cancelled["z"], "evicted and unread: nobody can come back for it")
	l.append(z, frame(100))
	l.finish(z, false)
	assert.True(t, z.released)
	assert.Equal(t, int64(runOverhead), l.held, "z holds nothing")
	l.detach(w, rw, time.Hour)
}
