package main

import (
	"bytes"
	"context"
	"errors"
	"github.com/agui-reducer/agui/dialect"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Resumable runs (docs/resume.md). Every frame of a replayed or relayed run
// (relay.go) carries an SSE id, "<key>:<seq>": key names one run as started
// by one POST (the run id plus a random tag, since clients reuse run ids),
// seq numbers its frames from 1. The run is produced apart from the connection into the run log;
// a connection streams the log. A POST /agent with Last-Event-ID streams
// the same run from the frame after that id, whether the run is finished or
// still being produced.

// eventID is the SSE id of frame seq (1-based) of the run logged as key.
func eventID(key string, seq int) string {
	return key + ":" + strconv.Itoa(seq)
}

// parseEventID splits a Last-Event-ID into the run key and the sequence
// number of the last frame the client has.
func parseEventID(id string) (key string, seq int, ok bool) {
	i := strings.LastIndexByte(id, ':')
	if i <= 0 {
		return "", 0, false
	}
	n, err := strconv.Atoi(id[i+1:])
	if err != nil || n < 0 || strconv.Itoa(n) != id[i+1:] {
		return "", 0, false
	}
	return id[:i], n, true
}

// runKey is the id prefix of a new run: its run id when that is short and
// plain (readable in logs), always with a random tag.
func runKey(runID string) string {
	tag := randomID()[:8]
	if len(runID) == 0 || len(runID) > 64 {
		return "run." + tag
	}
	for _, c := range runID {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			return "run." + tag
		}
	}
	return runID + "." + tag
}

// startRun logs a new run and produces it in the background: the events of
// the scenario, paced, rendered into frames with the request's (bounded)
// thread and run ids and the id mapping of choose. The run goes on when
// its client's connection drops (for resumeGrace) so that the client can
// come back for the rest. It returns the run and its first connection's
// reader, or nil when -max-runs runs are being produced already.
func (s *server) startRun(sc *scenario, ids map[string]string, threadID, runID string) (*loggedRun, *reader) {
	ctx, cancel := context.WithCancel(s.ctx)
	run := &loggedRun{key: runKey(runID), runID: runID, scenario: sc.name, cancel: cancel}
	rd, ok := s.runs.add(run, s.maxRuns)
	if !ok {
		cancel()
		return nil, nil
	}
	s.running.Add(1)
	go func() {
		defer s.running.Done()
		defer cancel()
		start := time.Now()
		produced, err := s.replay(ctx, sc, ids, threadID, runID, func(frame []byte) {
			s.runs.append(run, bytes.Clone(frame))
		})
		s.runs.finish(run, err == nil)
		switch {
		case err == nil:
			s.logf("agent: run %s, scenario %s: %d events in %v", runID, sc.name, produced, time.Since(start).Round(time.Millisecond))
		case s.runs.stopReason(run) != "":
			s.logf("agent: run %s, scenario %s: stopped after %d of %d events (%s)", runID, sc.name, produced, len(sc.events), s.runs.stopReason(run))
		default:
			s.logf("agent: run %s, scenario %s: stopped after %d of %d events (no client came back, or the server stops)", runID, sc.name, produced, len(sc.events))
		}
		if s.done != nil {
			s.done(sc.name, produced, err)
		}
	}()
	return run, rd
}

// replay produces the events of the scenario, paced, rendered with the
// request's (bounded) thread and run ids and the id mapping of choose,
// into emit (whose argument is reused after it returns), until the end or
// until ctx is done (its error). It returns the events produced.
func (s *server) replay(ctx context.Context, sc *scenario, ids map[string]string, threadID, runID string, emit func([]byte)) (int, error) {
	produced := 0
	var buf []byte
	for i, ev := range sc.events {
		if s.beforeEvent != nil {
			s.beforeEvent(i)
		}
		if d := s.delay(ev); d > 0 {
			t := time.NewTimer(d)
			select {
			case <-ctx.Done():
				t.Stop()
			case <-t.C:
			}
		}
		if err := ctx.Err(); err != nil {
			return produced, err
		}
		buf = s.render(buf[:0], ev, ids, threadID, runID)
		emit(buf)
		produced++
	}
	return produced, nil
}

// parseDropAfter reads -drop-after: "N" cuts every connection after N
// frames, "N-M" after a count drawn for each connection from [N, M].
func parseDropAfter(v string) (lo, hi int, err error) {
	a, b, isRange := strings.Cut(strings.TrimSpace(v), "-")
	if lo, err = strconv.Atoi(a); err != nil || lo < 0 {
		return 0, 0, errors.New("-drop-after: want N or N-M (frames), got " + strconv.Quote(v))
	}
	hi = lo
	if isRange {
		if hi, err = strconv.Atoi(b); err != nil || hi < lo || lo == 0 {
			return 0, 0, errors.New("-drop-after: want N or N-M with 0 < N <= M, got " + strconv.Quote(v))
		}
	}
	return lo, hi, nil
}

