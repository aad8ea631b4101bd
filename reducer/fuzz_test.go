package reducer

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The fuzz targets of this package check, on every input, the four
// invariants of SPEC.md §7: no panic; Snapshot() is valid JSON;
// Restore(Snapshot()) gives the same Snapshot(); an event the reducer
// refused (see refused) leaves the state byte-identical and emits no ops.
// They also check that the change records keep a mirror equal to the state.
//
// Seed corpora: testdata/fuzz/<FuzzName>/ (committed), plus the f.Add calls.
// `make fuzz FUZZTIME=30s` runs every target of the module.

// refused reports whether c says the event was refused as a whole: any
// error-level diagnostic except "order", which strict mode reports on
// events it still applies, and "patch_failed", which refuses the patch
// only (an ACTIVITY_DELTA's metadata still merges, as in the official
// client; see patchRefused).
func refused(c *Change) bool {
	for _, d := range c.Diagnostics {
		if d.Level == LevelError && d.Code != "order" && d.Code != "patch_failed" {
			return true
		}
	}
	return false
}

func hasCode(c *Change, code string) bool {
	for _, d := range c.Diagnostics {
		if d.Code == code {
			return true
		}
	}
	return false
}

// patchRefused checks that a failed patch changed nothing of the document
// it patched: the shared state or an activity message's content.
func patchRefused(t testing.TB, c *Change, what []byte) {
	t.Helper()
	if !hasCode(c, "patch_failed") {
		return
	}
	for _, op := range c.Ops {
		if op.Path == "" || strings.HasPrefix(op.Path, "/state") || strings.Contains(op.Path+"/", "/content/") {
			t.Fatalf("failed patch changed %s: %q", op.Path, what)
		}
	}
}

// fuzzOptions are the reducer configurations every FuzzApply input is
// folded with: the default (tolerant), strict mode, and a small field
// limit.
func fuzzOptions() []Options {
	return []Options{
		{MaxDepth: 64, Clock: fixedClock()},
		{MaxDepth: 64, Clock: fixedClock(), Strict: true},
		{MaxDepth: 64, Clock: fixedClock(), MaxFieldBytes: 64},
	}
}

// checker folds events into a reducer and checks the invariants after each.
type checker struct {
	r     *Reducer
	m     *mirror
	prev  []byte // the snapshot after the last event
	chunk int    // the chunk mode after the last event
}

func newChecker(t testing.TB, opt Options) *checker {
	r := New(opt)
	return &checker{r: r, m: newMirror(t, r), prev: r.Snapshot()}
}

// check is called after each event with its change.
func (k *checker) check(t testing.TB, c *Change, what []byte) {
	t.Helper()
	cur := k.r.Snapshot()
	if refused(c) && (len(c.Ops) > 0 || !bytes.Equal(k.prev, cur)) {
		t.Fatalf("refused event changed the state (%+v): %q", c.Diagnostics, what)
	}
	patchRefused(t, c, what)
	k.m.apply(t, c)
	k.prev, k.chunk = cur, k.r.chunks.mode
}

// apply folds one event and checks it. The SSE event name is not used:
// canonical AG-UI carries the type in the data.
func (k *checker) apply(t testing.TB, _ string, data []byte) {
	t.Helper()
	var c Change
	k.r.ApplyInto(&c, data)
	k.check(t, &c, data)
}

// finish checks the final state: valid JSON, the mirror, and restore.
//
// Restore goes into a reducer with the default limits: the fuzzed reducers
// run with MaxDepth 64, and a snapshot nests its values two or three levels
// deeper than the events that carried them (see TestBugRestoreDeepValues).
func (k *checker) finish(t testing.TB) {
	t.Helper()
	snap := k.r.Snapshot()
	if !json.Valid(snap) {
		t.Fatalf("snapshot is not valid JSON: %s", snap)
	}
	k.m.check(t, k.r, "fuzz input")
	r2 := New(Options{})
	if _, err := r2.Restore(snap); err != nil {
		t.Fatalf("restore of own snapshot failed: %v\n%s", err, snap)
	}
	if !bytes.Equal(snap, r2.Snapshot()) {
		t.Fatalf("restore(snapshot()) differs:\n%s\n%s", snap, r2.Snapshot())
	}
}

