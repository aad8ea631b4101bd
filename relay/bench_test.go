package relay

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agui-reducer/agui/reducer"
	"github.com/agui-reducer/agui/reducer/sse"
	"github.com/agui-reducer/agui/relay/store"
	"github.com/agui-reducer/agui/relay/store/memstore"
)

// longThread is the event history of a thread of msgs messages: turns of
// a user message and the demo's recorded "text" run (testdata/scenarios:
// an assistant message of 128 deltas, as a model streams it), its ids
// made unique per turn.
func longThread(tb testing.TB, msgs int) (users []string, events [][]byte) {
	raw, err := os.ReadFile("../testdata/scenarios/text.jsonl")
	if err != nil {
		tb.Fatal(err)
	}
	var lines []string
	for _, l := range strings.Split(string(raw), "\n") {
		if strings.HasPrefix(l, "{") {
			lines = append(lines, l)
		}
	}
	for turn := 0; turn < msgs/2; turn++ {
		t := strconv.Itoa(turn)
		users = append(users, "question "+t)
		rep := strings.NewReplacer(`"msg_text_1"`, `"msg_text_1-`+t+`"`, `"run_demo"`, `"r`+t+`"`)
		for _, l := range lines {
			events = append(events, []byte(rep.Replace(l)))
		}
	}
	return users, events
}

// readBody reads a response's body as a client does that knows its length
// (Content-Length): into one buffer of that size.
func readBody(resp *http.Response) []byte {
	defer resp.Body.Close()
	if n := resp.ContentLength; n >= 0 {
		b := make([]byte, n)
		if _, err := io.ReadFull(resp.Body, b); err == nil {
			return b
		}
		return nil
	}
	b, _ := io.ReadAll(resp.Body)
	return b
}

// replay folds the history as a client without the relay must: every
// event through a fresh reducer.
func replay(users []string, events [][]byte) *reducer.Reducer {
	r := reducer.New(reducer.Options{})
	perTurn := len(events) / len(users)
	for i, u := range users {
		r.AddUserMessage(u, "u"+strconv.Itoa(i))
		for _, e := range events[i*perTurn : (i+1)*perTurn] {
			r.Apply(e)
		}
	}
	return r
}

