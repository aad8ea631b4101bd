package relay

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"testing"
	"time"
)

// benchServeEnv names the environment variable that turns
// TestServeThreadLoad on.
const benchServeEnv = "AGUI_RELAY_BENCH_SERVE"

// TestServeThreadLoad is not a test but the server of the JavaScript
// thread-load benchmark (bench/relay-thread.mjs), which builds this test
// binary and runs it with AGUI_RELAY_BENCH_SERVE=1: a relay holding the
// 10,000-message thread of BenchmarkThreadLoad (thread "t"), and the same
// thread's history as one SSE body, as a server without snapshots sends
// it (each turn's user message as TEXT_MESSAGE events after its
// RUN_STARTED, so that replaying the body alone builds the same
// conversation). It prints one line, "bench-serve " and a JSON object of
// the addresses and sizes, and serves until its standard input closes
// (at most ten minutes). On the address "origin" the relay, the history
// and the repository's web/ and bench/ folders share one origin, for a page.
func TestServeThreadLoad(t *testing.T) {
	if os.Getenv(benchServeEnv) == "" {
		t.Skip("the server of bench/relay-thread.mjs: set " + benchServeEnv + "=1")
	}
	users, events := longThread(t, 10000)
	snap := joinSnapshot(replay(users, events))
	_, key, relay := seedThread(t, snap)
	perTurn := len(events) / len(users)
	var body []byte
	frame := func(data string) { body = append(append(append(body, "data: "...), data...), "\n\n"...) }
	for i, u := range users {
		turn := events[i*perTurn : (i+1)*perTurn]
		frame(string(turn[0])) // RUN_STARTED
		id := fmt.Sprintf("u%d", i)
		frame(`{"type":"TEXT_MESSAGE_START","messageId":"` + id + `","role":"user"}`)
		frame(`{"type":"TEXT_MESSAGE_CONTENT","messageId":"` + id + `","delta":"` + u + `"}`)
		frame(`{"type":"TEXT_MESSAGE_END","messageId":"` + id + `"}`)
		for _, e := range turn[1:] {
			frame(string(e))
		}
	}
	history := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write(body)
	})
	// For a page (Chromium): the relay, the history and the repository's
	// web/ and bench/ folders on one origin.
	mux := http.NewServeMux()
	mux.Handle("/agent", relay)
	mux.Handle("/threads/", relay)
	mux.Handle("/history", history)
	files := http.FileServer(http.Dir(".."))
	mux.Handle("/web/", files)
	mux.Handle("/bench/", files)
	mux.HandleFunc("/favicon.ico", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
	origin := newUpstream(t, mux)
	info, _ := json.Marshal(map[string]any{
		"agent": origin.URL + "/agent", "threadId": "t", "threadKey": key, "history": origin.URL + "/history", "origin": origin.URL,
		"messages": 2 * len(users), "events": len(events) + 3*len(users),
		"historyBytes": len(body), "snapshotBytes": len(snap),
	})
	fmt.Printf("bench-serve %s\n", info)
	done := make(chan struct{})
	go func() {
		io.Copy(io.Discard, os.Stdin)
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Minute):
	}
}