// FuzzApply feeds arbitrary event sequences (one event per line) to a
// reducer in each of fuzzOptions and checks the invariants.
func FuzzApply(f *testing.F) {
	files, _ := filepath.Glob("../testdata/streams/*.jsonl")
	for _, file := range files {
		if data, err := os.ReadFile(file); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte(`{"type":"TEXT_MESSAGE_CHUNK","messageId":"m","delta":"x"}` + "\n" + `{"type":"STATE_DELTA","delta":[{"op":"add","path":"/a","value":1}]}`))
	for _, ev := range hostileEvents() {
		f.Add([]byte(ev))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		lines := bytes.Split(data, []byte("\n"))
		for _, opt := range fuzzOptions() {
			k := newChecker(t, opt)
			for _, line := range lines {
				k.apply(t, "", line)
			}
			k.finish(t)
		}
	})
}

// FuzzDecodeEvent: the decoder never panics and returns only *Error; a
// decoded event applies without panicking; and the same bytes applied to a
// reducer that already holds a conversation keep the invariants.
func FuzzDecodeEvent(f *testing.F) {
	f.Add([]byte(`{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"f","parentMessageId":null}`))
	f.Add([]byte(`{"type":"RUN_FINISHED","outcome":{"type":"interrupt","interrupts":[{"id":"i"}]}}`))
	f.Add([]byte(`{"type":"ACTIVITY_SNAPSHOT","messageId":"a","activityType":"x","content":{},"replace":false}`))
	for _, ev := range hostileEvents() {
		f.Add([]byte(ev))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		ev, err := DecodeEvent(data, DecodeOptions{})
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("error is not an *Error: %T", err)
			}
		} else {
			New(Options{}).ApplyEvent(ev)
		}
		k := newChecker(t, Options{MaxDepth: 64, Clock: fixedClock()})
		for _, l := range hostileBase {
			k.apply(t, "", []byte(l))
		}
		k.apply(t, "", data)
		// The same reducer keeps working on the next valid event.
		var c Change
		k.r.ApplyInto(&c, []byte(`{"type":"RUN_STARTED","threadId":"t2","runId":"r-next"}`))
		if c.HasError() {
			t.Fatalf("next valid event refused after %q: %+v", data, c.Diagnostics)
		}
		k.check(t, &c, nil)
		k.finish(t)
	})
}

// FuzzStream feeds data as a text/event-stream body through Stream, split
// at points drawn from seed, checking the invariants after every event it
// completes; the state must not depend on the split.
func FuzzStream(f *testing.F) {
	f.Add([]byte("data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\ndata: {\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m\"}\n\ndata: {\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m\",\"delta\":\"h\\u00e9\"}\n\n"), uint64(1), uint8(0))
	f.Add([]byte("event: message\r\ndata: {\"type\":\"CUSTOM\",\r\ndata: \"name\":\"x\"}\r\n\r\n: comment\n\ndata: {\"type\":\"RUN_FIN"), uint64(2), uint8(1))
	f.Add([]byte("event: tool_call_start\ndata: {\"toolCallId\":\"c\",\"toolCallName\":\"f\"}\n\nevent: token\ndata: {\"token\":\"x\"}\n\n"), uint64(3), uint8(2))
	f.Add([]byte("data: "+string(bytes.Repeat([]byte("x"), 200))+"\n\ndata: {\"type\":\"RUN_STARTED\"}\n\n"), uint64(4), uint8(3))
	for _, ev := range hostileEvents() {
		f.Add([]byte("data: "+ev+"\n\n"), uint64(len(ev)), uint8(0))
	}
	f.Fuzz(func(t *testing.T, data []byte, seed uint64, mode uint8) {
		opt := Options{MaxDepth: 64, Clock: fixedClock(), Strict: mode&1 != 0}
		if mode&2 != 0 {
			opt.MaxEventBytes = 128 // small: SSE frames over it are skipped
		}
		// Whole.
		whole := newChecker(t, opt)
		s := whole.r.NewStream()
		s.Feed(data, func(c *Change) { whole.check(t, c, data) })
		s.Close()
		whole.finish(t)
		// Split at random points.
		opt.Clock = fixedClock()
		split := newChecker(t, opt)
		s = split.r.NewStream()
		rnd := rand.New(rand.NewPCG(seed, uint64(len(data))))
		for rest := data; len(rest) > 0; {
			n := 1 + rnd.IntN(len(rest))
			s.Feed(rest[:n], func(c *Change) { split.check(t, c, data) })
			rest = rest[n:]
		}
		s.Close()
		if a, b := whole.r.Snapshot(), split.r.Snapshot(); !bytes.Equal(a, b) {
			t.Fatalf("split feed differs from whole feed:\n%s\n%s", a, b)
		}
	})
}
