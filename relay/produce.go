package relay

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/agui-reducer/agui/dialect"
	"github.com/agui-reducer/agui/reducer/sse"
	"github.com/agui-reducer/agui/relay/store"
)

// Codes of the RUN_ERROR events the relay ends a run with (docs/relay.md).
const (
	CodeUpstreamUnreachable = "relay_upstream_unreachable" // the request to the agent failed
	CodeUpstreamStatus      = "relay_upstream_status"      // the agent answered an HTTP error
	CodeUpstreamNotSSE      = "relay_upstream_not_sse"     // the agent's answer is not text/event-stream
	CodeUpstreamCut         = "relay_upstream_cut"         // the agent's stream ended before the run's end
	CodeUpstreamStalled     = "relay_upstream_stalled"     // the agent sent nothing for -upstream-idle
	CodeEventTooLarge       = "relay_event_too_large"      // an event larger than -max-event-bytes
	CodeRunTooLarge         = "relay_run_too_large"        // the run passed -max-run-bytes
	CodeRunTimeout          = "relay_run_timeout"          // the run passed -run-timeout
	CodeAbandoned           = "relay_run_abandoned"        // no client read it for -grace
	CodeShutdown            = "relay_shutdown"             // the producing relay stopped
	CodeProducerLost        = "relay_producer_lost"        // the producing relay vanished (lease expired)
	CodeStoreUnavailable    = "relay_store_unavailable"    // the store failed for -store-timeout
	CodeRunLost             = "relay_run_lost"             // the store no longer has the run
)

// runError is the frame of a RUN_ERROR event.
func runError(code, msg string) []byte {
	b, _ := json.Marshal(struct {
		Type    string `json:"type"`
		Message string `json:"message"`
		Code    string `json:"code"`
	}{"RUN_ERROR", msg, code})
	return b
}

// end is why a run ends: its last frame and outcome; for the relay's own
// RUN_ERROR, its code and what the log says of it.
type end struct {
	frame   []byte
	outcome string
	code    string // the relay's code, "" for the agent's own end
	reason  string
}

func relayEnd(code, msg string) *end {
	return &end{frame: runError(code, msg), outcome: store.OutcomeError, code: code, reason: msg}
}

var (
	errStalled   = errors.New("upstream stalled")
	errAbandoned = errors.New("abandoned")
	errReaped    = errors.New("reaped")
	errTimeout   = errors.New("run timeout")
)

// producer produces one run: the upstream's events into the store.
type producer struct {
	s      *Server
	run    *store.Run
	ctx    context.Context
	cancel context.CancelCauseFunc
	seq    int64
	bytes  int64
	// readers counts this instance's streams of the run: with Grace 0,
	// the last one leaving stops it at once (keyless.go).
	readers  atomic.Int32
	lastID   string              // the SSE id of the upstream's last event
	resuming bool                // the upstream's answer was cut: asking for the rest
	runID    string              // the runId of the run's RUN_STARTED (a resumed answer must not start another)
	tr       *dialect.Translator // one per run, kept with it
	fin      *end                // set when the run must end
	gone     bool                // the store lost the run, or someone else ended it
	down     bool                // the store refused a frame for StoreTimeout
	// over ends when the producer is done with the run (its streams
	// wake: context.AfterFunc, no goroutine per stream).
	over     context.Context
	overDone context.CancelFunc
	// sinceID counts the upstream events read after the one that set
	// lastID (events without an id field of their own): a resume from
	// lastID sends them again, and skip drops that many at the start of
	// the resumed answer.
	sinceID, skip int
}

// newProducer is the producer of a new run, known to this instance's
// streams (attach) until it ends; produce starts it.
func (s *Server) newProducer(run *store.Run) *producer {
	ctx, cancel := context.WithCancelCause(s.ctx)
	tctx, tcancel := context.WithTimeoutCause(ctx, s.cfg.RunTimeout, errTimeout)
	p := &producer{s: s, run: run, ctx: tctx, cancel: func(err error) { cancel(err); tcancel() }, bytes: store.RunBytes(run.Input)}
	p.over, p.overDone = context.WithCancel(context.Background())
	if s.cfg.UpstreamDialect != "" {
		p.tr = dialect.New(dialect.Options{Dialect: s.cfg.UpstreamDialect, MaxEventBytes: s.cfg.MaxEventBytes})
	}
	s.local.Store(run.Key, p)
	return p
}

