package relay

import (
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agui-reducer/agui/reducer"
	"github.com/agui-reducer/agui/relay/store"
)

func TestRunAndThread(t *testing.T) {
	eachBackend(t, func(t *testing.T, open func(testing.TB) store.Store) {
		up := newUpstream(t, &fakeAgent{n: 5})
		_, rs := newRelay(t, up.URL, open(t), nil)
		resp := post(t, rs.URL, runInput("t1", "r1", "hello"), nil)
		key := resp.Header.Get(threadKeyHeader)
		fs := readFrames(resp.Body, nil)
		resp.Body.Close()
		if resp.StatusCode != 200 || len(fs) != 10 || eventType(fs[9].Data) != "RUN_FINISHED" || len(key) != keyLen {
			t.Fatalf("status %d, %d frames, key %q: %v", resp.StatusCode, len(fs), key, fs)
		}
		for i, f := range fs {
			k, seq, ok := parseEventID(f.ID)
			if !ok || seq != int64(i+1) || k != resp.Header.Get(runHeader) {
				t.Fatalf("frame %d id %q", i, f.ID)
			}
		}
		// Second turn, then the thread.
		resp = post(t, rs.URL, runInput("t1", "r2", "hello", "again"), map[string]string{threadKeyHeader: key})
		readFrames(resp.Body, nil)
		resp.Body.Close()
		v, st, body := loadThread(t, rs.URL, "t1", map[string]string{threadKeyHeader: key})
		if st != 200 || len(v.Messages) != 4 || v.Run != nil || !strings.Contains(string(v.State), `"last":"r2"`) {
			t.Fatalf("thread %d %s", st, body)
		}
		if !strings.Contains(body, `"content":"w0 w1 w2 w3 w4 "`) || !strings.Contains(body, `"content":"again"`) {
			t.Fatalf("thread %s", body)
		}
		// The reducer view restores to the same conversation.
		resp = get(t, rs.URL, "/threads/t1?view=reducer", map[string]string{threadKeyHeader: key})
		b, _ := io.ReadAll(resp.Body)
		if r := reducer.New(reducer.Options{}); !strings.Contains(string(b), `w0 w1 w2 w3 w4 `) || func() bool { _, err := r.Restore(b); return err != nil }() || len(r.State().Messages) != 4 {
			t.Fatalf("reducer view %s", b)
		}
		// Without the key, or with another: nothing.
		_, st, body = loadThread(t, rs.URL, "t1", map[string]string{threadKeyHeader: randomKey(keyLen)})
		if st != http.StatusNotFound || !strings.Contains(body, `"code":"thread_not_found"`) {
			t.Fatalf("other key: %d %s", st, body)
		}
		resp = get(t, rs.URL, "/threads/t1", nil)
		b, _ = io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(string(b), "credential_required") {
			t.Fatalf("no key: %d %s", resp.StatusCode, b)
		}
	})
}

