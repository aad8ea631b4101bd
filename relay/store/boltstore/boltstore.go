package boltstore

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"slices"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/agui-reducer/agui/relay/store"
)

var (
	bRuns      = []byte("runs")
	bFrames    = []byte("frames")
	bThreads   = []byte("threads")
	bSnapshots = []byte("snapshots")
	bMeta      = []byte("meta")
	bInputs    = []byte("inputs")
	kSecret    = []byte("secret")
	kUsage     = []byte("usage")
	kProbe     = []byte("probe")
)

// flushDelay is how long appends wait to share a commit.
const flushDelay = 3 * time.Millisecond

// Store is a store.Store in a bbolt file.
type Store struct {
	db *bolt.DB

	commitMu sync.Mutex // one commit at a time, in order

	mu      sync.Mutex
	changed map[string]chan struct{} // per run, closed at each change
	live    map[string]*liveRun      // runs produced by this process
	dirty   map[string]bool          // live runs with pending changes
	waiters []chan error             // Finish calls waiting for the next commit
	timer   *time.Timer              // the scheduled commit
	err     error                    // the last commit's failure (nil once one succeeds)
	retry   time.Duration            // the wait before committing again after a failure
	closed  bool
}

// liveRun is a run this process produces: its record as committed plus
// the changes not committed yet. A commit that fails leaves them pending,
// to be written by the next (a full disk that frees loses nothing, and a
// run is never recorded as ended without its last frame).
type liveRun struct {
	rec     runRec
	pending [][]byte
	from    int64 // seq of pending[0]
	end     *runEnd
}

// runEnd is a Finish not committed yet.
type runEnd struct {
	outcome string
	at      time.Time
	failed  bool // its commit failed: a Finish again waits for the next
}

var _ store.Store = (*Store)(nil)

// Open opens (or creates) the store file at path.
func Open(path string) (*Store, error) {
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: 5 * time.Second})
	if err != nil {
		return nil, errors.New("boltstore: " + path + ": " + err.Error())
	}
	err = db.Update(func(tx *bolt.Tx) error {
		for _, b := range [][]byte{bRuns, bFrames, bThreads, bSnapshots, bMeta, bInputs} {
			if _, err := tx.CreateBucketIfNotExists(b); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		db.Close()
		return nil, err
	}
	return &Store{db: db, changed: map[string]chan struct{}{}, live: map[string]*liveRun{}, dirty: map[string]bool{}}, nil
}

// Path is the file's path.
func (s *Store) Path() string { return s.db.Path() }

func (s *Store) Close() error {
	s.commit()
	s.commitMu.Lock()
	defer s.commitMu.Unlock()
	s.mu.Lock()
	s.closed = true
	if s.timer != nil {
		s.timer.Stop()
	}
	s.mu.Unlock()
	return s.db.Close()
}

// notify wakes the readers of run key.
func (s *Store) notify(key string) {
	s.mu.Lock()
	if c := s.changed[key]; c != nil {
		close(c)
		delete(s.changed, key)
	}
	s.mu.Unlock()
}

func (s *Store) watch(key string) <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.changed[key]
	if c == nil {
		c = make(chan struct{})
		s.changed[key] = c
	}
	return c
}

// Records as stored (a run's Input in bucket inputs).
type runRec struct {
	store.Run
}

func (r runRec) MarshalJSON() ([]byte, error) {
	c := r.Run
	c.Input = nil
	type plain store.Run
	return json.Marshal(plain(c))
}

type threadRec struct {
	Owner   string
	Version int64
	Runs    []string
	Active  string
	Bytes   int64
	Updated time.Time
}

func getJSON(b *bolt.Bucket, key string, v any) bool {
	data := b.Get([]byte(key))
	return data != nil && json.Unmarshal(data, v) == nil
}

func putJSON(b *bolt.Bucket, key string, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return b.Put([]byte(key), data)
}

func addUsage(tx *bolt.Tx, d int64) {
	m := tx.Bucket(bMeta)
	var n int64
	if v := m.Get(kUsage); len(v) == 8 {
		n = int64(binary.BigEndian.Uint64(v))
	}
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], uint64(n+d))
	m.Put(kUsage, b[:])
}

