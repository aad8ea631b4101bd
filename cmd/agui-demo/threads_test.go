package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agui-reducer/agui/reducer"
	"github.com/agui-reducer/agui/reducer/sse"
	"github.com/agui-reducer/agui/relay"
	"github.com/agui-reducer/agui/relay/redistest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const testThreadKey = "AAAAAAAAAAAAAAAAAAAAAA" // 22 base64url characters

// relayRun POSTs a turn with the thread key (to /agent, as the page does,
// or to /relay/agent when runID ends in "-relay") and returns its frames.
func relayRun(t *testing.T, srv *httptest.Server, threadID, runID, scenario string) []sse.Event {
	t.Helper()
	b, _ := json.Marshal(userInput(threadID, runID, "x", map[string]any{"scenario": scenario}))
	path := "/agent"
	if strings.HasSuffix(runID, "-relay") {
		path = "/relay/agent"
	}
	req, _ := http.NewRequest("POST", srv.URL+path, bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Agui-Thread-Key", testThreadKey)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%s", raw)
	events, errs := sse.ParseAll(raw)
	require.Empty(t, errs)
	return events
}

type threadView struct {
	ThreadID string            `json:"threadId"`
	Messages []json.RawMessage `json:"messages"`
	State    json.RawMessage   `json:"state"`
	Run      *struct {
		LastEventID string `json:"lastEventId"`
	} `json:"run"`
}

func getThread(t *testing.T, srv *httptest.Server, path, key string) (int, threadView) {
	t.Helper()
	req, _ := http.NewRequest("GET", srv.URL+path, nil)
	if key != "" {
		req.Header.Set("X-Agui-Thread-Key", key)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	var v threadView
	if resp.StatusCode == http.StatusOK {
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&v))
	}
	return resp.StatusCode, v
}

// foldFrames folds frames into r and returns its messages and state as
// JSON.
func foldFrames(r *reducer.Reducer, frames []sse.Event) (messages, state string) {
	for _, f := range frames {
		r.Apply([]byte(f.Data))
	}
	st, _ := json.Marshal(r.State().State)
	return string(r.AppendMessages(nil)), string(st)
}

// TestThreads: runs through /relay/agent are kept in their thread, which
// GET /threads/{id} (and /relay/threads/{id}) answers with: the user's
// turns and the agent's answers, two turns in order; another key finds
// nothing.
func TestThreads(t *testing.T) {
	srv := startServer(t, config{})
	a := relayRun(t, srv, "t1", "r1", "text")
	require.NotEmpty(t, a)
	_, seq, ok := parseEventID(a[0].ID)
	assert.True(t, ok && seq == 1, a[0].ID)
	relayRun(t, srv, "t1", "r2-relay", "state")

	for _, path := range []string{"/threads/t1", "/relay/threads/t1"} {
		status, v := getThread(t, srv, path, testThreadKey)
		require.Equal(t, http.StatusOK, status, path)
		assert.Equal(t, "t1", v.ThreadID)
		assert.Nil(t, v.Run, "no run going on")
		var roles []string
		for _, m := range v.Messages {
			var head struct{ ID, Role string }
			require.NoError(t, json.Unmarshal(m, &head))
			roles = append(roles, head.Role+":"+head.ID)
		}
		assert.Contains(t, roles, "user:user-r1")
		assert.Contains(t, roles, "user:user-r2-relay")
		assert.Greater(t, len(roles), 3, "%v", roles)
		assert.NotEqual(t, "{}", string(v.State), "the state run's state is kept")
	}
	status, _ := getThread(t, srv, "/threads/t1", "BBBBBBBBBBBBBBBBBBBBBB")
	assert.Equal(t, http.StatusNotFound, status, "another key finds nothing")
	status, _ = getThread(t, srv, "/threads/t1", "")
	assert.Equal(t, http.StatusUnauthorized, status, "no key")
}

