package redisstore

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/agui-reducer/agui/relay/store"
)

// Many live streams over few connections. A Read that waits does not hold
// a connection in a blocking XREAD: every append and finish publishes the
// frame ("<run>:<seq>:<kind>\n<data>"; a group's frames of one run in one
// message) on one channel, in the same script (so in the order stored),
// and each Store keeps one subscription to it
// (one connection, whatever the number of streams). A run that a Read
// waits on has a watch: its record as last read, the highest seq known
// stored, and the frames notified since (a few, contiguous). A reader that
// is caught up takes the next frames from its watch with no round trip; one
// further behind, or whose watch lost track, reads Redis (XRANGE and the
// record in one round trip) and seeds the watch. So a live stream costs
// Redis at most one published message a frame, and the relay no
// connection.
//
// Notifications are not stored: a frame is taken from a watch only when
// the watch has every seq up to it; a subscription that drops and comes
// back empties every watch; and a waiting Read reads Redis at the end of
// its wait anyway, so a lost notification delays a frame by at most the
// wait, never loses it.

// tail is a Store's subscription and its watches.
type tail struct {
	channel string
	ps      *redis.PubSub
	mu      sync.Mutex
	watches map[string]*watch
	done    chan struct{}
}

// watch is what the notifications told of one run.
type watch struct {
	last    int64         // the highest seq known stored; -1: unknown (read to learn it)
	rec     *store.Run    // the run's record as of last (nil: unknown)
	buf     []store.Frame // frames notified, contiguous, ending at last
	bytes   int           // of buf
	changed chan struct{} // closed at the next notification
	used    time.Time     // last used by a Read (idle watches are dropped)
}

// Bounds of a watch: how long one no Read uses is kept, and the frames
// it keeps.
const (
	watchIdle  = 10 * time.Second
	watchBytes = 16 << 10
)

func newTail(rdb redis.UniversalClient, channel string) *tail {
	t := &tail{channel: channel, watches: map[string]*watch{}, done: make(chan struct{})}
	t.ps = rdb.Subscribe(context.Background(), channel)
	go t.loop()
	return t
}

func (t *tail) close() {
	t.ps.Close()
	<-t.done
}

func (t *tail) loop() {
	defer close(t.done)
	msgs := t.ps.ChannelWithSubscriptions(redis.WithChannelSize(4096))
	gc := time.NewTicker(watchIdle / 2)
	defer gc.Stop()
	for {
		select {
		case m, ok := <-msgs:
			if !ok {
				return
			}
			switch m := m.(type) {
			case *redis.Message:
				t.notify(m.Payload)
			case *redis.Subscription:
				// (Re)subscribed: what was published meanwhile is lost.
				t.forget()
			}
		case <-gc.C:
			t.mu.Lock()
			for k, w := range t.watches {
				if time.Since(w.used) > watchIdle {
					delete(t.watches, k)
				}
			}
			t.mu.Unlock()
		}
	}
}

