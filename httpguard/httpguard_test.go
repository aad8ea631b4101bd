package httpguard

import (
	"bytes"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestHosts(t *testing.T) {
	def, err := ParseHosts(nil)
	require.NoError(t, err)
	ext, err := ParseHosts([]string{"demo.example", " *.corp.test:8080"})
	require.NoError(t, err)
	for _, c := range []struct {
		host     string
		def, ext bool
	}{
		{"localhost:8080", true, true},
		{"LOCALHOST.", true, true},
		{"app.localhost:3000", true, true},
		{"127.0.0.1:8080", true, true},
		{"[::1]:8080", true, true},
		{"192.168.1.20:8080", true, true}, // an IP literal cannot be rebound
		{"attacker.example:8080", false, false},
		{"localhost.attacker.example", false, false},
		{"demo.example:8080", false, true},
		{"a.corp.test", false, true},
		{"a.b.corp.test", false, true},
		{"corp.test", false, false},
		{"xcorp.test", false, false},
		{"", false, false},
	} {
		assert.Equal(t, c.def, def.Allows(c.host), "default allows %q", c.host)
		assert.Equal(t, c.ext, ext.Allows(c.host), "the list allows %q", c.host)
	}
	for _, bad := range []string{"http://x/", "*", "*.", "*example.com", "a.*.b", "*.*.b", "a..b", ".b"} {
		_, err = ParseHosts([]string{bad})
		assert.Error(t, err, "a host pattern that never matches is refused: %q", bad)
	}
}

func TestOrigins(t *testing.T) {
	for _, c := range []struct {
		in   []string
		want []string
		any  bool
	}{
		{nil, nil, false},
		{[]string{"http://localhost:5173"}, []string{"http://localhost:5173"}, false},
		{[]string{"HTTP://LocalHost:5173/"}, []string{"http://localhost:5173"}, false},
		{[]string{"http://a.test:80", " https://b.test:443"}, []string{"http://a.test", "https://b.test"}, false},
		{[]string{"http://[::1]:3000"}, []string{"http://[::1]:3000"}, false},
		{[]string{"*"}, nil, true},
	} {
		p, err := ParseOrigins(c.in)
		require.NoError(t, err, c.in)
		assert.Equal(t, c.any, p.any, c.in)
		assert.Len(t, p.origins, len(c.want), c.in)
		for _, o := range c.want {
			assert.True(t, p.Allows(o), "%s allows %s", c.in, o)
		}
		assert.Equal(t, c.any || len(c.want) > 0, p.Enabled(), c.in)
	}
	for _, bad := range []string{"localhost:5173", "ftp://x", "http://x/app", "http://x?a", "http://u@x", "http://"} {
		_, err := ParseOrigins([]string{bad})
		assert.Error(t, err, bad)
	}
	p, _ := ParseOrigins([]string{"*"})
	assert.False(t, p.Allows("null"), "opaque origins never")
	assert.False(t, p.Allows(""))
}

// TestGuard: requests from the server's own pages and from non-browser
// clients pass; a page of another origin is refused by Origin or by
// Sec-Fetch-Site, unless allowed, and then it may read the answer; a
// preflight is answered for allowed origins only; a Host not on the list
// is refused before anything else.
func TestGuard(t *testing.T) {
	const self = "http://127.0.0.1:8080"
	origins, _ := ParseOrigins([]string{"http://localhost:5173"})
	g := &Guard{Origins: origins, Methods: "POST", AllowHeaders: []string{"Content-Type", "Last-Event-ID"}, ExposeHeaders: []string{"X-Agui-Run"}}
	h := g.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(200) }))
	do := func(method, host string, hdr map[string]string) *httptest.ResponseRecorder {
		r := httptest.NewRequest(method, "http://"+host+"/agent", nil)
		for k, v := range hdr {
			r.Header.Set(k, v)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}
	for _, c := range []struct {
		name string
		hdr  map[string]string
		ok   bool
	}{
		{"no browser headers (curl)", nil, true},
		{"own origin", map[string]string{"Origin": self, "Sec-Fetch-Site": "same-origin"}, true},
		{"own origin, no fetch metadata", map[string]string{"Origin": self}, true},
		{"typed URL (Sec-Fetch-Site: none)", map[string]string{"Sec-Fetch-Site": "none"}, true},
		{"allowed origin", map[string]string{"Origin": "http://localhost:5173", "Sec-Fetch-Site": "same-site"}, true},
		{"other origin", map[string]string{"Origin": "http://evil.test"}, false},
		{"other port", map[string]string{"Origin": "http://127.0.0.1:18080"}, false},
		{"localhost for 127.0.0.1", map[string]string{"Origin": "http://localhost:8080"}, false},
		{"opaque origin", map[string]string{"Origin": "null"}, false},
		{"cross-site, no Origin", map[string]string{"Sec-Fetch-Site": "cross-site"}, false},
		{"same-site, no Origin", map[string]string{"Sec-Fetch-Site": "same-site"}, false},
		{"own origin claimed cross-site", map[string]string{"Origin": self, "Sec-Fetch-Site": "cross-site"}, false},
	} {
		w := do("POST", "127.0.0.1:8080", c.hdr)
		if c.ok {
			assert.Equal(t, 200, w.Code, c.name)
		} else {
			assert.Equal(t, 403, w.Code, c.name)
			assert.Contains(t, w.Body.String(), `"code":"cross_origin"`, c.name)
		}
		assert.Equal(t, c.hdr["Origin"] == "http://localhost:5173", w.Header().Get("Access-Control-Allow-Origin") != "", c.name)
	}
	w := do("POST", "127.0.0.1:8080", map[string]string{"Origin": "http://localhost:5173"})
	assert.Equal(t, "X-Agui-Run", w.Header().Get("Access-Control-Expose-Headers"))

	preflight := map[string]string{"Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type"}
	w = do("OPTIONS", "127.0.0.1:8080", map[string]string{"Origin": "http://localhost:5173", "Access-Control-Request-Method": "POST"})
	assert.Equal(t, http.StatusNoContent, w.Code)
	assert.Equal(t, "http://localhost:5173", w.Header().Get("Access-Control-Allow-Origin"))
	assert.Equal(t, "POST", w.Header().Get("Access-Control-Allow-Methods"))
	assert.Equal(t, "Content-Type, Last-Event-ID", w.Header().Get("Access-Control-Allow-Headers"))
	assert.Empty(t, w.Header().Get("Access-Control-Allow-Credentials"), "no cookies across origins")
	assert.Contains(t, w.Header().Values("Vary"), "Origin")
	for _, other := range []string{"http://localhost:5174", "https://localhost:5173", "http://evil.test", "null", ""} {
		hdr := map[string]string{"Origin": other}
		for k, v := range preflight {
			hdr[k] = v
		}
		w := do("OPTIONS", "127.0.0.1:8080", hdr)
		assert.Equal(t, http.StatusForbidden, w.Code, other)
		assert.Empty(t, w.Header().Get("Access-Control-Allow-Origin"), other)
	}

	w = do("POST", "attacker.example:8080", nil)
	assert.Equal(t, http.StatusForbidden, w.Code)
	assert.Contains(t, w.Body.String(), `"code":"host_not_allowed"`)
}

