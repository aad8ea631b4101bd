package relay

import (
	"context"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/agui-reducer/agui/relay/redistest"
	"github.com/agui-reducer/agui/relay/store"
	"github.com/agui-reducer/agui/relay/store/redisstore"
)

// TestCluster: two relays on a Redis Cluster (3 masters, 3 replicas):
// runs on threads spread over every shard, a run resumed on the other
// instance, threads loaded from either, and a failover mid-run, both
// coordinated (CLUSTER FAILOVER: nothing is lost, the run goes on) and a
// master killed (the run goes on, or, if the replica had not received
// its last writes, ends with relay_run_lost): never a frame twice, never
// a hang.
func TestCluster(t *testing.T) {
	c := redistest.StartCluster(t, 3, 1)
	open := func() store.Store {
		s, err := redisstore.Open(c.URL())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	gated := &fakeAgent{n: 40, gate: make(chan struct{})}
	free := &fakeAgent{n: 5}
	upGated, upFree := newUpstream(t, gated), newUpstream(t, free)
	// A failover takes about two node timeouts (2 s): the store timeout
	// and the lease are longer, so that the run outlives it.
	tweak := func(cfg *Config) { cfg.StoreTimeout, cfg.Lease = 20*time.Second, 10*time.Second }
	_, fa := newRelay(t, upFree.URL, open(), tweak)
	_, fb := newRelay(t, upFree.URL, open(), tweak)
	_, ga := newRelay(t, upGated.URL, open(), tweak)
	_, gb := newRelay(t, upGated.URL, open(), tweak)

	t.Run("threads", func(t *testing.T) {
		// At least 24 threads, until every shard holds some (64 buckets
		// over 3 shards; a thread's bucket follows its key, random here).
		masters := map[string]bool{}
		for i := 0; i < 24 || len(masters) < 3 && i < 100; i++ {
			id := "t" + strconv.Itoa(i)
			resp := post(t, fa.URL, runInput(id, "r1", "hello "+id), nil)
			fs := readFrames(resp.Body, nil)
			resp.Body.Close()
			key := resp.Header.Get(threadKeyHeader)
			if resp.StatusCode != 200 || len(fs) != 10 || eventType(fs[len(fs)-1].Data) != "RUN_FINISHED" {
				t.Fatalf("run %s: %d %v", id, resp.StatusCode, fs)
			}
			run, _, _ := parseEventID(fs[0].ID)
			masters[c.MasterWith("agui:{*}:run:"+run)] = true
			v, st, body := loadThread(t, fb.URL, id, map[string]string{threadKeyHeader: key})
			if st != 200 || len(v.Messages) != 2 || !strings.Contains(string(v.Messages[0]), "hello "+id) {
				t.Fatalf("thread %s from the other instance: %d %s", id, st, body)
			}
			// The next turn through the other instance.
			resp = post(t, fb.URL, runInput(id, "r2", "hello "+id, "again"), map[string]string{threadKeyHeader: key})
			fs = readFrames(resp.Body, nil)
			resp.Body.Close()
			if resp.StatusCode != 200 || eventType(fs[len(fs)-1].Data) != "RUN_FINISHED" {
				t.Fatalf("second run of %s: %d %v", id, resp.StatusCode, fs)
			}
			if v, st, _ := loadThread(t, fa.URL, id, map[string]string{threadKeyHeader: key}); st != 200 || len(v.Messages) != 4 {
				t.Fatalf("thread %s after two runs: %d %d messages", id, st, len(v.Messages))
			}
		}
		if len(masters) != 3 || masters[""] {
			t.Fatalf("the runs' records are on %v, want the 3 masters", masters)
		}
	})

	// midRun starts a gated run on A, reads it through B, calls fault
	// halfway, and returns every frame the client got (resuming on B
	// when its stream is cut).
	midRun := func(t *testing.T, thread string, fault func(master string)) []frame {
		feed := func(n int) {
			for range n {
				select {
				case gated.gate <- struct{}{}:
				case <-time.After(30 * time.Second):
					t.Error("the agent waited for no one")
					return
				}
			}
		}
		resp := post(t, ga.URL, runInput(thread, "r1", "hello"), nil)
		got := readFrames(resp.Body, func(f frame) bool { return eventType(f.Data) == "TEXT_MESSAGE_START" })
		resp.Body.Close()
		key := resp.Header.Get(threadKeyHeader)
		run, _, _ := parseEventID(got[0].ID)
		master := c.MasterWith("agui:{*}:run:" + run)
		if master == "" {
			t.Fatal("no master holds the run")
		}
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		resume := func() *http.Response {
			req, _ := http.NewRequestWithContext(ctx, "POST", gb.URL+"/agent", strings.NewReader("{}"))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set(threadKeyHeader, key)
			req.Header.Set("Last-Event-ID", got[len(got)-1].ID)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			return resp
		}
		resp = resume()
		feed(10)
		fs := readFrames(resp.Body, func(f frame) bool { return strings.HasSuffix(f.ID, ":"+strconv.Itoa(len(got)+10)) })
		got = append(got, fs...)
		done := make(chan struct{})
		go func() { // the agent goes on through the fault
			defer close(done)
			for range 32 {
				feed(1)
				time.Sleep(50 * time.Millisecond)
			}
		}()
		fault(master)
		for i := 0; ; i++ {
			fs = readFrames(resp.Body, nil)
			resp.Body.Close()
			if ctx.Err() != nil {
				t.Fatalf("the stream hung (%d frames so far)", len(got))
			}
			got = append(got, fs...)
			if last := got[len(got)-1]; last.ID == "" || strings.HasPrefix(eventType(last.Data), "RUN_") && eventType(last.Data) != "RUN_STARTED" {
				break
			}
			if i == 5 {
				t.Fatalf("the stream was cut 5 times; last frame %s", got[len(got)-1].Data)
			}
			resp = resume()
			if resp.StatusCode != 200 {
				b, _ := io.ReadAll(resp.Body)
				t.Fatalf("resume: %d %s", resp.StatusCode, b)
			}
		}
		<-done
		// Never a frame twice: ids run 1, 2, 3, … (a RUN_ERROR the relay
		// sends about the store has none).
		for i, f := range got {
			if f.ID == "" && i == len(got)-1 {
				break
			}
			if _, seq, _ := parseEventID(f.ID); seq != int64(i+1) {
				t.Fatalf("frame %d has id %s", i+1, f.ID)
			}
		}
		return got
	}

	t.Run("failover", func(t *testing.T) {
		got := midRun(t, "f1", func(master string) {
			now := c.Failover(master)
			t.Logf("failover of %s to %s", master, now)
		})
		if last := eventType(got[len(got)-1].Data); last != "RUN_FINISHED" || len(got) != 45 {
			t.Fatalf("after a coordinated failover the run ended with %s after %d frames", last, len(got))
		}
	})

	t.Run("master killed", func(t *testing.T) {
		got := midRun(t, "k1", func(master string) {
			now := c.Kill(master)
			t.Logf("killed %s; %s took over", master, now)
		})
		switch last := eventType(got[len(got)-1].Data); last {
		case "RUN_FINISHED":
			if len(got) != 45 {
				t.Fatalf("finished after %d frames", len(got))
			}
		case "RUN_ERROR:" + CodeRunLost:
			t.Logf("the replica had not received the last writes: the run ended with %s after %d frames", CodeRunLost, len(got))
		default:
			t.Fatalf("after a master was killed the run ended with %s", got[len(got)-1].Data)
		}
	})
}

// TestRedactStore: a password in a -store URL is hidden, a cluster's too.
func TestRedactStore(t *testing.T) {
	for in, want := range map[string]string{
		"redis://:pw@h:6379/0":                      "redis://:xxxxx@h:6379/0",
		"redis://u:pw@h:6379/0":                     "redis://u:xxxxx@h:6379/0",
		"redis+cluster://:p@w@h1:1,h2:2?x=1":        "redis+cluster://:xxxxx@h1:1,h2:2?x=1",
		"rediss+cluster://u:pw@h1:1,h2:2":           "rediss+cluster://u:xxxxx@h1:1,h2:2",
		"redis+cluster://h1:1,h2:2":                 "redis+cluster://h1:1,h2:2",
		"redis://h:6379/0":                          "redis://h:6379/0",
		"bolt:/var/lib/x@y:z.db":                    "bolt:/var/lib/x@y:z.db",
		"redis://h:6379/0?client_name=a@b":          "redis://h:6379/0?client_name=a@b",
		"rediss://default:s3cret@redis.internal:1/": "rediss://default:xxxxx@redis.internal:1/",
	} {
		if got := RedactStore(in); got != want {
			t.Errorf("RedactStore(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestStoreLostFrames: a store that lost a run's last frames (what a Redis
// failover to a replica that had not received them does; here they are
// deleted by hand) ends the run with RUN_ERROR relay_run_lost, for the
// client reading it live and in the store, after the frames it kept:
// never a hang, never a frame id given twice to one client.
func TestStoreLostFrames(t *testing.T) {
	srv := redistest.Start(t, false)
	st, err := redisstore.Open(srv.URL())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	a := &fakeAgent{n: 20, gate: make(chan struct{})}
	up := newUpstream(t, a)
	_, rs := newRelay(t, up.URL, st, nil)
	resp := post(t, rs.URL, runInput("t1", "r1", "hello"), nil)
	defer resp.Body.Close()
	key := resp.Header.Get(threadKeyHeader)
	go func() {
		for range 10 {
			a.gate <- struct{}{}
		}
	}()
	got := readFrames(resp.Body, func(f frame) bool { return strings.HasSuffix(f.ID, ":13") })
	run, _, _ := parseEventID(got[0].ID)

	// The store loses frames 11 to 13.
	rdb := redis.NewClient(&redis.Options{Addr: srv.Addr})
	defer rdb.Close()
	ctx := context.Background()
	for seq := 11; seq <= 13; seq++ {
		must(t, rdb.XDel(ctx, "agui:frames:"+run, "0-"+strconv.Itoa(seq)).Err())
	}
	// A replica never had them: its stream's last id is 10.
	must(t, rdb.Do(ctx, "XSETID", "agui:frames:"+run, "0-10").Err())
	must(t, rdb.HSet(ctx, "agui:run:"+run, "frames", 10).Err())

	go func() {
		for range 12 {
			select {
			case a.gate <- struct{}{}:
			case <-time.After(10 * time.Second):
				return
			}
		}
	}()
	rest := readFrames(resp.Body, nil)
	if len(rest) != 1 || rest[0].ID != "" || eventType(rest[0].Data) != "RUN_ERROR:"+CodeRunLost {
		t.Fatalf("after the loss the client got %v", rest)
	}
	// In the store: the 10 frames kept, then the RUN_ERROR; the thread
	// takes a new run.
	rctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(rctx, "POST", rs.URL+"/agent", strings.NewReader("{}"))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(threadKeyHeader, key)
	req.Header.Set("Last-Event-ID", run+":0")
	resp2, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	all := readFrames(resp2.Body, nil)
	resp2.Body.Close()
	if len(all) != 11 || eventType(all[10].Data) != "RUN_ERROR:"+CodeRunLost || all[10].ID != run+":11" {
		t.Fatalf("the stored run: %d frames, last %v", len(all), all[len(all)-1])
	}
	a.setGate(nil)
	resp3 := post(t, rs.URL, runInput("t1", "r2", "hello", "again"), map[string]string{threadKeyHeader: key})
	fs := readFrames(resp3.Body, nil)
	resp3.Body.Close()
	if resp3.StatusCode != 200 || eventType(fs[len(fs)-1].Data) != "RUN_FINISHED" {
		t.Fatalf("the next run: %d %v", resp3.StatusCode, fs)
	}
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