func seqKey(seq int64) []byte {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], uint64(seq))
	return b[:]
}

func (s *Store) Secret(_ context.Context, candidate []byte) ([]byte, error) {
	var out []byte
	err := s.db.Update(func(tx *bolt.Tx) error {
		m := tx.Bucket(bMeta)
		if v := m.Get(kSecret); v != nil {
			out = slices.Clone(v)
			return nil
		}
		out = slices.Clone(candidate)
		return m.Put(kSecret, out)
	})
	return out, err
}

func (s *Store) Create(_ context.Context, r *store.Run) error {
	var created runRec
	err := s.db.Batch(func(tx *bolt.Tx) error {
		runs, threads := tx.Bucket(bRuns), tx.Bucket(bThreads)
		if runs.Get([]byte(r.Key)) != nil {
			return store.ErrConflict
		}
		var t threadRec
		isNew := !getJSON(threads, r.Thread, &t)
		if isNew {
			t = threadRec{Owner: r.Owner, Bytes: store.ThreadOverhead}
		}
		if t.Owner != r.Owner {
			return store.ErrForbidden
		}
		if t.Active != "" {
			return store.ErrBusy
		}
		rec := runRec{*r}
		rec.Frames, rec.Outcome, rec.Folded, rec.Bytes = 0, store.OutcomeRunning, false, store.RunBytes(r.Input)
		if err := putJSON(runs, r.Key, rec); err != nil {
			return err
		}
		if len(r.Input) > 0 {
			if err := tx.Bucket(bInputs).Put([]byte(r.Key), r.Input); err != nil {
				return err
			}
		}
		if _, err := tx.Bucket(bFrames).CreateBucket([]byte(r.Key)); err != nil {
			return err
		}
		t.Runs = append(t.Runs, r.Key)
		t.Active = r.Key
		t.Bytes += rec.Bytes
		t.Updated = r.Started
		addUsage(tx, rec.Bytes)
		if isNew {
			addUsage(tx, store.ThreadOverhead)
		}
		created = rec
		return putJSON(threads, r.Thread, t)
	})
	if err == nil {
		created.Input = nil
		s.mu.Lock()
		s.live[r.Key] = &liveRun{rec: created, from: 1}
		s.mu.Unlock()
	}
	return err
}

// add appends a frame in tx.
func add(tx *bolt.Tx, rec *runRec, data []byte) error {
	fb := tx.Bucket(bFrames).Bucket([]byte(rec.Key))
	if fb == nil {
		return store.ErrNotFound
	}
	rec.Frames++
	if err := fb.Put(seqKey(rec.Frames), data); err != nil {
		return err
	}
	n := store.FrameBytes(data)
	rec.Bytes += n
	threads := tx.Bucket(bThreads)
	var t threadRec
	if getJSON(threads, rec.Thread, &t) {
		t.Bytes += n
		if err := putJSON(threads, rec.Thread, t); err != nil {
			return err
		}
	}
	addUsage(tx, n)
	return nil
}

func (s *Store) Append(_ context.Context, key string, seq int64, data []byte, lease time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	l := s.live[key]
	if l == nil {
		return s.appendCold(key)
	}
	n := l.rec.Frames + int64(len(l.pending))
	switch {
	case l.rec.Done() || l.end != nil:
		return store.ErrDone
	case s.err != nil && len(l.pending) > 0:
		// The run's last frames are not on disk: the caller retries
		// (and gives up after its bound) rather than piling up more.
		return s.err
	case seq <= n:
		return nil
	case seq != n+1:
		return store.ErrConflict
	}
	l.pending = append(l.pending, slices.Clone(data))
	l.rec.Lease = lease
	s.schedule(key)
	return nil
}

