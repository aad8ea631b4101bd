package main

import (
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/agui-reducer/agui/relay/redistest"
)

// A store that refuses writes mid-run: the bbolt file on a small tmpfs
// that fills up, Redis out of memory (maxmemory, noeviction). /readyz
// fails; every live run ends with a terminal event its client receives
// (relay_store_unavailable, sent even when it cannot be stored), none
// hangs; a resume of such a run ends with a terminal event (or 410), never
// an empty stream; when the store takes writes again /readyz recovers.

const faultRuns = 5

// status is the status of GET url.
func status(t *testing.T, url string) int {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

// waitStatus polls GET url until it answers want (bounded).
func waitStatus(t *testing.T, url string, want int) {
	t.Helper()
	got := 0
	for range 150 {
		if got = status(t, url); got == want {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("GET %s answers %d, not %d", url, got, want)
}

// checkFaultEnds reads the runs to their ends and checks that each
// ended with a RUN_ERROR of the relay, none hung; it returns the last
// ids each client had (to resume from).
func checkFaultEnds(t *testing.T, resps []*http.Response, first [][]frame) []string {
	t.Helper()
	ends := make([]string, len(resps))
	resume := make([]string, len(resps))
	var wg sync.WaitGroup
	for i, resp := range resps {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rest, cut := read(t, resp, -1, 60*time.Second)
			all := append(first[i], rest...)
			for _, f := range all {
				if f.ID != "" {
					resume[i] = f.ID
				}
			}
			ends[i] = typeOf(all[len(all)-1].Data)
			if cut {
				ends[i] = "hung after " + ends[i]
			}
		}()
	}
	wg.Wait()
	n := 0
	for i, e := range ends {
		if strings.HasPrefix(e, "RUN_ERROR:relay_") || e == "RUN_FINISHED" {
			n++
		} else {
			t.Errorf("run %d ended with %s", i, e)
		}
	}
	t.Logf("%d/%d runs ended with a terminal event: %v", n, len(ends), ends)
	return resume
}

// checkResume resumes a run cut by the fault: a terminal event or 410.
func checkResume(t *testing.T, c *client, relayURL, lastID string) {
	t.Helper()
	resp := c.do("POST", relayURL+"/agent", "{}", map[string]string{"Last-Event-ID": lastID})
	if resp.StatusCode == http.StatusGone {
		resp.Body.Close()
		return
	}
	fs, cut := read(t, resp, -1, 60*time.Second)
	if cut || len(fs) == 0 || !strings.HasPrefix(typeOf(fs[len(fs)-1].Data), "RUN_") {
		t.Fatalf("a resume of a run the store failed: %d frames, hung %v: %+v", len(fs), cut, fs)
	}
	t.Logf("a resume from %s: %d frames, the last %s", lastID, len(fs), typeOf(fs[len(fs)-1].Data))
}

// checkNewRun starts a run once the store takes writes again: it streams.
func checkNewRun(t *testing.T, c *client, relayURL string) {
	t.Helper()
	resp := c.do("POST", relayURL+"/agent", strings.ReplaceAll(input, `"t1"`, `"after"`), nil)
	defer resp.Body.Close()
	if fs := readSome(resp, 5, 30*time.Second); resp.StatusCode != 200 || len(fs) != 5 || typeOf(fs[0].Data) != "RUN_STARTED" {
		t.Fatalf("a run after the store recovered: %d %+v", resp.StatusCode, fs)
	}
}

// TestDiskFull: the bbolt file on a 16 MiB tmpfs, filled mid-run.
func TestDiskFull(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "small")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs to fill (root and CAP_SYS_ADMIN needed): %v %s; the Redis out-of-memory test covers a store refusing writes", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", "-l", dir).Run() })
	demo := startBusyDemo(t, "5")
	a := startRelay(t, demo.URL, "bolt:"+filepath.Join(dir, "relay.db"), "-store-timeout", "3s")
	waitStatus(t, a.URL+"/readyz", 200)
	c := newClient(t)
	resps, first := liveRuns(t, c, a.URL, faultRuns)

	filler := filepath.Join(dir, "filler")
	f, err := os.Create(filler)
	if err != nil {
		t.Fatal(err)
	}
	chunk := make([]byte, 64<<10)
	for {
		if _, err := f.Write(chunk); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatal(err)
			}
			break
		}
	}
	f.Close()
	t.Log("the disk is full")
	full := time.Now()
	waitStatus(t, a.URL+"/readyz", 503)
	resume := checkFaultEnds(t, resps, first)
	t.Logf("every run ended %v after the disk filled (-store-timeout 3s)", time.Since(full).Round(100*time.Millisecond))
	checkResume(t, c, a.URL, resume[0])

	// The disk frees: the relay takes writes again; the run cut by the
	// fault reads to a stored end.
	os.Remove(filler)
	waitStatus(t, a.URL+"/readyz", 200)
	key, _, _ := strings.Cut(resume[1], ":")
	var all []frame
	for range 50 {
		all, _ = read(t, c.do("POST", a.URL+"/agent", "{}", map[string]string{"Last-Event-ID": key + ":0"}), -1, 30*time.Second)
		if len(all) > 0 && all[len(all)-1].ID != "" {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	if len(all) == 0 || !strings.HasPrefix(typeOf(all[len(all)-1].Data), "RUN_ERROR:relay_") || all[len(all)-1].ID == "" {
		t.Fatalf("the run after the disk freed: %+v", all[max(len(all)-2, 0):])
	}
	checkSeq(t, all)
	checkNewRun(t, c, a.URL)
}

// TestRedisOutOfMemory: Redis refuses writes mid-run (CONFIG SET
// maxmemory with noeviction), then takes them again.
func TestRedisOutOfMemory(t *testing.T) {
	rd := redistest.Start(t, false)
	rdb := redis.NewClient(&redis.Options{Addr: rd.Addr})
	defer rdb.Close()
	ctx := context.Background()
	if err := rdb.ConfigSet(ctx, "maxmemory-policy", "noeviction").Err(); err != nil {
		t.Fatal(err)
	}
	demo := startBusyDemo(t, "5")
	a := startRelay(t, demo.URL, rd.URL(), "-store-timeout", "3s")
	waitStatus(t, a.URL+"/readyz", 200)
	c := newClient(t)
	resps, first := liveRuns(t, c, a.URL, faultRuns)
	if err := rdb.ConfigSet(ctx, "maxmemory", "1").Err(); err != nil {
		t.Fatal(err)
	}
	if err := rdb.Set(ctx, "probe", "x", 0).Err(); err == nil || !strings.Contains(err.Error(), "OOM") {
		t.Fatalf("Redis takes writes with maxmemory 1: %v", err)
	}
	t.Log("Redis is out of memory")
	oom := time.Now()
	waitStatus(t, a.URL+"/readyz", 503)
	resume := checkFaultEnds(t, resps, first)
	t.Logf("every run ended %v after Redis ran out of memory (-store-timeout 3s)", time.Since(oom).Round(100*time.Millisecond))
	checkResume(t, c, a.URL, resume[0])
	if err := rdb.ConfigSet(ctx, "maxmemory", "0").Err(); err != nil {
		t.Fatal(err)
	}
	waitStatus(t, a.URL+"/readyz", 200)
	checkNewRun(t, c, a.URL)
}
