package main

import (
	"context"
	"sync"
	"time"
)

// Defaults of the run log's flags.
const (
	defaultLogRuns  = 64               // runs kept for resuming
	defaultLogBytes = 64 << 20         // bytes the log holds, all runs together
	defaultLogTTL   = 5 * time.Minute  // how long a finished run stays resumable
	defaultGrace    = 30 * time.Second // how long a run nobody reads goes on
)

// What the log counts besides the bytes of the frames: each frame's slice
// header and allocation, and each run's record (its key and ids, at most
// a few hundred bytes since they are bounded, its channel, timer and map
// entry).
const (
	frameOverhead = 32
	runOverhead   = 1 << 10
)

// Why the log stops a run (loggedRun.stopped).
const stopTooLarge = "the run's frames not yet streamed exceed -resume-bytes"

// runLog keeps the frames of recent runs in memory so that a client whose
// connection dropped can resume a run from its last frame (Last-Event-ID),
// and streams each run's frames to the connections reading it.
//
// It is bounded by what it really holds, whatever the requests contain:
// held counts every byte of frames kept (resumable or waiting to be
// written to a connection), the per-frame and per-run overheads, and what
// a run's producer keeps besides (charge). Within the bounds (at most
// maxRuns resumable runs, held at most maxBytes) a finished run is
// forgotten ttl after it ended. Beyond them the oldest runs stop being
// resumable, finished ones first, then running ones, the run growing last:
// a run no longer resumable keeps only the frames its connections have yet
// to write, and one nobody reads is stopped. If that is not enough (the
// frames not yet written exceed maxBytes), the run growing is stopped: its
// connections get what it produced, then the stream ends cut.
type runLog struct {
	maxRuns  int
	maxBytes int64
	ttl      time.Duration
	now      func() time.Time

	mu      sync.Mutex
	runs    map[string]*loggedRun // the resumable runs, by key
	held    int64                 // bytes held by every run not released
	running int                   // runs being produced, resumable or not
}

func newRunLog(maxRuns int, maxBytes int64, ttl time.Duration, now func() time.Time) *runLog {
	if now == nil {
		now = time.Now
	}
	return &runLog{maxRuns: maxRuns, maxBytes: maxBytes, ttl: ttl, now: now, runs: map[string]*loggedRun{}}
}

// loggedRun is one run as produced: its frames (the JSON of each event,
// numbered from 1 in the order sent) and whether it is still going. Every
// field after cancel is guarded by runLog.mu.
type loggedRun struct {
	key      string // the event id prefix, "<key>:<seq>"
	runID    string // the run id it was started with (bounded, ids.go)
	scenario string
	cancel   context.CancelFunc // stops the producer

	started, ended time.Time // ended is zero while running
	evicted        bool      // no longer resumable
	released       bool      // done, evicted and unread: nothing held any more
	frames         [][]byte  // frames base+1 … base+len(frames)
	base           int       // frames dropped from the front (once evicted)
	size           int64     // bytes held: runOverhead, frames, charges
	done           bool      // nothing more will be appended
	complete       bool      // done, and every event was produced
	stopped        string    // why the log stopped the run ("" it did not)
	changed        chan struct{}
	readers        []*reader   // the connections streaming the run
	grace          *time.Timer // cancels the run when nobody came back
}

// reader is one connection streaming a run: pos frames written to it
// (counted from the run's first frame).
type reader struct{ pos int }

// add starts logging a new run with its first connection attached (pos
// 0), evicting what the bounds require, unless maxRunning runs are being
// produced already.
func (l *runLog) add(run *loggedRun, maxRunning int) (*reader, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.running >= maxRunning {
		return nil, false
	}
	l.running++
	run.changed = make(chan struct{})
	run.started = l.now()
	run.size = runOverhead
	l.held += run.size
	rd := &reader{}
	run.readers = append(run.readers, rd)
	l.runs[run.key] = run
	l.enforceLocked(run)
	return rd, true
}

// full reports whether maxRunning runs are being produced (add would
// refuse one more now).
func (l *runLog) full(maxRunning int) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.running >= maxRunning
}

// get returns the resumable run logged under key, or nil if it is unknown,
// expired or evicted.
func (l *runLog) get(key string) *loggedRun {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.expireLocked()
	return l.runs[key]
}

// resume attaches a connection to the resumable run logged under key,
// after its frame seq, and returns it as rd; or, when it cannot, the error
// code for the client (and the run's frames so far, if it is known).
func (l *runLog) resume(key string, seq int) (run *loggedRun, rd *reader, code string, frames int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.expireLocked()
	run = l.runs[key]
	switch {
	case run == nil:
		return nil, nil, "resume_unavailable", 0
	case seq > run.total():
		return run, nil, "bad_last_event_id", run.total()
	case seq >= run.total() && run.done && !run.complete:
		return run, nil, "run_stopped", run.total()
	}
	rd = &reader{pos: seq}
	run.readers = append(run.readers, rd)
	if run.grace != nil {
		run.grace.Stop()
		run.grace = nil
	}
	return run, rd, "", run.total()
}

// total is the number of frames the run has produced. Under l.mu.
func (run *loggedRun) total() int { return run.base + len(run.frames) }