// appendCold answers an Append to a run this process does not produce.
func (s *Store) appendCold(key string) error {
	var rec runRec
	found := false
	s.db.View(func(tx *bolt.Tx) error { found = getJSON(tx.Bucket(bRuns), key, &rec); return nil })
	switch {
	case !found:
		return store.ErrNotFound
	case rec.Done():
		return store.ErrDone
	}
	return store.ErrConflict // produced by a process that is gone
}

// Flush commits the pending appends now.
func (s *Store) Flush() { s.commit() }

// schedule marks a live run dirty and makes sure a commit comes (s.mu held).
func (s *Store) schedule(key string) {
	s.dirty[key] = true
	if s.timer == nil && !s.closed {
		s.timer = time.AfterFunc(flushDelay, func() { s.commit() })
	}
}

// commitRetryMax bounds the wait between commits of a store that fails.
const commitRetryMax = time.Second

// commit writes the pending changes of every live run in one transaction
// and wakes their readers and the Finish calls waiting. What a failed
// commit held stays pending, and another commit is scheduled.
func (s *Store) commit() {
	s.commitMu.Lock()
	defer s.commitMu.Unlock()
	s.mu.Lock()
	s.timer = nil
	if s.closed {
		s.mu.Unlock()
		return
	}
	type job struct {
		key     string
		l       *liveRun
		rec     runRec
		pending [][]byte
		from    int64
		end     *runEnd
	}
	var jobs []job
	for key := range s.dirty {
		l := s.live[key]
		if l == nil {
			continue
		}
		jobs = append(jobs, job{key, l, l.rec, l.pending[:len(l.pending):len(l.pending)], l.from, l.end})
	}
	clear(s.dirty)
	waiters := s.waiters
	s.waiters = nil
	s.mu.Unlock()

	if len(jobs) == 0 && len(waiters) == 0 {
		return
	}
	err := s.db.Update(func(tx *bolt.Tx) error {
		runs, threads := tx.Bucket(bRuns), tx.Bucket(bThreads)
		for _, j := range jobs {
			var rec runRec
			if !getJSON(runs, j.key, &rec) {
				continue // deleted meanwhile
			}
			for i, p := range j.pending {
				if rec.Frames != j.from+int64(i)-1 {
					continue
				}
				if err := add(tx, &rec, p); err != nil {
					return err
				}
			}
			rec.Lease, rec.Readers = j.rec.Lease, j.rec.Readers
			if j.end != nil && !rec.Done() {
				rec.Outcome, rec.Ended = j.end.outcome, j.end.at
				if err := endThreadRun(threads, rec.Thread, j.key, rec.Ended); err != nil {
					return err
				}
			}
			if err := putJSON(runs, j.key, rec); err != nil {
				return err
			}
		}
		return nil
	})
	s.mu.Lock()
	s.err = err
	if err != nil {
		// All of it stays pending; try again later.
		for _, j := range jobs {
			s.dirty[j.key] = true
			if j.end != nil {
				j.end.failed = true
			}
		}
		s.retry = min(max(2*s.retry, 50*time.Millisecond), commitRetryMax)
		if s.timer == nil {
			s.timer = time.AfterFunc(s.retry, func() { s.commit() })
		}
	} else {
		s.retry = 0
		for _, j := range jobs {
			l := j.l
			n := int64(len(j.pending))
			l.rec.Frames += n
			for _, p := range j.pending {
				l.rec.Bytes += store.FrameBytes(p)
			}
			l.from += n
			l.pending = l.pending[n:]
			if j.end != nil {
				l.rec.Outcome, l.rec.Ended = j.end.outcome, j.end.at
				if s.live[j.key] == l {
					delete(s.live, j.key)
				}
			}
		}
	}
	s.mu.Unlock()
	if err == nil {
		for _, j := range jobs {
			s.notify(j.key)
		}
	}
	for _, w := range waiters {
		w <- err
	}
}

// Check reports whether the store takes writes: the last commit's failure
// while it lasts, or else the failure of a small write made now.
func (s *Store) Check(context.Context) error {
	s.mu.Lock()
	err := s.err
	s.mu.Unlock()
	if err != nil {
		return err
	}
	return s.db.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(bMeta).Put(kProbe, []byte(time.Now().UTC().Format(time.RFC3339Nano)))
	})
}

