package relay

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// lockedBuffer is a log destination the relay's goroutines share.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// lines are the JSON log lines so far.
func (l *lockedBuffer) lines(t *testing.T) []map[string]any {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []map[string]any
	sc := bufio.NewScanner(bytes.NewReader(l.b.Bytes()))
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("a log line is not JSON: %s", sc.Bytes())
		}
		out = append(out, m)
	}
	return out
}

// TestEndpointsAnswerJSON: unknown paths answer a JSON 404, a known path
// with another method a JSON 405 with Allow; /livez, /readyz and /healthz
// (with the version).
func TestEndpointsAnswerJSON(t *testing.T) {
	up := newUpstream(t, &fakeAgent{n: 1})
	_, rs := newRelay(t, up.URL, nil, func(c *Config) { c.Version = "v9.9.9-test" })
	for _, c := range []struct {
		method, path string
		status       int
		code, allow  string
	}{
		{"GET", "/nope", 404, "not_found", ""},
		{"POST", "/", 404, "not_found", ""},
		{"GET", "/threads/a/b", 404, "not_found", ""},
		{"GET", "/agent", 405, "method_not_allowed", "POST"},
		{"PUT", "/threads/t1", 405, "method_not_allowed", "GET, DELETE"},
		{"POST", "/readyz", 405, "method_not_allowed", "GET"},
	} {
		req, _ := http.NewRequest(c.method, rs.URL+c.path, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		var e struct{ Error, Code string }
		if resp.StatusCode != c.status || json.Unmarshal(b, &e) != nil || e.Code != c.code || e.Error == "" ||
			!strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") || resp.Header.Get("Allow") != c.allow {
			t.Errorf("%s %s: %d %s %q Allow %q", c.method, c.path, resp.StatusCode, resp.Header.Get("Content-Type"), b, resp.Header.Get("Allow"))
		}
	}
	for path, want := range map[string]string{"/livez": `"status":"ok"`, "/readyz": `"status":"ready"`, "/healthz": `"version":"v9.9.9-test"`} {
		resp := get(t, rs.URL, path, nil)
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(string(b), want) {
			t.Errorf("GET %s: %d %s", path, resp.StatusCode, b)
		}
	}
}

// TestMetricsAndLogs: GET /metrics in the Prometheus text format counts
// runs by outcome and code, frames, store operations, upstream failures
// by reason and resumes; the JSON log has a timestamped access line per
// request and a line per failed run with its code and reason (HTTP 502,
// an HTML answer, a stall, a cut).
func TestMetricsAndLogs(t *testing.T) {
	var logs lockedBuffer
	logger := slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	ok := newUpstream(t, &fakeAgent{n: 3})
	_, rs := newRelay(t, ok.URL, nil, func(c *Config) { c.Logger, c.AccessLog = logger, true })
	resp := post(t, rs.URL, runInput("t1", "r1", "hi"), nil)
	fs := readFrames(resp.Body, nil)
	resp.Body.Close()
	key := resp.Header.Get(threadKeyHeader)
	// A resume of the finished run, from its middle.
	resp = post(t, rs.URL, "{}", map[string]string{"Last-Event-ID": fs[2].ID, threadKeyHeader: key})
	readFrames(resp.Body, nil)
	resp.Body.Close()

	html := newUpstream(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, "<html><body>Bad gateway</body></html>")
	}))
	for _, c := range []struct {
		upstream, code, reason string
	}{
		{newUpstream(t, &fakeAgent{n: 3, misbehave: "status"}).URL, "relay_upstream_status", "HTTP 502"},
		{html.URL, "relay_upstream_not_sse", "text/html"},
		{newUpstream(t, &fakeAgent{n: 3, misbehave: "stall"}).URL, "relay_upstream_stalled", "sent nothing for"},
		{newUpstream(t, &fakeAgent{n: 3, misbehave: "cut"}).URL, "relay_upstream_cut", "ended before the run did"},
	} {
		_, bad := newRelay(t, c.upstream, nil, func(cfg *Config) {
			cfg.Logger, cfg.AccessLog, cfg.UpstreamIdle = logger.With("upstream", c.code), true, 300*time.Millisecond
		})
		resp := post(t, bad.URL, runInput("t1", "r1", "hi"), nil)
		fs := readFrames(resp.Body, nil)
		resp.Body.Close()
		if got := eventType(fs[len(fs)-1].Data); got != "RUN_ERROR:"+c.code {
			t.Fatalf("%s: the run ended with %s", c.code, got)
		}
		found := false
		waitFor(t, "the failed run's log line", 5*time.Second, func() bool {
			for _, l := range logs.lines(t) {
				if l["msg"] == "run failed" && l["code"] == c.code && l["upstream"] == c.code {
					found = true
					if r, _ := l["reason"].(string); !strings.Contains(r, c.reason) || l["level"] != "WARN" {
						t.Errorf("%s logged %v", c.code, l)
					}
				}
			}
			return found
		})
		if c.code == "relay_upstream_status" {
			mb := metricsText(t, bad.URL)
			for _, want := range []string{
				`agui_relay_runs_ended_total{code="relay_upstream_status",outcome="error"} 1`,
				`agui_relay_upstream_failures_total{reason="status"} 1`,
			} {
				if !strings.Contains(mb, want) {
					t.Errorf("metrics lack %s", want)
				}
			}
		}
	}

	m := metricsText(t, rs.URL)
	for _, want := range []string{
		"agui_relay_runs_started_total 1",
		`agui_relay_runs_ended_total{code="none",outcome="finished"} 1`,
		"agui_relay_frames_stored_total 8",
		"agui_relay_runs_live 0",
		"agui_relay_streams_live 0",
		"agui_relay_resumes_total 1",
		`agui_relay_store_seconds_count{op="append"} 7`,
		`agui_relay_store_seconds_count{op="finish"} 1`,
		"agui_relay_upstream_response_seconds_count 1",
		"agui_relay_evicted_threads_total 0",
		`agui_relay_http_requests_total{code="200",method="POST"} 2`,
		"agui_relay_max_runs 64",
		"# TYPE agui_relay_store_seconds histogram",
		"go_goroutines ",
		"process_resident_memory_bytes ",
	} {
		if !strings.Contains(m, want) {
			t.Errorf("metrics lack %q", want)
		}
	}

	// The access lines: one per request, timestamped, with the run.
	n := 0
	for _, l := range logs.lines(t) {
		if _, ok := l["time"].(string); !ok {
			t.Fatalf("a line without a time: %v", l)
		}
		if l["msg"] == "request" && l["upstream"] == nil {
			n++
			if l["path"] == "/agent" && (l["status"] != float64(200) || l["run"] == nil || l["bytes"].(float64) <= 0) {
				t.Errorf("access line %v", l)
			}
		}
	}
	if n < 3 { // two POST /agent, one GET /metrics (this one's line comes after it)
		t.Errorf("%d access lines", n)
	}
}

func metricsText(t *testing.T, base string) string {
	t.Helper()
	resp := get(t, base, "/metrics", nil)
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain") {
		t.Fatalf("GET /metrics: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	return string(b)
}
