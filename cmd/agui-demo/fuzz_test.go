package main

import (
	"strconv"
	"testing"
	"time"
)

// FuzzParseEventID: Last-Event-ID comes from the client; parsing never
// panics, and what it accepts is an id the server could have written.
func FuzzParseEventID(f *testing.F) {
	for _, s := range []string{"run-1.ab12cd34:17", "a:b:0", "x:01", ":1", "x", "x:99999999999999999999", "\x00:1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, id string) {
		key, seq, ok := parseEventID(id)
		if !ok {
			return
		}
		if key == "" || seq < 0 || eventID(key, seq) != id {
			t.Fatalf("%q parsed as %q, %d", id, key, seq)
		}
	})
}

// FuzzRunLog drives the run log with any sequence of operations (runs
// started, frames appended, bytes charged, connections reading, leaving
// and resuming, runs finished, time passing) and checks its accounting
// after each: what it counts is what its runs hold, a released run holds
// nothing, at most maxRuns runs are resumable, and after a run grows the
// log is within its byte bound unless that run was stopped.
func FuzzRunLog(f *testing.F) {
	f.Add([]byte{0, 1, 40, 1, 200, 3, 0, 5, 0, 0, 1, 255, 4, 0, 2, 9, 6, 0})
	f.Add([]byte{0, 0, 0, 1, 90, 1, 91, 1, 92, 4, 1, 4, 2, 5, 1, 6, 7, 3, 3, 3})
	f.Fuzz(func(t *testing.T, ops []byte) {
		clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		const maxBytes = 4*runOverhead + 2000
		l := newRunLog(3, maxBytes, time.Minute, func() time.Time { return clock })
		type conn struct {
			run *loggedRun
			rd  *reader
		}
		var runs []*loggedRun
		var conns []conn
		pick := func(i byte, n int) int { return int(i) % n }
		for len(ops) >= 2 {
			op, arg := ops[0], ops[1]
			ops = ops[2:]
			var grew *loggedRun
			switch op % 8 {
			case 0: // a new run
				r := &loggedRun{key: "k" + strconv.Itoa(len(runs)), cancel: func() {}}
				if rd, ok := l.add(r, 6); ok {
					runs = append(runs, r)
					conns = append(conns, conn{r, rd})
				}
			case 1, 2: // a frame, or a charge, on a run being produced
				if len(runs) == 0 {
					continue
				}
				r := runs[pick(arg, len(runs))]
				if r.done {
					continue
				}
				l.mu.Lock()
				before := r.size
				l.mu.Unlock()
				if op%8 == 1 {
					l.append(r, make([]byte, int(arg)*8))
				} else {
					l.charge(r, int64(arg)*4)
				}
				l.mu.Lock()
				if r.size > before {
					grew = r
				}
				l.mu.Unlock()
			case 3: // a connection writes a frame
				if len(conns) == 0 {
					continue
				}
				c := conns[pick(arg, len(conns))]
				if frames, _, _ := l.next(c.run, c.rd); len(frames) > 0 {
					l.advance(c.run, c.rd)
				}
			case 4: // a connection ends
				if len(conns) == 0 {
					continue
				}
				i := pick(arg, len(conns))
				l.detach(conns[i].run, conns[i].rd, time.Hour)
				conns = append(conns[:i], conns[i+1:]...)
			case 5: // a client resumes
				if len(runs) == 0 {
					continue
				}
				r := runs[pick(arg, len(runs))]
				l.mu.Lock()
				seq := r.base + int(arg)%(len(r.frames)+1)
				l.mu.Unlock()
				if run, rd, code, _ := l.resume(r.key, seq); code == "" {
					conns = append(conns, conn{run, rd})
				}
			case 6: // a run ends
				if len(runs) == 0 {
					continue
				}
				if r := runs[pick(arg, len(runs))]; !r.done {
					l.finish(r, arg%2 == 0)
				}
			case 7: // time passes
				clock = clock.Add(time.Duration(arg) * time.Second)
				l.get("")
			}

			l.mu.Lock()
			var held int64
			for _, r := range runs {
				if r.released {
					if r.size != 0 || r.frames != nil {
						t.Fatalf("released run %s holds %d bytes", r.key, r.size)
					}
					continue
				}
				held += r.size
				if r.size < runOverhead {
					t.Fatalf("run %s counts %d bytes", r.key, r.size)
				}
				for _, rd := range r.readers {
					if rd.pos < r.base || rd.pos > r.total() {
						t.Fatalf("run %s: reader at %d, frames %d…%d", r.key, rd.pos, r.base, r.total())
					}
				}
			}
			if held != l.held {
				t.Fatalf("the log counts %d bytes, its runs hold %d", l.held, held)
			}
			if len(l.runs) > l.maxRuns {
				t.Fatalf("%d runs resumable", len(l.runs))
			}
			if grew != nil && l.held > maxBytes && grew.stopped == "" {
				t.Fatalf("%d bytes held after run %s grew, and it goes on", l.held, grew.key)
			}
			l.mu.Unlock()
		}
	})
}
