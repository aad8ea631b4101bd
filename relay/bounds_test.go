package relay

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agui-reducer/agui/dialect"
	"github.com/agui-reducer/agui/reducer"
	"github.com/agui-reducer/agui/reducer/sse"
	"github.com/agui-reducer/agui/relay/store"
	"github.com/agui-reducer/agui/relay/store/boltstore"
	"github.com/agui-reducer/agui/relay/store/memstore"
)

// TestBounds: 1,000 runs whose requests carry oversized fields (every
// tenth a 512 KiB runId the agent echoes, all an 8 KiB threadId, an 8 KiB
// credential, 16 KiB messages) keep the relay within its limits: the store's bytes, the
// bbolt file and the Go heap are measured; ids stay short.
func TestBounds(t *testing.T) {
	const (
		runs       = 1000
		maxStore   = 1 << 20
		maxRun     = 64 << 10
		maxThread  = 256 << 10
		maxEvent   = 32 << 10
		concurrent = 4
	)
	for _, backend := range []string{"memory", "bolt"} {
		t.Run(backend, func(t *testing.T) {
			var st store.Store
			var path string
			if backend == "bolt" {
				path = filepath.Join(t.TempDir(), "relay.db")
				b, err := boltstore.Open(path)
				if err != nil {
					t.Fatal(err)
				}
				defer b.Close()
				st = b
			} else {
				st = memstore.New()
			}
			up := newUpstream(t, &fakeAgent{n: 3})
			_, rs := newRelay(t, up.URL, st, func(c *Config) {
				c.AuthHeader = "Authorization"
				c.Lease = 5 * time.Second // the test loads the machine
				c.MaxBody = 1 << 20
				c.MaxStoreBytes, c.MaxRunBytes, c.MaxThreadBytes, c.MaxEventBytes = maxStore, maxRun, maxThread, maxEvent
			})
			bigRun := strings.Repeat("r", 512<<10)
			content := strings.Repeat("c", 16<<10)
			var mu sync.Mutex
			var peakUsage, peakFile int64
			var maxID int
			outcomes := map[string]int{}
			work := make(chan int)
			var wg sync.WaitGroup
			for range concurrent {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := range work {
						runID := fmt.Sprintf("%d", i)
						if i%10 == 0 {
							runID = bigRun + runID // the agent echoes it: an oversized event
						}
						body, _ := json.Marshal(map[string]any{
							"threadId": strings.Repeat("t", 8<<10) + fmt.Sprint(i%300), "runId": runID,
							"messages": []map[string]any{{"id": fmt.Sprintf("u%d", i), "role": "user", "content": content}},
						})
						req, _ := http.NewRequest("POST", rs.URL+"/agent", bytes.NewReader(body))
						req.Header.Set("Content-Type", "application/json")
						req.Header.Set("Authorization", "Bearer "+strings.Repeat("k", 8<<10)+fmt.Sprint(i%7))
						resp, err := http.DefaultClient.Do(req)
						if err != nil {
							t.Error(err)
							return
						}
						var last string
						fs := readFrames(resp.Body, nil)
						resp.Body.Close()
						if len(fs) > 0 {
							last = eventType(fs[len(fs)-1].Data)
						} else {
							last = fmt.Sprint(resp.StatusCode)
						}
						u, _ := st.Usage(t.Context())
						var size int64
						if path != "" {
							if fi, err := os.Stat(path); err == nil {
								size = fi.Size()
							}
						}
						mu.Lock()
						outcomes[last]++
						peakUsage = max(peakUsage, u)
						peakFile = max(peakFile, size)
						for _, f := range fs {
							maxID = max(maxID, len(f.ID))
						}
						mu.Unlock()
					}
				}()
			}
			for i := range runs {
				work <- i
			}
			close(work)
			wg.Wait()
			runtime.GC()
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			t.Logf("%s: outcomes %v; peak store bytes %d (limit %d); peak file %d; heap %d MiB after GC; longest id %d",
				backend, outcomes, peakUsage, maxStore, peakFile, ms.HeapAlloc>>20, maxID)
			if outcomes["RUN_FINISHED"] != runs*9/10 || outcomes["RUN_ERROR:"+CodeEventTooLarge] != runs/10 {
				t.Fatalf("outcomes %v", outcomes)
			}
			// A run in flight per worker may pass the limit until the
			// sweep after its fold: its frames, and the snapshot growth
			// it folds into (at most as much again).
			if peakUsage > maxStore+concurrent*2*maxRun {
				t.Fatalf("store held %d bytes, limit %d (+%d in flight)", peakUsage, maxStore, concurrent*2*maxRun)
			}
			if maxID > 30 {
				t.Fatalf("an id of %d bytes", maxID)
			}
			if path != "" && peakFile > 4*maxStore {
				t.Fatalf("bbolt file grew to %d bytes for a %d-byte store", peakFile, maxStore)
			}
			if ms.HeapAlloc > 64<<20 {
				t.Fatalf("heap %d bytes after 1,000 runs", ms.HeapAlloc)
			}
		})
	}
}

