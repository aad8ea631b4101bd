package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/agui-reducer/agui/dialect"
	"github.com/agui-reducer/agui/reducer/sse"
)

// The relay (-upstream URL -upstream-dialect NAME): the upstream agent
// speaks another dialect (package dialect), and the server re-emits its
// answer as canonical AG-UI SSE, one frame per canonical event. A run so
// relayed is one canonical run whatever happens to the connections: it is
// produced into the run log like a replayed run, by one translator that
// lives as long as the run, and streamed from there with the server's own
// ids ("<key>:<seq>", resume.go). So
//
//   - a client whose connection drops resumes with its Last-Event-ID and
//     gets the frames after it, from the log, and then the rest as the
//     upstream sends it, the run's ids unchanged;
//   - an upstream answer cut before the run's end (RUN_FINISHED or
//     RUN_ERROR) is resumed by the server: it repeats the request with the
//     Last-Event-ID of the last upstream event it translated, and feeds the
//     rest to the same translator (at most maxUpstreamResumes times a run).
//
// A fresh translator per response, as a stateless proxy would use, starts
// a new canonical run on every reconnect; the client then takes the
// continuation for a run resent from its start, and the beginning of the
// answer is lost.

// maxUpstreamResumes bounds the requests that resume one cut upstream
// answer, and upstreamRetryDelay is the pause before the first (doubling).
const (
	maxUpstreamResumes = 5
	upstreamRetryDelay = 100 * time.Millisecond
)

// upstreamClient sends the relay's requests: no redirects followed (the
// upstream's answer is passed on, as by the proxy), no timeout but the
// run's context (the answer streams for as long as the run lasts).
var upstreamClient = &http.Client{
	CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
}

// relayAgent answers POST /agent in relay mode: a resume from the log, or a
// new run relayed from the upstream.
func (s *server) relayAgent(w http.ResponseWriter, r *http.Request) {
	if id := r.Header.Get("Last-Event-ID"); id != "" {
		s.resume(w, r, id)
		return
	}
	body, err := io.ReadAll(r.Body) // read and bounded by guardAgent
	r.Body = http.NoBody
	if err != nil {
		httpError(w, http.StatusBadRequest, "bad_request", "reading the body: "+err.Error())
		return
	}
	var in struct {
		RunID string `json:"runId"`
	}
	_ = json.Unmarshal(body, &in) // for the run's key only: the body is the upstream's to judge
	runID := s.ids.bound("run", in.RunID)
	hdr := r.Header.Clone()
	filterProxyHeaders(hdr, s.passHeaders)
	hdr.Del("Last-Event-ID") // the client's ids are this server's, not the upstream's

	if s.runs.full(s.maxRuns) { // checked again when the run is added
		tooManyRelayed(w, s.maxRuns)
		return
	}
	ctx, cancel := context.WithCancel(s.ctx)
	resp, err := s.upstreamRequest(ctx, body, hdr, "")
	if err != nil {
		cancel()
		s.logf("upstream: %v", err)
		httpError(w, http.StatusBadGateway, "upstream_unavailable", "the upstream agent did not answer")
		return
	}
	if resp.StatusCode/100 != 2 {
		defer cancel()
		passUpstreamError(w, resp, s.maxBody)
		return
	}
	run := &loggedRun{key: runKey(runID), runID: runID, cancel: cancel}
	rd, ok := s.runs.add(run, s.maxRuns)
	if !ok {
		resp.Body.Close()
		cancel()
		tooManyRelayed(w, s.maxRuns)
		return
	}
	// The body is kept to resume the upstream's answer: it counts.
	s.runs.charge(run, int64(cap(body)))
	s.running.Add(1)
	go s.relayRun(ctx, run, resp, body, hdr)
	s.serveRun(w, r, run, rd)
}

func tooManyRelayed(w http.ResponseWriter, maxRuns int) {
	w.Header().Set("Retry-After", "1")
	httpError(w, http.StatusServiceUnavailable, "too_many_runs",
		"the server is relaying "+strconv.Itoa(maxRuns)+" runs already (-max-runs)")
}

// upstreamRequest POSTs the run's request to the upstream, resuming after
// lastID when it is not "".
func (s *server) upstreamRequest(ctx context.Context, body []byte, hdr http.Header, lastID string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, "POST", s.upstream.String(), bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header = hdr.Clone()
	if lastID != "" {
		req.Header.Set("Last-Event-ID", lastID)
	}
	return upstreamClient.Do(req)
}