func (p *producer) produce(body []byte, hdr http.Header) {
	s, run, cancel := p.s, p.run, p.cancel
	defer s.wg.Done()
	defer cancel(nil)
	stopBeat := p.heartbeat()
	p.pump(body, hdr)
	cancel(nil)
	stopBeat()
	if !p.gone {
		p.finish()
		if p.fin != nil {
			p.logEnd()
		}
	}
	// The run is over: its streams read on to its end, and its slot is
	// free (the fold and the bounds below hold none).
	s.local.Delete(run.Key)
	p.done()
	s.producing.Add(-1)
	sctx, scancel := context.WithTimeout(context.Background(), s.cfg.StoreTimeout)
	defer scancel()
	s.fold(sctx, run.Thread)
	s.bound(sctx)
}

// done wakes the run's streams on this instance: the producer is done.
func (p *producer) done() { p.overDone() }

// bound applies the store's bounds after a run: at once past the bytes
// (down to 90%, so that the next runs do not sweep again), and for the
// thread count once a tenth of -max-threads runs have ended since the
// last sweep, so that a run costs no full sweep (a sweep going on
// stands for all).
func (s *Server) bound(ctx context.Context) {
	if s.ctx.Err() != nil {
		return // draining
	}
	if used, err := s.store.Usage(ctx); err == nil && used > s.cfg.MaxStoreBytes {
		s.sweepTo(s.cfg.MaxStoreBytes / 10 * 9)
	} else if n := s.cfg.MaxThreads; n > 0 && s.finished.Add(1) >= int64(max(1, n/10)) {
		s.sweepTo(s.cfg.MaxStoreBytes)
	}
}

// heartbeat renews the lease every third of it, and stops a run nobody
// reads, until the returned stop (which waits for a renewal going on). A
// timer rather than a goroutine: a live run costs no stack for it.
func (p *producer) heartbeat() (stop func()) {
	every := p.s.cfg.Lease / 3
	var mu sync.Mutex
	stopped := false
	var t *time.Timer
	t = time.AfterFunc(every, func() {
		mu.Lock()
		defer mu.Unlock()
		if !stopped && p.ctx.Err() == nil && p.beat(every) {
			t.Reset(every)
		}
	})
	return func() {
		mu.Lock()
		stopped = true
		t.Stop()
		mu.Unlock()
	}
}

// beat renews the lease once; false when it ended the run.
func (p *producer) beat(every time.Duration) bool {
	rctx, rcancel := context.WithTimeout(p.ctx, every)
	readers, err := p.s.store.Renew(rctx, p.run.Key, time.Now().Add(p.s.cfg.Lease))
	rcancel()
	switch {
	case errors.Is(err, store.ErrDone), errors.Is(err, store.ErrNotFound):
		p.cancel(errReaped)
		return false
	case err != nil:
		return true // a failing store: appends decide
	}
	if readers.Before(p.run.Started) {
		readers = p.run.Started
	}
	if p.readers.Load() == 0 && time.Since(readers) > p.s.cfg.Grace+every {
		p.cancel(errAbandoned)
		return false
	}
	return true
}

// stopped is the end of a run whose context ended.
func (p *producer) stopped() *end {
	switch cause := context.Cause(p.ctx); {
	case errors.Is(cause, errTimeout):
		return relayEnd(CodeRunTimeout, "the run took longer than "+p.s.cfg.RunTimeout.String())
	case errors.Is(cause, errAbandoned):
		return relayEnd(CodeAbandoned, "no client read the run for "+p.s.cfg.Grace.String())
	case errors.Is(cause, errStalled):
		return relayEnd(CodeUpstreamStalled, "the agent sent nothing for "+p.s.cfg.UpstreamIdle.String())
	case errors.Is(cause, errReaped):
		p.gone = true
		return nil
	default:
		return relayEnd(CodeShutdown, "the relay producing the run stopped")
	}
}

// Upstream resumes: an upstream answer cut before the run's end (a read
// error, not a clean end) after an event with an SSE id is asked for again
// with that id as Last-Event-ID (docs/resume.md), and the rest goes to the
// same translator, at most maxUpstreamResumes times a run, the first after
// upstreamRetryDelay (doubling).
const (
	maxUpstreamResumes = 5
	upstreamRetryDelay = 100 * time.Millisecond
)

