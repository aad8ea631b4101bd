package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agui-reducer/agui/relay/redistest"
)

// TestSteadyLoad: 32 clients, each starting a new run (on a new thread)
// as soon as its last one ended, against -max-runs 256 and -max-threads
// 100 (so that threads are evicted all along): no run is refused, on
// either store, since a run frees its slot when it ends and the bounds
// cost no sweep per run.
func TestSteadyLoad(t *testing.T) {
	const clients, perClient = 32, 25
	for _, name := range []string{"bolt", "redis"} {
		t.Run(name, func(t *testing.T) {
			demo := startBusyDemo(t, "0")
			st := "bolt:" + filepath.Join(t.TempDir(), "relay.db")
			if name == "redis" {
				st = redistest.Start(t, false).URL()
			}
			a := startRelay(t, demo.URL, st, "-max-runs", "256", "-max-threads", "100")
			var finished, refused, other atomic.Int64
			var maxProducing atomic.Int64
			stop := make(chan struct{})
			go func() { // what /healthz says while the load runs
				for {
					select {
					case <-stop:
						return
					case <-time.After(50 * time.Millisecond):
					}
					resp, err := http.Get(a.URL + "/healthz")
					if err != nil {
						continue
					}
					var h struct{ Producing int64 }
					json.NewDecoder(resp.Body).Decode(&h)
					resp.Body.Close()
					for {
						m := maxProducing.Load()
						if h.Producing <= m || maxProducing.CompareAndSwap(m, h.Producing) {
							break
						}
					}
				}
			}()
			var wg sync.WaitGroup
			for i := range clients {
				wg.Add(1)
				go func() {
					defer wg.Done()
					c := newClient(t)
					for j := range perClient {
						body := strings.ReplaceAll(input, `"t1"`, fmt.Sprintf(`"load-%d-%d"`, i, j))
						req, _ := http.NewRequest("POST", a.URL+"/agent", strings.NewReader(body))
						req.Header.Set("Content-Type", "application/json")
						req.Header.Set("X-Agui-Thread-Key", c.key)
						resp, err := http.DefaultClient.Do(req)
						if err != nil {
							other.Add(1)
							continue
						}
						b, _ := io.ReadAll(resp.Body)
						resp.Body.Close()
						switch {
						case resp.StatusCode == 503 && strings.Contains(string(b), "too_many_runs"):
							refused.Add(1)
						case resp.StatusCode == 200 && strings.Contains(string(b), `"type":"RUN_FINISHED"`):
							finished.Add(1)
						default:
							other.Add(1)
							t.Errorf("run %d/%d: %d %s", i, j, resp.StatusCode, b[max(0, len(b)-300):])
						}
					}
				}()
			}
			wg.Wait()
			close(stop)
			t.Logf("%d runs finished, %d refused (too_many_runs), %d otherwise; /healthz showed at most %d producing",
				finished.Load(), refused.Load(), other.Load(), maxProducing.Load())
			if finished.Load() != clients*perClient {
				t.Fatalf("%d of %d runs finished", finished.Load(), clients*perClient)
			}
		})
	}
}
