package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// The command as an operator runs it: -version, the environment,
// JSON logs with timestamps and access lines, the admin listener.

// opsRelay starts the relay with env and args; it returns the process
// and the URLs it printed (the main one, the admin one when asked).
func opsRelay(t *testing.T, env []string, args ...string) (p *proc, main, admin string) {
	t.Helper()
	bin, _ := binaries(t)
	cmd := exec.Command(bin, append([]string{"-addr", "127.0.0.1:0", "-store", "memory:"}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	p = &proc{cmd: cmd, log: &bytes.Buffer{}, mu: &sync.Mutex{}, done: make(chan struct{})}
	cmd.Stderr = lockedWriter{p}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string, 8)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			select {
			case lines <- sc.Text():
			default:
			}
		}
		cmd.Wait()
		close(p.done)
	}()
	t.Cleanup(p.kill)
	want := 1
	if strings.Contains(strings.Join(args, " "), "-admin-addr") {
		want = 2
	}
	for got := 0; got < want; {
		select {
		case l := <-lines:
			switch {
			case strings.HasPrefix(l, "agui-relay: listening on "):
				main = strings.TrimSuffix(strings.TrimPrefix(l, "agui-relay: listening on "), "/")
				got++
			case strings.HasPrefix(l, "agui-relay: admin on "):
				admin = strings.TrimSuffix(strings.TrimPrefix(l, "agui-relay: admin on "), "/")
				got++
			}
		case <-p.done:
			t.Fatalf("the relay exited: %s", p.logs())
		case <-time.After(30 * time.Second):
			t.Fatalf("the relay printed no URL: %s", p.logs())
		}
	}
	return p, main, admin
}

func getBody(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	return resp.StatusCode, string(b)
}

// TestVersion: -version prints the version set at build time, which
// /healthz, /livez and the build_info metric report too.
func TestVersion(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "agui-relay")
	cmd := exec.Command("go", "build", "-ldflags", "-X main.version=v1.2.3-test", "-o", bin, ".")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v %s", err, out)
	}
	out, err := exec.Command(bin, "-version").Output()
	if err != nil || strings.TrimSpace(string(out)) != "agui-relay v1.2.3-test" {
		t.Fatalf("-version: %q %v", out, err)
	}
	// Without -X, a version from the build information.
	plain, _ := binaries(t)
	if out, err := exec.Command(plain, "-version").Output(); err != nil || !strings.HasPrefix(string(out), "agui-relay ") || len(out) < len("agui-relay x\n") {
		t.Fatalf("-version of a plain build: %q %v", out, err)
	}
	_, a, _ := opsRelay(t, nil, "-upstream", "http://127.0.0.1:1/agent")
	if st, b := getBody(t, a+"/healthz"); st != 200 || !strings.Contains(b, `"version":"`) {
		t.Fatalf("/healthz: %d %s", st, b)
	}
	if st, b := getBody(t, a+"/metrics"); st != 200 || !strings.Contains(b, `agui_relay_build_info{version="`) {
		t.Fatalf("/metrics: %d %.200s", st, b)
	}
}

// TestEnvironment: every flag is settable as AGUI_RELAY_<FLAG>; a flag on
// the command line wins; a value the flag refuses stops the start, naming
// the variable; JSON logs have timestamps, levels and an access line.
func TestEnvironment(t *testing.T) {
	p, a, _ := opsRelay(t, []string{"AGUI_RELAY_UPSTREAM=http://127.0.0.1:1/agent", "AGUI_RELAY_MAX_RUNS=3",
		"AGUI_RELAY_MAX_CONNS=7", "AGUI_RELAY_LOG_FORMAT=json", "AGUI_RELAY_ACCESS_LOG=true"}, "-max-conns", "9")
	_, m := getBody(t, a+"/metrics")
	if !strings.Contains(m, "agui_relay_max_runs 3\n") || !strings.Contains(m, "agui_relay_max_streams 9\n") {
		t.Fatalf("-max-runs from the environment, -max-conns from the flag: %s", grep(m, "agui_relay_max_"))
	}
	getBody(t, a+"/livez")
	var access, started bool
	for range 50 {
		access, started = false, false
		for _, l := range strings.Split(strings.TrimSpace(p.logs()), "\n") {
			var m map[string]any
			if err := json.Unmarshal([]byte(l), &m); err != nil {
				t.Fatalf("a log line is not JSON: %q", l)
			}
			if _, err := time.Parse(time.RFC3339Nano, m["time"].(string)); err != nil || m["level"] == nil {
				t.Fatalf("a log line without a time or a level: %q", l)
			}
			access = access || m["msg"] == "request" && m["path"] == "/livez" && m["status"] == float64(200)
			started = started || m["msg"] == "started" && m["version"] != nil
		}
		if access && started {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if !access || !started {
		t.Fatalf("no access line or start line: %s", p.logs())
	}

	bin, _ := binaries(t)
	for _, env := range []string{"AGUI_RELAY_LEASE=forever", "AGUI_RELAY_MAX_RUNS=many", "AGUI_RELAY_KEYLESS_RUNS=perhaps"} {
		cmd := exec.Command(bin, "-upstream", "http://127.0.0.1:1/agent", "-store", "memory:")
		cmd.Env = append(os.Environ(), env)
		out, err := cmd.CombinedOutput()
		name, _, _ := strings.Cut(env, "=")
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || !strings.Contains(string(out), name) {
			t.Errorf("%s: %v %s", env, err, out)
		}
	}
	cmd := exec.Command(bin, "-upstream", "http://127.0.0.1:1/agent", "-store", "memory:", "-log-format", "xml")
	if out, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), "-log-format") {
		t.Errorf("-log-format xml: %v %s", err, out)
	}
}

func grep(s, sub string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// TestAdminListener: -admin-addr serves the metrics, the probes and
// pprof; /metrics is then not on the public address.
func TestAdminListener(t *testing.T) {
	_, a, adm := opsRelay(t, nil, "-upstream", "http://127.0.0.1:1/agent", "-admin-addr", "127.0.0.1:0")
	for path, want := range map[string]string{
		"/metrics":                       "agui_relay_runs_started_total 0",
		"/debug/pprof/":                  "goroutine",
		"/debug/pprof/goroutine?debug=1": "goroutine profile",
		"/livez":                         `"status":"ok"`,
		"/readyz":                        `"status":"ready"`,
	} {
		if st, b := getBody(t, adm+path); st != 200 || !strings.Contains(b, want) {
			t.Errorf("admin %s: %d %.200s", path, st, b)
		}
	}
	if st, b := getBody(t, a+"/metrics"); st != 404 || !strings.Contains(b, `"code":"not_found"`) {
		t.Errorf("public /metrics with -admin-addr: %d %s", st, b)
	}
	if st, _ := getBody(t, a+"/debug/pprof/"); st != 404 {
		t.Errorf("public pprof: %d", st)
	}
}