// pump streams the upstream's answer into the store until the run ends.
func (p *producer) pump(body []byte, hdr http.Header) {
	s := p.s
	for resumes := 0; ; resumes++ {
		if resumes > 0 {
			t := time.NewTimer(upstreamRetryDelay << (resumes - 1))
			select {
			case <-p.ctx.Done():
				t.Stop()
				p.fin = p.stopped()
				return
			case <-t.C:
			}
			hdr.Set("Last-Event-ID", p.lastID)
			p.resuming = true
			p.skip = p.sinceID
			s.m.upResumes.Inc()
			s.log.Info("upstream answer cut; resuming", "run", p.run.Key, "lastEventId", cut(p.lastID, 64))
		}
		err := p.request(body, hdr)
		if p.fin != nil || p.gone {
			return
		}
		if err == nil || p.lastID == "" || resumes == maxUpstreamResumes || p.ctx.Err() != nil {
			if p.ctx.Err() != nil {
				p.fin = p.stopped()
			} else {
				p.fin = relayEnd(CodeUpstreamCut, "the agent's stream ended before the run did")
				switch {
				case err == nil:
					p.fin.reason += " (it ended cleanly without RUN_FINISHED or RUN_ERROR)"
				case p.lastID == "":
					p.fin.reason += ": " + err.Error() + " (its events carry no SSE id to resume from)"
				default:
					p.fin.reason += ": " + err.Error() + " (after " + strconv.Itoa(resumes) + " resumes)"
				}
			}
			return
		}
	}
}

