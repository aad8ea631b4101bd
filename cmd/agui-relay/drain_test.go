package main

import (
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/agui-reducer/agui/relay/redistest"
)

// Bad days as processes: the relay drained by SIGTERM or SIGINT with 50
// runs going on, on each store, SIGHUP ignored.

// liveRuns starts n runs on relay (a thread each) and returns their
// responses once each has sent its first frames.
func liveRuns(t *testing.T, c *client, relayURL string, n int) ([]*http.Response, [][]frame) {
	t.Helper()
	resps := make([]*http.Response, n)
	first := make([][]frame, n)
	var wg sync.WaitGroup
	errs := make(chan string, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			th := fmt.Sprintf("drain-%d", i)
			body := strings.ReplaceAll(input, `"t1"`, `"`+th+`"`)
			req, _ := http.NewRequest("POST", relayURL+"/agent", strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("X-Agui-Thread-Key", c.key)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				errs <- err.Error()
				return
			}
			if resp.StatusCode != 200 {
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				errs <- fmt.Sprintf("run %d: %d %s", i, resp.StatusCode, b)
				return
			}
			resps[i] = resp
			first[i] = readSome(resp, 3, 30*time.Second)
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatal(e)
	}
	return resps, first
}

// readSome reads n frames of a stream it leaves open.
func readSome(resp *http.Response, n int, deadline time.Duration) []frame {
	var out []frame
	var cur frame
	timer := time.AfterFunc(deadline, func() { resp.Body.Close() })
	defer timer.Stop()
	buf := make([]byte, 1)
	var line []byte
	for len(out) < n {
		if n, err := resp.Body.Read(buf); n == 0 {
			if err != nil {
				return out
			}
			continue
		}
		if buf[0] != '\n' {
			line = append(line, buf[0])
			continue
		}
		l := string(line)
		line = line[:0]
		switch {
		case l == "":
			if cur.Data != "" {
				out = append(out, cur)
			}
			cur = frame{}
		case strings.HasPrefix(l, "id: "):
			cur.ID = l[4:]
		case strings.HasPrefix(l, "data: "):
			cur.Data = l[6:]
		}
	}
	return out
}

// startBusyDemo is startDemo taking many runs at once.
func startBusyDemo(t *testing.T, speed string) *proc {
	_, demo := binaries(t)
	return start(t, moduleRoot(t), demo, "agui-demo: open ", "-addr", "127.0.0.1:0", "-speed", speed, "-scenario", "text",
		"-resume-grace", "60s", "-max-runs", "1024")
}

func (p *proc) signal(t *testing.T, sig syscall.Signal) {
	t.Helper()
	if err := p.cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
}

// TestDrain: SIGTERM and SIGINT with 50 runs going on, on bbolt and on
// Redis: every client's stream ends with RUN_ERROR relay_shutdown, live,
// the process exits, and the end is stored (a resume after a restart, or
// through another instance, gets it). A SIGHUP before changes nothing.
func TestDrain(t *testing.T) {
	const runs = 50
	for _, c := range []struct {
		name  string
		sig   syscall.Signal
		redis bool
	}{
		{"bolt-SIGTERM", syscall.SIGTERM, false},
		{"bolt-SIGINT", syscall.SIGINT, false},
		{"redis-SIGTERM", syscall.SIGTERM, true},
		{"redis-SIGINT", syscall.SIGINT, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			demo := startBusyDemo(t, "5") // a run lasts about 10 s
			st := "bolt:" + filepath.Join(t.TempDir(), "relay.db")
			if c.redis {
				st = redistest.Start(t, false).URL()
			}
			a := startRelay(t, demo.URL, st, "-drain-timeout", "20s", "-max-runs", "64")
			cl := newClient(t)
			resps, first := liveRuns(t, cl, a.URL, runs)
			for i, f := range first {
				if len(f) < 3 {
					t.Fatalf("run %d: %d frames before the signal: %+v\n%s", i, len(f), f, a.logs())
				}
			}
			a.signal(t, syscall.SIGHUP)
			time.Sleep(100 * time.Millisecond)
			select {
			case <-a.done:
				t.Fatalf("SIGHUP stopped the relay: %s", a.logs())
			default:
			}
			a.signal(t, c.sig)
			ends := make([]string, runs)
			lastIDs := make([]string, runs)
			var wg sync.WaitGroup
			for i, resp := range resps {
				wg.Add(1)
				go func() {
					defer wg.Done()
					rest, cut := read(t, resp, -1, 40*time.Second)
					all := append(first[i], rest...)
					if len(all) == 0 {
						ends[i] = "nothing"
						return
					}
					last := all[len(all)-1]
					ends[i], lastIDs[i] = typeOf(last.Data), last.ID
					if cut {
						ends[i] = "hung after " + ends[i]
					}
				}()
			}
			wg.Wait()
			got := 0
			for i, e := range ends {
				if e == "RUN_ERROR:relay_shutdown" {
					got++
				} else {
					t.Errorf("run %d ended with %s", i, e)
				}
			}
			t.Logf("%d/%d clients got relay_shutdown", got, runs)
			select {
			case <-a.done:
			case <-time.After(30 * time.Second):
				t.Fatalf("the relay did not exit: %s", a.logs())
			}
			if !strings.Contains(a.logs(), "draining") || !strings.Contains(a.logs(), "stopped") {
				t.Errorf("the log does not say it drained: %s", a.logs())
			}
			// The end is stored: the run read again from its first frame
			// ends the same way.
			b := startRelay(t, demo.URL, st)
			key, _, _ := strings.Cut(lastIDs[0], ":")
			all, _ := read(t, cl.do("POST", b.URL+"/agent", "{}", map[string]string{"Last-Event-ID": key + ":0"}), -1, 20*time.Second)
			if len(all) == 0 || typeOf(all[len(all)-1].Data) != "RUN_ERROR:relay_shutdown" || all[len(all)-1].ID != lastIDs[0] {
				t.Fatalf("the run read again after the restart: %d frames, %+v; live it ended %s", len(all), all[len(all)-1:], lastIDs[0])
			}
		})
	}
}
