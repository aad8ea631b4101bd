package storetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/agui-reducer/agui/relay/store"
)

// Run runs the suite; open returns an empty store, closed by the suite.
func Run(t *testing.T, open func(t *testing.T) store.Store) {
	tests := []struct {
		name string
		f    func(t *testing.T, s store.Store)
	}{
		{"Secret", testSecret},
		{"RunLifecycle", testRunLifecycle},
		{"AppendIdempotent", testAppendIdempotent},
		{"ReadWaits", testReadWaits},
		{"FinishOnce", testFinishOnce},
		{"ThreadOwnerAndBusy", testThreadOwnerAndBusy},
		{"FoldAndDrop", testFoldAndDrop},
		{"SweepRetention", testSweepRetention},
		{"SweepMaxBytes", testSweepMaxBytes},
		{"Delete", testDelete},
		{"LeaseAndReaders", testLeaseAndReaders},
		{"SweepMaxThreads", testSweepMaxThreads},
		{"Running", testRunning},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := open(t)
			defer s.Close()
			tc.f(t, s)
		})
	}
}

var ctx = context.Background()

func newRun(key, thread, owner string) *store.Run {
	return &store.Run{Key: key, Thread: thread, Owner: owner, Producer: "p1", Started: time.Now(),
		Input: []byte(`[{"id":"u1","role":"user","content":"hi"}]`), Lease: time.Now().Add(time.Minute)}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// flush commits what a backend that group-commits appends holds.
func flush(s store.Store) {
	if f, ok := s.(interface{ Flush() }); ok {
		f.Flush()
	}
}

func frames(t *testing.T, s store.Store, key string, after int64) ([]store.Frame, *store.Run) {
	t.Helper()
	flush(s)
	fs, r, err := s.Read(ctx, key, after, 1000, 0)
	must(t, err)
	return fs, r
}

func testSecret(t *testing.T, s store.Store) {
	a, err := s.Secret(ctx, []byte("first"))
	must(t, err)
	b, err := s.Secret(ctx, []byte("second"))
	must(t, err)
	if string(a) != "first" || string(b) != "first" {
		t.Fatalf("secrets %q %q, want the first twice", a, b)
	}
}

func testRunLifecycle(t *testing.T, s store.Store) {
	must(t, s.Create(ctx, newRun("r1", "t1", "o1")))
	for i := int64(1); i <= 3; i++ {
		must(t, s.Append(ctx, "r1", i, []byte(fmt.Sprintf(`{"n":%d}`, i)), time.Now().Add(time.Minute)))
	}
	fs, r := frames(t, s, "r1", 1)
	if len(fs) != 2 || fs[0].Seq != 2 || string(fs[1].Data) != `{"n":3}` || r.Frames != 3 || r.Done() {
		t.Fatalf("read after 1: %+v %+v", fs, r)
	}
	in, err := s.Input(ctx, "r1")
	must(t, err)
	if r.Thread != "t1" || r.Owner != "o1" || string(in) != `[{"id":"u1","role":"user","content":"hi"}]` || r.Input != nil {
		t.Fatalf("run record %+v, input %s", r, in)
	}
	flush(s)
	th, err := s.Thread(ctx, "t1")
	must(t, err)
	if th.Active != "r1" || len(th.Runs) != 1 || th.Owner != "o1" || th.Bytes != store.ThreadOverhead+r.Bytes ||
		r.Bytes != store.RunOverhead+int64(len(in))+3*(store.FrameOverhead+7) {
		t.Fatalf("thread %+v, run bytes %d", th, r.Bytes)
	}
	must(t, s.Finish(ctx, "r1", 4, []byte(`{"end":1}`), store.OutcomeFinished))
	fs, r = frames(t, s, "r1", 0)
	if len(fs) != 4 || !r.Done() || r.Outcome != store.OutcomeFinished || r.Ended.IsZero() {
		t.Fatalf("finished run: %d frames, %+v", len(fs), r)
	}
	th, _ = s.Thread(ctx, "t1")
	if th.Active != "" {
		t.Fatalf("active run %q after finish", th.Active)
	}
	if err := s.Append(ctx, "r1", 5, []byte("{}"), time.Now()); !errors.Is(err, store.ErrDone) {
		t.Fatalf("append after finish: %v", err)
	}
	if _, _, err := s.Read(ctx, "nope", 0, 10, 0); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("unknown run: %v", err)
	}
	if _, err := s.Thread(ctx, "nope"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("unknown thread: %v", err)
	}
}

