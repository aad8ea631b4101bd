package relay

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agui-reducer/agui/reducer/sse"
)

// bigAgent answers with n text events of size bytes each.
type bigAgent struct{ n, size int }

func (a bigAgent) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/event-stream")
	fmt.Fprint(w, "data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t1\",\"runId\":\"r1\"}\n\n")
	fmt.Fprint(w, "data: {\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m\",\"role\":\"assistant\"}\n\n")
	delta := strings.Repeat("w", a.size)
	for range a.n {
		fmt.Fprintf(w, "data: {\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m\",\"delta\":\"%s\"}\n\n", delta)
	}
	fmt.Fprint(w, "data: {\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m\"}\n\n")
	fmt.Fprint(w, "data: {\"type\":\"RUN_FINISHED\",\"threadId\":\"t1\",\"runId\":\"r1\"}\n\n")
}

// writeRecorder is a client's connection as a stream sees it: it keeps
// what is written and the largest single write.
type writeRecorder struct {
	*httptest.ResponseRecorder
	mu      sync.Mutex
	largest int
}

func (w *writeRecorder) Write(b []byte) (int, error) {
	w.mu.Lock()
	w.largest = max(w.largest, len(b))
	w.mu.Unlock()
	return w.ResponseRecorder.Write(b)
}

func (w *writeRecorder) SetWriteDeadline(time.Time) error { return nil }

// TestStreamWritesInPieces: a resume from the start of a long run is
// written in pieces of at most streamChunk bytes (a frame larger than
// that as the store holds it), not formatted whole into one buffer per
// batch: a client that reads slowly, or many resuming at once, hold the
// relay to a constant per stream rather than a copy of the run each.
func TestStreamWritesInPieces(t *testing.T) {
	const piece = 64 << 10 // streamChunk
	for _, c := range []struct{ n, size int }{{100, 2 << 10}, {20, 200 << 10}} {
		n, size := c.n, c.size
		t.Run(fmt.Sprint(size), func(t *testing.T) {
			up := newUpstream(t, bigAgent{n: n, size: size})
			_, rs := newRelay(t, up.URL, nil, func(c *Config) { c.MaxRunBytes = 64 << 20 })
			resp := post(t, rs.URL, runInput("t1", "r1", "hello"), nil)
			key := resp.Header.Get(threadKeyHeader)
			first := readFrames(resp.Body, nil)
			resp.Body.Close()
			if len(first) != n+4 || eventType(first[n+3].Data) != "RUN_FINISHED" {
				t.Fatalf("%d frames", len(first))
			}
			runKey, _, _ := parseEventID(first[0].ID)

			req := httptest.NewRequest("POST", "http://127.0.0.1/agent", strings.NewReader("{}")).WithContext(context.Background())
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set(threadKeyHeader, key)
			req.Header.Set("Last-Event-ID", eventID(runKey, 0))
			w := &writeRecorder{ResponseRecorder: httptest.NewRecorder()}
			rs.Config.Handler.ServeHTTP(w, req)
			events, errs := sse.ParseAll(w.Body.Bytes())
			if len(errs) > 0 || len(events) != n+4 {
				t.Fatalf("resumed: %d events, %v", len(events), errs)
			}
			for i, e := range events {
				if e.ID != first[i].ID || e.Data != first[i].Data {
					t.Fatalf("frame %d differs", i)
				}
			}
			// A piece is at most streamChunk and the frame that passed it.
			if limit := max(2*piece, size+128); w.largest > limit {
				t.Fatalf("largest write %d bytes, want at most %d", w.largest, limit)
			}
		})
	}
}