// errDropped is how a connection cut by -drop-after ends.
var errDropped = errors.New("connection dropped (-drop-after)")

// stream writes the frames of run after those rd has as text/event-stream,
// each with its id, as they are produced, until the run is done, the client
// goes away, or -drop-after cuts the connection. It returns the frames
// written. rd is detached when it returns.
func (s *server) stream(w http.ResponseWriter, ctx context.Context, run *loggedRun, rd *reader) (int, error) {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	if run.scenario != "" {
		h.Set("X-Agui-Scenario", run.scenario)
	}
	defer s.runs.detach(run, rd, s.resumeGrace)
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	if err := rc.Flush(); err != nil { // the headers: the client knows the run is on
		return 0, err
	}
	sent := 0
	cut := s.dropAfter
	if isInternal(ctx) {
		cut = 0 // the in-process relay's upstream request (threads.go)
	} else if s.dropAfterMax > cut {
		cut += rand.IntN(s.dropAfterMax - cut + 1)
	}
	var buf []byte
	for {
		frames, done, changed := s.runs.next(run, rd)
		for _, f := range frames {
			if cut > 0 && sent == cut {
				return sent, errDropped
			}
			buf = append(buf[:0], "id: "...)
			buf = append(buf, eventID(run.key, rd.pos+1)...)
			buf = append(buf, '\n')
			if _, ok := dialect.AmendRecord(f); !ok {
				buf = append(buf, "data: "...)
			}
			buf = append(buf, f...)
			buf = append(buf, "\n\n"...)
			_ = rc.SetWriteDeadline(time.Now().Add(frameWriteTimeout))
			if _, err := w.Write(buf); err != nil {
				return sent, err
			}
			if err := rc.Flush(); err != nil {
				return sent, err
			}
			s.runs.advance(run, rd)
			sent++
		}
		if done && len(frames) == 0 {
			return sent, nil
		}
		if len(frames) > 0 {
			continue // more may have come meanwhile
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return sent, ctx.Err()
		}
	}
}

// dropLinger is how long a connection -drop-after cuts stays open after its
// last frame.
const dropLinger = 100 * time.Millisecond

// serveRun streams a run to a connection and ends the connection as the
// stream ended: -drop-after aborts it mid-body, as a network cut would.
func (s *server) serveRun(w http.ResponseWriter, r *http.Request, run *loggedRun, rd *reader) {
	sent, err := s.stream(w, r.Context(), run, rd)
	if err != nil && !errors.Is(err, errDropped) {
		s.logf("agent: run %s: connection ended after %d frames (%v)", run.runID, sent, err)
	}
	if errors.Is(err, errDropped) {
		// A browser drops the chunks a body stream still queues when the
		// stream errors: a cut right after a burst of frames (the backlog
		// a resumed connection starts with) would lose them all, every
		// time. The connection lingers a moment first so that the client
		// reads what was sent, as on a real network, where a cut rarely
		// follows a write that closely.
		time.Sleep(dropLinger)
		panic(http.ErrAbortHandler) // closes the connection without ending the body
	}
}

// resume answers a POST /agent with Last-Event-ID: the rest of that run.
func (s *server) resume(w http.ResponseWriter, r *http.Request, lastID string) {
	key, seq, ok := parseEventID(lastID)
	if !ok {
		httpError(w, http.StatusBadRequest, "bad_last_event_id",
			"Last-Event-ID "+quoteShort(lastID)+" is not an event id of this server (<run>:<seq>)")
		return
	}
	run, rd, code, frames := s.runs.resume(key, seq)
	switch code {
	case "resume_unavailable":
		httpError(w, http.StatusGone, code,
			"run "+quoteShort(key)+" is not in this server's log (unknown, or expired after "+s.runs.ttl.String()+", or evicted); start a new run")
		return
	case "bad_last_event_id":
		httpError(w, http.StatusBadRequest, code,
			"run "+quoteShort(key)+" has "+strconv.Itoa(frames)+" frames, not "+strconv.Itoa(seq))
		return
	case "run_stopped":
		httpError(w, http.StatusGone, code,
			"run "+quoteShort(key)+" was stopped before it finished (no client came back in time, or it outgrew -resume-bytes); start a new run")
		return
	}
	s.serveRun(w, r, run, rd)
}
