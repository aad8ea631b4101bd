package relay

import (
	"context"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agui-reducer/agui/relay/store"
	"github.com/agui-reducer/agui/relay/store/memstore"
)

// gatedStore is a store whose next Thread call, once armed, says so on
// entered and waits for gate.
type gatedStore struct {
	store.Store
	armed   atomic.Bool
	entered chan struct{}
	gate    chan struct{}
}

func (g *gatedStore) Thread(ctx context.Context, key string) (*store.Thread, error) {
	if g.armed.CompareAndSwap(true, false) {
		g.entered <- struct{}{}
		<-g.gate
	}
	return g.Store.Thread(ctx, key)
}

// TestMaxLoads: GET /threads/{id} builds its answer holding one of
// MaxLoads slots: a load that finds them all taken for StoreTimeout gets
// 503 too_many_loads, and one after the slot is given back gets the thread;
// a thread streamed live holds no slot while it streams.
func TestMaxLoads(t *testing.T) {
	a := &fakeAgent{n: 5}
	up := newUpstream(t, a)
	gs := &gatedStore{Store: memstore.New(), entered: make(chan struct{}, 1), gate: make(chan struct{})}
	_, rs := newRelay(t, up.URL, gs, func(c *Config) {
		c.MaxLoads = 1
		c.StoreTimeout = 300 * time.Millisecond
		c.Grace = 5 * time.Second
	})
	var opened sync.Once
	open := func() { opened.Do(func() { close(gs.gate) }) }
	t.Cleanup(open) // before the servers close, whatever happened
	resp := post(t, rs.URL, runInput("t1", "r1", "hello"), nil)
	key := resp.Header.Get(threadKeyHeader)
	readFrames(resp.Body, nil)
	resp.Body.Close()
	hk := map[string]string{threadKeyHeader: key}
	waitFor(t, "the thread folded", 5*time.Second, func() bool {
		v, st, _ := loadThread(t, rs.URL, "t1", hk)
		return st == 200 && v.Run == nil
	})

	// One load holds the only slot; another gets 503 with its code.
	gs.armed.Store(true)
	first := make(chan int, 1)
	go func() {
		req, _ := http.NewRequest("GET", rs.URL+"/threads/t1", nil)
		req.Header.Set(threadKeyHeader, key)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			first <- 0
			return
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		first <- resp.StatusCode
	}()
	select {
	case <-gs.entered:
	case <-time.After(10 * time.Second):
		t.Fatal("the first load did not reach the store")
	}
	_, st, body := loadThread(t, rs.URL, "t1", hk)
	if st != 503 || !strings.Contains(body, "too_many_loads") {
		t.Fatalf("a load while the slot is taken: %d %s", st, body)
	}
	open()
	if st := <-first; st != 200 {
		t.Fatalf("the first load: %d", st)
	}
	if _, st, body := loadThread(t, rs.URL, "t1", hk); st != 200 {
		t.Fatalf("a load after the slot is given back: %d %s", st, body)
	}

	// A live stream of a run going on holds no load slot.
	a.setGate(make(chan struct{}))
	defer close(a.gate)
	resp = post(t, rs.URL, runInput("t1", "r2", "hello", "again"), hk)
	readFrames(resp.Body, func(f frame) bool { return eventType(f.Data) == "TEXT_MESSAGE_START" })
	defer resp.Body.Close()
	live := get(t, rs.URL, "/threads/t1", map[string]string{threadKeyHeader: key, "Accept": "text/event-stream"})
	defer live.Body.Close()
	readFrames(live.Body, func(f frame) bool { return eventType(f.Data) == "STATE_SNAPSHOT" })
	if v, st, body := loadThread(t, rs.URL, "t1", hk); st != 200 || v.Run == nil {
		t.Fatalf("a load while another streams the thread live: %d %s", st, body)
	}
}
