package relay

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/agui-reducer/agui/dialect"
	"github.com/agui-reducer/agui/httpguard"
	"github.com/agui-reducer/agui/relay/store"
)

// readBatch is the most frames one store read returns.
const readBatch = 256

// streamChunk bounds what a stream formats before writing it: frames are
// written in pieces of about that size, and a larger frame as the store
// holds it, so that a stream holds a constant besides the store's frames
// however long the run it resumes (and however slowly its client reads).
const streamChunk = 64 << 10

// stream answers with the frames of run key after seq after, as
// text/event-stream, each with its id, live until the run's end. prelude
// (frames without ids) goes first. Any instance can stream any run: it
// reads the store, and ends a run whose producer's lease expired.
func (s *Server) stream(w http.ResponseWriter, r *http.Request, key string, after int64, prelude []byte) {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	ctx := r.Context()
	write := func(b []byte) bool {
		_ = rc.SetWriteDeadline(time.Now().Add(httpguard.FrameWriteTimeout))
		if _, err := w.Write(b); err != nil {
			return false
		}
		return rc.Flush() == nil
	}
	if !write(prelude) {
		return
	}
	// A stream of a run this instance produces wakes when the producer
	// is done: its end may be one the store did not take (unstored). A
	// stream of another instance's run ends when this one drains (its
	// client resumes elsewhere).
	rctx, wake := context.WithCancel(ctx)
	defer wake()
	var prod *producer
	if v, ok := s.local.Load(key); ok {
		prod = v.(*producer)
		defer prod.attach()()
		defer context.AfterFunc(prod.over, wake)()
	} else {
		defer context.AfterFunc(s.drainCtx, wake)()
	}
	touchEvery := s.cfg.Lease / 3
	var lastTouch, failing time.Time
	var buf []byte
	for {
		if time.Since(lastTouch) >= touchEvery {
			tctx, cancel := context.WithTimeout(rctx, touchEvery)
			if s.store.Touch(tctx, key, time.Now()) == nil {
				lastTouch = time.Now()
			}
			cancel()
		}
		frames, run, err := s.store.Read(rctx, key, after, readBatch, touchEvery)
		if ctx.Err() != nil {
			return
		}
		if rctx.Err() != nil {
			if prod == nil {
				return // draining: another instance's run
			}
			// The producer is done: read on to its end (or its unstored
			// end) without waking again.
			prod, rctx = nil, ctx
			continue
		}
		if err != nil {
			// The run's end cannot come from the store: the relay says
			// why, in a frame without an id (nothing to resume).
			if errors.Is(err, store.ErrNotFound) {
				write(sseFrame(nil, "", 0, runError(CodeRunLost, "the relay's store no longer has this run")))
				return
			}
			if end, ok := s.unstoredEnd(key); ok {
				write(sseFrame(nil, "", 0, end))
				return
			}
			if failing.IsZero() {
				failing = time.Now()
			}
			if time.Since(failing) > s.cfg.StoreTimeout {
				write(sseFrame(nil, "", 0, runError(CodeStoreUnavailable, "the relay's store failed for "+s.cfg.StoreTimeout.String())))
				return
			}
			s.logf("run %s: reading: %v", key, err)
			select {
			case <-rctx.Done():
			case <-time.After(200 * time.Millisecond):
			}
			continue
		}
		if len(frames) == 0 && run.Frames < after {
			// The store has fewer frames than this client read: it lost
			// the last ones (a Redis failover). Say so; the run is over.
			write(sseFrame(nil, "", 0, runError(CodeRunLost, "the relay's store lost the end of this run (a failover)")))
			return
		}
		buf = buf[:0]
		for _, f := range frames {
			if len(f.Data) > streamChunk {
				if len(buf) > 0 && !write(buf) {
					return
				}
				buf = sseFrameHead(buf[:0], key, f.Seq, f.Data)
				if !write(buf) || !write(f.Data) || !write(frameEnd) {
					return
				}
				buf = buf[:0]
			} else if buf = sseFrame(buf, key, f.Seq, f.Data); len(buf) >= streamChunk {
				if !write(buf) {
					return
				}
				buf = buf[:0]
			}
			after = f.Seq
		}
		if len(buf) > 0 && !write(buf) {
			return
		}
		if run.Done() && after >= run.Frames {
			return
		}
		if len(frames) == 0 {
			if end, ok := s.unstoredEnd(key); ok && prod == nil {
				// Its producer ended it, and the store did not take the
				// end: sent as it is, without an id.
				write(sseFrame(nil, "", 0, end))
				return
			}
			if !run.Done() && time.Now().After(run.Lease) {
				if err := s.reap(rctx, run); err == nil || isFinal(err) {
					failing = time.Time{}
					continue
				}
				// The store refuses the end: after -store-timeout, the
				// client is told.
				if failing.IsZero() {
					failing = time.Now()
				}
				if time.Since(failing) > s.cfg.StoreTimeout {
					write(sseFrame(nil, "", 0, runError(CodeStoreUnavailable, "the relay's store failed for "+s.cfg.StoreTimeout.String())))
					return
				}
			} else {
				failing = time.Time{}
			}
			if !write([]byte(": keepalive\n\n")) {
				return
			}
		} else {
			failing = time.Time{}
		}
	}
}