// BenchmarkThreadLoad: a 10,000-message thread, loaded with GET
// /threads/{id} and restored (the reducer view: reducer.Restore; the
// AG-UI view: MESSAGES_SNAPSHOT and STATE_SNAPSHOT applied to a fresh
// reducer), against replaying its events through the reducer. Reports
// each in ms and the ratios.
func BenchmarkThreadLoad(b *testing.B) {
	users, events := longThread(b, 10000)
	snap := joinSnapshot(replay(users, events))
	url, key, _ := seedThread(b, snap)
	load := func(view string) (*reducer.Reducer, int) {
		resp := get(b, url, "/threads/t"+view, map[string]string{threadKeyHeader: key})
		body := readBody(resp)
		r := reducer.New(reducer.Options{})
		if view != "" {
			// A Go client paints from State(): Load. Restore also writes
			// the document out for a mirror (timed apart below).
			if err := r.Load(body); err != nil {
				b.Fatal(err)
			}
			return r, len(body)
		}
		var v struct {
			Messages json.RawMessage
			State    json.RawMessage
		}
		json.Unmarshal(body, &v)
		r.Apply(append(append([]byte(`{"type":"MESSAGES_SNAPSHOT","messages":`), v.Messages...), '}'))
		r.Apply(append(append([]byte(`{"type":"STATE_SNAPSHOT","snapshot":`), v.State...), '}'))
		return r, len(body)
	}
	if r, _ := load("?view=reducer"); len(r.State().Messages) != 10000 {
		b.Fatalf("%d messages", len(r.State().Messages))
	}
	if r, _ := load(""); len(r.State().Messages) != 10000 {
		b.Fatalf("%d messages (AG-UI view)", len(r.State().Messages))
	}
	// The history as a server without snapshots sends it: one SSE body.
	var sseBody []byte
	for _, e := range events {
		sseBody = append(append(append(sseBody, "data: "...), e...), "\n\n"...)
	}
	history := newUpstream(b, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write(sseBody)
	}))
	fetchReplay := func() *reducer.Reducer {
		resp := get(b, history.URL, "/", nil)
		defer resp.Body.Close()
		r := reducer.New(reducer.Options{})
		p := sse.NewParser(sse.Options{})
		turn := 0
		buf := make([]byte, 64<<10)
		emit := func(e sse.Event) {
			if strings.HasPrefix(e.Data, `{"type":"RUN_STARTED"`) {
				r.AddUserMessage(users[turn], "u"+strconv.Itoa(turn))
				turn++
			}
			r.Apply([]byte(e.Data))
		}
		for {
			n, err := resp.Body.Read(buf)
			p.Feed(buf[:n], emit)
			if err != nil {
				break
			}
		}
		return r
	}
	if r := fetchReplay(); len(r.State().Messages) != 10000 {
		b.Fatalf("%d messages replayed", len(r.State().Messages))
	}
	if r, _ := load("?view=reducer&tail=1"); len(r.State().Messages) != TailMessages {
		b.Fatalf("%d messages in the tail", len(r.State().Messages))
	}
	restoreView := func() {
		resp := get(b, url, "/threads/t?view=reducer", map[string]string{threadKeyHeader: key})
		if _, err := reducer.New(reducer.Options{}).Restore(readBody(resp)); err != nil {
			b.Fatal(err)
		}
	}
	// Each part starts from a collected heap, as a page load does, not
	// from the garbage of the part before.
	timed := func(f func()) time.Duration {
		runtime.GC()
		t := time.Now()
		f()
		return time.Since(t)
	}
	var tReplay, tFetch, tReducer, tRestore, tAGUI, tTail time.Duration
	var size int
	for b.Loop() {
		tTail += timed(func() { load("?view=reducer&tail=1") })
		tReplay += timed(func() { replay(users, events) })
		tFetch += timed(func() { fetchReplay() })
		tReducer += timed(func() { _, size = load("?view=reducer") })
		tRestore += timed(restoreView)
		tAGUI += timed(func() { load("") })
	}
	n := float64(b.N)
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / n }
	b.ReportMetric(ms(tReplay), "ms-replay-in-memory")
	b.ReportMetric(ms(tFetch), "ms-replay-fetched")
	b.ReportMetric(ms(tReducer), "ms-load-reducer-view")
	b.ReportMetric(ms(tRestore), "ms-restore-reducer-view")
	b.ReportMetric(ms(tAGUI), "ms-load-agui-view")
	b.ReportMetric(float64(tFetch)/float64(tReducer), "x-fetched/reducer-view")
	b.ReportMetric(float64(tReplay)/float64(tReducer), "x-in-memory/reducer-view")
	b.ReportMetric(float64(tFetch)/float64(tRestore), "x-fetched/restore")
	b.ReportMetric(float64(tFetch)/float64(tAGUI), "x-fetched/agui-view")
	b.ReportMetric(ms(tTail), "ms-first-paint-tail")
	b.ReportMetric(float64(tFetch)/float64(tTail), "x-fetched/tail")
	b.ReportMetric(float64(tReplay)/float64(tTail), "x-in-memory/tail")
	b.ReportMetric(float64(len(sseBody)), "history-bytes")
	b.ReportMetric(float64(len(events)), "events")
	b.ReportMetric(float64(size), "snapshot-bytes")
}

// seedThread stores snap as the folded snapshot of thread "t" of a new
// relay, and returns the relay's URL, the thread key to read it with, and
// the relay.
func seedThread(b testing.TB, snap []byte) (url, key string, s *Server) {
	st := memstore.New()
	up := newUpstream(b, &fakeAgent{n: 1})
	s, rs := newRelay(b, up.URL, st, nil)
	key = randomKey(keyLen)
	owner := s.hash("owner", "key", key)
	tk := s.threadKey(owner, "t")
	ctx := context.Background()
	if err := st.Create(ctx, &store.Run{Key: "seed", Thread: tk, Owner: owner, Started: time.Now()}); err != nil {
		b.Fatal(err)
	}
	st.Finish(ctx, "seed", 1, nil, store.OutcomeFinished)
	if err := st.Fold(ctx, tk, 0, snap, []string{"seed"}, []string{"seed"}); err != nil {
		b.Fatal(err)
	}
	return rs.URL, key, s
}