// TestReadJSON: a cross-site form or a no-cors fetch can only send
// text/plain, form or multipart bodies without a preflight, so JSON is
// required; a body over the bound is refused whether its length is
// declared or not.
func TestReadJSON(t *testing.T) {
	read := func(ct string, body io.Reader, length int64) (*httptest.ResponseRecorder, []byte) {
		r := httptest.NewRequest("POST", "/agent", body)
		r.ContentLength = length
		r.Header.Set("Content-Type", ct)
		w := httptest.NewRecorder()
		b, ok := ReadJSON(w, r, 100, "a RunAgentInput")
		if ok {
			w.WriteHeader(200)
		}
		return w, b
	}
	for _, ct := range []string{"text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "", "application/jsonx"} {
		w, _ := read(ct, strings.NewReader("{}"), 2)
		assert.Equal(t, http.StatusUnsupportedMediaType, w.Code, ct)
		assert.Contains(t, w.Body.String(), "unsupported_media_type")
	}
	w, b := read("application/json; charset=utf-8", strings.NewReader("{}"), 2)
	assert.Equal(t, 200, w.Code)
	assert.Equal(t, "{}", string(b))
	big := bytes.Repeat([]byte("x"), 101)
	for _, length := range []int64{101, -1} {
		w, _ := read("application/json", bytes.NewReader(big), length)
		assert.Equal(t, http.StatusRequestEntityTooLarge, w.Code, length)
		assert.Contains(t, w.Body.String(), `"code":"too_large"`)
	}
}

