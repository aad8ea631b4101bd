package relay

import (
	"io"
	"strings"
	"testing"
	"time"
)

// TestKeylessRuns: with KeylessRuns, a client that keeps no key (no
// X-Agui-Thread-Key, no threadId) runs, and resumes with Last-Event-ID
// alone; the event id of a run started with a key, or of another keyless
// run, resumes nothing; without KeylessRuns the same resume needs the key.
func TestKeylessRuns(t *testing.T) {
	a := &fakeAgent{n: 30, gate: make(chan struct{})}
	up := newUpstream(t, a)
	_, rs := newRelay(t, up.URL, nil, func(c *Config) { c.KeylessRuns = true })
	go func() {
		for range 200 {
			select {
			case a.gate <- struct{}{}:
			case <-time.After(5 * time.Second):
				return
			}
		}
	}()
	resp := post(t, rs.URL, `{"runId":"r1","messages":[{"id":"u1","role":"user","content":"hi"}]}`, nil)
	if resp.StatusCode != 200 {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("keyless run: %d %s", resp.StatusCode, b)
	}
	if k := resp.Header.Get(threadKeyHeader); len(k) != keyLen {
		t.Fatalf("the key of the keyless run's thread: %q", k)
	}
	first := readFrames(resp.Body, func(f frame) bool { _, seq, _ := parseEventID(f.ID); return seq == 5 })
	resp.Body.Close()
	resp = post(t, rs.URL, `{}`, map[string]string{"Last-Event-ID": first[len(first)-1].ID})
	if resp.StatusCode != 200 || resp.Header.Get(threadKeyHeader) != "" {
		t.Fatalf("keyless resume: %d, key %q", resp.StatusCode, resp.Header.Get(threadKeyHeader))
	}
	rest := readFrames(resp.Body, nil)
	resp.Body.Close()
	all := append(first, rest...)
	if len(all) != 35 || eventType(all[34].Data) != "RUN_FINISHED" {
		t.Fatalf("%d frames, last %v", len(all), all[len(all)-1])
	}
	for i, f := range all {
		if _, seq, _ := parseEventID(f.ID); seq != int64(i+1) {
			t.Fatalf("frame %d has id %q", i, f.ID)
		}
	}

	// A run started with a key is not resumed by its event id alone, nor
	// is an unknown run.
	resp = post(t, rs.URL, runInput("t1", "r2", "hello"), nil)
	key := resp.Header.Get(threadKeyHeader)
	fs := readFrames(resp.Body, nil)
	resp.Body.Close()
	resp = post(t, rs.URL, runInput("t1", "r3", "hello", "again"), map[string]string{threadKeyHeader: key})
	keyed := readFrames(resp.Body, nil)
	resp.Body.Close()
	for _, id := range []string{keyed[2].ID, "AAAAAAAAAAAAAAAA:1"} {
		resp = post(t, rs.URL, `{}`, map[string]string{"Last-Event-ID": id})
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 410 || !strings.Contains(string(b), "resume_unavailable") {
			t.Fatalf("resume of %s without its key: %d %s", id, resp.StatusCode, b)
		}
	}

	// Without KeylessRuns: a threadId is needed, and the key to resume.
	_, rs2 := newRelay(t, up.URL, nil, nil)
	resp = post(t, rs2.URL, `{"runId":"r1"}`, nil)
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 400 || !strings.Contains(string(b), "thread_id_required") {
		t.Fatalf("no threadId: %d %s", resp.StatusCode, b)
	}
	resp = post(t, rs2.URL, runInput("t1", "r1", "hello"), nil)
	fs = readFrames(resp.Body, nil)
	resp.Body.Close()
	resp = post(t, rs2.URL, `{}`, map[string]string{"Last-Event-ID": fs[1].ID})
	b, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 401 || !strings.Contains(string(b), "credential_required") {
		t.Fatalf("resume without the key: %d %s", resp.StatusCode, b)
	}
}