// request makes one upstream request and reads its answer into the run:
// it returns nil when the answer ended cleanly, the read error when it
// was cut, and sets p.fin when the run ends otherwise.
func (p *producer) request(body []byte, hdr http.Header) error {
	s := p.s
	req, _ := http.NewRequestWithContext(p.ctx, http.MethodPost, s.cfg.Upstream.String(), bytes.NewReader(body))
	req.Header = hdr.Clone()
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	sent := time.Now()
	resp, err := s.cfg.Client.Do(req)
	if err != nil {
		if p.ctx.Err() != nil {
			p.fin = p.stopped()
		} else {
			p.refused(CodeUpstreamUnreachable, "the agent could not be reached")
			p.fin.reason += ": " + err.Error()
		}
		return err
	}
	s.m.upSeconds.Observe(time.Since(sent).Seconds())
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		p.refused(CodeUpstreamStatus, "the agent answered HTTP "+strconv.Itoa(resp.StatusCode))
		return nil
	}
	if mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mt != "text/event-stream" {
		p.refused(CodeUpstreamNotSSE, "the agent answered "+strconv.Quote(mt)+", not text/event-stream")
		if b, _ := io.ReadAll(io.LimitReader(resp.Body, 120)); len(b) > 0 {
			p.fin.reason += "; it begins " + strconv.Quote(string(b))
		}
		return nil
	}
	idle := time.AfterFunc(s.cfg.UpstreamIdle, func() { p.cancel(errStalled) })
	defer idle.Stop()
	parser := sse.NewParser(sse.Options{MaxEventSize: s.cfg.MaxEventBytes})
	// Small: a live run holds it while it waits for the agent, and the
	// transport's reader is buffered (4 KiB) already.
	buf := make([]byte, 4<<10)
	onErr := func(error) {
		if p.fin == nil {
			p.fin = relayEnd(CodeEventTooLarge, "the agent sent an event larger than "+strconv.Itoa(s.cfg.MaxEventBytes)+" bytes")
		}
	}
	for p.fin == nil && !p.gone {
		n, err := resp.Body.Read(buf)
		idle.Reset(s.cfg.UpstreamIdle)
		if n > 0 {
			parser.FeedEach(buf[:n], p.event, onErr)
			if id := parser.LastEventID(); id != "" && id != p.lastID && p.fin == nil {
				// An id-only frame ("id: x" and a blank line) moved the
				// cursor after the last event.
				p.lastID, p.sinceID, p.skip = id, 0, 0
			}
		}
		if p.fin != nil || p.gone {
			return nil
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// refused ends a run whose upstream request failed; when it was to resume
// a cut answer, the run ends as cut.
func (p *producer) refused(code, msg string) {
	if p.resuming {
		code, msg = CodeUpstreamCut, "the agent's stream was cut, and resuming it failed: "+msg
	}
	p.fin = relayEnd(code, msg)
}

// upstreamReasons are the upstream failures (upstream_failures_total) of
// the relay's codes.
var upstreamReasons = map[string]string{
	CodeUpstreamUnreachable: "unreachable", CodeUpstreamStatus: "status", CodeUpstreamNotSSE: "not_sse",
	CodeUpstreamCut: "cut", CodeUpstreamStalled: "stalled", CodeEventTooLarge: "event_too_large",
}

// logEnd counts and logs how the run ended: a line per run the relay
// ended with an error (its code and why), at Warn; the others at Debug
// (the agent's own RUN_ERROR at Info).
func (p *producer) logEnd() {
	s, e := p.s, p.fin
	s.m.ended(e)
	attrs := []any{"run", p.run.Key, "frames", p.seq + 1, "duration", time.Since(p.run.Started).Round(time.Millisecond)}
	switch {
	case e.outcome == store.OutcomeFinished:
		s.log.Debug("run finished", attrs...)
	case e.code != "":
		if r, ok := upstreamReasons[e.code]; ok {
			s.m.upFailures.WithLabelValues(r).Inc()
		}
		s.log.Warn("run failed", append(attrs, "code", e.code, "reason", e.reason)...)
	default:
		var h struct{ Code, Message string }
		json.Unmarshal(e.frame, &h)
		s.log.Info("run ended with the agent's RUN_ERROR", append(attrs, "code", cut(h.Code, 64), "message", cut(h.Message, 200))...)
	}
}

// event takes one upstream SSE event.
func (p *producer) event(e sse.Event) {
	if p.fin != nil || p.gone {
		return
	}
	switch {
	case e.HasID:
		// The event sets the cursor: the upstream resends what follows.
		p.lastID, p.sinceID, p.skip = e.ID, 0, 0
	case e.ID != "" && e.ID != p.lastID:
		// An id-only frame set the cursor before this event.
		p.lastID, p.sinceID, p.skip = e.ID, 1, 0
	case p.skip > 0:
		p.skip-- // resent after the cursor: this run has it already
		return
	default:
		p.sinceID++
	}
	if p.tr != nil {
		// What canonical AG-UI has no event for is stored as an
		// amendment record and sent as its frame (dialect.AmendFrame),
		// which a client that detects the dialect folds.
		diags := p.tr.TranslateTo(e.Type, []byte(e.Data), func(ev []byte) {
			if ev = oneLine(ev); ev != nil {
				p.frame(ev)
			}
		}, func(a []byte) {
			if a = oneLine(a); a != nil {
				p.store(dialect.AppendAmendRecord(nil, a))
			}
		})
		for _, d := range diags {
			p.s.logf("run %s: upstream event: %s %s", p.run.Key, d.Code, d.Message)
		}
		return
	}
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(e.Data)); err != nil {
		p.s.logf("run %s: upstream event is not JSON, dropped", p.run.Key)
		return
	}
	p.frame(b.Bytes())
}

// oneLine is a copy of a translated event's (or amendment's) JSON text on
// one line: a translator passes a canonical event on as it came, and an
// upstream's event whose data spans several lines ("data: {" then
// "data: ...}") has line breaks between its tokens, which would end the
// data field of the frame it is sent in. nil when it is not JSON.
func oneLine(b []byte) []byte {
	if !bytes.ContainsAny(b, "\r\n") {
		return bytes.Clone(b)
	}
	var c bytes.Buffer
	if json.Compact(&c, b) != nil {
		return nil
	}
	return c.Bytes()
}

// frame stores one canonical event; a terminal one ends the run.
func (p *producer) frame(data []byte) {
	if p.fin != nil || p.gone {
		return
	}
	var head struct {
		Type  string `json:"type"`
		RunID string `json:"runId"`
	}
	if json.Unmarshal(data, &head) != nil || head.Type == "" {
		p.s.logf("run %s: upstream event without a type, dropped", p.run.Key)
		return
	}
	if head.Type == "RUN_STARTED" {
		// An agent that answers a resume with another run (it minted a
		// new one rather than resuming) would leave one partial answer
		// per attempt in the thread: the run ends as cut instead. The
		// same run sent again from its start is rewound by the reducer's
		// replay rules.
		if p.runID != "" && head.RunID != p.runID && p.resuming {
			p.fin = relayEnd(CodeUpstreamCut, "the agent's stream was cut, and it answered the resume with another run")
			return
		}
		if p.runID == "" {
			p.runID = head.RunID
		}
	}
	if p.bytes+store.FrameBytes(data) > p.s.cfg.MaxRunBytes {
		p.fin = relayEnd(CodeRunTooLarge, "the run passed "+strconv.FormatInt(p.s.cfg.MaxRunBytes, 10)+" bytes")
		return
	}
	switch head.Type {
	case "RUN_FINISHED":
		p.fin = &end{frame: data, outcome: store.OutcomeFinished}
		return
	case "RUN_ERROR":
		p.fin = &end{frame: data, outcome: store.OutcomeError}
		return
	}
	p.store(data)
}

// store appends one record (an event, or an amendment record) to the run.
func (p *producer) store(data []byte) {
	if p.fin != nil || p.gone {
		return
	}
	if p.bytes+store.FrameBytes(data) > p.s.cfg.MaxRunBytes {
		p.fin = relayEnd(CodeRunTooLarge, "the run passed "+strconv.FormatInt(p.s.cfg.MaxRunBytes, 10)+" bytes")
		return
	}
	err := p.retry(func(ctx context.Context) error {
		return p.s.store.Append(ctx, p.run.Key, p.seq+1, data, time.Now().Add(p.s.cfg.Lease))
	})
	if err != nil {
		p.storeFailed(err)
		return
	}
	p.seq++
	p.bytes += store.FrameBytes(data)
}

// storeFailed ends a run whose frame could not be stored.
func (p *producer) storeFailed(err error) {
	switch {
	case errors.Is(err, store.ErrDone), errors.Is(err, store.ErrNotFound):
		p.gone = true // ended by a reaper, or lost by the store: nothing to add
		p.s.logf("run %s: %v", p.run.Key, err)
	case errors.Is(err, store.ErrConflict):
		// The store has fewer frames than were appended: it lost the
		// last ones (a Redis failover to a replica that had not
		// replicated them). finish ends the run where the store stands.
		p.fin = relayEnd(CodeRunLost, "the relay's store lost the end of this run (a failover)")
		p.s.logf("run %s: the store lost frames after a failover", p.run.Key)
	default:
		p.fin = relayEnd(CodeStoreUnavailable, "the relay's store failed")
		p.fin.reason += ": " + err.Error()
		p.down = true
		p.s.logf("run %s: store: %v", p.run.Key, err)
	}
	p.cancel(nil)
}

// unstoredWait bounds how long a run whose store refused its frames tries
// to store its end before its clients get it (the store keeps trying:
// boltstore commits it when the disk takes it again).
const unstoredWait = time.Second

// finish stores the run's last frame. When the store does not take it,
// the run's streams send it anyway, without an id (Server.unstored).
func (p *producer) finish() {
	if p.fin == nil {
		p.fin = p.stopped()
		if p.fin == nil {
			return
		}
	}
	timeout := p.s.cfg.StoreTimeout
	if p.down {
		timeout = min(timeout, unstoredWait)
	}
	err := retryStore(timeout, func(ctx context.Context) error {
		return p.s.store.Finish(ctx, p.run.Key, p.seq+1, p.fin.frame, p.fin.outcome)
	})
	if errors.Is(err, store.ErrConflict) {
		err = p.retry(func(ctx context.Context) error { return p.s.endLost(ctx, p.run.Key) })
	}
	if err != nil && !errors.Is(err, store.ErrDone) {
		p.s.unstored.Store(p.run.Key, &unstored{frame: p.fin.frame, at: time.Now()})
		p.s.logf("run %s: finishing: %v", p.run.Key, err)
	}
}

// endLost ends a run whose last frames the store lost with a RUN_ERROR
// (relay_run_lost) after the frames it has.
func (s *Server) endLost(ctx context.Context, key string) error {
	_, run, err := s.store.Read(ctx, key, 0, 0, 0)
	if err != nil {
		return err
	}
	return s.store.Finish(ctx, key, run.Frames+1,
		runError(CodeRunLost, "the relay's store lost the end of this run (a failover)"), store.OutcomeError)
}

// retry calls f until it succeeds, fails for good (a store sentinel
// error), or the store has failed for StoreTimeout. It does not give up
// when the run's context ends: what was produced is stored.
func (p *producer) retry(f func(ctx context.Context) error) error {
	return retryStore(p.s.cfg.StoreTimeout, f)
}

func retryStore(timeout time.Duration, f func(ctx context.Context) error) error {
	deadline := time.Now().Add(timeout)
	wait := 50 * time.Millisecond
	for {
		ctx, cancel := context.WithDeadline(context.Background(), deadline)
		err := f(ctx)
		cancel()
		if err == nil || isFinal(err) || time.Now().Add(wait).After(deadline) {
			return err
		}
		time.Sleep(wait)
		wait = min(2*wait, time.Second)
	}
}

// isFinal reports whether a store error is an answer rather than a failure.
func isFinal(err error) bool {
	for _, e := range []error{store.ErrNotFound, store.ErrDone, store.ErrConflict, store.ErrBusy, store.ErrForbidden} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}
