package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agui-reducer/agui/reducer"
	"github.com/agui-reducer/agui/relay/redistest"
)

// The relay as processes: two instances on one Redis, SIGKILLed mid-run;
// Redis restarted mid-run; the embedded store across a SIGKILL. The
// upstream is cmd/agui-demo replaying its recorded "text" run.

var (
	buildOnce sync.Once
	binDir    string
	buildErr  error
)

// binaries builds agui-relay and agui-demo once per test process.
func binaries(t *testing.T) (relay, demo string) {
	t.Helper()
	buildOnce.Do(func() {
		binDir, buildErr = os.MkdirTemp("", "agui-relay-test")
		if buildErr != nil {
			return
		}
		goBin, err := exec.LookPath("go")
		if err != nil {
			goBin = filepath.Join(runtime.GOROOT(), "bin", "go")
		}
		for _, p := range []string{"agui-relay", "agui-demo"} {
			cmd := exec.Command(goBin, "build", "-o", filepath.Join(binDir, p), "./cmd/"+p)
			cmd.Dir = moduleRoot(t)
			if out, err := cmd.CombinedOutput(); err != nil {
				buildErr = fmt.Errorf("go build %s: %v\n%s", p, err, out)
				return
			}
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return filepath.Join(binDir, "agui-relay"), filepath.Join(binDir, "agui-demo")
}

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

func moduleRoot(t *testing.T) string {
	dir, _ := os.Getwd()
	return filepath.Dir(filepath.Dir(dir)) // cmd/agui-relay → the module
}

// proc is a started process that printed its URL.
type proc struct {
	cmd  *exec.Cmd
	URL  string
	log  *bytes.Buffer
	mu   *sync.Mutex
	done chan struct{}
}

// start runs bin with args and waits for the line "<prefix>http://…/".
func start(t *testing.T, dir, bin, prefix string, args ...string) *proc {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	p := &proc{cmd: cmd, log: &bytes.Buffer{}, mu: &sync.Mutex{}, done: make(chan struct{})}
	cmd.Stderr = lockedWriter{p}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	urls := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if line := sc.Text(); strings.HasPrefix(line, prefix) {
				select {
				case urls <- strings.TrimSuffix(strings.TrimPrefix(line, prefix), "/"):
				default:
				}
			}
		}
		cmd.Wait()
		close(p.done)
	}()
	t.Cleanup(func() { p.kill() })
	select {
	case p.URL = <-urls:
	case <-p.done:
		t.Fatalf("%s exited: %s", bin, p.logs())
	case <-time.After(30 * time.Second):
		t.Fatalf("%s printed no URL: %s", bin, p.logs())
	}
	return p
}

type lockedWriter struct{ p *proc }

func (w lockedWriter) Write(b []byte) (int, error) {
	w.p.mu.Lock()
	defer w.p.mu.Unlock()
	return w.p.log.Write(b)
}

func (p *proc) logs() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.log.String()
}

// kill sends SIGKILL and waits for the process to go.
func (p *proc) kill() {
	if p.cmd.Process != nil {
		p.cmd.Process.Kill()
		<-p.done
	}
}

func startDemo(t *testing.T, speed string) *proc {
	_, demo := binaries(t)
	return start(t, moduleRoot(t), demo, "agui-demo: open ", "-addr", "127.0.0.1:0", "-speed", speed, "-scenario", "text", "-resume-grace", "60s")
}

func startRelay(t *testing.T, upstream, store string, extra ...string) *proc {
	relay, _ := binaries(t)
	args := append([]string{"-addr", "127.0.0.1:0", "-upstream", upstream + "/agent", "-store", store,
		"-lease", "2s", "-grace", "20s", "-store-timeout", "5s"}, extra...)
	return start(t, t.TempDir(), relay, "agui-relay: listening on ", args...)
}

type frame struct{ ID, Data string }

// client talks to relays with one thread key.
type client struct {
	t   *testing.T
	key string
}

func newClient(t *testing.T) *client {
	b := make([]byte, 22)
	for i := range b {
		b[i] = "abcdefghijklmnopqrstuvwxyzABCDEF"[time.Now().UnixNano()>>uint(i%8)&31]
	}
	return &client{t: t, key: fmt.Sprintf("%s%06d", string(b[:16]), time.Now().UnixNano()%1000000)}
}

func (c *client) do(method, url, body string, hdr map[string]string) *http.Response {
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("X-Agui-Thread-Key", c.key)
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	return resp
}

const input = `{"threadId":"t1","runId":"r1","messages":[{"id":"u1","role":"user","content":"hello"}],"forwardedProps":{"scenario":"text"}}`

