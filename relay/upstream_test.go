package relay

import (
	"fmt"
	"net/http"
	"strconv"
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

// sparseIDAgent puts an SSE id on every other event only (or, with
// idOnly, sends it as a frame of its own after the event), and cuts its
// first answer mid-frame before event cut; a resume goes on after the
// event the id names.
type sparseIDAgent struct {
	cut      int
	idOnly   bool
	requests atomic.Int32
}

func (a *sparseIDAgent) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	n := a.requests.Add(1)
	w.Header().Set("Content-Type", "text/event-stream")
	evs := []string{`{"type":"RUN_STARTED","threadId":"t1","runId":"r1"}`,
		`{"type":"TEXT_MESSAGE_START","messageId":"m","role":"assistant"}`}
	for _, c := range "ABCDEFGH" {
		evs = append(evs, `{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"`+string(c)+`"}`)
	}
	evs = append(evs, `{"type":"TEXT_MESSAGE_END","messageId":"m"}`, `{"type":"RUN_FINISHED","threadId":"t1","runId":"r1"}`)
	from := 0
	if id := r.Header.Get("Last-Event-ID"); id != "" {
		k, _ := strconv.Atoi(strings.TrimPrefix(id, "e"))
		from = k + 1
	}
	for i := from; i < len(evs); i++ {
		if n == 1 && i == a.cut {
			w.Write([]byte("data: {\"type\":"))
			w.(http.Flusher).Flush()
			panic(http.ErrAbortHandler)
		}
		switch {
		case i%2 == 0 && a.idOnly:
			fmt.Fprintf(w, "data: %s\n\nid: e%d\n\n", evs[i], i)
		case i%2 == 0:
			fmt.Fprintf(w, "id: e%d\ndata: %s\n\n", i, evs[i])
		default:
			fmt.Fprintf(w, "data: %s\n\n", evs[i])
		}
	}
}

// TestUpstreamResumeSparseIDs: an agent that puts an SSE id on some events
// only resends, on a resume, the events after the one the id names; those
// the relay read before the cut are not stored twice ("ABCDEFFGH"), wherever
// the cut, and whether the id comes with an event or in a frame of its own.
func TestUpstreamResumeSparseIDs(t *testing.T) {
	for _, idOnly := range []bool{false, true} {
		for cut := 1; cut < 12; cut++ {
			a := &sparseIDAgent{cut: cut, idOnly: idOnly}
			up := newUpstream(t, a)
			_, rs := newRelay(t, up.URL, nil, nil)
			resp := post(t, rs.URL, runInput("t1", "r1", "hello"), nil)
			fs := readFrames(resp.Body, nil)
			resp.Body.Close()
			msgs, _ := foldFrames(fs)
			if n := a.requests.Load(); n != 2 {
				t.Fatalf("cut %d, id-only %v: %d upstream requests, want 2", cut, idOnly, n)
			}
			if !strings.Contains(msgs, `"content":"ABCDEFGH"`) || eventType(fs[len(fs)-1].Data) != "RUN_FINISHED" || len(fs) != 12 {
				t.Fatalf("cut %d, id-only %v: %d frames, folded %s, last frame %s", cut, idOnly, len(fs), msgs, fs[len(fs)-1].Data)
			}
		}
	}
}

// TestUpstreamMultilineData: an agent's event whose data spans several
// lines (valid SSE: the lines are joined with line breaks, valid JSON
// whitespace) is sent to the client on one data line, whatever the
// dialect: a line break in a frame's data would cut the event short.
func TestUpstreamMultilineData(t *testing.T) {
	for _, d := range []string{"", "auto", "tanstack"} {
		t.Run(d, func(t *testing.T) {
			up := newUpstream(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/event-stream")
				fmt.Fprint(w, "data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n")
				fmt.Fprint(w, "data: {\"type\":\"TEXT_MESSAGE_START\",\ndata:  \"messageId\":\"m\",\r\ndata: \"role\":\"assistant\"}\n\n")
				fmt.Fprint(w, "data: {\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m\",\"delta\":\"hi\"}\n\n")
				fmt.Fprint(w, "data: {\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m\"}\n\n")
				fmt.Fprint(w, "data: {\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n")
			}))
			_, rs := newRelay(t, up.URL, nil, func(c *Config) { c.UpstreamDialect = d })
			resp := post(t, rs.URL, runInput("t1", "r1", "hi"), nil)
			fs := readFrames(resp.Body, nil)
			resp.Body.Close()
			var types []string
			for _, f := range fs {
				types = append(types, eventType(f.Data))
			}
			if got := strings.Join(types, " "); got != "RUN_STARTED TEXT_MESSAGE_START TEXT_MESSAGE_CONTENT TEXT_MESSAGE_END RUN_FINISHED" {
				t.Fatalf("frames: %s", got)
			}
			if msgs, _ := foldFrames(fs); !strings.Contains(msgs, `"content":"hi"`) {
				t.Fatalf("folded %s", msgs)
			}
		})
	}
}