func (s *Store) Finish(ctx context.Context, key string, seq int64, data []byte, outcome string) error {
	s.mu.Lock()
	l := s.live[key]
	if l == nil {
		s.mu.Unlock()
		return s.finishCold(key, seq, data, outcome)
	}
	n := l.rec.Frames + int64(len(l.pending))
	switch {
	case l.rec.Done():
		s.mu.Unlock()
		return store.ErrDone
	case l.end != nil:
		// Finished before, not committed yet (a commit failed): the
		// same call again waits for the next commit.
		if !l.end.failed || l.end.outcome != outcome || data != nil && seq != n {
			s.mu.Unlock()
			return store.ErrDone
		}
	case data != nil && seq != n+1:
		s.mu.Unlock()
		return store.ErrConflict
	default:
		if data != nil {
			l.pending = append(l.pending, slices.Clone(data))
		}
		l.end = &runEnd{outcome: outcome, at: time.Now()}
	}
	done := make(chan error, 1)
	s.waiters = append(s.waiters, done)
	s.schedule(key)
	s.mu.Unlock()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// finishCold ends a run no live producer holds (one left by a process
// that is gone).
func (s *Store) finishCold(key string, seq int64, data []byte, outcome string) error {
	err := s.db.Update(func(tx *bolt.Tx) error {
		runs := tx.Bucket(bRuns)
		var rec runRec
		switch {
		case !getJSON(runs, key, &rec):
			return store.ErrNotFound
		case rec.Done():
			return store.ErrDone
		case data != nil && seq != rec.Frames+1:
			return store.ErrConflict
		}
		if data != nil {
			if err := add(tx, &rec, data); err != nil {
				return err
			}
		}
		rec.Outcome, rec.Ended = outcome, time.Now()
		if err := endThreadRun(tx.Bucket(bThreads), rec.Thread, key, rec.Ended); err != nil {
			return err
		}
		return putJSON(runs, key, rec)
	})
	if err == nil {
		s.notify(key)
	}
	return err
}

// endThreadRun records in its thread that run key ended at t.
func endThreadRun(threads *bolt.Bucket, thread, key string, t time.Time) error {
	var th threadRec
	if !getJSON(threads, thread, &th) {
		return nil
	}
	if th.Active == key {
		th.Active = ""
	}
	th.Updated = t
	return putJSON(threads, thread, th)
}

func (s *Store) Renew(_ context.Context, key string, lease time.Time) (time.Time, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	l := s.live[key]
	if l == nil {
		return time.Time{}, s.appendCold(key)
	}
	return l.rec.Renew(lease)
}

func (s *Store) Touch(_ context.Context, key string, at time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	l := s.live[key]
	if l == nil {
		// A run no process produces: readers no longer matter.
		found := false
		s.db.View(func(tx *bolt.Tx) error { found = tx.Bucket(bRuns).Get([]byte(key)) != nil; return nil })
		if !found {
			return store.ErrNotFound
		}
		return nil
	}
	l.rec.Touch(at)
	return nil
}

func (s *Store) Read(ctx context.Context, key string, after int64, max int, wait time.Duration) ([]store.Frame, *store.Run, error) {
	return store.WaitRead(ctx, wait, func() ([]store.Frame, *store.Run, <-chan struct{}, error) {
		changed := s.watch(key) // before reading: no wake-up is missed
		var out []store.Frame
		var rec runRec
		err := s.db.View(func(tx *bolt.Tx) error {
			if !getJSON(tx.Bucket(bRuns), key, &rec) {
				return store.ErrNotFound
			}
			fb := tx.Bucket(bFrames).Bucket([]byte(key))
			if fb == nil || max <= 0 {
				return nil
			}
			c := fb.Cursor()
			for k, v := c.Seek(seqKey(after + 1)); k != nil && len(out) < max; k, v = c.Next() {
				out = append(out, store.Frame{Seq: int64(binary.BigEndian.Uint64(k)), Data: slices.Clone(v)})
			}
			return nil
		})
		if err != nil {
			return nil, nil, nil, err
		}
		s.mu.Lock()
		if l := s.live[key]; l != nil {
			rec.Lease, rec.Readers = l.rec.Lease, l.rec.Readers
		}
		s.mu.Unlock()
		rec.Input = nil
		return out, &rec.Run, changed, nil
	})
}

func (s *Store) Input(_ context.Context, key string) ([]byte, error) {
	var in []byte
	err := s.db.View(func(tx *bolt.Tx) error {
		if tx.Bucket(bRuns).Get([]byte(key)) == nil {
			return store.ErrNotFound
		}
		in = slices.Clone(tx.Bucket(bInputs).Get([]byte(key)))
		return nil
	})
	return in, err
}

func (s *Store) Thread(_ context.Context, key string) (*store.Thread, error) {
	var th *store.Thread
	err := s.db.View(func(tx *bolt.Tx) error {
		var t threadRec
		if !getJSON(tx.Bucket(bThreads), key, &t) {
			return store.ErrNotFound
		}
		th = &store.Thread{Key: key, Owner: t.Owner, Version: t.Version, Runs: t.Runs, Active: t.Active, Bytes: t.Bytes, Updated: t.Updated}
		if v := tx.Bucket(bSnapshots).Get([]byte(key)); v != nil {
			th.Snapshot = slices.Clone(v)
		}
		return nil
	})
	return th, err
}

func (s *Store) Fold(_ context.Context, key string, version int64, snapshot []byte, folded, drop []string) error {
	var dropped []string
	err := s.db.Batch(func(tx *bolt.Tx) error {
		dropped = dropped[:0]
		threads, runs := tx.Bucket(bThreads), tx.Bucket(bRuns)
		var t threadRec
		if !getJSON(threads, key, &t) {
			return store.ErrNotFound
		}
		if t.Version != version {
			return store.ErrConflict
		}
		snaps := tx.Bucket(bSnapshots)
		d := int64(len(snapshot) - len(snaps.Get([]byte(key))))
		if err := snaps.Put([]byte(key), snapshot); err != nil {
			return err
		}
		t.Version++
		t.Updated = time.Now()
		t.Bytes += d
		addUsage(tx, d)
		for _, k := range folded {
			var rec runRec
			if getJSON(runs, k, &rec) && rec.Thread == key {
				rec.Folded, rec.FoldedIn = true, t.Version
				if err := putJSON(runs, k, rec); err != nil {
					return err
				}
			}
		}
		for _, k := range drop {
			var rec runRec
			if getJSON(runs, k, &rec) && rec.Thread == key && rec.Folded {
				if err := dropRun(tx, &t, &rec); err != nil {
					return err
				}
				dropped = append(dropped, k)
			}
		}
		return putJSON(threads, key, t)
	})
	for _, k := range dropped {
		s.notify(k)
	}
	return err
}

// dropRun deletes a run of t in tx (t is written by the caller).
func dropRun(tx *bolt.Tx, t *threadRec, rec *runRec) error {
	if err := tx.Bucket(bRuns).Delete([]byte(rec.Key)); err != nil {
		return err
	}
	if err := tx.Bucket(bInputs).Delete([]byte(rec.Key)); err != nil {
		return err
	}
	if err := tx.Bucket(bFrames).DeleteBucket([]byte(rec.Key)); err != nil && !errors.Is(err, bolt.ErrBucketNotFound) {
		return err
	}
	t.Runs = slices.DeleteFunc(t.Runs, func(k string) bool { return k == rec.Key })
	t.Bytes -= rec.Bytes
	addUsage(tx, -rec.Bytes)
	return nil
}

// deleteThread deletes a thread and its runs in tx; it returns the run keys.
func deleteThread(tx *bolt.Tx, key string, t *threadRec) ([]string, error) {
	runs := slices.Clone(t.Runs)
	for _, k := range runs {
		var rec runRec
		if getJSON(tx.Bucket(bRuns), k, &rec) {
			if err := dropRun(tx, t, &rec); err != nil {
				return nil, err
			}
		}
	}
	addUsage(tx, -t.Bytes) // the snapshot and ThreadOverhead
	if err := tx.Bucket(bSnapshots).Delete([]byte(key)); err != nil {
		return nil, err
	}
	return runs, tx.Bucket(bThreads).Delete([]byte(key))
}

func (s *Store) Delete(_ context.Context, key string) error {
	var runs []string
	err := s.db.Update(func(tx *bolt.Tx) error {
		var t threadRec
		if !getJSON(tx.Bucket(bThreads), key, &t) {
			return store.ErrNotFound
		}
		var err error
		runs, err = deleteThread(tx, key, &t)
		return err
	})
	for _, k := range runs {
		s.notify(k)
	}
	return err
}

func (s *Store) Sweep(_ context.Context, now time.Time, lim store.Limits) (store.Swept, error) {
	var sw store.Swept
	var gone []string
	err := s.db.Update(func(tx *bolt.Tx) error {
		sw, gone = store.Swept{}, nil
		before := usage(tx)
		type entry struct {
			key string
			t   threadRec
		}
		var all []entry
		threads, runs := tx.Bucket(bThreads), tx.Bucket(bRuns)
		err := threads.ForEach(func(k, v []byte) error {
			var t threadRec
			if json.Unmarshal(v, &t) == nil {
				all = append(all, entry{string(k), t})
			}
			return nil
		})
		if err != nil {
			return err
		}
		var live []entry
		for _, e := range all {
			if lim.Retention > 0 && e.t.Active == "" && now.Sub(e.t.Updated) >= lim.Retention {
				sw.Threads++
				sw.Runs += len(e.t.Runs)
				ks, err := deleteThread(tx, e.key, &e.t)
				if err != nil {
					return err
				}
				gone = append(gone, ks...)
				continue
			}
			if lim.RunTTL > 0 {
				changed := false
				for _, k := range slices.Clone(e.t.Runs) {
					var rec runRec
					if getJSON(runs, k, &rec) && rec.Folded && now.Sub(rec.Ended) >= lim.RunTTL {
						if err := dropRun(tx, &e.t, &rec); err != nil {
							return err
						}
						sw.Runs++
						gone = append(gone, k)
						changed = true
					}
				}
				if changed {
					if err := putJSON(threads, e.key, e.t); err != nil {
						return err
					}
				}
			}
			live = append(live, e)
		}
		over := func(n int) bool {
			return lim.MaxBytes > 0 && usage(tx) > lim.MaxBytes || lim.MaxThreads > 0 && n > lim.MaxThreads
		}
		if n := len(live); over(n) {
			slices.SortFunc(live, func(a, b entry) int { return a.t.Updated.Compare(b.t.Updated) })
			for _, e := range live {
				if !over(n) {
					break
				}
				if e.t.Active != "" {
					continue
				}
				sw.Threads++
				sw.Runs += len(e.t.Runs)
				ks, err := deleteThread(tx, e.key, &e.t)
				if err != nil {
					return err
				}
				gone = append(gone, ks...)
				n--
			}
		}
		sw.Bytes = before - usage(tx)
		return nil
	})
	for _, k := range gone {
		s.notify(k)
	}
	return sw, err
}

func usage(tx *bolt.Tx) int64 {
	if v := tx.Bucket(bMeta).Get(kUsage); len(v) == 8 {
		return int64(binary.BigEndian.Uint64(v))
	}
	return 0
}

func (s *Store) Running(_ context.Context, max int) ([]string, error) {
	var out []string
	err := s.db.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bThreads).ForEach(func(_, v []byte) error {
			var t threadRec
			if len(out) < max && json.Unmarshal(v, &t) == nil && t.Active != "" {
				out = append(out, t.Active)
			}
			return nil
		})
	})
	return out, err
}

func (s *Store) Usage(context.Context) (int64, error) {
	var n int64
	err := s.db.View(func(tx *bolt.Tx) error { n = usage(tx); return nil })
	return n, err
}