// read reads frames until the body ends, n frames came, or the deadline.
func read(t *testing.T, resp *http.Response, n int, deadline time.Duration) ([]frame, bool) {
	t.Helper()
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("status %d: %s", resp.StatusCode, b)
	}
	timer := time.AfterFunc(deadline, func() { resp.Body.Close() })
	defer timer.Stop()
	var out []frame
	var cur frame
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 8<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if cur.Data != "" {
				out = append(out, cur)
				if len(out) == n {
					return out, false
				}
			}
			cur = frame{}
		case strings.HasPrefix(line, "id: "):
			cur.ID = line[4:]
		case strings.HasPrefix(line, "data: "):
			cur.Data = line[6:]
		}
	}
	return out, !timer.Stop()
}

func typeOf(data string) string {
	var h struct{ Type, Code string }
	json.Unmarshal([]byte(data), &h)
	if h.Code != "" {
		return h.Type + ":" + h.Code
	}
	return h.Type
}

// checkSeq checks that frames are numbered 1..n, each once, in one run.
func checkSeq(t *testing.T, fs []frame) {
	t.Helper()
	run := ""
	for i, f := range fs {
		k, s, _ := strings.Cut(f.ID, ":")
		if run == "" {
			run = k
		}
		if k != run || s != strconv.Itoa(i+1) {
			t.Fatalf("frame %d has id %q (want %s:%d): a gap or a duplicate", i, f.ID, run, i+1)
		}
	}
}

// fold folds frames without their timestamps (the demo stamps events when
// it sends them) and returns the messages and state.
func fold(fs []frame) string {
	r := reducer.New(reducer.Options{})
	for _, f := range fs {
		var m map[string]any
		json.Unmarshal([]byte(f.Data), &m)
		delete(m, "timestamp")
		b, _ := json.Marshal(m)
		r.Apply(b)
	}
	st, _ := json.Marshal(r.State().State)
	return string(r.AppendMessages(nil)) + " " + string(st)
}

// reference is the uninterrupted run, through the relay.
func reference(t *testing.T, relayURL string) string {
	c := newClient(t)
	fs, _ := read(t, c.do("POST", relayURL+"/agent", input, nil), -1, 60*time.Second)
	if typeOf(fs[len(fs)-1].Data) != "RUN_FINISHED" {
		t.Fatalf("reference run ended with %s", fs[len(fs)-1].Data)
	}
	return fold(fs)
}

// TestTwoInstancesClientKilled: a client reads a run produced on A through
// B; B is SIGKILLed; the client resumes on A and ends with exactly the
// uninterrupted run's state, every frame once.
func TestTwoInstancesClientKilled(t *testing.T) {
	rd := redistest.Start(t, false)
	demo := startDemo(t, "1")
	a := startRelay(t, demo.URL, rd.URL())
	b := startRelay(t, demo.URL, rd.URL())
	want := reference(t, a.URL)

	c := newClient(t)
	got, _ := read(t, c.do("POST", a.URL+"/agent", input, nil), 5, 30*time.Second)
	more, _ := read(t, c.do("POST", b.URL+"/agent", "{}", map[string]string{"Last-Event-ID": got[len(got)-1].ID}), 10, 30*time.Second)
	got = append(got, more...)
	b.kill()
	rest, _ := read(t, c.do("POST", a.URL+"/agent", "{}", map[string]string{"Last-Event-ID": got[len(got)-1].ID}), -1, 60*time.Second)
	got = append(got, rest...)
	checkSeq(t, got)
	if typeOf(got[len(got)-1].Data) != "RUN_FINISHED" {
		t.Fatalf("ended with %s", got[len(got)-1].Data)
	}
	if g := fold(got); g != want {
		t.Fatalf("resumed run folds to\n%s\nthe uninterrupted one to\n%s", g, want)
	}
}

