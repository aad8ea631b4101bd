package memstore

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/agui-reducer/agui/relay/store"
)

// FuzzBounds drives a store with a random sequence of runs (created,
// appended to, finished, folded with drops, swept) and checks its
// accounting after each step: the bytes it counts are the bytes its
// threads hold, a thread's are its snapshot's and its runs', and after a
// sweep no bound is exceeded but by threads with a run going on.
func FuzzBounds(f *testing.F) {
	f.Add([]byte{0, 1, 1, 2, 3, 4, 0, 1, 2, 3, 4, 5})
	f.Add([]byte{0, 0, 0, 0, 0, 5, 1, 1, 1, 2, 2, 2, 5})
	f.Add([]byte{0, 17, 33, 49, 65, 81, 97, 113, 129, 145, 5})
	f.Fuzz(func(t *testing.T, ops []byte) {
		if len(ops) > 400 {
			ops = ops[:400]
		}
		ctx := context.Background()
		s := New()
		clock := time.Unix(1e9, 0)
		lim := store.Limits{MaxBytes: 600, MaxThreads: 3, RunTTL: time.Minute}
		var keys []string
		for i, op := range ops {
			clock = clock.Add(time.Second)
			thread := "t" + strconv.Itoa(int(op>>4)%5)
			size := int(op>>3)*7 + 1
			var last string
			if len(keys) > 0 {
				last = keys[len(keys)-1]
			}
			switch op % 6 {
			case 0: // a run
				k := "r" + strconv.Itoa(i)
				if s.Create(ctx, &store.Run{Key: k, Thread: thread, Owner: "o", Started: clock, Input: make([]byte, size%50)}) == nil {
					keys = append(keys, k)
				}
			case 1: // a frame
				if r, ok := s.Run(last); ok {
					s.Append(ctx, last, r.Frames+1, make([]byte, size), clock)
				}
			case 2: // its end
				if r, ok := s.Run(last); ok {
					s.Finish(ctx, last, r.Frames+1, make([]byte, size%20), store.OutcomeFinished)
				}
			case 3, 4: // a fold, dropping the oldest run when op says so
				if r, ok := s.Run(last); ok && r.Done() {
					th, err := s.Thread(ctx, r.Thread)
					if err != nil {
						break
					}
					var drop []string
					if op%6 == 4 && len(th.Runs) > 1 {
						drop = th.Runs[:1]
					}
					s.Fold(ctx, r.Thread, th.Version, make([]byte, size), []string{last}, drop)
				}
			case 5:
				s.Sweep(ctx, clock, lim)
				s.mu.Lock()
				active := 0
				for _, th := range s.threads {
					if th.Active != "" {
						active++
					}
				}
				if len(s.threads) > lim.MaxThreads && len(s.threads) > active {
					t.Fatalf("%d threads after a sweep, %d active", len(s.threads), active)
				}
				if s.bytes > lim.MaxBytes && len(s.threads) > active {
					t.Fatalf("%d bytes after a sweep with idle threads", s.bytes)
				}
				s.mu.Unlock()
			}
			s.mu.Lock()
			var total int64
			for _, th := range s.threads {
				held := store.ThreadOverhead + int64(len(th.Snapshot))
				for _, k := range th.Runs {
					if r := s.runs[k]; r != nil {
						held += r.rec.Bytes
					}
				}
				if held != th.Bytes {
					t.Fatalf("thread %s counts %d bytes, holds %d", th.Key, th.Bytes, held)
				}
				total += th.Bytes
			}
			if total != s.bytes {
				t.Fatalf("the store counts %d bytes, its threads hold %d", s.bytes, total)
			}
			s.mu.Unlock()
		}
	})
}