func testAppendIdempotent(t *testing.T, s store.Store) {
	must(t, s.Create(ctx, newRun("r1", "t1", "o1")))
	must(t, s.Append(ctx, "r1", 1, []byte(`{"a":1}`), time.Now().Add(time.Minute)))
	must(t, s.Append(ctx, "r1", 1, []byte(`{"a":1}`), time.Now().Add(time.Minute))) // a retry
	if err := s.Append(ctx, "r1", 3, []byte(`{}`), time.Now()); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("gap: %v", err)
	}
	fs, _ := frames(t, s, "r1", 0)
	if len(fs) != 1 {
		t.Fatalf("%d frames, want 1", len(fs))
	}
}

func testReadWaits(t *testing.T, s store.Store) {
	must(t, s.Create(ctx, newRun("r1", "t1", "o1")))
	got := make(chan []store.Frame, 1)
	go func() {
		fs, _, _ := s.Read(ctx, "r1", 0, 10, 10*time.Second)
		got <- fs
	}()
	time.Sleep(20 * time.Millisecond)
	must(t, s.Append(ctx, "r1", 1, []byte(`{"a":1}`), time.Now().Add(time.Minute)))
	select {
	case fs := <-got:
		if len(fs) != 1 || fs[0].Seq != 1 {
			t.Fatalf("woke with %+v", fs)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Read did not wake on Append")
	}
	// A reader waiting on a run that finishes with no frame wakes too.
	go func() {
		_, r, _ := s.Read(ctx, "r1", 1, 10, 10*time.Second)
		got <- []store.Frame{{Seq: -1, Data: []byte(r.Outcome)}}
	}()
	time.Sleep(20 * time.Millisecond)
	must(t, s.Finish(ctx, "r1", 2, nil, store.OutcomeError))
	select {
	case fs := <-got:
		if string(fs[0].Data) != store.OutcomeError {
			t.Fatalf("woke with outcome %q", fs[0].Data)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Read did not wake on Finish")
	}
}

func testFinishOnce(t *testing.T, s store.Store) {
	must(t, s.Create(ctx, newRun("r1", "t1", "o1")))
	must(t, s.Append(ctx, "r1", 1, []byte(`{}`), time.Now().Add(time.Minute)))
	// Two reapers race to end the run: one wins, one frame is added.
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = s.Finish(ctx, "r1", 2, []byte(`{"lost":1}`), store.OutcomeError)
		}()
	}
	wg.Wait()
	ok := 0
	for _, err := range errs {
		if err == nil {
			ok++
		} else if !errors.Is(err, store.ErrDone) && !errors.Is(err, store.ErrConflict) {
			t.Fatal(err)
		}
	}
	fs, r := frames(t, s, "r1", 0)
	if ok != 1 || len(fs) != 2 || r.Outcome != store.OutcomeError {
		t.Fatalf("%d finishes won, %d frames, outcome %q", ok, len(fs), r.Outcome)
	}
}

func testThreadOwnerAndBusy(t *testing.T, s store.Store) {
	must(t, s.Create(ctx, newRun("r1", "t1", "o1")))
	if err := s.Create(ctx, newRun("r2", "t1", "o1")); !errors.Is(err, store.ErrBusy) {
		t.Fatalf("second active run: %v", err)
	}
	if err := s.Create(ctx, newRun("r3", "t1", "o2")); !errors.Is(err, store.ErrForbidden) {
		t.Fatalf("other owner: %v", err)
	}
	must(t, s.Finish(ctx, "r1", 1, []byte(`{}`), store.OutcomeFinished))
	must(t, s.Create(ctx, newRun("r2", "t1", "o1")))
	th, _ := s.Thread(ctx, "t1")
	if len(th.Runs) != 2 || th.Runs[0] != "r1" || th.Runs[1] != "r2" || th.Active != "r2" {
		t.Fatalf("thread %+v", th)
	}
}