// TestResume: a client cut mid-run resumes with Last-Event-ID and ends
// with every frame once, on every backend; a client that comes back
// after the run's end gets the rest from the log.
func TestResume(t *testing.T) {
	eachBackend(t, func(t *testing.T, open func(testing.TB) store.Store) {
		up := newUpstream(t, &fakeAgent{n: 40, delay: 5 * time.Millisecond})
		_, rs := newRelay(t, up.URL, open(t), nil)
		resp := post(t, rs.URL, runInput("t1", "r1", "hello"), nil)
		key := resp.Header.Get(threadKeyHeader)
		first := readFrames(resp.Body, func(f frame) bool { _, seq, _ := parseEventID(f.ID); return seq == 7 })
		resp.Body.Close() // the cut
		all := append([]frame(nil), first...)
		for round := 0; round < 20; round++ {
			resp = post(t, rs.URL, `{}`, map[string]string{threadKeyHeader: key, "Last-Event-ID": all[len(all)-1].ID})
			if resp.StatusCode != 200 {
				b, _ := io.ReadAll(resp.Body)
				t.Fatalf("resume: %d %s", resp.StatusCode, b)
			}
			n := 0
			more := readFrames(resp.Body, func(frame) bool { n++; return n == 9 })
			resp.Body.Close()
			all = append(all, more...)
			if eventType(all[len(all)-1].Data) == "RUN_FINISHED" {
				break
			}
		}
		if len(all) != 45 {
			t.Fatalf("%d frames, want 45", len(all))
		}
		for i, f := range all {
			if _, seq, _ := parseEventID(f.ID); seq != int64(i+1) {
				t.Fatalf("frame %d has id %s", i, f.ID)
			}
		}
		msgs, _ := foldFrames(all)
		if !strings.Contains(msgs, "w0 w1 w2") || !strings.Contains(msgs, "w39 ") {
			t.Fatalf("folded %s", msgs)
		}
		// After the end: the empty rest, and a bad cursor.
		resp = post(t, rs.URL, `{}`, map[string]string{threadKeyHeader: key, "Last-Event-ID": all[len(all)-1].ID})
		if rest := readFrames(resp.Body, nil); resp.StatusCode != 200 || len(rest) != 0 {
			t.Fatalf("after the end: %d, %d frames", resp.StatusCode, len(rest))
		}
		resp.Body.Close()
		k, _, _ := parseEventID(all[0].ID)
		resp = post(t, rs.URL, `{}`, map[string]string{threadKeyHeader: key, "Last-Event-ID": k + ":99"})
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 400 || !strings.Contains(string(b), "bad_last_event_id") {
			t.Fatalf("past the end: %d %s", resp.StatusCode, b)
		}
	})
}

// TestGrace: a run goes on while nobody reads it, a client that comes back
// within the grace period gets the rest live; a run nobody comes back to
// ends with relay_run_abandoned and its thread keeps what it produced.
func TestGrace(t *testing.T) {
	a := &fakeAgent{n: 20, gate: make(chan struct{})}
	up := newUpstream(t, a)
	_, rs := newRelay(t, up.URL, nil, func(c *Config) { c.Grace = 1500 * time.Millisecond })
	resp := post(t, rs.URL, runInput("t1", "r1", "hello"), nil)
	key := resp.Header.Get(threadKeyHeader)
	fs := readFrames(resp.Body, func(f frame) bool { return eventType(f.Data) == "TEXT_MESSAGE_START" })
	resp.Body.Close()
	// Nobody reads; the agent goes on.
	for range 10 {
		a.gate <- struct{}{}
	}
	time.Sleep(300 * time.Millisecond)
	resp = post(t, rs.URL, `{}`, map[string]string{threadKeyHeader: key, "Last-Event-ID": fs[len(fs)-1].ID})
	go func() {
		for range 12 {
			a.gate <- struct{}{}
		}
	}()
	rest := readFrames(resp.Body, nil)
	resp.Body.Close()
	if len(fs)+len(rest) != 25 || eventType(rest[len(rest)-1].Data) != "RUN_FINISHED" {
		t.Fatalf("%d + %d frames, last %v", len(fs), len(rest), rest[len(rest)-1])
	}

	// Abandoned: nobody comes back.
	resp = post(t, rs.URL, runInput("t1", "r2", "hello", "again"), map[string]string{threadKeyHeader: key})
	fs = readFrames(resp.Body, func(f frame) bool { return eventType(f.Data) == "TEXT_MESSAGE_START" })
	resp.Body.Close()
	a.gate <- struct{}{}
	var v threadView
	waitFor(t, "the abandoned run to end", 15*time.Second, func() bool {
		v, _, _ = loadThread(t, rs.URL, "t1", map[string]string{threadKeyHeader: key})
		return v.Run == nil
	})
	resp = post(t, rs.URL, `{}`, map[string]string{threadKeyHeader: key, "Last-Event-ID": fs[len(fs)-1].ID})
	rest = readFrames(resp.Body, nil)
	resp.Body.Close()
	if len(rest) != 2 || eventType(rest[1].Data) != "RUN_ERROR:"+CodeAbandoned {
		t.Fatalf("abandoned run's rest: %v", rest)
	}
	if len(v.Messages) != 4 || !strings.Contains(string(v.Messages[3]), `"content":"w0 "`) {
		t.Fatalf("thread after abandon: %s", v.Messages)
	}
}

