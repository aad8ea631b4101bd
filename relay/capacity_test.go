package relay

import (
	"context"
	"testing"
	"time"

	"github.com/agui-reducer/agui/relay/store"
	"github.com/agui-reducer/agui/relay/store/memstore"
)

// slowFold is a store whose folds wait for a gate.
type slowFold struct {
	store.Store
	gate chan struct{}
}

func (s slowFold) Fold(ctx context.Context, thread string, version int64, snapshot []byte, folded, drop []string) error {
	select {
	case <-s.gate:
	case <-ctx.Done():
		return ctx.Err()
	}
	return s.Store.Fold(ctx, thread, version, snapshot, folded, drop)
}

// TestSlotFreedAtEnd: a run gives back its -max-runs slot once its end is
// stored, not after its thread's fold and the bounds: with MaxRuns 1 and
// the fold held, the next run starts.
func TestSlotFreedAtEnd(t *testing.T) {
	up := newUpstream(t, &fakeAgent{n: 2})
	gate := make(chan struct{})
	defer close(gate)
	s, rs := newRelay(t, up.URL, slowFold{memstore.New(), gate}, func(c *Config) {
		c.MaxRuns, c.MaxThreads = 1, 10
		c.StoreTimeout = 20 * time.Second
	})
	key := map[string]string{threadKeyHeader: randomKey(keyLen)}
	for i, th := range []string{"a", "b", "c"} {
		resp := post(t, rs.URL, runInput(th, "r", "hi"), key)
		fs := readFrames(resp.Body, nil)
		resp.Body.Close()
		if resp.StatusCode != 200 || eventType(fs[len(fs)-1].Data) != "RUN_FINISHED" {
			t.Fatalf("run %d: %d %v", i, resp.StatusCode, fs)
		}
		waitFor(t, "the slot given back while the fold waits", 10*time.Second, func() bool { return s.producing.Load() == 0 })
	}
}