// TestGraceZero: with no grace, a run stops as soon as its last client
// leaves, with relay_run_abandoned, and a resume gets that end.
func TestGraceZero(t *testing.T) {
	a := &fakeAgent{n: 20, gate: make(chan struct{})}
	up := newUpstream(t, a)
	_, rs := newRelay(t, up.URL, nil, func(c *Config) { c.Grace = -1; c.KeylessRuns = true })
	resp := post(t, rs.URL, runInput("t1", "r1", "hello"), nil)
	key := resp.Header.Get(threadKeyHeader)
	fs := readFrames(resp.Body, func(f frame) bool { return eventType(f.Data) == "TEXT_MESSAGE_START" })
	resp.Body.Close()
	// The agent would go on; the relay stopped the run. The gate is
	// never opened: the run cannot end any other way.
	waitFor(t, "the run to stop", 10*time.Second, func() bool {
		v, _, _ := loadThread(t, rs.URL, "t1", map[string]string{threadKeyHeader: key})
		return v.Run == nil
	})
	resp = post(t, rs.URL, `{}`, map[string]string{"Last-Event-ID": fs[len(fs)-1].ID})
	rest := readFrames(resp.Body, nil)
	resp.Body.Close()
	if len(rest) != 1 || eventType(rest[0].Data) != "RUN_ERROR:"+CodeAbandoned {
		t.Fatalf("rest of a stopped run: %v", rest)
	}
}