// TestMisbehavingUpstream: an agent that cuts, stalls, hangs up mid-frame,
// answers an error or no stream, or sends an oversized event: the run ends
// with the documented RUN_ERROR, and the thread keeps what came before.
func TestMisbehavingUpstream(t *testing.T) {
	cases := []struct{ misbehave, code string }{
		{"cut", CodeUpstreamCut},
		{"stall", CodeUpstreamStalled},
		{"midframe", CodeUpstreamCut},
		{"status", CodeUpstreamStatus},
		{"notsse", CodeUpstreamNotSSE},
		{"huge", CodeEventTooLarge},
	}
	for _, c := range cases {
		t.Run(c.misbehave, func(t *testing.T) {
			up := newUpstream(t, &fakeAgent{n: 10, misbehave: c.misbehave})
			_, rs := newRelay(t, up.URL, nil, func(cfg *Config) {
				if c.misbehave == "stall" {
					cfg.UpstreamIdle = 300 * time.Millisecond
				}
			})
			resp := post(t, rs.URL, runInput("t1", "r1", "hello"), nil)
			fs := readFrames(resp.Body, nil)
			resp.Body.Close()
			if len(fs) == 0 || eventType(fs[len(fs)-1].Data) != "RUN_ERROR:"+c.code {
				t.Fatalf("frames %v, want a last RUN_ERROR %s", fs, c.code)
			}
			v, st, body := loadThread(t, rs.URL, "t1", map[string]string{threadKeyHeader: resp.Header.Get(threadKeyHeader)})
			if st != 200 || v.Run != nil || len(v.Messages) < 1 {
				t.Fatalf("thread: %d %s", st, body)
			}
		})
	}
}

// TestAccess: with an auth header, a thread and its runs are the
// credential's: another credential or none reads nothing and resumes
// nothing, and the answers do not tell an unknown id from another's.
func TestAccess(t *testing.T) {
	eachBackend(t, func(t *testing.T, open func(testing.TB) store.Store) {
		a := &fakeAgent{n: 10, gate: make(chan struct{})}
		up := newUpstream(t, a)
		_, rs := newRelay(t, up.URL, open(t), func(c *Config) { c.AuthHeader = "Authorization" })
		alice := map[string]string{"Authorization": "Bearer alice"}
		bob := map[string]string{"Authorization": "Bearer bob"}
		resp := post(t, rs.URL, runInput("t1", "r1", "hello"), nil)
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 401 || !strings.Contains(string(b), `"code":"credential_required"`) {
			t.Fatalf("no credential: %d %s", resp.StatusCode, b)
		}
		resp = post(t, rs.URL, runInput("t1", "r1", "hello"), alice)
		fs := readFrames(resp.Body, func(f frame) bool { return eventType(f.Data) == "TEXT_MESSAGE_START" })
		resp.Body.Close()
		if resp.Header.Get(threadKeyHeader) != "" {
			t.Fatal("a thread key with auth")
		}
		// Mid-run: bob cannot resume alice's run, nor read her thread.
		resp = post(t, rs.URL, `{}`, map[string]string{"Authorization": "Bearer bob", "Last-Event-ID": fs[0].ID})
		b, _ = io.ReadAll(resp.Body)
		k, _, _ := parseEventID(fs[0].ID)
		unknown := post(t, rs.URL, `{}`, map[string]string{"Authorization": "Bearer bob", "Last-Event-ID": randomKey(runKeyLen) + ":1"})
		ub, _ := io.ReadAll(unknown.Body)
		if resp.StatusCode != 410 || !strings.Contains(string(b), `"code":"resume_unavailable"`) ||
			unknown.StatusCode != 410 || strings.ReplaceAll(string(b), k, "") != strings.ReplaceAll(string(ub), strings.Split(strings.Split(string(ub), `run \"`)[1], `\"`)[0], "") {
			t.Fatalf("bob resumes: %d %s (unknown: %d %s)", resp.StatusCode, b, unknown.StatusCode, ub)
		}
		_, st, body := loadThread(t, rs.URL, "t1", bob)
		if st != 404 || !strings.Contains(body, `"code":"thread_not_found"`) {
			t.Fatalf("bob reads: %d %s", st, body)
		}
		resp = get(t, rs.URL, "/threads/t1", map[string]string{"Authorization": "Bearer bob", "Accept": "text/event-stream"})
		b, _ = io.ReadAll(resp.Body)
		if resp.StatusCode != 404 || !strings.Contains(string(b), `"code":"thread_not_found"`) {
			t.Fatalf("bob streams: %d %s", resp.StatusCode, b)
		}
		// bob's own "t1" is another thread, and cannot delete alice's.
		req, _ := http.NewRequest("DELETE", rs.URL+"/threads/t1", nil)
		req.Header.Set("Authorization", "Bearer bob")
		dr, _ := http.DefaultClient.Do(req)
		if dr.StatusCode != 404 {
			t.Fatalf("bob deletes: %d", dr.StatusCode)
		}
		go func() {
			for range 13 {
				a.gate <- struct{}{}
			}
		}()
		resp = post(t, rs.URL, `{}`, map[string]string{"Authorization": "Bearer alice", "Last-Event-ID": fs[len(fs)-1].ID})
		rest := readFrames(resp.Body, nil)
		if resp.StatusCode != 200 || eventType(rest[len(rest)-1].Data) != "RUN_FINISHED" {
			t.Fatalf("alice resumes: %d %v", resp.StatusCode, rest)
		}
		v, st, _ := loadThread(t, rs.URL, "t1", alice)
		if st != 200 || len(v.Messages) != 2 {
			t.Fatalf("alice reads: %d %v", st, v)
		}
	})
}