// TestServerTimeouts: the server cuts a client that sends its headers
// slowly (slowloris); there is no write timeout, so a stream outlives the
// read timeout.
func TestServerTimeouts(t *testing.T) {
	hs := NewServer(http.NotFoundHandler())
	assert.Positive(t, hs.ReadHeaderTimeout)
	assert.Positive(t, hs.ReadTimeout)
	assert.Positive(t, hs.IdleTimeout)
	assert.Zero(t, hs.WriteTimeout, "streams last as long as the run")

	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for i := range 4 {
			w.Write([]byte("data: " + string(rune('0'+i)) + "\n\n"))
			http.NewResponseController(w).Flush()
			time.Sleep(100 * time.Millisecond)
		}
	}))
	srv.Config = NewServer(srv.Config.Handler)
	// Shortened so the test does not wait: the behaviour, not the figures.
	srv.Config.ReadHeaderTimeout = 150 * time.Millisecond
	srv.Config.ReadTimeout = 150 * time.Millisecond
	srv.Start()
	defer srv.Close()

	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	require.NoError(t, err)
	defer conn.Close()
	_, err = conn.Write([]byte("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "))
	require.NoError(t, err)
	require.NoError(t, conn.SetReadDeadline(time.Now().Add(20*time.Second))) // a guard, not a measure
	_, err = io.ReadAll(conn)
	assert.NoError(t, err, "the server closed the connection (EOF), not the guard")

	resp, err := http.Get(srv.URL)
	require.NoError(t, err)
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	assert.Equal(t, 4, strings.Count(string(raw), "data: "), "every frame arrived")
}

func TestParseHeaderNames(t *testing.T) {
	got, err := ParseHeaderNames([]string{"authorization", " x-api-key ", ""})
	require.NoError(t, err)
	assert.Equal(t, []string{"Authorization", "X-Api-Key"}, got)
	_, err = ParseHeaderNames([]string{"bad header"})
	assert.Error(t, err)
	assert.Equal(t, []string{"a", "b"}, SplitList(" a, ,b,"))
}

// TestVaryOnce: an answer that passes two Origin guards (a server's and its
// embedded relay's) names each Vary field once; Vary keeps other names.
func TestVaryOnce(t *testing.T) {
	origins, err := ParseOrigins([]string{"http://localhost:5173"})
	require.NoError(t, err)
	g := &Guard{Origins: origins, Methods: "POST"}
	h := g.Origin(g.Origin(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		Vary(w.Header(), "accept-encoding")
		Vary(w.Header(), "Accept-Encoding")
		w.WriteHeader(http.StatusOK)
	})))
	for _, method := range []string{"POST", "OPTIONS"} {
		r := httptest.NewRequest(method, "http://127.0.0.1:8080/agent", nil)
		r.Header.Set("Origin", "http://localhost:5173")
		r.Header.Set("Access-Control-Request-Method", "POST")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		want := []string{"Origin", "accept-encoding"}
		if method == "OPTIONS" {
			want = []string{"Origin", "Access-Control-Request-Method", "Access-Control-Request-Headers"}
		}
		assert.Equal(t, want, w.Header().Values("Vary"), method)
	}
	hdr := http.Header{"Vary": {"Accept-Encoding, origin"}}
	Vary(hdr, "Origin")
	assert.Equal(t, []string{"Accept-Encoding, origin"}, hdr.Values("Vary"))
}
