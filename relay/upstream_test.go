package relay

import (
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
)

// restartingAgent sends SSE ids, cuts every answer mid-frame, and answers
// a resume (Last-Event-ID) with a new run from its start, under a new
// runId: it never resumes.
type restartingAgent struct{ requests atomic.Int32 }

func (a *restartingAgent) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	run := fmt.Sprintf("r%d", a.requests.Add(1))
	w.Header().Set("Content-Type", "text/event-stream")
	for i, e := range []string{
		`{"type":"RUN_STARTED","threadId":"t1","runId":"` + run + `"}`,
		`{"type":"TEXT_MESSAGE_START","messageId":"m-` + run + `","role":"assistant"}`,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m-` + run + `","delta":"part of ` + run + `"}`,
	} {
		fmt.Fprintf(w, "id: %s-%d\ndata: %s\n\n", run, i, e)
	}
	w.Write([]byte(`data: {"type":"TEXT_MESS`))
	w.(http.Flusher).Flush()
	panic(http.ErrAbortHandler)
}

// TestUpstreamResumeAnsweredWithAnotherRun: an agent that answers the
// relay's upstream resume with another run (a new runId) has not resumed:
// the run ends as cut after the first answer, and the thread holds one
// partial answer, not one per attempt.
func TestUpstreamResumeAnsweredWithAnotherRun(t *testing.T) {
	a := &restartingAgent{}
	up := newUpstream(t, a)
	_, rs := newRelay(t, up.URL, nil, nil)
	resp := post(t, rs.URL, runInput("t1", "r1", "hello"), nil)
	key := resp.Header.Get(threadKeyHeader)
	fs := readFrames(resp.Body, nil)
	resp.Body.Close()
	var types []string
	for _, f := range fs {
		types = append(types, eventType(f.Data))
	}
	want := "RUN_STARTED TEXT_MESSAGE_START TEXT_MESSAGE_CONTENT RUN_ERROR:" + CodeUpstreamCut
	if got := strings.Join(types, " "); got != want {
		t.Fatalf("frames %s, want %s", got, want)
	}
	if n := a.requests.Load(); n != 2 {
		t.Fatalf("%d upstream requests, want 2 (the answer, one resume)", n)
	}
	v, _, body := loadThread(t, rs.URL, "t1", map[string]string{threadKeyHeader: key})
	if len(v.Messages) != 2 || strings.Contains(body, "part of r2") {
		t.Fatalf("thread: %s", body)
	}
}
