package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// corsRequest sends method to path with an Origin and returns the response.
func corsRequest(t *testing.T, srv *httptest.Server, method, path, origin string, hdr map[string]string, body []byte) *http.Response {
	t.Helper()
	req, err := http.NewRequest(method, srv.URL+path, bytes.NewReader(body))
	require.NoError(t, err)
	if origin != "" {
		req.Header.Set("Origin", origin)
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp
}

// TestCORSOffByDefault: with no -cors, a preflight is refused with no CORS
// headers, so a browser keeps other origins' pages from using /agent.
func TestCORSOffByDefault(t *testing.T) {
	srv := startServer(t, config{})
	preflight := map[string]string{"Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type"}
	resp := corsRequest(t, srv, "OPTIONS", "/agent", "http://localhost:5173", preflight, nil)
	assert.Equal(t, http.StatusForbidden, resp.StatusCode)
	assert.Empty(t, resp.Header.Get("Access-Control-Allow-Origin"))
	assert.Empty(t, resp.Header.Get("Access-Control-Allow-Methods"))
}

// TestCORSAllowedOrigin: with -cors ORIGIN, the preflight for that origin
// is answered with the headers a browser needs, the answer to its POST
// carries Access-Control-Allow-Origin, and other origins get nothing.
func TestCORSAllowedOrigin(t *testing.T) {
	const origin = "http://localhost:5173"
	srv := startServer(t, config{corsOrigins: []string{origin}})

	preflight := map[string]string{"Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type, accept"}
	resp := corsRequest(t, srv, "OPTIONS", "/agent", origin, preflight, nil)
	assert.Equal(t, http.StatusNoContent, resp.StatusCode)
	assert.Equal(t, origin, resp.Header.Get("Access-Control-Allow-Origin"))
	assert.Contains(t, resp.Header.Get("Access-Control-Allow-Methods"), "POST")
	allowH := strings.ToLower(resp.Header.Get("Access-Control-Allow-Headers"))
	for _, h := range []string{"content-type", "accept", "last-event-id"} {
		assert.Contains(t, allowH, h)
	}
	assert.Empty(t, resp.Header.Get("Access-Control-Allow-Credentials"), "no cookies across origins")
	assert.Contains(t, resp.Header.Values("Vary"), "Origin")

	body, _ := json.Marshal(userInput("t", "r", "hi", map[string]any{"scenario": "text"}))
	resp = corsRequest(t, srv, "POST", "/agent", origin, map[string]string{"Content-Type": "application/json"}, body)
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, origin, resp.Header.Get("Access-Control-Allow-Origin"))
	assert.Contains(t, resp.Header.Get("Access-Control-Expose-Headers"), "X-Agui-Scenario")

	resp = corsRequest(t, srv, "OPTIONS", "/scenarios", origin, map[string]string{"Access-Control-Request-Method": "GET"}, nil)
	assert.Equal(t, http.StatusNoContent, resp.StatusCode)
	assert.Contains(t, resp.Header.Get("Access-Control-Allow-Methods"), "GET")
	resp = corsRequest(t, srv, "GET", "/scenarios", origin, nil, nil)
	assert.Equal(t, origin, resp.Header.Get("Access-Control-Allow-Origin"))

	for _, other := range []string{"http://localhost:5174", "https://localhost:5173", "http://evil.test", "null"} {
		resp := corsRequest(t, srv, "OPTIONS", "/agent", other, preflight, nil)
		assert.Equal(t, http.StatusForbidden, resp.StatusCode, other)
		assert.Empty(t, resp.Header.Get("Access-Control-Allow-Origin"), other)
	}
}