// TestRetentionAndCompaction: a folded run's frames go after -run-ttl
// (resume answers 410 then) while its thread keeps every message; a
// thread over its byte limit drops its oldest folded runs; an idle thread
// goes after -retention, one with a run going on stays.
func TestRetentionAndCompaction(t *testing.T) {
	a := &fakeAgent{n: 50}
	up := newUpstream(t, a)
	st := memstore.New()
	_, rs := newRelay(t, up.URL, st, func(c *Config) {
		c.RunTTL = 400 * time.Millisecond
		c.Retention = 1500 * time.Millisecond
		c.SweepEvery = 50 * time.Millisecond
		c.Grace = 5 * time.Second
		c.UpstreamIdle = 30 * time.Second
		c.MaxRunBytes = 8 << 10
		c.MaxThreadBytes = 8<<10 + 3000
	})
	do := func(thread, run, key string, msgs ...string) []frame {
		resp := post(t, rs.URL, runInput(thread, run, msgs...), map[string]string{threadKeyHeader: key})
		fs := readFrames(resp.Body, nil)
		resp.Body.Close()
		return fs
	}
	key := randomKey(keyLen)
	hk := map[string]string{threadKeyHeader: key}
	// Thread a: three runs; the thread bound keeps the frames of the
	// newest runs only, the snapshot all of them.
	r1 := do("a", "r1", key, "one")
	do("a", "r2", key, "one", "two")
	r3 := do("a", "r3", key, "one", "two", "three")
	do("b", "r1", key, "bee")
	ownerKey := func(thread string) *store.Thread {
		s := rs.Config.Handler.(*Server)
		th, err := st.Thread(t.Context(), s.threadKey(s.hash("owner", "key", key), thread))
		if err != nil {
			return nil
		}
		return th
	}
	// The fold (and compaction) follows a run's end.
	waitFor(t, "thread a's compaction", 10*time.Second, func() bool {
		th := ownerKey("a")
		return th != nil && th.Version == 3
	})
	th := ownerKey("a")
	if len(th.Runs) >= 3 || th.Bytes > 8<<10+3000 {
		t.Fatalf("thread a after compaction: %+v", th)
	}
	v, _, body := loadThread(t, rs.URL, "a", hk)
	if len(v.Messages) != 6 || !strings.Contains(body, `"content":"three"`) || !strings.Contains(body, "m-r1") {
		t.Fatalf("thread a: %s", body)
	}
	// Run TTL: the runs' frames go, the conversation stays.
	waitFor(t, "run frames to expire", 10*time.Second, func() bool { th := ownerKey("a"); return th != nil && len(th.Runs) == 0 })
	for _, fs := range [][]frame{r1, r3} {
		resp := post(t, rs.URL, `{}`, map[string]string{threadKeyHeader: key, "Last-Event-ID": fs[2].ID})
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 410 || !strings.Contains(string(b), "resume_unavailable") {
			t.Fatalf("resume of an expired run: %d %s", resp.StatusCode, b)
		}
	}
	v2, _, body2 := loadThread(t, rs.URL, "a", hk)
	if body2 != body || len(v2.Messages) != 6 {
		t.Fatalf("thread a changed when its runs expired:\n%s\n%s", body, body2)
	}
	// Retention: thread a gets a run that goes on; b idles and goes.
	a.setGate(make(chan struct{}))
	resp := post(t, rs.URL, runInput("a", "r4", "one", "two", "three", "four"), hk)
	readFrames(resp.Body, func(f frame) bool { return eventType(f.Data) == "TEXT_MESSAGE_START" })
	go func() {
		// Keep reading, so the run is not abandoned.
		readFrames(resp.Body, nil)
		resp.Body.Close()
	}()
	waitFor(t, "thread b to expire", 10*time.Second, func() bool {
		_, st, _ := loadThread(t, rs.URL, "b", hk)
		return st == 404
	})
	time.Sleep(2 * time.Second) // past the retention of thread a's last fold
	v, st2, body := loadThread(t, rs.URL, "a", hk)
	if st2 != 200 || v.Run == nil || len(v.Messages) != 7 {
		t.Fatalf("thread a with a run going on: %d %s", st2, body)
	}
	close(a.gate)
}

