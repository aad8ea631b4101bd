package relay

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/agui-reducer/agui/relay/store"
	"github.com/agui-reducer/agui/relay/store/memstore"
)

// TestRelayEnds: the run limits and a shutdown end a run with their
// documented RUN_ERROR, stored like any frame.
func TestRelayEnds(t *testing.T) {
	cases := []struct {
		name  string
		tweak func(*Config)
		agent *fakeAgent
		stop  bool // Close the relay mid-run
		code  string
	}{
		{"run too large", func(c *Config) { c.MaxRunBytes = 2000 }, &fakeAgent{n: 100}, false, CodeRunTooLarge},
		{"run timeout", func(c *Config) { c.RunTimeout = 300 * time.Millisecond }, &fakeAgent{n: 100, delay: 20 * time.Millisecond}, false, CodeRunTimeout},
		{"shutdown", nil, &fakeAgent{n: 100, delay: 20 * time.Millisecond}, true, CodeShutdown},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			up := newUpstream(t, c.agent)
			s, rs := newRelay(t, up.URL, nil, c.tweak)
			resp := post(t, rs.URL, runInput("t1", "r1", "hello"), nil)
			if c.stop {
				readFrames(resp.Body, func(f frame) bool { return eventType(f.Data) == "TEXT_MESSAGE_START" })
				go s.Close()
			}
			fs := readFrames(resp.Body, nil)
			resp.Body.Close()
			if len(fs) == 0 || eventType(fs[len(fs)-1].Data) != "RUN_ERROR:"+c.code || fs[len(fs)-1].ID == "" {
				t.Fatalf("last frame %v, want a stored RUN_ERROR %s", fs[len(fs)-1:], c.code)
			}
		})
	}
}

// TestDeleteThread: DELETE removes a thread and its runs; a thread with a
// run going on is kept (409).
func TestDeleteThread(t *testing.T) {
	a := &fakeAgent{n: 3}
	up := newUpstream(t, a)
	_, rs := newRelay(t, up.URL, nil, nil)
	resp := post(t, rs.URL, runInput("t1", "r1", "hello"), nil)
	key := resp.Header.Get(threadKeyHeader)
	fs := readFrames(resp.Body, nil)
	resp.Body.Close()
	del := func() (int, string) {
		req, _ := http.NewRequest("DELETE", rs.URL+"/threads/t1", nil)
		req.Header.Set(threadKeyHeader, key)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	a.setGate(make(chan struct{}))
	running := post(t, rs.URL, runInput("t1", "r2", "hello", "again"), map[string]string{threadKeyHeader: key})
	readFrames(running.Body, func(f frame) bool { return eventType(f.Data) == "TEXT_MESSAGE_START" })
	if st, body := del(); st != 409 || !strings.Contains(body, "run_in_progress") {
		t.Fatalf("delete mid-run: %d %s", st, body)
	}
	close(a.gate)
	readFrames(running.Body, nil)
	running.Body.Close()
	waitFor(t, "the run's end", 5*time.Second, func() bool {
		v, _, _ := loadThread(t, rs.URL, "t1", map[string]string{threadKeyHeader: key})
		return v.Run == nil
	})
	if st, _ := del(); st != 204 {
		t.Fatalf("delete: %d", st)
	}
	if _, st, _ := loadThread(t, rs.URL, "t1", map[string]string{threadKeyHeader: key}); st != 404 {
		t.Fatalf("deleted thread: %d", st)
	}
	resp = post(t, rs.URL, `{}`, map[string]string{threadKeyHeader: key, "Last-Event-ID": fs[0].ID})
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 410 || !strings.Contains(string(b), "resume_unavailable") {
		t.Fatalf("resume of a deleted run: %d %s", resp.StatusCode, b)
	}
}

// TestSweepReapsLostRuns: a run whose producer is gone (its lease
// expired: another instance crashed, or this one before a restart) is
// ended by the sweeper even when no client reads it, so its thread takes
// new runs and can be evicted.
func TestSweepReapsLostRuns(t *testing.T) {
	st := memstore.New()
	up := newUpstream(t, &fakeAgent{n: 1})
	_, _ = newRelay(t, up.URL, st, func(c *Config) { c.SweepEvery = 50 * time.Millisecond })
	ctx := t.Context()
	old := time.Now().Add(-time.Minute)
	if err := st.Create(ctx, &store.Run{Key: "lostlostlostlost", Thread: "th", Owner: "o", Producer: "gone", Started: old, Lease: old}); err != nil {
		t.Fatal(err)
	}
	st.Append(ctx, "lostlostlostlost", 1, []byte(`{"type":"RUN_STARTED","threadId":"t","runId":"r"}`), old)
	waitFor(t, "the lost run to be ended", 10*time.Second, func() bool {
		r, _ := st.Run("lostlostlostlost")
		return r.Done()
	})
	fs, r, _ := st.Read(ctx, "lostlostlostlost", 0, 10, 0)
	if len(fs) != 2 || eventType(string(fs[1].Data)) != "RUN_ERROR:"+CodeProducerLost || r.Outcome != store.OutcomeError {
		t.Fatalf("lost run: %d frames, %+v", len(fs), r)
	}
	waitFor(t, "the thread to be folded", 10*time.Second, func() bool {
		th, _ := st.Thread(ctx, "th")
		return th != nil && th.Active == "" && len(th.Snapshot) > 0
	})
}