// TestReloadMidRun: a client that reloads mid-run loads the thread (the
// conversation with the running run's input, and the id to resume), then
// attaches and gets the run from its start with no gap and no duplicate;
// as one SSE stream (GET with Accept: text/event-stream) too. Either way
// the result folds to the thread as it ends.
func TestReloadMidRun(t *testing.T) {
	eachBackend(t, func(t *testing.T, open func(testing.TB) store.Store) {
		a := &fakeAgent{n: 10}
		up := newUpstream(t, a)
		_, rs := newRelay(t, up.URL, open(t), nil)
		resp := post(t, rs.URL, runInput("t1", "r1", "hello"), nil)
		key := resp.Header.Get(threadKeyHeader)
		hk := map[string]string{threadKeyHeader: key}
		readFrames(resp.Body, nil)
		resp.Body.Close()
		a.setGate(make(chan struct{}))
		resp = post(t, rs.URL, runInput("t1", "r2", "hello", "again"), hk)
		readFrames(resp.Body, func(f frame) bool { return eventType(f.Data) == "TEXT_MESSAGE_START" })
		resp.Body.Close()
		for range 4 {
			a.gate <- struct{}{}
		}
		// The page reloads.
		v, st, body := loadThread(t, rs.URL, "t1", hk)
		if st != 200 || v.Run == nil || len(v.Messages) != 3 || !strings.Contains(string(v.Messages[2]), `"again"`) {
			t.Fatalf("mid-run thread: %d %s", st, body)
		}
		sse := get(t, rs.URL, "/threads/t1", map[string]string{threadKeyHeader: key, "Accept": "text/event-stream"})
		resp = post(t, rs.URL, `{}`, map[string]string{threadKeyHeader: key, "Last-Event-ID": v.Run.LastEventID})
		go func() {
			for range 9 {
				a.gate <- struct{}{}
			}
		}()
		run := readFrames(resp.Body, nil)
		resp.Body.Close()
		stream := readFrames(sse.Body, nil)
		sse.Body.Close()
		if len(run) != 15 || eventType(run[0].Data) != "RUN_STARTED" || eventType(run[14].Data) != "RUN_FINISHED" {
			t.Fatalf("attached run: %d frames", len(run))
		}
		if len(stream) != 17 || eventType(stream[0].Data) != "MESSAGES_SNAPSHOT" || eventType(stream[1].Data) != "STATE_SNAPSHOT" || stream[0].ID != "" || stream[2].ID != run[0].ID {
			t.Fatalf("thread stream: %d frames, %v", len(stream), stream[:3])
		}
		final, _, _ := loadThread(t, rs.URL, "t1", hk)
		// Restored view + run == the thread at the end.
		for _, got := range [][]frame{append([]frame{{Data: snapshotEvent(v)}}, run...), stream} {
			msgs, _ := foldFrames(got)
			want, _ := json.Marshal(final.Messages)
			if msgs != string(want) {
				t.Fatalf("reload folds to\n%s\nthe thread is\n%s", msgs, want)
			}
		}
	})
}