// TestUpstreamResumed: an upstream answer cut mid-frame is asked for again
// with the Last-Event-ID of the upstream's last event; the client gets one
// run with every event once. An upstream that cannot resume ends the run
// as cut (TestMisbehavingUpstream).
func TestUpstreamResumed(t *testing.T) {
	a := &fakeAgent{n: 10, misbehave: "midframe-once"}
	up := newUpstream(t, a)
	_, rs := newRelay(t, up.URL, nil, nil)
	resp := post(t, rs.URL, runInput("t1", "r1", "hello"), nil)
	fs := readFrames(resp.Body, nil)
	resp.Body.Close()
	if len(fs) != 15 || eventType(fs[14].Data) != "RUN_FINISHED" {
		t.Fatalf("%d frames, last %v", len(fs), fs[len(fs)-1])
	}
	msgs, _ := foldFrames(fs)
	if !strings.Contains(msgs, `"w0 w1 w2 w3 w4 w5 w6 w7 w8 w9 "`) {
		t.Fatalf("folded %s", msgs)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.runs != 2 {
		t.Fatalf("%d upstream requests, want 2", a.runs)
	}
}

// TestMaxThreads: past MaxThreads, the least recently used threads go.
func TestMaxThreads(t *testing.T) {
	up := newUpstream(t, &fakeAgent{n: 2})
	_, rs := newRelay(t, up.URL, nil, func(c *Config) { c.MaxThreads = 3; c.KeylessRuns = true })
	var keys []string
	for range 6 {
		resp := post(t, rs.URL, runInput("t", "r", "hi"), nil)
		readFrames(resp.Body, nil)
		resp.Body.Close()
		keys = append(keys, resp.Header.Get(threadKeyHeader))
	}
	count := func() (kept int) {
		for _, k := range keys {
			if _, st, _ := loadThread(t, rs.URL, "t", map[string]string{threadKeyHeader: k}); st == 200 {
				kept++
			}
		}
		return kept
	}
	// The relay sweeps after a run is folded, which may come after its
	// client read the end: wait for the last sweep (bounded).
	kept := count()
	for i := 0; i < 100 && kept > 3; i++ {
		time.Sleep(20 * time.Millisecond)
		kept = count()
	}
	if kept != 3 {
		t.Fatalf("%d threads kept, want 3", kept)
	}
}

// TestKeylessAccess: a keyless run's event id is its credential, and only
// its own: another client's thread key (one the relay handed it for its own
// keyless run) with that id resumes nothing, and reads nothing of the
// first client's thread; the first client's handed-out key reads its
// thread, and resumes its run.
func TestKeylessAccess(t *testing.T) {
	up := newUpstream(t, &fakeAgent{n: 5})
	_, rs := newRelay(t, up.URL, nil, func(c *Config) { c.KeylessRuns = true })
	run := func(thread string) (key string, fs []frame) {
		resp := post(t, rs.URL, runInput(thread, "r1", "hello"), nil)
		defer resp.Body.Close()
		return resp.Header.Get(threadKeyHeader), readFrames(resp.Body, nil)
	}
	keyA, framesA := run("shared")
	keyB, _ := run("shared")
	if keyA == keyB || len(framesA) != 10 {
		t.Fatalf("keys %q %q, %d frames", keyA, keyB, len(framesA))
	}
	resp := post(t, rs.URL, `{}`, map[string]string{threadKeyHeader: keyB, "Last-Event-ID": framesA[2].ID})
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 410 || !strings.Contains(string(b), "resume_unavailable") {
		t.Fatalf("B resumes A's run with B's key: %d %s", resp.StatusCode, b)
	}
	vb, st, _ := loadThread(t, rs.URL, "shared", map[string]string{threadKeyHeader: keyB})
	va, sa, _ := loadThread(t, rs.URL, "shared", map[string]string{threadKeyHeader: keyA})
	if st != 200 || sa != 200 || len(vb.Messages) != 2 || len(va.Messages) != 2 {
		t.Fatalf("each its own thread: %d %d", st, sa)
	}
	resp = post(t, rs.URL, `{}`, map[string]string{threadKeyHeader: keyA, "Last-Event-ID": framesA[2].ID})
	rest := readFrames(resp.Body, nil)
	resp.Body.Close()
	if resp.StatusCode != 200 || len(rest) != 7 {
		t.Fatalf("A resumes with its key: %d, %d frames", resp.StatusCode, len(rest))
	}
}

// TestKeylessNoThreadID: a keyless run sent without a threadId gets a
// thread named after its run (X-Agui-Thread-Id, the run's key): with the
// handed-out key, the thread loads and takes the next run; the agent's
// events keep the threadId the agent gave them; another key reads nothing.
func TestKeylessNoThreadID(t *testing.T) {
	up := newUpstream(t, &fakeAgent{n: 2})
	_, rs := newRelay(t, up.URL, nil, func(c *Config) { c.KeylessRuns = true })
	resp := post(t, rs.URL, `{"runId":"r1","messages":[{"id":"ua","role":"user","content":"one"}]}`, nil)
	key, id := resp.Header.Get(threadKeyHeader), resp.Header.Get(threadIDHeader)
	fs := readFrames(resp.Body, nil)
	resp.Body.Close()
	if resp.StatusCode != 200 || len(fs) != 7 || id == "" || id != resp.Header.Get(runHeader) {
		t.Fatalf("keyless run without threadId: %d, %d frames, thread id %q, run %q", resp.StatusCode, len(fs), id, resp.Header.Get(runHeader))
	}
	if !strings.Contains(fs[0].Data, `"threadId":""`) {
		t.Fatalf("RUN_STARTED changed: %s", fs[0].Data)
	}
	hk := map[string]string{threadKeyHeader: key}
	waitFor(t, "the thread folded", 5*time.Second, func() bool {
		v, st, _ := loadThread(t, rs.URL, id, hk)
		return st == 200 && v.Run == nil && len(v.Messages) == 2
	})
	resp = post(t, rs.URL, runInput(id, "r2", "one", "two"), hk)
	next := readFrames(resp.Body, nil)
	resp.Body.Close()
	if resp.StatusCode != 200 || len(next) != 7 || resp.Header.Get(threadIDHeader) != "" {
		t.Fatalf("the next run of the thread: %d, %d frames, thread id %q", resp.StatusCode, len(next), resp.Header.Get(threadIDHeader))
	}
	waitFor(t, "the thread's second run folded", 5*time.Second, func() bool {
		v, st, _ := loadThread(t, rs.URL, id, hk)
		return st == 200 && v.Run == nil && len(v.Messages) == 4
	})
	other := post(t, rs.URL, `{"runId":"r1"}`, nil)
	readFrames(other.Body, nil)
	other.Body.Close()
	if _, st, body := loadThread(t, rs.URL, id, map[string]string{threadKeyHeader: other.Header.Get(threadKeyHeader)}); st != 404 {
		t.Fatalf("another keyless client's key reads the thread: %d %s", st, body)
	}
}
