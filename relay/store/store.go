package store

import (
	"context"
	"errors"
	"time"
)

// Outcomes of a run (Run.Outcome).
const (
	OutcomeRunning  = ""         // still produced
	OutcomeFinished = "finished" // ended with RUN_FINISHED
	OutcomeError    = "error"    // ended with a RUN_ERROR (the agent's or the relay's)
)

// Run is the record of one run.
type Run struct {
	Key      string    // the relay's key (the SSE id prefix)
	Thread   string    // the thread's key
	Owner    string    // keyed hash of the credential that started it
	Producer string    // the instance producing it
	Started  time.Time // when it was created
	// Input is the JSON array of the request's messages the thread did not
	// have yet (folded into the thread before the run's frames). Create
	// stores it; Read leaves it nil (Store.Input reads it).
	Input []byte

	Frames  int64     // frames appended (the last seq)
	Bytes   int64     // bytes of Input and frames, with their fixed costs (bytes.go)
	Outcome string    // OutcomeRunning until Finish
	Ended   time.Time // when Finish was called
	Lease   time.Time // the producer is alive until then (Renew)
	Readers time.Time // a client was reading it then (Touch)
	Folded  bool      // folded into its thread's snapshot
	// FoldedIn is the thread's Version whose snapshot first holds the run:
	// a reader that got the thread at an older version folds it itself.
	FoldedIn int64
}

// Done reports whether nothing more will be appended.
func (r *Run) Done() bool { return r.Outcome != OutcomeRunning }

// Renew is Store.Renew on a run's record: the lease extended unless the
// run is done (ErrDone), and Readers.
func (r *Run) Renew(lease time.Time) (readers time.Time, err error) {
	if r.Done() {
		return r.Readers, ErrDone
	}
	r.Lease = lease
	return r.Readers, nil
}

// Touch is Store.Touch on a run's record.
func (r *Run) Touch(at time.Time) {
	if at.After(r.Readers) {
		r.Readers = at
	}
}

// Frame is one frame of a run.
type Frame struct {
	Seq  int64
	Data []byte
}

// Thread is the record of one thread.
type Thread struct {
	Key   string
	Owner string
	// Snapshot is the reducer state (reducer.Snapshot) of the folded runs;
	// nil before the first fold. Version counts the folds (Fold's
	// compare-and-set).
	Snapshot []byte
	Version  int64
	// Runs are the thread's runs whose frames are kept, oldest first
	// (folded ones included until compaction drops them).
	Runs    []string
	Active  string    // the key of the run being produced, or ""
	Bytes   int64     // Snapshot plus the kept runs' bytes, with its fixed cost (bytes.go)
	Updated time.Time // last run started, finished or folded
}

// Limits bound what a store keeps; Sweep applies them.
type Limits struct {
	// MaxBytes bounds all threads together: past it, Sweep deletes the
	// least recently updated threads without an active run.
	MaxBytes int64
	// MaxThreads bounds the number of threads the same way (0: none). A
	// run log with one thread per run (cmd/agui-demo's) bounds its runs
	// with it.
	MaxThreads int
	// Retention deletes threads not updated for that long (0: never).
	Retention time.Duration
	// RunTTL drops the frames of a folded run that ended that long ago
	// (its content lives on in the snapshot).
	RunTTL time.Duration
}

// Swept counts what one Sweep removed.
type Swept struct {
	Threads, Runs int
	Bytes         int64
}