func testFoldAndDrop(t *testing.T, s store.Store) {
	must(t, s.Create(ctx, newRun("r1", "t1", "o1")))
	must(t, s.Finish(ctx, "r1", 1, []byte(`{"a":1}`), store.OutcomeFinished))
	must(t, s.Create(ctx, newRun("r2", "t1", "o1")))
	must(t, s.Finish(ctx, "r2", 1, []byte(`{"b":2}`), store.OutcomeFinished))
	th, _ := s.Thread(ctx, "t1")
	must(t, s.Fold(ctx, "t1", th.Version, []byte(`{"snap":1}`), []string{"r1", "r2"}, []string{"r1"}))
	if err := s.Fold(ctx, "t1", th.Version, []byte(`{"snap":2}`), nil, nil); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("stale fold: %v", err)
	}
	th2, _ := s.Thread(ctx, "t1")
	_, r2 := frames(t, s, "r2", 0)
	if string(th2.Snapshot) != `{"snap":1}` || th2.Version != th.Version+1 || len(th2.Runs) != 1 || th2.Runs[0] != "r2" || !r2.Folded || r2.FoldedIn != th2.Version {
		t.Fatalf("after fold: %+v, r2 %+v", th2, r2)
	}
	if want := store.ThreadOverhead + int64(len(`{"snap":1}`)) + r2.Bytes; th2.Bytes != want {
		t.Fatalf("thread bytes %d, want %d", th2.Bytes, want)
	}
	if _, _, err := s.Read(ctx, "r1", 0, 10, 0); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("dropped run: %v", err)
	}
	u, err := s.Usage(ctx)
	must(t, err)
	if u != th2.Bytes {
		t.Fatalf("usage %d, thread bytes %d", u, th2.Bytes)
	}
}

func testSweepRetention(t *testing.T, s store.Store) {
	// t1: old and idle; t2: old with a run going on; t3: recent.
	for _, th := range []string{"t1", "t2", "t3"} {
		r := newRun("r-"+th, th, "o1")
		must(t, s.Create(ctx, r))
		if th != "t2" {
			must(t, s.Finish(ctx, r.Key, 1, []byte(`{}`), store.OutcomeFinished))
			tt, _ := s.Thread(ctx, th)
			must(t, s.Fold(ctx, th, tt.Version, []byte(`{"s":1}`), []string{r.Key}, nil))
		}
	}
	sw, err := s.Sweep(ctx, time.Now().Add(time.Hour), store.Limits{Retention: 30 * time.Minute})
	must(t, err)
	// Everything is an hour old by then, but t2 is active.
	if sw.Threads != 2 {
		t.Fatalf("swept %+v, want 2 threads", sw)
	}
	if _, err := s.Thread(ctx, "t2"); err != nil {
		t.Fatalf("active thread swept: %v", err)
	}
	// RunTTL drops folded runs' frames and keeps the thread.
	must(t, s.Create(ctx, newRun("r4", "t4", "o1")))
	must(t, s.Finish(ctx, "r4", 1, []byte(`{}`), store.OutcomeFinished))
	must(t, s.Create(ctx, newRun("r5", "t4", "o1")))
	must(t, s.Finish(ctx, "r5", 1, []byte(`{}`), store.OutcomeFinished))
	tt, _ := s.Thread(ctx, "t4")
	must(t, s.Fold(ctx, "t4", tt.Version, []byte(`{"s":1}`), []string{"r4"}, nil)) // r5 not folded
	sw, err = s.Sweep(ctx, time.Now().Add(time.Minute), store.Limits{RunTTL: 30 * time.Second})
	must(t, err)
	tt, _ = s.Thread(ctx, "t4")
	if sw.Runs != 1 || len(tt.Runs) != 1 || tt.Runs[0] != "r5" || string(tt.Snapshot) != `{"s":1}` {
		t.Fatalf("run ttl: swept %+v, thread %+v", sw, tt)
	}
}

func testSweepMaxBytes(t *testing.T, s store.Store) {
	big := make([]byte, 1000)
	for i := range big {
		big[i] = 'x'
	}
	frame := []byte(`"` + string(big) + `"`)
	for i := range 5 {
		th := fmt.Sprintf("t%d", i)
		must(t, s.Create(ctx, newRun("r"+th, th, "o1")))
		must(t, s.Finish(ctx, "r"+th, 1, frame, store.OutcomeFinished))
		time.Sleep(2 * time.Millisecond) // distinct update times
	}
	u, _ := s.Usage(ctx)
	limit := u - u/5*3/2 // one thread and a half over
	sw, err := s.Sweep(ctx, time.Now(), store.Limits{MaxBytes: limit})
	must(t, err)
	u2, _ := s.Usage(ctx)
	if sw.Threads != 2 || u2 > limit {
		t.Fatalf("swept %+v, usage %d -> %d", sw, u, u2)
	}
	for i, want := range []bool{false, false, true, true, true} {
		_, err := s.Thread(ctx, fmt.Sprintf("t%d", i))
		if (err == nil) != want {
			t.Fatalf("thread t%d kept=%v, want %v (the oldest go first)", i, err == nil, want)
		}
	}
}