// notify reads a notification "<run>:<seq>:<kind>\n<data>", kind "f" (a
// frame), "m" (frames seq, seq+1, … each "<length>:<data>"), "e<outcome>"
// (the last frame) or "x<outcome>" (the end, no frame), and wakes the
// run's readers.
func (t *tail) notify(p string) {
	key, rest, ok := strings.Cut(p, ":")
	if !ok {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	w, ok := t.watches[key]
	if !ok {
		return
	}
	head, data, _ := strings.Cut(rest, "\n")
	n, kind, _ := strings.Cut(head, ":")
	seq, err := strconv.ParseInt(n, 10, 64)
	if err != nil || kind == "" {
		return
	}
	switch {
	case w.last < 0 || w.rec == nil || seq != w.last+1:
		// Unknown, or a gap, or a seq given again (the store lost frames
		// it had announced: a failover): readers read Redis.
		w.last, w.rec, w.buf, w.bytes = -1, nil, nil, 0
	case kind[0] == 'x':
		w.rec.Outcome = kind[1:]
	case kind[0] == 'm':
		// Frames seq, seq+1, …: each "<length>:<data>".
		for data != "" {
			l, rest, ok := strings.Cut(data, ":")
			n, err := strconv.Atoi(l)
			if !ok || err != nil || n < 0 || n > len(rest) {
				w.last, w.rec, w.buf, w.bytes = -1, nil, nil, 0
				break
			}
			t.add(w, w.last+1, rest[:n])
			data = rest[n:]
		}
	default:
		t.add(w, seq, data)
		if kind[0] == 'e' {
			w.rec.Outcome = kind[1:]
		}
	}
	close(w.changed)
	w.changed = make(chan struct{})
}

// add keeps frame seq in a watch (t.mu held).
func (t *tail) add(w *watch, seq int64, data string) {
	w.buf = append(w.buf, store.Frame{Seq: seq, Data: []byte(data)})
	w.bytes += len(data)
	for w.bytes > watchBytes && len(w.buf) > 1 {
		w.bytes -= len(w.buf[0].Data)
		w.buf = w.buf[1:]
	}
	w.last = seq
	w.rec.Frames = seq
}

// forget empties every watch and wakes its readers.
func (t *tail) forget() {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, w := range t.watches {
		w.last, w.rec, w.buf, w.bytes = -1, nil, nil, 0
		close(w.changed)
		w.changed = make(chan struct{})
	}
}

// take returns what run key's watch holds for a reader after seq after:
// ok when it can tell (up to max frames, and the record), and a channel
// closed at the next notification.
func (t *tail) take(key string, after int64, max int) (frames []store.Frame, r *store.Run, ok bool, changed <-chan struct{}) {
	t.mu.Lock()
	defer t.mu.Unlock()
	w, found := t.watches[key]
	if !found {
		w = &watch{last: -1, changed: make(chan struct{})}
		t.watches[key] = w
	}
	w.used = time.Now()
	if w.last < 0 || w.rec == nil || after > w.last {
		return nil, nil, false, w.changed
	}
	if after < w.last {
		first := w.last - int64(len(w.buf)) + 1 // the seq of buf[0]
		if after+1 < first {
			return nil, nil, false, w.changed // further behind than the watch keeps
		}
		i := int(after + 1 - first)
		frames = append(frames, w.buf[i:min(len(w.buf), i+max)]...)
	}
	rec := *w.rec
	return frames, &rec, true, w.changed
}

// seed records run r as read after a take whose channel is changed: if
// no notification came since, the watch now knows the run.
func (t *tail) seed(r *store.Run, changed <-chan struct{}) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if w, ok := t.watches[r.Key]; ok && w.changed == changed {
		rec := *r
		w.last, w.rec, w.buf, w.bytes = r.Frames, &rec, nil, 0
	}
}

// waitRead is Read with a wait: see tail.
func (s *Store) waitRead(ctx context.Context, key string, after int64, max int, wait time.Duration) ([]store.Frame, *store.Run, error) {
	timer := time.NewTimer(wait)
	defer timer.Stop()
	for {
		frames, r, ok, changed := s.tail.take(key, after, max)
		if !ok {
			var err error
			frames, r, err = s.readNow(ctx, key, after, max)
			if err != nil {
				return nil, nil, err
			}
			if len(frames) == 0 {
				s.tail.seed(r, changed)
			}
		}
		if len(frames) > 0 || r.Done() {
			return frames, r, nil
		}
		select {
		case <-changed:
		case <-timer.C:
			return s.readNow(ctx, key, after, max)
		case <-ctx.Done():
			return nil, nil, ctx.Err()
		}
	}
}

// readNow reads the frames after seq after (at most max) and then the
// run's record, in one round trip: the record is at least as new as the
// frames.
func (s *Store) readNow(ctx context.Context, key string, after int64, max int) ([]store.Frame, *store.Run, error) {
	rk, err := s.runKey(ctx, "run", key)
	if err != nil {
		return nil, nil, err
	}
	fk, _ := s.runKey(ctx, "frames", key)
	pipe := s.rdb.Pipeline()
	xr := pipe.XRangeN(ctx, fk, "0-"+strconv.FormatInt(after+1, 10), "+", int64(max))
	rec := pipe.HMGet(ctx, rk, runFields...)
	if _, err := pipe.Exec(ctx); err != nil && !errors.Is(err, redis.Nil) {
		return nil, nil, err
	}
	r, err := s.runFrom(key, rec.Val())
	if err != nil {
		return nil, nil, err
	}
	return toFrames(xr.Val()), r, nil
}
