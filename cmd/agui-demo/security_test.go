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
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// agentRequest POSTs body to /agent with the given headers (Host is the
// request's Host) and returns the status, the error code of a JSON error
// and the response.
func agentRequest(t *testing.T, srv *httptest.Server, hdr map[string]string, body []byte) (int, string, *http.Response) {
	t.Helper()
	req, err := http.NewRequest("POST", srv.URL+"/agent", bytes.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	for k, v := range hdr {
		if k == "Host" {
			req.Host = v
			continue
		}
		if v == "" {
			req.Header.Del(k)
			continue
		}
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var e struct{ Code string }
	if resp.Header.Get("Content-Type") == "application/json" {
		_ = json.Unmarshal(raw, &e)
	}
	return resp.StatusCode, e.Code, resp
}

func textRun(t *testing.T) []byte {
	b, err := json.Marshal(userInput("t", "r", "hi", map[string]any{"scenario": "text"}))
	require.NoError(t, err)
	return b
}

// TestHostAllowList: DNS rebinding makes a page of attacker.example reach
// the server with "Host: attacker.example"; it is refused, everywhere.
func TestHostAllowList(t *testing.T) {
	srv := startServer(t, config{})
	status, code, _ := agentRequest(t, srv, map[string]string{"Host": "attacker.example:8080"}, textRun(t))
	assert.Equal(t, http.StatusForbidden, status)
	assert.Equal(t, "host_not_allowed", code)
	req, _ := http.NewRequest("GET", srv.URL+"/scenarios", nil)
	req.Host = "attacker.example"
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusForbidden, resp.StatusCode)

	for _, h := range []string{"localhost", "127.0.0.1"} {
		status, _, _ := agentRequest(t, srv, map[string]string{"Host": h}, textRun(t))
		assert.Equal(t, http.StatusOK, status, h)
	}

	srv = startServer(t, config{allowHosts: []string{"demo.example"}})
	status, _, _ = agentRequest(t, srv, map[string]string{"Host": "demo.example:8080"}, textRun(t))
	assert.Equal(t, http.StatusOK, status)
}

// TestAgentSameOrigin: POST /agent takes requests from the server's own
// pages and from non-browser clients; a page of another origin is refused
// by Origin or by Sec-Fetch-Site, unless -cors names it.
func TestAgentSameOrigin(t *testing.T) {
	srv := startServer(t, config{})
	self := srv.URL // http://127.0.0.1:port
	for _, c := range []struct {
		name string
		hdr  map[string]string
		ok   bool
	}{
		{"no browser headers (curl)", nil, true},
		{"own origin", map[string]string{"Origin": self, "Sec-Fetch-Site": "same-origin"}, true},
		{"own origin, no fetch metadata", map[string]string{"Origin": self}, true},
		{"typed URL (Sec-Fetch-Site: none)", map[string]string{"Sec-Fetch-Site": "none"}, true},
		{"other origin", map[string]string{"Origin": "http://evil.test"}, false},
		{"other port", map[string]string{"Origin": strings.Replace(self, "127.0.0.1:", "127.0.0.1:1", 1)}, false},
		{"localhost for 127.0.0.1", map[string]string{"Origin": strings.Replace(self, "127.0.0.1", "localhost", 1)}, false},
		{"opaque origin", map[string]string{"Origin": "null"}, false},
		{"cross-site, no Origin", map[string]string{"Sec-Fetch-Site": "cross-site"}, false},
		{"same-site, no Origin", map[string]string{"Sec-Fetch-Site": "same-site"}, false},
		{"own origin claimed cross-site", map[string]string{"Origin": self, "Sec-Fetch-Site": "cross-site"}, false},
	} {
		status, code, _ := agentRequest(t, srv, c.hdr, textRun(t))
		if c.ok {
			assert.Equal(t, http.StatusOK, status, c.name)
		} else {
			assert.Equal(t, http.StatusForbidden, status, c.name)
			assert.Equal(t, "cross_origin", code, c.name)
		}
	}

	srv = startServer(t, config{corsOrigins: []string{"http://localhost:5173"}})
	status, _, _ := agentRequest(t, srv, map[string]string{"Origin": "http://localhost:5173", "Sec-Fetch-Site": "same-site"}, textRun(t))
	assert.Equal(t, http.StatusOK, status, "-cors origin")
	status, _, _ = agentRequest(t, srv, map[string]string{"Origin": "http://evil.test", "Sec-Fetch-Site": "cross-site"}, textRun(t))
	assert.Equal(t, http.StatusForbidden, status, "another origin still")
}

// TestAgentBodyLimit: a body over -max-body is refused with 413, whether
// its length is declared or not, in replay and in proxy mode (where it never
// reaches the upstream).
func TestAgentBodyLimit(t *testing.T) {
	var upstreamHits atomic.Int32
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		upstreamHits.Add(1)
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
	}))
	defer up.Close()
	u, _ := url.Parse(up.URL)

	in := userInput("t", "r", strings.Repeat("x", 4000), map[string]any{"scenario": "text"})
	big, _ := json.Marshal(in)
	for _, mode := range []struct {
		name string
		cfg  config
	}{{"replay", config{maxBody: 2000}}, {"proxy", config{maxBody: 2000, upstream: u}}} {
		srv := startServer(t, mode.cfg)
		status, code, _ := agentRequest(t, srv, nil, big)
		assert.Equal(t, http.StatusRequestEntityTooLarge, status, mode.name)
		assert.Equal(t, "too_large", code, mode.name)

		// Chunked, no Content-Length: cut off while reading.
		req, _ := http.NewRequest("POST", srv.URL+"/agent", io.MultiReader(bytes.NewReader(big)))
		req.ContentLength = -1
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, http.StatusRequestEntityTooLarge, resp.StatusCode, mode.name+" chunked")
	}
	assert.Zero(t, upstreamHits.Load(), "an oversized body never reaches the upstream")

	srv := startServer(t, config{upstream: u})
	status, _, _ := agentRequest(t, srv, nil, big)
	assert.Equal(t, http.StatusOK, status, "within the default limit")
	assert.EqualValues(t, 1, upstreamHits.Load())
}

