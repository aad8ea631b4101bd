package relay

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/agui-reducer/agui/reducer"
	"github.com/agui-reducer/agui/relay/store"
	"github.com/agui-reducer/agui/relay/store/memstore"
)

// newRelay is a relay on st (a memstore when nil) in front of upstream,
// served by an httptest server.
func newRelay(t testing.TB, upstream string, st store.Store, tweak func(*Config)) (*Server, *httptest.Server) {
	t.Helper()
	if st == nil {
		st = memstore.New()
	}
	u, _ := url.Parse(upstream)
	cfg := Config{Store: st, Upstream: u, Lease: 2 * time.Second, Grace: 2 * time.Second,
		UpstreamIdle: 10 * time.Second, StoreTimeout: 2 * time.Second, SweepEvery: -1}
	if tweak != nil {
		tweak(&cfg)
	}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(s)
	t.Cleanup(func() { hs.Close(); s.Close() })
	return s, hs
}

// frame is one SSE frame of an answer.
type frame struct {
	ID, Data string
}

// post sends a RunAgentInput and returns the response.
func post(t testing.TB, base string, body string, hdr map[string]string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest("POST", base+"/agent", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

func get(t testing.TB, base, path string, hdr map[string]string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest("GET", base+path, nil)
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// readFrames reads frames from an SSE body until it ends or stop says so.
func readFrames(body io.Reader, stop func(frame) bool) []frame {
	var out []frame
	var cur frame
	sc := bufio.NewScanner(body)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if cur.Data != "" {
				out = append(out, cur)
				if stop != nil && stop(cur) {
					return out
				}
			}
			cur = frame{}
		case strings.HasPrefix(line, "id: "):
			cur.ID = line[4:]
		case strings.HasPrefix(line, "data: "):
			cur.Data = line[6:]
		}
	}
	return out
}

func runInput(thread, run string, msgs ...string) string {
	b, _ := json.Marshal(map[string]any{"threadId": thread, "runId": run, "messages": userMessages(msgs...)})
	return string(b)
}

func userMessages(texts ...string) []map[string]any {
	var out []map[string]any
	for i, t := range texts {
		out = append(out, map[string]any{"id": "u" + string(rune('a'+i)), "role": "user", "content": t})
	}
	return out
}

func eventType(data string) string {
	var h struct {
		Type string `json:"type"`
		Code string `json:"code"`
	}
	json.Unmarshal([]byte(data), &h)
	if h.Code != "" {
		return h.Type + ":" + h.Code
	}
	return h.Type
}

// fold folds frames into a fresh reducer and returns its messages and state.
func foldFrames(fs []frame) (msgs, state string) {
	r := reducer.New(reducer.Options{})
	for _, f := range fs {
		r.Apply([]byte(f.Data))
	}
	return string(r.AppendMessages(nil)), string(reducerState(r))
}

func reducerState(r *reducer.Reducer) []byte {
	var b bytes.Buffer
	json.Compact(&b, mustJSON(r.State().State))
	return b.Bytes()
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

type threadView struct {
	ThreadID string            `json:"threadId"`
	Messages []json.RawMessage `json:"messages"`
	State    json.RawMessage   `json:"state"`
	Run      *struct {
		LastEventID string `json:"lastEventId"`
	} `json:"run"`
}

func loadThread(t testing.TB, base, thread string, hdr map[string]string) (threadView, int, string) {
	t.Helper()
	resp := get(t, base, "/threads/"+url.PathEscape(thread), hdr)
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var v threadView
	if resp.StatusCode == 200 {
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatalf("thread body %s: %v", b, err)
		}
	}
	return v, resp.StatusCode, string(b)
}

func waitFor(t testing.TB, what string, d time.Duration, f func() bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	for !f() {
		select {
		case <-ctx.Done():
			t.Fatalf("timed out waiting for %s", what)
		case <-time.After(20 * time.Millisecond):
		}
	}
}