// TestThreadAttachMidRun: a client that loads the thread while its run
// goes on (GET /relay/threads/{id} as a stream) gets the conversation and
// then the run live, from its first frame: the same frames as the client
// that started it, each once, and the same final state.
func TestThreadAttachMidRun(t *testing.T) {
	hold := make(chan struct{})
	held := make(chan struct{}, 1)
	srv := startServer(t, config{beforeEvent: func(i int) {
		if i == 5 {
			held <- struct{}{}
			<-hold
		}
	}})
	b, _ := json.Marshal(userInput("t2", "r1", "x", map[string]any{"scenario": "tools"}))
	req, _ := http.NewRequest("POST", srv.URL+"/relay/agent", bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Agui-Thread-Key", testThreadKey)
	first := make(chan []sse.Event, 1)
	go func() {
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			first <- nil
			return
		}
		defer resp.Body.Close()
		raw, _ := io.ReadAll(resp.Body)
		ev, _ := sse.ParseAll(raw)
		first <- ev
	}()
	<-held

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	get, _ := http.NewRequestWithContext(ctx, "GET", srv.URL+"/relay/threads/t2", nil)
	get.Header.Set("Accept", "text/event-stream")
	get.Header.Set("X-Agui-Thread-Key", testThreadKey)
	resp, err := http.DefaultClient.Do(get)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	br := bufio.NewReader(resp.Body)
	line, err := br.ReadString('\n')
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(line, "data: ") && strings.Contains(line, "MESSAGES_SNAPSHOT") && strings.Contains(line, "user-r1"), line)
	close(hold)
	rest, err := io.ReadAll(br)
	require.NoError(t, err)
	attached, errs := sse.ParseAll([]byte(line + string(rest)))
	require.Empty(t, errs)
	all := <-first
	require.NotEmpty(t, all)

	var ids []string
	for _, f := range attached {
		if f.ID != "" {
			ids = append(ids, f.ID)
		}
	}
	var want []string
	for _, f := range all {
		want = append(want, f.ID)
	}
	assert.Equal(t, want, ids, "every frame of the run, once, in order")
	// The uninterrupted run as the thread holds it: the user's turn, then
	// the run.
	want1 := reducer.New(reducer.Options{})
	want1.AddUserMessage("x", "user-r1")
	wantMsgs, wantState := foldFrames(want1, all)
	gotMsgs, gotState := foldFrames(reducer.New(reducer.Options{}), attached)
	assert.Equal(t, wantMsgs, gotMsgs)
	assert.Equal(t, wantState, gotState)
}

// TestThreadsKeptAcrossRestart: with -store bolt:PATH or -store
// redis://… (a real redis-server, relay/redistest) a finished thread is
// served by the next server on the same store, as it was, and goes on; a
// finished keyless run is still resumable by its event id.
func TestThreadsKeptAcrossRestart(t *testing.T) {
	for _, backend := range []string{"bolt", "redis"} {
		t.Run(backend, func(t *testing.T) {
			storeURL := "bolt:" + filepath.Join(t.TempDir(), "threads.db")
			if backend == "redis" {
				storeURL = redistest.Start(t, true).URL()
			}
			threadsKeptAcrossRestart(t, storeURL)
		})
	}
}

func threadsKeptAcrossRestart(t *testing.T, storeURL string) {
	open := func() (*httptest.Server, func()) {
		st, err := relay.OpenStore(storeURL)
		require.NoError(t, err)
		ctx, cancel := context.WithCancel(context.Background())
		s, err := newServer(config{catalog: testCatalog(t), webDir: t.TempDir(), logf: t.Logf, ctx: ctx, store: st})
		require.NoError(t, err)
		srv := httptest.NewServer(s)
		return srv, func() {
			srv.Close()
			cancel()
			s.wait()
			require.NoError(t, st.Close())
		}
	}
	srv, stop := open()
	relayRun(t, srv, "kept", "r1", "text")
	relayRun(t, srv, "kept", "r2", "tools")
	status, before := getThread(t, srv, "/threads/kept", testThreadKey)
	require.Equal(t, http.StatusOK, status)
	require.NotEmpty(t, before.Messages)
	_, keyless, _ := runFrames(t, srv, runBody(t, "r-keyless", "state"), "")
	require.NotEmpty(t, keyless)
	stop()

	srv, stop = open()
	defer stop()
	status, after := getThread(t, srv, "/threads/kept", testThreadKey)
	require.Equal(t, http.StatusOK, status, "the thread outlives the server")
	assert.Equal(t, before, after)
	relayRun(t, srv, "kept", "r3", "text")
	_, more := getThread(t, srv, "/threads/kept", testThreadKey)
	assert.Greater(t, len(more.Messages), len(after.Messages), "and goes on")
	resp, rest, _ := runFrames(t, srv, []byte("{}"), keyless[1].ID)
	require.Equal(t, http.StatusOK, resp.StatusCode, "a keyless run outlives the server")
	assert.Equal(t, keyless[2:], rest)
}