// TestConcurrentRunCap: with -max-runs 1, a second run while one streams
// gets 503 with Retry-After; once the first ends, runs are served again.
func TestConcurrentRunCap(t *testing.T) {
	done := make(chan struct{}, 4)
	srv := startServer(t, config{maxRuns: 1, speed: 1, done: func(string, int, error) { done <- struct{}{} }})

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	body, _ := json.Marshal(userInput("t", "r1", "x", map[string]any{"scenario": "reasoning"}))
	req, _ := http.NewRequestWithContext(ctx, "POST", srv.URL+"/agent", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	_, err = bufio.NewReader(resp.Body).ReadString('\n')
	require.NoError(t, err)

	status, code, r2 := agentRequest(t, srv, nil, textRun(t))
	assert.Equal(t, http.StatusServiceUnavailable, status)
	assert.Equal(t, "too_many_runs", code)
	assert.NotEmpty(t, r2.Header.Get("Retry-After"))

	cancel() // no grace: the run stops
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the first run did not end")
	}
	// The relay gives the run's slot back once it has stored its end.
	served := false
	for i := 0; i < 100 && !served; i++ {
		status, _, _ := agentRequest(t, srv, nil, textRun(t))
		served = status == http.StatusOK
		if !served {
			time.Sleep(50 * time.Millisecond)
		}
	}
	assert.True(t, served, "served again")
}

// TestProxyHeaders: the relay passes the AG-UI transport's headers to the
// -upstream only; cookies and Authorization pass only when
// -upstream-headers names them, and the upstream's answer headers (its
// cookies) never reach the client: the answer is the relay's stream.
func TestProxyHeaders(t *testing.T) {
	seen := make(chan http.Header, 1)
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen <- r.Header.Clone()
		w.Header().Set("Set-Cookie", "session=upstream")
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write([]byte("data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n"))
	}))
	defer up.Close()
	u, _ := url.Parse(up.URL)
	hdr := map[string]string{
		"Cookie":        "session=demo",
		"Authorization": "Bearer local",
		"X-Private":     "1",
		"Accept":        "text/event-stream",
	}
	body, _ := json.Marshal(userInput("t", "r", "hi", nil))

	srv := startServer(t, config{upstream: u})
	status, _, resp := agentRequest(t, srv, hdr, body)
	require.Equal(t, http.StatusOK, status)
	h := <-seen
	assert.Empty(t, h.Get("Cookie"))
	assert.Empty(t, h.Get("Authorization"))
	assert.Empty(t, h.Get("X-Private"))
	assert.Empty(t, h.Get("X-Forwarded-For"))
	assert.Equal(t, "application/json", h.Get("Content-Type"))
	assert.Equal(t, "text/event-stream", h.Get("Accept"))
	assert.Equal(t, len(body), int(mustAtoi(t, h.Get("Content-Length"))))
	assert.Empty(t, resp.Header.Get("Set-Cookie"))

	srv = startServer(t, config{upstream: u, upstreamHeaders: []string{"Authorization", "Cookie"}})
	status, _, resp = agentRequest(t, srv, hdr, body)
	require.Equal(t, http.StatusOK, status)
	h = <-seen
	assert.Equal(t, "Bearer local", h.Get("Authorization"))
	assert.Equal(t, "session=demo", h.Get("Cookie"))
	assert.Empty(t, h.Get("X-Private"))
	assert.Empty(t, resp.Header.Get("Set-Cookie"))
}

func mustAtoi(t *testing.T, s string) int64 {
	var n int64
	for _, c := range s {
		require.True(t, c >= '0' && c <= '9', s)
		n = n*10 + int64(c-'0')
	}
	return n
}

// TestProxyRunCap: in proxy mode -max-runs caps the runs proxied at once.
func TestProxyRunCap(t *testing.T) {
	release := make(chan struct{})
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write([]byte("data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n"))
		w.(http.Flusher).Flush()
		<-release
	}))
	defer up.Close()
	defer close(release)
	u, _ := url.Parse(up.URL)
	srv := startServer(t, config{upstream: u, maxRuns: 1})

	req, _ := http.NewRequest("POST", srv.URL+"/agent", bytes.NewReader(textRun(t)))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	_, err = bufio.NewReader(resp.Body).ReadString('\n')
	require.NoError(t, err)

	status, code, _ := agentRequest(t, srv, nil, textRun(t))
	assert.Equal(t, http.StatusServiceUnavailable, status)
	assert.Equal(t, "too_many_runs", code)
}