// TestCORSProxyHeaders: with -upstream, the upstream's own CORS headers
// never reach the browser; this server's policy does.
func TestCORSProxyHeaders(t *testing.T) {
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Access-Control-Allow-Origin", "*")
		w.Header().Set("Access-Control-Allow-Credentials", "true")
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write([]byte("data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n"))
	}))
	defer up.Close()
	u, _ := url.Parse(up.URL)
	body, _ := json.Marshal(userInput("t", "r", "hi", nil))
	hdr := map[string]string{"Content-Type": "application/json"}

	srv := startServer(t, config{upstream: u})
	resp := corsRequest(t, srv, "POST", "/agent", "", hdr, body)
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Empty(t, resp.Header.Values("Access-Control-Allow-Origin"))
	assert.Empty(t, resp.Header.Values("Access-Control-Allow-Credentials"))

	srv = startServer(t, config{upstream: u, corsOrigins: []string{"http://localhost:5173"}})
	resp = corsRequest(t, srv, "POST", "/agent", "http://localhost:5173", hdr, body)
	assert.Equal(t, []string{"http://localhost:5173"}, resp.Header.Values("Access-Control-Allow-Origin"))
	assert.Empty(t, resp.Header.Values("Access-Control-Allow-Credentials"))
}

// TestWebDir: -web DIR serves DIR at /, its index.html included; the demo
// page's redirect applies only to a folder that has demo/index.html and no
// index.html of its own.
func TestWebDir(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "index.html"), []byte("<!doctype html><title>app</title>"), 0o644))
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "assets"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "assets", "app-1234.js"), []byte("export {}"), 0o644))
	srv := startServer(t, config{webDir: dir})
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	get := func(p string) (*http.Response, string) {
		resp, err := client.Get(srv.URL + p)
		require.NoError(t, err)
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, string(b)
	}
	resp, body := get("/")
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Contains(t, body, "<title>app</title>")
	assert.Equal(t, "text/html; charset=utf-8", resp.Header.Get("Content-Type"))
	resp, body = get("/assets/app-1234.js")
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, "export {}", body)
	resp, _ = get("/demo/")
	assert.Equal(t, http.StatusNotFound, resp.StatusCode)

	// An empty folder: nothing at /, no listing, no redirect.
	srv = startServer(t, config{webDir: t.TempDir()})
	resp, err := client.Get(srv.URL + "/")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusNotFound, resp.StatusCode)

	// -csp off: no policy on the pages (an app with inline scripts).
	srv = startServer(t, config{webDir: dir, csp: "off"})
	resp, err = client.Get(srv.URL + "/")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Empty(t, resp.Header.Get("Content-Security-Policy"))
}

// TestVaryOriginOnce: /agent passes the server's guard and then its
// embedded relay's; the answer names Origin in Vary once, for the page's
// own origin, an allowed one and a preflight alike.
func TestVaryOriginOnce(t *testing.T) {
	const origin = "http://localhost:5173"
	srv := startServer(t, config{corsOrigins: []string{origin}})
	body, _ := json.Marshal(userInput("t", "r", "hi", map[string]any{"scenario": "text"}))
	jsonHdr := map[string]string{"Content-Type": "application/json"}
	for _, c := range []struct {
		name, method, origin string
		hdr                  map[string]string
		body                 []byte
	}{
		{"same origin", "POST", srv.URL, jsonHdr, body},
		{"no Origin", "POST", "", jsonHdr, body},
		{"allowed origin", "POST", origin, jsonHdr, body},
		{"preflight", "OPTIONS", origin, map[string]string{"Access-Control-Request-Method": "POST"}, nil},
	} {
		resp := corsRequest(t, srv, c.method, "/agent", c.origin, c.hdr, c.body)
		assert.Less(t, resp.StatusCode, 300, c.name)
		n := 0
		for _, v := range resp.Header.Values("Vary") {
			for _, f := range strings.Split(v, ",") {
				if strings.EqualFold(strings.TrimSpace(f), "Origin") {
					n++
				}
			}
		}
		assert.Equal(t, 1, n, "%s: Vary %q", c.name, resp.Header.Values("Vary"))
	}
}