// TestUpstreamDialect: an agent that speaks another dialect is translated
// by one translator per run, kept with the run: a client cut mid-run
// resumes the same canonical run, which folds to what the whole upstream
// stream translates to.
func TestUpstreamDialect(t *testing.T) {
	raw, err := os.ReadFile("../dialect/testdata/sse-contract/tools.sse")
	if err != nil {
		t.Fatal(err)
	}
	events, _ := sse.ParseAll(raw)
	up := newUpstream(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for _, e := range events {
			fmt.Fprintf(w, "event: %s\ndata: %s\n\n", e.Type, e.Data)
			w.(http.Flusher).Flush()
			time.Sleep(20 * time.Millisecond)
		}
	}))
	_, rs := newRelay(t, up.URL, nil, func(c *Config) { c.UpstreamDialect = "sse-contract" })
	resp := post(t, rs.URL, runInput("t1", "r1", "weather?"), nil)
	key := resp.Header.Get(threadKeyHeader)
	got := readFrames(resp.Body, func(f frame) bool { return eventType(f.Data) == "TOOL_CALL_ARGS" })
	resp.Body.Close()
	resp = post(t, rs.URL, `{}`, map[string]string{threadKeyHeader: key, "Last-Event-ID": got[len(got)-1].ID})
	got = append(got, readFrames(resp.Body, nil)...)
	resp.Body.Close()

	tr := dialect.New(dialect.Options{Dialect: "sse-contract"})
	var want []frame
	for _, e := range events {
		tr.Translate(e.Type, []byte(e.Data), func(ev []byte) { want = append(want, frame{Data: string(ev)}) })
	}
	gm, gs := foldFrames(got)
	wm, ws := foldFrames(want)
	if gm != wm || gs != ws || len(got) != len(want) {
		t.Fatalf("resumed translated run (%d frames):\n%s\nwhole stream translated (%d):\n%s", len(got), gm, len(want), wm)
	}
}

