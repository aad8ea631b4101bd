package relay

import (
	"fmt"
	"io"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/agui-reducer/agui/relay/redistest"
	"github.com/agui-reducer/agui/relay/store"
	"github.com/agui-reducer/agui/relay/store/boltstore"
	"github.com/agui-reducer/agui/relay/store/redisstore"
)

// BenchmarkStreams: the relay's own memory per live stream and its CPU
// per run, at 100 and 1,000 concurrent runs on bbolt and on Redis. Clients, relay and
// agent share the process, so each figure is measured side by side with
// the same clients reading the same agent directly, and the relay's is
// the difference: per stream, the heap and goroutine stacks in use (after
// a collection) while every run is live and waiting for the agent;
// per run, the process's CPU time from the first request to the last
// frame (50 events a run).
func BenchmarkStreams(b *testing.B) {
	for _, kind := range []string{"bolt", "redis"} {
		for _, n := range []int{100, 1000} {
			b.Run(fmt.Sprintf("%s-%d", kind, n), func(b *testing.B) { benchStreams(b, kind, n) })
		}
	}
}

// benchStreams is one BenchmarkStreams row: n runs on the store kind.
func benchStreams(b *testing.B, kind string, n int) {
	var relayMem, directMem, relayCPU, directCPU float64
	for b.Loop() {
		dm, dc := streamRound(b, n, "")
		rm, rc := streamRound(b, n, kind)
		directMem += dm
		relayMem += rm
		directCPU += dc
		relayCPU += rc
	}
	k := float64(b.N)
	b.ReportMetric((relayMem-directMem)/k/float64(n), "relay-bytes/stream")
	b.ReportMetric(directMem/k/float64(n), "direct-bytes/stream")
	b.ReportMetric((relayCPU-directCPU)/k/float64(n)*1e6, "relay-cpu-µs/run")
	b.ReportMetric(directCPU/k/float64(n)*1e6, "direct-cpu-µs/run")
}

// streamRound runs n runs at once, through a relay on the store kind
// ("bolt", "redis") or, with none, to the agent directly: the bytes in use
// while all are live (heap and stacks, over the process's before), and the
// CPU seconds of the round.
func streamRound(b *testing.B, n int, kind string) (mem, cpu float64) {
	b.Helper()
	gate := make(chan struct{})
	agent := &fakeAgent{n: 50}
	agent.setGate(gate)
	up := newUpstream(b, agent)
	url := up.URL
	if kind != "" {
		var st store.Store
		var err error
		if kind == "redis" {
			st, err = redisstore.Open(redistest.Start(b, false).URL())
		} else {
			st, err = boltstore.Open(b.TempDir() + "/relay.db")
		}
		if err != nil {
			b.Fatal(err)
		}
		defer st.Close()
		s, rs := newRelay(b, up.URL, st, func(c *Config) {
			c.Lease = 30 * time.Second
			c.MaxRuns, c.MaxConns = 2*n, 4*n
		})
		defer rs.Close()
		defer s.Close()
		url = rs.URL
	}
	tr := &http.Transport{MaxIdleConnsPerHost: n, MaxConnsPerHost: 0}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr}

	inUse := func() float64 {
		runtime.GC()
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return float64(ms.HeapInuse + ms.StackInuse)
	}
	before := inUse()
	cpu0 := cpuSeconds()
	var started, finished sync.WaitGroup
	errs := make(chan string, n)
	for i := range n {
		started.Add(1)
		finished.Add(1)
		go func() {
			defer finished.Done()
			once := sync.OnceFunc(started.Done)
			defer once()
			req, _ := http.NewRequest("POST", url+"/agent", strings.NewReader(runInput(fmt.Sprintf("s%d", i), "r", "hi")))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set(threadKeyHeader, "bench-key-0123456789ab")
			resp, err := client.Do(req)
			if err != nil {
				errs <- err.Error()
				return
			}
			defer resp.Body.Close()
			if resp.StatusCode != 200 {
				body, _ := io.ReadAll(resp.Body)
				errs <- fmt.Sprintf("%d %.200s", resp.StatusCode, body)
				return
			}
			frames := 0
			readFrames(resp.Body, func(frame) bool {
				if frames++; frames == 3 {
					once() // live: the agent waits at its fourth event
				}
				return false
			})
			if frames != 55 {
				errs <- fmt.Sprintf("%d frames", frames)
			}
		}()
	}
	started.Wait()
	mem = inUse() - before
	close(gate)
	finished.Wait()
	cpu = cpuSeconds() - cpu0
	close(errs)
	for e := range errs {
		b.Fatal(e)
	}
	return mem, cpu
}

// cpuSeconds is the process's user and system CPU time so far.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}
