package relay

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeAgent is an AG-UI agent for tests: each run streams RUN_STARTED, one
// assistant message of n deltas (ids from the run id), a STATE_DELTA
// counting the turns, and RUN_FINISHED. hold, when set, is called before
// event i; misbehave picks a fault.
type fakeAgent struct {
	n         int
	delay     time.Duration
	misbehave string // "", "cut", "stall", "midframe", "status", "notsse", "huge", "midframe-once"
	mu        sync.Mutex
	runs      int
	gate      chan struct{} // when set, each event after the first 3 waits for a receive
}

func (a *fakeAgent) events(threadID, runID string) []string {
	// Test ids are plain ASCII: quoting is concatenation (cheap for
	// the oversized ids of TestBounds).
	q := func(s string) string { return `"` + s + `"` }
	mid := q("m-" + runID)
	ev := []string{
		`{"type":"RUN_STARTED","threadId":` + q(threadID) + `,"runId":` + q(runID) + `}`,
		`{"type":"STATE_SNAPSHOT","snapshot":{"turns":1,"last":` + q(runID) + `}}`,
		`{"type":"TEXT_MESSAGE_START","messageId":` + mid + `,"role":"assistant"}`,
	}
	for i := range a.n {
		ev = append(ev, `{"type":"TEXT_MESSAGE_CONTENT","messageId":`+mid+`,"delta":"w`+strconv.Itoa(i)+` "}`)
	}
	ev = append(ev, `{"type":"TEXT_MESSAGE_END","messageId":`+mid+`}`,
		`{"type":"RUN_FINISHED","threadId":`+q(threadID)+`,"runId":`+q(runID)+`}`)
	return ev
}

func (a *fakeAgent) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var in struct {
		ThreadID string `json:"threadId"`
		RunID    string `json:"runId"`
	}
	json.NewDecoder(r.Body).Decode(&in)
	a.mu.Lock()
	a.runs++
	a.mu.Unlock()
	// A resume (Last-Event-ID: up-N) goes on after event N, unless the
	// agent misbehaves for good.
	from := 0
	if id := r.Header.Get("Last-Event-ID"); id != "" {
		n, err := strconv.Atoi(strings.TrimPrefix(id, "up-"))
		if err != nil || a.misbehave != "midframe-once" {
			http.Error(w, "cannot resume", http.StatusGone)
			return
		}
		from = n + 1
	}
	switch a.misbehave {
	case "status":
		http.Error(w, "boom", http.StatusBadGateway)
		return
	case "notsse":
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{}`))
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	rc := http.NewResponseController(w)
	evs := a.events(in.ThreadID, in.RunID)
	a.mu.Lock()
	gate := a.gate
	a.mu.Unlock()
	for i, e := range evs {
		if i < from {
			continue
		}
		if gate != nil && i >= 3 {
			select {
			case <-gate:
			case <-r.Context().Done():
				return
			}
		}
		switch {
		case a.misbehave == "cut" && i == 4:
			return
		case a.misbehave == "stall" && i == 4:
			<-r.Context().Done()
			return
		case (a.misbehave == "midframe" || a.misbehave == "midframe-once" && from == 0) && i == 4:
			w.Write([]byte("data: " + e[:len(e)/2]))
			rc.Flush()
			panic(http.ErrAbortHandler)
		case a.misbehave == "huge" && i == 4:
			e = `{"type":"TEXT_MESSAGE_CONTENT","messageId":"x","delta":"` + strings.Repeat("y", 4<<20) + `"}`
		}
		fmt.Fprintf(w, "id: up-%d\ndata: %s\n\n", i, e)
		if rc.Flush() != nil || r.Context().Err() != nil {
			return // the relay hung up
		}
		if a.delay > 0 {
			time.Sleep(a.delay)
		}
	}
}

// setGate gates the runs that start from now on.
func (a *fakeAgent) setGate(g chan struct{}) {
	a.mu.Lock()
	a.gate = g
	a.mu.Unlock()
}

func newUpstream(t testing.TB, a http.Handler) *httptest.Server {
	srv := httptest.NewServer(a)
	t.Cleanup(srv.Close)
	return srv
}