// TestUpstreamAmendments: what canonical AG-UI has no event for (TanStack's
// whole-text content) is stored as an amendment record
// and sent as an amendment frame, which a client that detects the dialect
// folds; the thread the relay folds has it too.
func TestUpstreamAmendments(t *testing.T) {
	upstream := strings.Join([]string{
		`data: {"type":"RUN_STARTED","runId":"r1","threadId":"t"}`,
		`data: {"type":"TEXT_MESSAGE_START","messageId":"m","role":"assistant"}`,
		`data: {"type":"TEXT_MESSAGE_CONTENT","messageId":"m","content":"Hello"}`,
		`data: {"type":"TEXT_MESSAGE_CONTENT","messageId":"m","content":"Hello world"}`,
		`data: {"type":"TEXT_MESSAGE_END","messageId":"m"}`,
		`data: {"type":"CUSTOM","name":"tool-input-available","value":{"toolCallId":"c","toolName":"pick","input":{"a":1}}}`,
		`data: {"type":"RUN_FINISHED","runId":"r1","finishReason":"stop"}`,
	}, "\n\n") + "\n\n"
	up := newUpstream(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, upstream)
	}))
	_, rs := newRelay(t, up.URL, nil, func(c *Config) { c.UpstreamDialect = dialect.TanStack })
	resp := post(t, rs.URL, runInput("t1", "r1", "hi"), nil)
	key := resp.Header.Get(threadKeyHeader)
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(body), "event: "+dialect.AmendEvent) {
		t.Fatalf("no amendment frame in:\n%s", body)
	}
	r := reducer.New(reducer.Options{})
	tr := dialect.New(dialect.Options{})
	var c reducer.Change
	events, _ := sse.ParseAll(body)
	for _, e := range events {
		tr.TranslateTo(e.Type, []byte(e.Data), func(ev []byte) { r.ApplyAppend(&c, ev) }, func(a []byte) { r.Amend(&c, a) })
	}
	st := r.State()
	if got := st.Messages[len(st.Messages)-1].Content(); got != "Hello world" {
		t.Fatalf("text %q", got)
	}
	hk := map[string]string{threadKeyHeader: key}
	waitFor(t, "the thread folded", 5*time.Second, func() bool {
		v, status, _ := loadThread(t, rs.URL, "t1", hk)
		return status == 200 && v.Run == nil && len(v.Messages) > 1
	})
	if _, _, raw := loadThread(t, rs.URL, "t1", hk); !strings.Contains(raw, `"Hello world"`) {
		t.Fatalf("thread: %s", raw)
	}
}

// TestBoundsTinyRuns: many tiny keyless runs (each a thread of its own)
// keep the relay's live heap within the store's limit: the store counts
// each thread's, run's and frame's fixed cost (store.ThreadOverhead,
// RunOverhead, FrameOverhead), not only their bytes. The heap is measured
// after GC, from a baseline taken once the relay and its clients are warm
// and the store emptied.
func TestBoundsTinyRuns(t *testing.T) {
	const (
		runs     = 3000
		warm     = 200
		maxStore = 512 << 10
		// slack: the heap's own noise (the test's HTTP clients and
		// servers, the runtime) and the 10% below the limit a sweep aims at.
		slack = 256 << 10
	)
	st := memstore.New()
	up := newUpstream(t, &fakeAgent{n: 1})
	s, rs := newRelay(t, up.URL, st, func(c *Config) {
		c.KeylessRuns = true
		c.MaxStoreBytes = maxStore
	})
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
	defer client.CloseIdleConnections()
	one := func(i int) {
		body := fmt.Sprintf(`{"threadId":"t","runId":"r%d","messages":[{"id":"u","role":"user","content":"hi"}]}`, i)
		req, _ := http.NewRequest("POST", rs.URL+"/agent", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		fs := readFrames(resp.Body, nil)
		resp.Body.Close()
		if len(fs) == 0 || eventType(fs[len(fs)-1].Data) != "RUN_FINISHED" {
			t.Fatalf("run %d: status %d, %d frames", i, resp.StatusCode, len(fs))
		}
	}
	settle := func() uint64 {
		// The producers fold and sweep after the client's answer ends.
		waitFor(t, "the producers to end", 10*time.Second, func() bool { return s.producing.Load() == 0 })
		var ms runtime.MemStats
		for range 2 {
			runtime.GC()
		}
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	for i := range warm {
		one(i)
	}
	settle()
	// The baseline: a warm relay with an empty store.
	if _, err := st.Sweep(t.Context(), time.Now(), store.Limits{MaxBytes: 1}); err != nil {
		t.Fatal(err)
	}
	base := settle()
	for i := warm; i < runs; i++ {
		one(i)
	}
	heap := settle()
	used, _ := st.Usage(t.Context())
	keys := len(st.RunKeys())
	growth := int64(heap) - int64(base)
	t.Logf("%d tiny keyless runs: heap %d -> %d bytes (growth %d, limit %d + slack %d); store counts %d bytes, keeps %d runs",
		runs, base, heap, growth, maxStore, slack, used, keys)
	if growth > maxStore+slack {
		t.Fatalf("the live heap grew %d bytes for a %d-byte store (+%d slack); the store counted %d bytes for %d runs",
			growth, maxStore, slack, used, keys)
	}
}