// passUpstreamError answers with the upstream's error answer: its status,
// type and body (at most limit bytes), nothing else of its headers.
func passUpstreamError(w http.ResponseWriter, resp *http.Response, limit int64) {
	defer resp.Body.Close()
	for _, k := range []string{"Content-Type", "Retry-After", "WWW-Authenticate"} {
		if v := resp.Header.Get(k); v != "" {
			w.Header().Set(k, v)
		}
	}
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(resp.StatusCode)
	_, _ = io.Copy(w, io.LimitReader(resp.Body, limit))
}

// relayRun produces a relayed run: the upstream's answer, translated by
// one translator, into the run log; a cut answer is resumed from the
// upstream.
func (s *server) relayRun(ctx context.Context, run *loggedRun, resp *http.Response, body []byte, hdr http.Header) {
	defer s.running.Done()
	defer run.cancel()
	// An upstream event, and what the translator emits for it, are at most
	// what the log may hold.
	maxEvent := int(min(s.logBytes, sse.DefaultMaxEventSize))
	t := dialect.New(dialect.Options{Dialect: s.upstreamDialect, MaxEventBytes: maxEvent})
	p := sse.NewParser(sse.Options{MaxEventSize: maxEvent})
	lastID, ended, events := "", false, 0
	emit := func(ev []byte) {
		if runEnds(ev) {
			ended = true
		}
		s.runs.append(run, bytes.Clone(ev))
	}
	// What canonical AG-UI has no event for goes on as an amendment frame
	// (dialect.AmendFrame), which a page that detects the dialect folds.
	amend := func(a []byte) { s.runs.append(run, dialect.AppendAmendRecord(nil, a)) }
	onEvent := func(e sse.Event) {
		// What the translator keeps of the stream (ids, the text it
		// streamed) is at most what it was fed: that counts too.
		s.runs.charge(run, int64(len(e.Data))+frameOverhead)
		for _, d := range t.TranslateTo(e.Type, []byte(e.Data), emit, amend) {
			s.logf("upstream event: %s %s", d.Code, d.Message)
		}
		if e.ID != "" {
			lastID = e.ID
		}
		events++
	}
	onError := func(err error) { s.logf("upstream: %v", err) }
	resumes := 0
	for {
		err := feedAll(resp.Body, p, onEvent, onError)
		resp.Body.Close()
		p.Close(nil)
		if ended || ctx.Err() != nil || err == nil || lastID == "" || resumes == maxUpstreamResumes {
			if err != nil && ctx.Err() == nil && !ended {
				s.logf("upstream: run %s: answer cut (%v), not resumed", run.runID, err)
			}
			break
		}
		// Cut before the run's end: ask for the rest.
		resumes++
		s.logf("upstream: run %s: answer cut (%v); resuming after %s", run.runID, err, quoteShort(lastID))
		if !sleepCtx(ctx, upstreamRetryDelay<<(resumes-1)) {
			break
		}
		resp, err = s.upstreamRequest(ctx, body, hdr, lastID)
		if err != nil {
			s.logf("upstream: run %s: resume failed: %v", run.runID, err)
			break
		}
		if resp.StatusCode/100 != 2 {
			resp.Body.Close()
			s.logf("upstream: run %s: resume answered %s", run.runID, resp.Status)
			break
		}
	}
	s.runs.finish(run, ended)
	if reason := s.runs.stopReason(run); reason != "" {
		s.logf("agent: run %s (relayed): stopped after %d upstream events (%s)", run.runID, events, reason)
	} else {
		s.logf("agent: run %s (relayed): %d upstream events, %d resumes, complete %v", run.runID, events, resumes, ended)
	}
}

// feedAll feeds the body to the parser until it ends: nil at its end, the
// read error when it was cut.
func feedAll(body io.Reader, p *sse.Parser, emit func(sse.Event), onError func(error)) error {
	buf := make([]byte, 32<<10)
	for {
		n, err := body.Read(buf)
		p.FeedEach(buf[:n], emit, onError)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// runEnds reports whether a canonical event ends its run.
func runEnds(ev []byte) bool {
	if !bytes.Contains(ev, []byte(`"RUN_`)) {
		return false
	}
	var e struct {
		Type string `json:"type"`
	}
	return json.Unmarshal(ev, &e) == nil && (e.Type == "RUN_FINISHED" || e.Type == "RUN_ERROR")
}

// sleepCtx waits d, or less when ctx is done first; it reports whether
// ctx is still alive.
func sleepCtx(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}