// Store is what the relay needs from a backend. Every method is safe for
// concurrent use. Keys are those the relay derives (short, printable).
type Store interface {
	// Secret returns the relay's HMAC key: the one stored, or candidate
	// stored now when there is none (so that instances and restarts agree).
	Secret(ctx context.Context, candidate []byte) ([]byte, error)

	// Create records a new run (Frames, Bytes and Outcome zero; Input
	// counted in Bytes), adds it to its thread (created with owner
	// r.Owner if new) and makes it the thread's active run. ErrBusy if the
	// thread has an active run, ErrForbidden if the thread has another
	// owner.
	Create(ctx context.Context, r *Run) error

	// Append adds frame seq (which must be Frames+1) and extends the
	// lease. A backend may commit appends in groups: Read sees the frame
	// within a short, bounded delay, in order, and never before it is
	// committed. Appending seq again after a failure that left it stored is not
	// an error (no frame is stored twice). ErrDone when the run was
	// finished meanwhile (by a reaper), ErrNotFound when it is gone,
	// ErrConflict when seq is not the next one.
	Append(ctx context.Context, run string, seq int64, data []byte, lease time.Time) error

	// Finish appends the last frame (seq = Frames+1; data nil appends
	// none) and sets the outcome, atomically, unless the run is done
	// already (ErrDone) or seq is not the next (ErrConflict). It clears the
	// thread's active run.
	Finish(ctx context.Context, run string, seq int64, data []byte, outcome string) error

	// Renew extends the producer's lease and returns Readers.
	Renew(ctx context.Context, run string, lease time.Time) (readers time.Time, err error)

	// Touch records that a client reads the run at time at (Readers).
	Touch(ctx context.Context, run string, at time.Time) error

	// Read returns the run and up to max of its frames after seq after;
	// when there are none and the run is not done, it waits up to wait for
	// one.
	Read(ctx context.Context, run string, after int64, max int, wait time.Duration) ([]Frame, *Run, error)

	// Input returns a run's Input.
	Input(ctx context.Context, run string) ([]byte, error)

	// Thread returns a thread, ErrNotFound if there is none.
	Thread(ctx context.Context, thread string) (*Thread, error)

	// Fold replaces the thread's snapshot by snapshot if its version is
	// still version (else ErrConflict), marks the runs folded, and drops
	// the frames of the runs in drop (folded ones) from the thread.
	Fold(ctx context.Context, thread string, version int64, snapshot []byte, folded, drop []string) error

	// Delete removes a thread and its runs.
	Delete(ctx context.Context, thread string) error

	// Sweep applies the limits at time now.
	Sweep(ctx context.Context, now time.Time, lim Limits) (Swept, error)

	// Running returns the keys of the runs not finished (at most max), so
	// that runs whose producer is gone can be ended even when no client
	// reads them.
	Running(ctx context.Context, max int) ([]string, error)

	// Usage is the bytes kept, all threads together.
	Usage(ctx context.Context) (int64, error)

	Close() error
}

// Checker is a Store that can tell whether it takes writes now (a full
// disk, a read-only file, a Redis out of memory refuse them while reads
// still work): the relay's readiness.
type Checker interface {
	Check(ctx context.Context) error
}

// Errors of the stores.
var (
	ErrNotFound  = errors.New("store: not found")
	ErrBusy      = errors.New("store: the thread has a run going on")
	ErrForbidden = errors.New("store: the thread belongs to another credential")
	ErrDone      = errors.New("store: the run is finished")
	ErrConflict  = errors.New("store: conflicting update")
)

// WaitRead is the loop of a Read that waits: read returns the frames after
// the reader's seq, the run, and a channel closed at the run's next change
// (taken before reading, so that no change is missed). WaitRead returns
// what read found when it is some frames, a finished run or an error, or
// else waits for the change and reads again, for wait at the most.
func WaitRead(ctx context.Context, wait time.Duration, read func() ([]Frame, *Run, <-chan struct{}, error)) ([]Frame, *Run, error) {
	var timer *time.Timer
	defer func() {
		if timer != nil {
			timer.Stop()
		}
	}()
	for {
		out, run, changed, err := read()
		if err != nil {
			return nil, nil, err
		}
		if len(out) > 0 || run.Done() || wait <= 0 {
			return out, run, nil
		}
		if timer == nil {
			timer = time.NewTimer(wait)
		}
		select {
		case <-changed:
		case <-timer.C:
			return nil, run, nil
		case <-ctx.Done():
			return nil, run, ctx.Err()
		}
	}
}