// sseFrame appends one frame: its id (when key is set) and its data.
func sseFrame(b []byte, key string, seq int64, data []byte) []byte {
	b = sseFrameHead(b, key, seq, data)
	b = append(b, data...)
	return append(b, frameEnd...)
}

// frameEnd ends a frame.
var frameEnd = []byte("\n\n")

// sseFrameHead appends what goes before a frame's data: its id (when key
// is set) and the data field's name (an amendment record is a frame of
// its own).
func sseFrameHead(b []byte, key string, seq int64, data []byte) []byte {
	if key != "" {
		b = append(b, "id: "...)
		b = append(b, key...)
		b = append(b, ':')
		b = strconv.AppendInt(b, seq, 10)
		b = append(b, '\n')
	}
	if _, ok := dialect.AmendRecord(data); !ok {
		b = append(b, "data: "...)
	}
	return b
}

// reap ends a run whose producer's lease expired with a RUN_ERROR
// (relay_producer_lost); of racing reapers one wins. It then folds the
// thread.
func (s *Server) reap(ctx context.Context, run *store.Run) error {
	err := s.store.Finish(ctx, run.Key, run.Frames+1,
		runError(CodeProducerLost, "the relay producing this run stopped answering (lease expired)"), store.OutcomeError)
	if err == nil {
		s.logf("run %s: producer %s lost; ended", run.Key, run.Producer)
		fctx, cancel := context.WithTimeout(context.Background(), s.cfg.StoreTimeout)
		defer cancel()
		s.fold(fctx, run.Thread)
	}
	return err
}

// reapIfLost ends run key if its producer is lost, and reports whether it
// is over.
func (s *Server) reapIfLost(ctx context.Context, key string) bool {
	_, run, err := s.store.Read(ctx, key, 0, 0, 0)
	if errors.Is(err, store.ErrNotFound) {
		return true
	}
	if err != nil {
		return false
	}
	if !run.Done() && time.Now().After(run.Lease) {
		err := s.reap(ctx, run)
		return err == nil || isFinal(err)
	}
	return run.Done()
}

// resume answers a POST /agent (or GET /threads/{id} as a stream) with
// Last-Event-ID: the rest of that run, if the request's credential is the
// one that started it.
func (s *Server) resume(w http.ResponseWriter, r *http.Request, lastID string) {
	key, seq, ok := parseEventID(lastID)
	if !ok {
		httpError(w, http.StatusBadRequest, "bad_last_event_id", "Last-Event-ID is not an event id of this relay (<run>:<seq>)")
		return
	}
	var owner string
	if s.keyless(r) {
		// A keyless run's event id is its credential (keyless.go).
		owner = s.hash("owner", "key", s.runOwnKey(key))
	} else if owner, ok = s.credential(w, r, false, ""); !ok {
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), s.cfg.StoreTimeout)
	_, run, err := s.store.Read(ctx, key, 0, 0, 0)
	cancel()
	switch {
	case errors.Is(err, store.ErrNotFound) || err == nil && run.Owner != owner:
		// Another credential's run answers as an unknown one.
		httpError(w, http.StatusGone, "resume_unavailable", "run "+strconv.Quote(key)+" is not kept (unknown, or expired, or compacted into its thread); load the thread and start a new run")
		return
	case err != nil:
		httpError(w, http.StatusServiceUnavailable, "store_unavailable", "the store failed: "+err.Error())
		return
	case seq > run.Frames:
		httpError(w, http.StatusBadRequest, "bad_last_event_id", "run "+strconv.Quote(key)+" has "+strconv.FormatInt(run.Frames, 10)+" frames, not "+strconv.FormatInt(seq, 10))
		return
	}
	s.m.resumes.Inc()
	w.Header().Set(runHeader, key)
	s.stream(w, r, key, seq, nil)
}