// BenchmarkThreadRestore: the parts of loading a 10,000-message thread's
// reducer view: the GET alone (the relay and the transport), Restore
// alone (the client's decode, with the document a mirror takes) or Load
// (the state only), and the GET with either.
func BenchmarkThreadRestore(b *testing.B) {
	users, events := longThread(b, 10000)
	url, key, _ := seedThread(b, joinSnapshot(replay(users, events)))
	fetch := func() []byte {
		resp := get(b, url, "/threads/t?view=reducer", map[string]string{threadKeyHeader: key})
		body := readBody(resp)
		return body
	}
	body := fetch()
	b.Run("get", func(b *testing.B) {
		b.SetBytes(int64(len(body)))
		b.ReportAllocs()
		for b.Loop() {
			fetch()
		}
	})
	b.Run("restore", func(b *testing.B) {
		b.SetBytes(int64(len(body)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := reducer.New(reducer.Options{}).Restore(body); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("load-state", func(b *testing.B) {
		b.SetBytes(int64(len(body)))
		b.ReportAllocs()
		for b.Loop() {
			if err := reducer.New(reducer.Options{}).Load(body); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("get+restore", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := reducer.New(reducer.Options{}).Restore(fetch()); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("get+load", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := reducer.New(reducer.Options{}).Load(fetch()); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkOverhead: one run of 1,000 events read through the relay, per
// store, against the agent read directly: ns per event, and the relay's
// overhead per event.
func BenchmarkOverhead(b *testing.B) {
	const n = 1000
	up := newUpstream(b, &fakeAgent{n: n})
	readAll := func(url string, body string, hdr map[string]string) int {
		resp := post(b, url, body, hdr)
		fs := readFrames(resp.Body, nil)
		resp.Body.Close()
		return len(fs)
	}
	var direct float64
	b.Run("direct", func(b *testing.B) {
		i := 0
		for b.Loop() {
			i++
			if got := readAll(up.URL, runInput("t", "r"+strconv.Itoa(i), "hi"), nil); got != n+5 {
				b.Fatalf("%d frames", got)
			}
		}
		direct = float64(b.Elapsed().Nanoseconds()) / float64(b.N) / (n + 5)
		b.ReportMetric(direct, "ns/event")
	})
	for _, be := range backends {
		b.Run(be.name, func(b *testing.B) {
			_, rs := newRelay(b, up.URL, be.open(b), func(c *Config) { c.Lease = 5 * time.Second })
			key := randomKey(keyLen)
			i := 0
			for b.Loop() {
				i++
				if got := readAll(rs.URL, runInput("t"+strconv.Itoa(i), "r", "hi"), map[string]string{threadKeyHeader: key}); got != n+5 {
					b.Fatalf("%d frames", got)
				}
			}
			per := float64(b.Elapsed().Nanoseconds()) / float64(b.N) / (n + 5)
			b.ReportMetric(per, "ns/event")
			b.ReportMetric(per-direct, "ns/event-overhead")
		})
	}
}

// BenchmarkConcurrentRuns: 100 runs at once, 200 events each, through one
// relay instance, per store: events per second.
func BenchmarkConcurrentRuns(b *testing.B) {
	const runs, n = 100, 200
	up := newUpstream(b, &fakeAgent{n: n})
	rate := map[string]float64{} // events/s by store, for the side-by-side ratio
	for _, be := range backends {
		b.Run(be.name, func(b *testing.B) {
			_, rs := newRelay(b, up.URL, be.open(b), func(c *Config) {
				c.Lease = 10 * time.Second
				// A run holds its slot until its producer has stored and
				// folded it, a little after its client read the last frame:
				// room for the last round's runs still folding.
				c.MaxRuns = 2 * runs
			})
			tr := &http.Transport{MaxIdleConnsPerHost: runs}
			defer tr.CloseIdleConnections()
			client := &http.Client{Transport: tr}
			round := 0
			total := 0
			var short []string // runs that did not give every frame, and why
			for b.Loop() {
				round++
				var wg sync.WaitGroup
				var mu sync.Mutex
				for i := range runs {
					wg.Add(1)
					go func() {
						defer wg.Done()
						req, _ := http.NewRequest("POST", rs.URL+"/agent", strings.NewReader(runInput(fmt.Sprintf("t%d-%d", round, i), "r", "hi")))
						req.Header.Set("Content-Type", "application/json")
						req.Header.Set(threadKeyHeader, "bench-key-0123456789ab")
						resp, err := client.Do(req)
						if err != nil {
							b.Error(err)
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
						if len(fs) != n+5 {
							last := ""
							if len(fs) > 0 {
								last = fs[len(fs)-1].Data
							}
							short = append(short, fmt.Sprintf("status %d, %d frames, last %.200s", resp.StatusCode, len(fs), last))
						}
						mu.Unlock()
					}()
				}
				wg.Wait()
			}
			if total != b.N*runs*(n+5) {
				b.Fatalf("%d frames, want %d; %d runs short, e.g. %q", total, b.N*runs*(n+5), len(short), short[:min(3, len(short))])
			}
			rate[be.name] = float64(total) / b.Elapsed().Seconds()
			b.ReportMetric(rate[be.name], "events/s")
			if be.name == "redis" && rate["bolt"] > 0 {
				b.ReportMetric(rate["redis"]/rate["bolt"], "x-bolt")
			}
		})
	}
}