// TestTwoInstancesCluster: two instances on a Redis Cluster (3 masters, 3
// replicas): a run read on A, resumed on B after a coordinated failover
// of every master, ends with exactly the uninterrupted run's state, every
// frame once; the thread loads from either.
func TestTwoInstancesCluster(t *testing.T) {
	rc := redistest.StartCluster(t, 3, 1)
	demo := startDemo(t, "1")
	a := startRelay(t, demo.URL, rc.URL())
	b := startRelay(t, demo.URL, rc.URL())
	want := reference(t, a.URL)

	c := newClient(t)
	got, _ := read(t, c.do("POST", a.URL+"/agent", input, nil), 5, 30*time.Second)
	for _, addr := range rc.Addrs()[:3] {
		rc.Failover(addr)
	}
	rest, _ := read(t, c.do("POST", b.URL+"/agent", "{}", map[string]string{"Last-Event-ID": got[len(got)-1].ID}), -1, 60*time.Second)
	got = append(got, rest...)
	checkSeq(t, got)
	if typeOf(got[len(got)-1].Data) != "RUN_FINISHED" {
		t.Fatalf("ended with %s", got[len(got)-1].Data)
	}
	if g := fold(got); g != want {
		t.Fatalf("resumed run folds to\n%s\nthe uninterrupted one to\n%s", g, want)
	}
	for _, r := range []string{a.URL, b.URL} {
		resp := c.do("GET", r+"/threads/t1", "", nil)
		body, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 200 || !strings.Contains(string(body), `"content":"hello"`) {
			t.Fatalf("thread from %s: %d %s", r, resp.StatusCode, body)
		}
	}
}