func testDelete(t *testing.T, s store.Store) {
	must(t, s.Create(ctx, newRun("r1", "t1", "o1")))
	must(t, s.Finish(ctx, "r1", 1, []byte(`{}`), store.OutcomeFinished))
	must(t, s.Delete(ctx, "t1"))
	if _, err := s.Thread(ctx, "t1"); !errors.Is(err, store.ErrNotFound) {
		t.Fatal(err)
	}
	if _, _, err := s.Read(ctx, "r1", 0, 1, 0); !errors.Is(err, store.ErrNotFound) {
		t.Fatal(err)
	}
	if u, _ := s.Usage(ctx); u != 0 {
		t.Fatalf("usage %d after delete", u)
	}
}

func testLeaseAndReaders(t *testing.T, s store.Store) {
	must(t, s.Create(ctx, newRun("r1", "t1", "o1")))
	at := time.Now().Add(time.Hour).Truncate(time.Millisecond)
	must(t, s.Touch(ctx, "r1", at))
	must(t, s.Touch(ctx, "r1", at.Add(-time.Minute))) // never backwards
	lease := time.Now().Add(2 * time.Hour).Truncate(time.Millisecond)
	readers, err := s.Renew(ctx, "r1", lease)
	must(t, err)
	_, r := frames(t, s, "r1", 0)
	if !readers.Equal(at) || !r.Readers.Equal(at) || !r.Lease.Equal(lease) {
		t.Fatalf("readers %v (run %v), want %v; lease %v, want %v", readers, r.Readers, at, r.Lease, lease)
	}
	must(t, s.Finish(ctx, "r1", 1, nil, store.OutcomeFinished))
	if _, err := s.Renew(ctx, "r1", lease); !errors.Is(err, store.ErrDone) {
		t.Fatalf("renew after finish: %v", err)
	}
}

// testSweepMaxThreads: past MaxThreads the threads least recently updated
// (a run's end counts) go, never one with a run going on.
func testSweepMaxThreads(t *testing.T, s store.Store) {
	for i := range 4 {
		th := fmt.Sprintf("t%d", i)
		must(t, s.Create(ctx, newRun("r"+th, th, "o1")))
		time.Sleep(2 * time.Millisecond)
	}
	// t0 ends last: the most recently updated of the idle ones.
	for _, i := range []int{1, 2, 0} {
		time.Sleep(2 * time.Millisecond)
		must(t, s.Finish(ctx, fmt.Sprintf("rt%d", i), 1, []byte(`{}`), store.OutcomeFinished))
	}
	flush(s)
	sw, err := s.Sweep(ctx, time.Now(), store.Limits{MaxThreads: 2})
	must(t, err)
	for i, want := range []bool{true, false, false, true} {
		_, err := s.Thread(ctx, fmt.Sprintf("t%d", i))
		if (err == nil) != want {
			t.Fatalf("thread t%d kept=%v, want %v (swept %+v)", i, err == nil, want, sw)
		}
	}
}

func testRunning(t *testing.T, s store.Store) {
	must(t, s.Create(ctx, newRun("r1", "t1", "o1")))
	must(t, s.Create(ctx, newRun("r2", "t2", "o1")))
	must(t, s.Finish(ctx, "r2", 1, nil, store.OutcomeFinished))
	flush(s)
	keys, err := s.Running(ctx, 100)
	must(t, err)
	if len(keys) != 1 || keys[0] != "r1" {
		t.Fatalf("running %v, want [r1]", keys)
	}
	must(t, s.Finish(ctx, "r1", 1, nil, store.OutcomeError))
	flush(s)
	if keys, _ := s.Running(ctx, 100); len(keys) != 0 {
		t.Fatalf("running %v after the end", keys)
	}
}
