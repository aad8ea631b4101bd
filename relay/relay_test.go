package relay

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

func TestRunAndThread(t *testing.T) {
	up := newUpstream(t, &fakeAgent{n: 5})
	_, rs := newRelay(t, up.URL, nil, nil)
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
	// Without the key: nothing.
	_, st, body = loadThread(t, rs.URL, "t1", map[string]string{threadKeyHeader: randomKey(keyLen)})
	if st != http.StatusNotFound || !strings.Contains(body, `"code":"thread_not_found"`) {
		t.Fatalf("other key: %d %s", st, body)
	}
	resp = get(t, rs.URL, "/threads/t1", nil)
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(string(b), "credential_required") {
		t.Fatalf("no key: %d %s", resp.StatusCode, b)
	}
}