func snapshotEvent(v threadView) string {
	b, _ := json.Marshal(map[string]any{"type": "MESSAGES_SNAPSHOT", "messages": v.Messages})
	return string(b)
}

// TestGuards: Host, Origin, content type, body size, run caps.
func TestGuards(t *testing.T) {
	a := &fakeAgent{n: 3, gate: make(chan struct{})}
	up := newUpstream(t, a)
	_, rs := newRelay(t, up.URL, nil, func(c *Config) {
		c.CORS = []string{"http://app.example"}
		c.MaxBody = 1000
		c.MaxRuns = 1
	})
	do := func(method, path, body string, hdr map[string]string) (int, string) {
		req, _ := http.NewRequest(method, rs.URL+path, strings.NewReader(body))
		for k, v := range hdr {
			if k == "Host" {
				req.Host = v
			} else {
				req.Header.Set(k, v)
			}
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if resp.Header.Get("Content-Type") == "text/event-stream" {
			return resp.StatusCode, ""
		}
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	js := map[string]string{"Content-Type": "application/json"}
	with := func(k, v string) map[string]string {
		return map[string]string{"Content-Type": "application/json", k: v}
	}
	cases := []struct {
		name, method, body string
		hdr                map[string]string
		status             int
		code               string
	}{
		{"rebinding host", "POST", runInput("t", "r"), with("Host", "attacker.example"), 403, "host_not_allowed"},
		{"other origin", "POST", runInput("t", "r"), with("Origin", "http://evil.example"), 403, "cross_origin"},
		{"cross-site fetch", "POST", runInput("t", "r"), with("Sec-Fetch-Site", "cross-site"), 403, "cross_origin"},
		{"preflight refused", "OPTIONS", "", map[string]string{"Origin": "http://evil.example"}, 403, "cross_origin"},
		{"not json", "POST", runInput("t", "r"), map[string]string{"Content-Type": "text/plain"}, 415, "unsupported_media_type"},
		{"too large", "POST", `{"threadId":"` + strings.Repeat("x", 2000) + `"}`, js, 413, "too_large"},
		{"no thread id", "POST", `{"runId":"r"}`, js, 400, "thread_id_required"},
		{"bad cursor", "POST", `{}`, with("Last-Event-ID", "nope"), 400, "bad_last_event_id"},
		{"get agent", "GET", "", nil, 405, "method_not_allowed"},
	}
	for _, c := range cases {
		path := "/agent"
		st, body := do(c.method, path, c.body, c.hdr)
		if st != c.status || !strings.Contains(body, `"code":"`+c.code+`"`) {
			t.Errorf("%s: %d %s, want %d %s", c.name, st, body, c.status, c.code)
		}
	}
	// An allowed origin gets CORS headers; its preflight passes.
	req, _ := http.NewRequest("OPTIONS", rs.URL+"/agent", nil)
	req.Header.Set("Origin", "http://app.example")
	resp, _ := http.DefaultClient.Do(req)
	if resp.StatusCode != 204 || resp.Header.Get("Access-Control-Allow-Origin") != "http://app.example" ||
		!strings.Contains(resp.Header.Get("Access-Control-Allow-Headers"), "Last-Event-ID") {
		t.Fatalf("preflight: %d %v", resp.StatusCode, resp.Header)
	}
	// One run at once (-max-runs 1): the second waits for the first.
	r1 := post(t, rs.URL, runInput("t1", "r1"), map[string]string{"Origin": "http://app.example"})
	if r1.Header.Get("Access-Control-Allow-Origin") != "http://app.example" {
		t.Fatal("no CORS header for an allowed origin")
	}
	st, body := do("POST", "/agent", runInput("t2", "r2"), js)
	if st != 503 || !strings.Contains(body, "too_many_runs") {
		t.Fatalf("second run: %d %s", st, body)
	}
	// A second run on a thread with one going on: 409.
	st, body = do("POST", "/agent", runInput("t1", "r3"), with(threadKeyHeader, r1.Header.Get(threadKeyHeader)))
	if st != 409 && st != 503 {
		t.Fatalf("same thread: %d %s", st, body)
	}
	close(a.gate)
	readFrames(r1.Body, nil)
	r1.Body.Close()
}

// TestTailSnapshot: past TailMessages messages the thread keeps a tail
// snapshot (?view=reducer&tail=1) of the last ones and the state, marked
// partial; the whole snapshot is unchanged.
func TestTailSnapshot(t *testing.T) {
	up := newUpstream(t, &fakeAgent{n: 2})
	_, rs := newRelay(t, up.URL, nil, nil)
	key := randomKey(keyLen)
	hk := map[string]string{threadKeyHeader: key}
	var msgs []string
	for i := range TailMessages/2 + 3 {
		msgs = append(msgs, "q"+strings.Repeat("x", i))
		resp := post(t, rs.URL, runInput("t1", "r"+strconv.Itoa(i), msgs...), hk)
		readFrames(resp.Body, nil)
		resp.Body.Close()
	}
	restoreBody := func(q string) (*reducer.Reducer, string) {
		resp := get(t, rs.URL, "/threads/t1?view=reducer"+q, hk)
		b, _ := io.ReadAll(resp.Body)
		r := reducer.New(reducer.Options{})
		if _, err := r.Restore(b); err != nil {
			t.Fatalf("restore %s: %v", q, err)
		}
		return r, resp.Header.Get(partialHeader)
	}
	full, _ := restoreBody("")
	tail, partial := restoreBody("&tail=1")
	fm, tm := full.State().Messages, tail.State().Messages
	if len(fm) != TailMessages+6 || len(tm) != TailMessages || partial != "true" {
		t.Fatalf("full %d messages, tail %d (partial %q)", len(fm), len(tm), partial)
	}
	for i, m := range tm {
		if m.ID != fm[len(fm)-TailMessages+i].ID {
			t.Fatalf("tail message %d is %s, want %s", i, m.ID, fm[len(fm)-TailMessages+i].ID)
		}
	}
	if string(reducerState(full)) != string(reducerState(tail)) {
		t.Fatalf("tail state %s, full %s", reducerState(tail), reducerState(full))
	}
}

// TestIDsDoNotCollide: two clients with the same threadId and runId get
// two threads and two runs; run keys and thread keys say nothing of the
// request.
func TestIDsDoNotCollide(t *testing.T) {
	eachBackend(t, func(t *testing.T, open func(testing.TB) store.Store) {
		up := newUpstream(t, &fakeAgent{n: 2})
		_, rs := newRelay(t, up.URL, open(t), func(c *Config) { c.AuthHeader = "Authorization" })
		ids := map[string]bool{}
		for _, who := range []string{"alice", "bob"} {
			resp := post(t, rs.URL, runInput("thread-1", "run-1", "I am "+who), map[string]string{"Authorization": who})
			fs := readFrames(resp.Body, nil)
			resp.Body.Close()
			k, _, _ := parseEventID(fs[0].ID)
			if ids[k] || strings.Contains(fs[0].ID, "run-1") {
				t.Fatalf("run id %s repeats or reveals the request", fs[0].ID)
			}
			ids[k] = true
		}
		for _, who := range []string{"alice", "bob"} {
			v, st, body := loadThread(t, rs.URL, "thread-1", map[string]string{"Authorization": who})
			if st != 200 || len(v.Messages) != 2 || !strings.Contains(string(v.Messages[0]), "I am "+who) {
				t.Fatalf("%s's thread: %d %s", who, st, body)
			}
		}
	})
}