// append adds the next frame of run and wakes the connections streaming it.
func (l *runLog) append(run *loggedRun, frame []byte) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if run.stopped != "" || run.evicted && len(run.readers) == 0 {
		return // the run is being stopped: nobody will read this
	}
	run.frames = append(run.frames, frame)
	cost := int64(cap(frame)) + frameOverhead
	run.size += cost
	l.held += cost
	run.wakeLocked()
	l.enforceLocked(run)
}

// charge counts n more bytes that run's producer keeps (n < 0: releases
// them), and enforces the bounds.
func (l *runLog) charge(run *loggedRun, n int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if run.released {
		return
	}
	run.size += n
	l.held += n
	l.enforceLocked(run)
}

// finish marks run as done; complete says whether every event was produced.
func (l *runLog) finish(run *loggedRun, complete bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	run.done, run.complete = true, complete && run.stopped == ""
	if run.grace != nil {
		run.grace.Stop()
		run.grace = nil
	}
	run.ended = l.now()
	l.running--
	run.wakeLocked()
	l.settleLocked(run)
}

// stopReason reports why the log stopped run ("" if it did not).
func (l *runLog) stopReason(run *loggedRun) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return run.stopped
}

func (run *loggedRun) wakeLocked() {
	close(run.changed)
	run.changed = make(chan struct{})
}

// expireLocked forgets the finished runs older than the ttl.
func (l *runLog) expireLocked() {
	now := l.now()
	for _, r := range l.runs {
		if !r.ended.IsZero() && now.Sub(r.ended) >= l.ttl {
			l.evictLocked(r)
		}
	}
}

// enforceLocked restores the bounds after run grew (nil: after none did):
// expired runs go, then the oldest resumable ones other than run while a
// bound is exceeded, then run itself, and if what is held still exceeds
// maxBytes, run is stopped.
func (l *runLog) enforceLocked(run *loggedRun) {
	l.expireLocked()
	for len(l.runs) > l.maxRuns || l.held > l.maxBytes {
		var victim *loggedRun
		for _, r := range l.runs {
			if r != run && (victim == nil || older(r, victim)) {
				victim = r
			}
		}
		if victim == nil {
			break
		}
		l.evictLocked(victim)
	}
	if run == nil || l.held <= l.maxBytes {
		return
	}
	if !run.evicted {
		l.evictLocked(run)
	}
	if l.held > l.maxBytes && !run.done && run.stopped == "" {
		run.stopped = stopTooLarge
		run.cancel()
	}
}

// older orders eviction: finished before running, then by age.
func older(a, b *loggedRun) bool {
	af, bf := !a.ended.IsZero(), !b.ended.IsZero()
	if af != bf {
		return af
	}
	if af {
		return a.ended.Before(b.ended)
	}
	return a.started.Before(b.started)
}

// evictLocked makes r no longer resumable.
func (l *runLog) evictLocked(r *loggedRun) {
	if l.runs[r.key] == r {
		delete(l.runs, r.key)
	}
	r.evicted = true
	l.settleLocked(r)
}

// settleLocked drops what an evicted run no longer needs: the frames every
// connection has written; everything once it is done and unread. An
// evicted run nobody reads is stopped (nobody can come back for it).
func (l *runLog) settleLocked(r *loggedRun) {
	if !r.evicted || r.released {
		return
	}
	keep := r.total()
	for _, rd := range r.readers {
		keep = min(keep, rd.pos)
	}
	if n := keep - r.base; n > 0 {
		var freed int64
		for _, f := range r.frames[:n] {
			freed += int64(cap(f)) + frameOverhead
		}
		clear(r.frames[:n]) // the connections' snapshots past their pos stay intact
		r.frames = r.frames[n:]
		r.base = keep
		r.size -= freed
		l.held -= freed
	}
	if len(r.readers) > 0 {
		return
	}
	if !r.done {
		r.cancel()
		return
	}
	l.held -= r.size
	r.size, r.frames, r.released = 0, nil, true
}

// next returns the frames of run after those rd has written (shared
// slices, not to be modified), whether the run is done, and the channel
// that is closed at the next change.
func (l *runLog) next(run *loggedRun, rd *reader) (frames [][]byte, done bool, changed <-chan struct{}) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if i := rd.pos - run.base; i < len(run.frames) {
		frames = run.frames[i:len(run.frames):len(run.frames)]
	}
	return frames, run.done, run.changed
}

// advance records that rd has written one more frame.
func (l *runLog) advance(run *loggedRun, rd *reader) {
	l.mu.Lock()
	defer l.mu.Unlock()
	rd.pos++
	if run.evicted {
		l.settleLocked(run)
	}
}

// detach ends a connection's reading; when none is left, the run is
// cancelled after grace unless a client resumes it by then. A stopped page
// and a dropped connection look alike to the server: grace is what tells
// them apart.
func (l *runLog) detach(run *loggedRun, rd *reader, grace time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for i, r := range run.readers {
		if r == rd {
			run.readers = append(run.readers[:i], run.readers[i+1:]...)
			break
		}
	}
	if run.evicted {
		l.settleLocked(run)
		return
	}
	if len(run.readers) > 0 || run.done {
		return
	}
	if grace <= 0 {
		run.cancel()
		return
	}
	run.grace = time.AfterFunc(grace, func() {
		l.mu.Lock()
		defer l.mu.Unlock()
		if len(run.readers) == 0 && !run.done {
			run.cancel()
		}
	})
}