// TestTwoInstancesProducerKilled: the instance producing a run is
// SIGKILLed while a client reads the run through the other: the client's
// stream ends with RUN_ERROR relay_producer_lost (within the lease, 2 s,
// plus a read), and the log up to that point stays readable there.
func TestTwoInstancesProducerKilled(t *testing.T) {
	rd := redistest.Start(t, false)
	demo := startDemo(t, "1")
	a := startRelay(t, demo.URL, rd.URL())
	b := startRelay(t, demo.URL, rd.URL())
	c := newClient(t)
	got, _ := read(t, c.do("POST", a.URL+"/agent", input, nil), 5, 30*time.Second)
	resp := c.do("POST", b.URL+"/agent", "{}", map[string]string{"Last-Event-ID": got[len(got)-1].ID})
	time.Sleep(300 * time.Millisecond)
	a.kill()
	killed := time.Now()
	rest, cut := read(t, resp, -1, 30*time.Second)
	if cut {
		t.Fatal("the stream hung after its producer was killed")
	}
	t.Logf("the run ended %v after its producer was killed", time.Since(killed).Round(10*time.Millisecond))
	got = append(got, rest...)
	checkSeq(t, got)
	if typeOf(got[len(got)-1].Data) != "RUN_ERROR:relay_producer_lost" {
		t.Fatalf("ended with %s", got[len(got)-1].Data)
	}
	// The log stays readable: the whole run from B, and the thread.
	all, _ := read(t, c.do("POST", b.URL+"/agent", "{}", map[string]string{"Last-Event-ID": strings.Split(got[0].ID, ":")[0] + ":0"}), -1, 10*time.Second)
	if len(all) != len(got) || all[len(all)-1] != got[len(got)-1] {
		t.Fatalf("the log after the loss has %d frames, the client saw %d", len(all), len(got))
	}
	resp = c.do("GET", b.URL+"/threads/t1", "", nil)
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"run":null`) || !strings.Contains(string(body), `"content":"hello"`) {
		t.Fatalf("thread after the loss: %d %s", resp.StatusCode, body)
	}
}

// TestRedisRestart: Redis (with its append-only file) is killed and
// restarted mid-run: the run goes on, no frame comes twice, and it ends
// with the uninterrupted run's state.
func TestRedisRestart(t *testing.T) {
	rd := redistest.Start(t, true)
	demo := startDemo(t, "1")
	a := startRelay(t, demo.URL, rd.URL(), "-lease", "3s")
	want := reference(t, a.URL)
	c := newClient(t)
	resp := c.do("POST", a.URL+"/agent", input, nil)
	var got []frame
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		got, _ = read(t, resp, -1, 60*time.Second)
	}()
	time.Sleep(400 * time.Millisecond)
	rd.Restart(200 * time.Millisecond)
	wg.Wait()
	checkSeq(t, got)
	last := typeOf(got[len(got)-1].Data)
	switch {
	case last == "RUN_FINISHED":
		if g := fold(got); g != want {
			t.Fatalf("run across the restart folds to\n%s\nthe uninterrupted one to\n%s", g, want)
		}
	case strings.HasPrefix(last, "RUN_ERROR:relay_"):
		t.Logf("the run ended with %s", last) // a clear outcome, documented
	default:
		t.Fatalf("ended with %s", got[len(got)-1].Data)
	}
	t.Logf("%d frames, last %s", len(got), last)
}

// TestEmbeddedRestart: the embedded store keeps every finished thread
// when the relay is SIGKILLed mid-run and started again on its file; the
// run cut by the kill ends with relay_producer_lost and keeps what it had.
func TestEmbeddedRestart(t *testing.T) {
	demo := startDemo(t, "0.3")
	dir := t.TempDir()
	store := "bolt:" + filepath.Join(dir, "relay.db")
	a := startRelay(t, demo.URL, store)
	c := newClient(t)
	threads := map[string]string{}
	for i := range 3 {
		th := fmt.Sprintf("done-%d", i)
		body := strings.ReplaceAll(strings.ReplaceAll(input, `"t1"`, `"`+th+`"`), `"r1"`, `"r`+th+`"`)
		fs, _ := read(t, c.do("POST", a.URL+"/agent", body, nil), -1, 60*time.Second)
		if typeOf(fs[len(fs)-1].Data) != "RUN_FINISHED" {
			t.Fatalf("run %d: %s", i, fs[len(fs)-1].Data)
		}
		resp := c.do("GET", a.URL+"/threads/"+th, "", nil)
		b, _ := io.ReadAll(resp.Body)
		threads[th] = string(b)
	}
	read(t, c.do("POST", a.URL+"/agent", input, nil), 8, 30*time.Second)
	a.kill()
	b := startRelay(t, demo.URL, store)
	for th, want := range threads {
		resp := c.do("GET", b.URL+"/threads/"+th, "", nil)
		got, _ := io.ReadAll(resp.Body)
		if string(got) != want {
			t.Fatalf("thread %s after the restart:\n%s\nbefore:\n%s", th, got, want)
		}
	}
	var body []byte
	for i := 0; i < 200; i++ { // the cut run ends when its lease (2 s) expires
		resp := c.do("GET", b.URL+"/threads/t1", "", nil)
		body, _ = io.ReadAll(resp.Body)
		if strings.Contains(string(body), `"run":null`) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if !strings.Contains(string(body), `"run":null`) || !strings.Contains(string(body), `"content":"hello"`) {
		t.Fatalf("the cut thread: %s", body)
	}
}

// TestRedisRestartWithoutPersistence: Redis without persistence restarts
// mid-run and forgets the run: the client's stream ends with a RUN_ERROR
// saying so (relay_run_lost, or relay_store_unavailable while Redis is
// unreachable), never hangs, and repeats no frame.
func TestRedisRestartWithoutPersistence(t *testing.T) {
	rd := redistest.Start(t, false)
	demo := startDemo(t, "1")
	a := startRelay(t, demo.URL, rd.URL(), "-lease", "3s")
	c := newClient(t)
	resp := c.do("POST", a.URL+"/agent", input, nil)
	var got []frame
	var cut bool
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		got, cut = read(t, resp, -1, 30*time.Second)
	}()
	time.Sleep(400 * time.Millisecond)
	rd.Restart(200 * time.Millisecond)
	wg.Wait()
	if cut {
		t.Fatal("the stream hung after Redis lost the run")
	}
	last := got[len(got)-1]
	checkSeq(t, got[:len(got)-1])
	if last.ID != "" || (typeOf(last.Data) != "RUN_ERROR:relay_run_lost" && typeOf(last.Data) != "RUN_ERROR:relay_store_unavailable") {
		t.Fatalf("ended with %+v", last)
	}
	t.Logf("%d frames, then %s", len(got)-1, typeOf(last.Data))
}

// TestGraceZero: -grace 0 means no grace, as -resume-grace 0 does for the
// demo server: a run is stopped as soon as its last client leaves, and a
// resume then gets the rest and relay_run_abandoned (not the run going on
// for the default 30 s).
func TestGraceZero(t *testing.T) {
	demo := startDemo(t, "1")
	a := startRelay(t, demo.URL, "memory:", "-grace", "0")
	c := newClient(t)
	got, _ := read(t, c.do("POST", a.URL+"/agent", input, nil), 3, 30*time.Second)
	var body []byte
	for range 300 { // bounded: the run ends at once, or when the scenario does
		resp := c.do("GET", a.URL+"/threads/t1", "", nil)
		body, _ = io.ReadAll(resp.Body)
		resp.Body.Close()
		if strings.Contains(string(body), `"run":null`) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	rest, _ := read(t, c.do("POST", a.URL+"/agent", "{}", map[string]string{"Last-Event-ID": got[len(got)-1].ID}), -1, 30*time.Second)
	if len(rest) == 0 || typeOf(rest[len(rest)-1].Data) != "RUN_ERROR:relay_run_abandoned" {
		last := "nothing"
		if len(rest) > 0 {
			last = rest[len(rest)-1].Data
		}
		t.Fatalf("the rest of a run its client left, with -grace 0: %d frames, the last %s", len(rest), last)
	}
}
