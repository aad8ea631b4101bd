//go:build unix

package relay

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/agui-reducer/agui/relay/redistest"
	"github.com/agui-reducer/agui/relay/store/redisstore"
)

// BenchmarkManyStreams: 3,000 runs at once through one relay instance on
// Redis, each a live stream of 25 events 300 ms apart (about 7.5 s), every
// client reading its run to the end (the clients and the agent run in the
// benchmark's process too). Every run must give every frame.
// Reports frames per second and the most client connections Redis had
// meanwhile: live streams share the store's subscription, so they are
// not bounded by its connection pool.
func BenchmarkManyStreams(b *testing.B) {
	const runs, n = 3000, 20
	// Four descriptors a run (the client's and the relay's ends, the
	// relay's request to the agent and the agent's end); Go raises the
	// soft limit to the hard one.
	var lim syscall.Rlimit
	if syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim) == nil && lim.Max < 4*runs+1000 {
		b.Skipf("%d file descriptors at most; %d streams need %d", lim.Max, runs, 4*runs+1000)
	}
	up := newUpstream(b, &fakeAgent{n: n, delay: 300 * time.Millisecond})
	srv := redistest.Start(b, false)
	st, err := redisstore.Open(srv.URL())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	_, rs := newRelay(b, up.URL, st, func(c *Config) {
		c.Lease, c.StoreTimeout, c.UpstreamIdle = 30*time.Second, 30*time.Second, time.Minute
		c.MaxRuns, c.MaxConns = 2*runs, 4*runs
	})
	tr := &http.Transport{MaxIdleConnsPerHost: runs}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr}

	// Redis's client count, sampled while the runs go on.
	info := redis.NewClient(&redis.Options{Addr: srv.Addr})
	defer info.Close()
	var maxConns atomic.Int64
	sample := func(ctx context.Context) {
		t := time.NewTicker(100 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			s, err := info.Info(ctx, "clients").Result()
			if err != nil {
				continue
			}
			for _, l := range strings.Split(s, "\r\n") {
				if v, ok := strings.CutPrefix(l, "connected_clients:"); ok {
					if c, _ := strconv.ParseInt(v, 10, 64); c > maxConns.Load() {
						maxConns.Store(c)
					}
				}
			}
		}
	}

	round, total := 0, 0
	var short []string
	for b.Loop() {
		round++
		ctx, stop := context.WithCancel(context.Background())
		go sample(ctx)
		var wg sync.WaitGroup
		var mu sync.Mutex
		for i := range runs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				// Spread over about a second, as clients arrive.
				time.Sleep(time.Duration(i) * time.Second / runs)
				req, _ := http.NewRequest("POST", rs.URL+"/agent", strings.NewReader(runInput(fmt.Sprintf("t%d-%d", round, i), "r", "hi")))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set(threadKeyHeader, "bench-key-0123456789ab")
				resp, err := client.Do(req)
				if err != nil {
					mu.Lock()
					short = append(short, err.Error())
					mu.Unlock()
					return
				}
				if resp.StatusCode != http.StatusOK {
					body, _ := io.ReadAll(resp.Body)
					resp.Body.Close()
					mu.Lock()
					short = append(short, fmt.Sprintf("status %d: %.200s", resp.StatusCode, body))
					mu.Unlock()
					return
				}
				fs := readFrames(resp.Body, nil)
				resp.Body.Close()
				mu.Lock()
				total += len(fs)
				bad := ""
				for j, f := range fs {
					if _, seq, _ := parseEventID(f.ID); seq != int64(j+1) {
						bad = fmt.Sprintf("frame %d has id %q (%.80s)", j+1, f.ID, f.Data)
						break
					}
				}
				if len(fs) != n+5 || eventType(fs[len(fs)-1].Data) != "RUN_FINISHED" || bad != "" {
					last := ""
					if len(fs) > 0 {
						last = fs[len(fs)-1].Data
					}
					short = append(short, fmt.Sprintf("%d frames, last %.120s; %s", len(fs), last, bad))
				}
				mu.Unlock()
			}()
		}
		wg.Wait()
		stop()
	}
	if total != b.N*runs*(n+5) {
		b.Fatalf("%d frames, want %d; %d runs short, e.g. %q", total, b.N*runs*(n+5), len(short), short[:min(3, len(short))])
	}
	b.ReportMetric(float64(total)/b.Elapsed().Seconds(), "events/s")
	b.ReportMetric(float64(maxConns.Load()), "redis-conns")
	b.ReportMetric(runs, "streams")
}
