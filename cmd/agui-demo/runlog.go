package main

import (
	"context"
	"sync"
	"time"
)

// Defaults of the run log's flags.
const (
	defaultLogRuns  = 64               // runs kept for resuming
	defaultLogBytes = 64 << 20         // bytes of frames kept, all runs together
	defaultLogTTL   = 5 * time.Minute  // how long a finished run stays resumable
	defaultGrace    = 30 * time.Second // how long a run nobody reads goes on
)

// runLog keeps the frames of recent runs in memory so that a client whose
// connection dropped can resume a run from its last frame (Last-Event-ID).
// It is bounded: at most maxRuns runs and maxBytes bytes of frames; a
// finished run is forgotten ttl after it ended, and when a bound is reached
// the oldest finished runs go first, then the oldest running ones (which
// stream on to the clients they have but can no longer be resumed).
type runLog struct {
	maxRuns  int
	maxBytes int64
	ttl      time.Duration
	now      func() time.Time

	mu             sync.Mutex
	runs           map[string]*loggedRun // by key
	bytes          int64                 // frames of the runs in runs
	evictedRunning int                   // runs evicted while still produced
}

func newRunLog(maxRuns int, maxBytes int64, ttl time.Duration, now func() time.Time) *runLog {
	if now == nil {
		now = time.Now
	}
	return &runLog{maxRuns: maxRuns, maxBytes: maxBytes, ttl: ttl, now: now, runs: map[string]*loggedRun{}}
}

// loggedRun is one run as produced: its frames (the JSON of each event,
// numbered from 1 in the order sent) and whether it is still going.
type loggedRun struct {
	key      string // the event id prefix, "<key>:<seq>"
	runID    string
	scenario string
	cancel   context.CancelFunc // stops the producer

	// Under runLog.mu.
	started, ended time.Time // ended is zero while running
	evicted        bool      // no longer in the log (its size no longer counted)

	mu       sync.Mutex
	frames   [][]byte
	size     int64
	done     bool          // nothing more will be appended
	complete bool          // done, and every event was produced
	changed  chan struct{} // closed and replaced when frames or done change
	attached int           // connections streaming the run
	grace    *time.Timer   // cancels the run when nobody came back
}

// add starts logging a new run, evicting what the bounds require, unless
// maxRunning runs are being produced already.
func (l *runLog) add(run *loggedRun, maxRunning int) bool {
	run.changed = make(chan struct{})
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.runningLocked() >= maxRunning {
		return false
	}
	run.started = l.now()
	l.runs[run.key] = run
	l.evictLocked(run)
	return true
}

// get returns the run logged under key, or nil if it is unknown, expired
// or evicted.
func (l *runLog) get(key string) *loggedRun {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.evictLocked(nil)
	return l.runs[key]
}

// runningLocked counts the runs being produced (evicted ones included: they
// are still produced).
func (l *runLog) runningLocked() int {
	n := l.evictedRunning
	for _, r := range l.runs {
		if r.ended.IsZero() {
			n++
		}
	}
	return n
}

// append adds the next frame of run and wakes the connections streaming it.
func (l *runLog) append(run *loggedRun, frame []byte) {
	run.mu.Lock()
	run.frames = append(run.frames, frame)
	run.size += int64(len(frame))
	close(run.changed)
	run.changed = make(chan struct{})
	run.mu.Unlock()

	l.mu.Lock()
	defer l.mu.Unlock()
	if !run.evicted {
		l.bytes += int64(len(frame))
		if l.bytes > l.maxBytes {
			l.evictLocked(run)
		}
	}
}

// finish marks run as done; complete says whether every event was produced.
func (l *runLog) finish(run *loggedRun, complete bool) {
	run.mu.Lock()
	run.done, run.complete = true, complete
	if run.grace != nil {
		run.grace.Stop()
	}
	close(run.changed)
	run.changed = make(chan struct{})
	run.mu.Unlock()

	l.mu.Lock()
	run.ended = l.now()
	if run.evicted {
		l.evictedRunning--
	}
	l.mu.Unlock()
}

// evictLocked drops expired runs, then the oldest runs while a bound is
// exceeded: finished ones first, then running ones other than keep.
func (l *runLog) evictLocked(keep *loggedRun) {
	now := l.now()
	for _, r := range l.runs {
		if !r.ended.IsZero() && now.Sub(r.ended) >= l.ttl {
			l.removeLocked(r)
		}
	}
	for len(l.runs) > l.maxRuns || l.bytes > l.maxBytes {
		var victim *loggedRun
		for _, r := range l.runs {
			if r == keep {
				continue
			}
			if victim == nil || older(r, victim) {
				victim = r
			}
		}
		if victim == nil {
			return // keep alone exceeds the bounds: it stays while it runs
		}
		l.removeLocked(victim)
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

func (l *runLog) removeLocked(r *loggedRun) {
	delete(l.runs, r.key)
	r.evicted = true
	if r.ended.IsZero() {
		l.evictedRunning++
	}
	r.mu.Lock()
	l.bytes -= r.size
	r.mu.Unlock()
}

// next waits for the frames of run after the first from, and returns them
// (shared slices: not to be modified), whether the run is done, and the
// channel that is closed at the next change.
func (run *loggedRun) next(from int) (frames [][]byte, done, complete bool, changed <-chan struct{}) {
	run.mu.Lock()
	defer run.mu.Unlock()
	if from < len(run.frames) {
		frames = run.frames[from:len(run.frames):len(run.frames)]
	}
	return frames, run.done, run.complete, run.changed
}

// attach counts a connection streaming the run.
func (run *loggedRun) attach() {
	run.mu.Lock()
	defer run.mu.Unlock()
	run.attached++
	if run.grace != nil {
		run.grace.Stop()
		run.grace = nil
	}
}

// detach uncounts a connection; when none is left, the run is cancelled
// after grace unless a client resumes it by then. A stopped page and a
// dropped connection look alike to the server: grace is what tells them
// apart.
func (run *loggedRun) detach(grace time.Duration) {
	run.mu.Lock()
	defer run.mu.Unlock()
	run.attached--
	if run.attached > 0 || run.done {
		return
	}
	if grace <= 0 {
		run.cancel()
		return
	}
	run.grace = time.AfterFunc(grace, func() {
		run.mu.Lock()
		defer run.mu.Unlock()
		if run.attached == 0 && !run.done {
			run.cancel()
		}
	})
}