// TestThreadsDropAfter: -drop-after cuts the relay's streams too, and the
// client resumes the run with its Last-Event-ID and the thread key: every
// frame once.
func TestThreadsDropAfter(t *testing.T) {
	srv := startServer(t, config{dropAfter: 4})
	b, _ := json.Marshal(userInput("t3", "r1", "x", map[string]any{"scenario": "tools"}))
	var got []sse.Event
	last := ""
	for attempt := 0; attempt < 50; attempt++ {
		req, _ := http.NewRequest("POST", srv.URL+"/agent", bytes.NewReader(b))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Agui-Thread-Key", testThreadKey)
		if last != "" {
			req.Header.Set("Last-Event-ID", last)
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		raw, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		require.Equal(t, http.StatusOK, resp.StatusCode, "%s", raw)
		ev, _ := sse.ParseAll(raw)
		assert.LessOrEqual(t, len(ev), 4)
		got = append(got, ev...)
		if len(ev) > 0 {
			last = ev[len(ev)-1].ID
		}
		if err == nil {
			break // the body ended: the run is over
		}
	}
	c := testCatalog(t)
	require.Len(t, got, len(c.byName["tools"].events))
	for i, f := range got {
		_, seq, _ := parseEventID(f.ID)
		assert.Equal(t, i+1, seq)
	}
}

// TestThreadsOneLog: every run is the relay's, one log: a run of a kept
// thread and a keyless run (any AG-UI client's) are both in its store, and
// nowhere else.
func TestThreadsOneLog(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	s, err := newServer(config{catalog: testCatalog(t), webDir: t.TempDir(), logf: t.Logf, ctx: ctx})
	require.NoError(t, err)
	srv := httptest.NewServer(s)
	defer func() { srv.Close(); cancel(); s.wait() }()
	frames := relayRun(t, srv, "one-log", "r1", "tools")
	require.Len(t, frames, len(testCatalog(t).byName["tools"].events))
	resp, keyless, _ := runFrames(t, srv, runBody(t, "r2", "text"), "")
	require.NotEmpty(t, keyless)
	runs := storedRuns(t, s)
	assert.Len(t, runs, 2)
	for _, f := range [][]sse.Event{frames, keyless} {
		key, _, _ := parseEventID(f[0].ID)
		assert.Len(t, runs[key], len(f), "the run's frames, stored once")
	}
	assert.Equal(t, resp.Header.Get("X-Agui-Run"), checkIDs(t, keyless, 1))
}

// TestThreadsSecurity: the relay's routes keep the demo's defaults: other
// origins and unknown hosts are refused, bodies are bounded.
func TestThreadsSecurity(t *testing.T) {
	srv := startServer(t, config{maxBody: 1 << 10})
	body, _ := json.Marshal(userInput("sec", "r1", "x", map[string]any{"scenario": "text"}))
	do := func(method, path string, hdr map[string]string, b []byte) int {
		req, _ := http.NewRequest(method, srv.URL+path, bytes.NewReader(b))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Agui-Thread-Key", testThreadKey)
		for k, v := range hdr {
			if k == "Host" {
				req.Host = v
			} else {
				req.Header.Set(k, v)
			}
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}
	evil := map[string]string{"Origin": "http://evil.example"}
	for _, c := range []struct{ method, path string }{{"POST", "/agent"}, {"POST", "/relay/agent"}, {"GET", "/threads/sec"}, {"GET", "/relay/threads/sec"}} {
		var b []byte
		if c.method == "POST" {
			b = body
		}
		assert.Equal(t, http.StatusForbidden, do(c.method, c.path, evil, b), "%s %s from another origin", c.method, c.path)
		assert.Equal(t, http.StatusForbidden, do(c.method, c.path, map[string]string{"Host": "evil.example"}, b), "%s %s for another host", c.method, c.path)
	}
	big := bytes.Repeat([]byte(" "), 2<<10)
	assert.Equal(t, http.StatusRequestEntityTooLarge, do("POST", "/relay/agent", nil, append(big, body...)), "-max-body")
	assert.Equal(t, http.StatusRequestEntityTooLarge, do("POST", "/agent", nil, append(big, body...)), "-max-body")
}
