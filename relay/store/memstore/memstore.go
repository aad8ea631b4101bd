package memstore

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/agui-reducer/agui/relay/store"
)

// Store is an in-memory store.Store.
type Store struct {
	mu      sync.Mutex
	secret  []byte
	runs    map[string]*run
	threads map[string]*store.Thread
	bytes   int64
}

type run struct {
	rec     store.Run
	frames  [][]byte
	changed chan struct{}
}

// New returns an empty store.
func New() *Store {
	return &Store{runs: map[string]*run{}, threads: map[string]*store.Thread{}}
}

var _ store.Store = (*Store)(nil)

func (s *Store) Secret(_ context.Context, candidate []byte) ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.secret == nil {
		s.secret = slices.Clone(candidate)
	}
	return s.secret, nil
}

func (s *Store) Create(_ context.Context, r *store.Run) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.runs[r.Key]; ok {
		return store.ErrConflict
	}
	t := s.threads[r.Thread]
	if t == nil {
		t = &store.Thread{Key: r.Thread, Owner: r.Owner, Bytes: store.ThreadOverhead}
	}
	if t.Owner != r.Owner {
		return store.ErrForbidden
	}
	if t.Active != "" {
		return store.ErrBusy
	}
	if s.threads[r.Thread] == nil {
		s.threads[r.Thread] = t
		s.bytes += t.Bytes
	}
	rec := *r
	rec.Input = slices.Clone(r.Input)
	rec.Frames, rec.Outcome, rec.Folded = 0, store.OutcomeRunning, false
	rec.Bytes = store.RunBytes(rec.Input)
	s.runs[r.Key] = &run{rec: rec, changed: make(chan struct{})}
	t.Runs = append(t.Runs, r.Key)
	t.Active = r.Key
	t.Bytes += rec.Bytes
	t.Updated = r.Started
	s.bytes += rec.Bytes
	return nil
}

// add appends a frame under s.mu.
func (s *Store) add(r *run, data []byte) {
	r.frames = append(r.frames, slices.Clone(data))
	r.rec.Frames++
	n := store.FrameBytes(data)
	r.rec.Bytes += n
	if t := s.threads[r.rec.Thread]; t != nil {
		t.Bytes += n
	}
	s.bytes += n
	close(r.changed)
	r.changed = make(chan struct{})
}

func (s *Store) Append(_ context.Context, key string, seq int64, data []byte, lease time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.runs[key]
	switch {
	case r == nil:
		return store.ErrNotFound
	case r.rec.Done():
		return store.ErrDone
	case seq <= r.rec.Frames:
		return nil // stored already
	case seq != r.rec.Frames+1:
		return store.ErrConflict
	}
	s.add(r, data)
	r.rec.Lease = lease
	return nil
}

func (s *Store) Finish(_ context.Context, key string, seq int64, data []byte, outcome string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.runs[key]
	switch {
	case r == nil:
		return store.ErrNotFound
	case r.rec.Done():
		return store.ErrDone
	case data != nil && seq != r.rec.Frames+1:
		return store.ErrConflict
	}
	if data != nil {
		s.add(r, data)
	}
	r.rec.Outcome, r.rec.Ended = outcome, time.Now()
	if t := s.threads[r.rec.Thread]; t != nil {
		if t.Active == key {
			t.Active = ""
		}
		t.Updated = r.rec.Ended
	}
	close(r.changed)
	r.changed = make(chan struct{})
	return nil
}

func (s *Store) Renew(_ context.Context, key string, lease time.Time) (time.Time, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.runs[key]
	if r == nil {
		return time.Time{}, store.ErrNotFound
	}
	return r.rec.Renew(lease)
}

func (s *Store) Touch(_ context.Context, key string, at time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.runs[key]
	if r == nil {
		return store.ErrNotFound
	}
	r.rec.Touch(at)
	return nil
}

func (s *Store) Read(ctx context.Context, key string, after int64, max int, wait time.Duration) ([]store.Frame, *store.Run, error) {
	return store.WaitRead(ctx, wait, func() ([]store.Frame, *store.Run, <-chan struct{}, error) {
		s.mu.Lock()
		defer s.mu.Unlock()
		r := s.runs[key]
		if r == nil {
			return nil, nil, nil, store.ErrNotFound
		}
		rec := r.rec
		rec.Input = nil
		var out []store.Frame
		for i := after; i < int64(len(r.frames)) && len(out) < max; i++ {
			out = append(out, store.Frame{Seq: i + 1, Data: r.frames[i]}) // never modified in place
		}
		return out, &rec, r.changed, nil
	})
}

func (s *Store) Thread(_ context.Context, key string) (*store.Thread, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.threads[key]
	if t == nil {
		return nil, store.ErrNotFound
	}
	c := *t
	c.Runs = slices.Clone(t.Runs)
	return &c, nil
}

func (s *Store) Input(_ context.Context, key string) ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.runs[key]
	if r == nil {
		return nil, store.ErrNotFound
	}
	return r.rec.Input, nil
}

// Run returns a copy of a run's record (tests).
func (s *Store) Run(key string) (store.Run, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.runs[key]
	if r == nil {
		return store.Run{}, false
	}
	return r.rec, true
}

// RunKeys returns the keys of the runs kept (for tests).
func (s *Store) RunKeys() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	keys := make([]string, 0, len(s.runs))
	for k := range s.runs {
		keys = append(keys, k)
	}
	return keys
}

func (s *Store) Fold(_ context.Context, key string, version int64, snapshot []byte, folded, drop []string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.threads[key]
	if t == nil {
		return store.ErrNotFound
	}
	if t.Version != version {
		return store.ErrConflict
	}
	d := int64(len(snapshot) - len(t.Snapshot))
	t.Snapshot = slices.Clone(snapshot)
	t.Version++
	t.Updated = time.Now()
	t.Bytes += d
	s.bytes += d
	for _, k := range folded {
		if r := s.runs[k]; r != nil && r.rec.Thread == key {
			r.rec.Folded, r.rec.FoldedIn = true, t.Version
		}
	}
	for _, k := range drop {
		if r := s.runs[k]; r != nil && r.rec.Thread == key && r.rec.Folded {
			s.dropRun(t, r)
		}
	}
	return nil
}

// dropRun forgets a run of t under s.mu.
func (s *Store) dropRun(t *store.Thread, r *run) {
	delete(s.runs, r.rec.Key)
	t.Runs = slices.DeleteFunc(t.Runs, func(k string) bool { return k == r.rec.Key })
	t.Bytes -= r.rec.Bytes
	s.bytes -= r.rec.Bytes
	close(r.changed)
	r.changed = make(chan struct{})
}

func (s *Store) Delete(_ context.Context, key string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.threads[key]
	if t == nil {
		return store.ErrNotFound
	}
	s.deleteThread(t)
	return nil
}

func (s *Store) deleteThread(t *store.Thread) {
	for _, k := range slices.Clone(t.Runs) {
		if r := s.runs[k]; r != nil {
			s.dropRun(t, r)
		}
	}
	s.bytes -= t.Bytes // the snapshot and ThreadOverhead
	delete(s.threads, t.Key)
}

func (s *Store) Sweep(_ context.Context, now time.Time, lim store.Limits) (store.Swept, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var sw store.Swept
	before := s.bytes
	for _, t := range s.threads {
		if lim.Retention > 0 && t.Active == "" && now.Sub(t.Updated) >= lim.Retention {
			sw.Threads++
			sw.Runs += len(t.Runs)
			s.deleteThread(t)
			continue
		}
		if lim.RunTTL > 0 {
			for _, k := range slices.Clone(t.Runs) {
				if r := s.runs[k]; r != nil && r.rec.Folded && now.Sub(r.rec.Ended) >= lim.RunTTL {
					s.dropRun(t, r)
					sw.Runs++
				}
			}
		}
	}
	for lim.MaxBytes > 0 && s.bytes > lim.MaxBytes || lim.MaxThreads > 0 && len(s.threads) > lim.MaxThreads {
		var victim *store.Thread
		for _, t := range s.threads {
			if t.Active == "" && (victim == nil || t.Updated.Before(victim.Updated)) {
				victim = t
			}
		}
		if victim == nil {
			break
		}
		sw.Threads++
		sw.Runs += len(victim.Runs)
		s.deleteThread(victim)
	}
	sw.Bytes = before - s.bytes
	return sw, nil
}

func (s *Store) Running(_ context.Context, max int) ([]string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for k, r := range s.runs {
		if !r.rec.Done() && len(out) < max {
			out = append(out, k)
		}
	}
	return out, nil
}

func (s *Store) Usage(context.Context) (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.bytes, nil
}

func (s *Store) Close() error { return nil }
