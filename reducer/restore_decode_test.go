package reducer

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// checkRestoreDecoders holds the fast snapshot decoder to the tree one:
// both accept exactly the same snapshots and build the same reducer.
func checkRestoreDecoders(t testing.TB, opt Options, data []byte) {
	t.Helper()
	fast, slow := New(opt), New(opt)
	fastOK := fast.loadFast(data)
	slowErr := slow.loadTree(data)
	name := string(data)
	if len(name) > 200 {
		name = name[:200] + "..."
	}
	if fastOK != (slowErr == nil) {
		t.Fatalf("loadFast(%q) = %v, loadTree: %v", name, fastOK, slowErr)
	}
	if !fastOK {
		return
	}
	if got, want := fast.Snapshot(), slow.Snapshot(); !bytes.Equal(got, want) {
		t.Fatalf("loadFast(%q) snapshot\n%s\nloadTree\n%s", name, got, want)
	}
	if !reflect.DeepEqual(fast.st, slow.st) {
		t.Fatalf("loadFast(%q) state %+v\nloadTree %+v", name, fast.st, slow.st)
	}
	if !reflect.DeepEqual(fast.msgByID, slow.msgByID) || !reflect.DeepEqual(fast.toolByID, slow.toolByID) {
		t.Fatalf("loadFast(%q): the id indexes differ", name)
	}
	if len(fast.cited) != len(slow.cited) {
		t.Fatalf("loadFast(%q): %d cited messages, loadTree %d", name, len(fast.cited), len(slow.cited))
	}
	for m := range fast.cited {
		if fast.st.Messages[m.pos] != m {
			t.Fatalf("loadFast(%q): a cited message is not in the conversation", name)
		}
	}
}

// restoreSeeds are snapshots of every kind of message, valid and not.
func restoreSeeds(t testing.TB) [][]byte {
	seeds := [][]byte{
		manyMessagesSnapshot(3),
		[]byte(`{"messages":[{"id":"m1","role":"assistant","content":"","reasoning":"think","reasoningDurationMs":12.5,"toolCallIds":["c1","c\u0032"],"name":"bot","subagentRunId":"s","encryptedValue":"e","metadata":{"k":1},"streaming":true},` +
			`{"id":"t1","role":"tool","content":"done","toolCallId":"c1","error":{"msg":"x"}},` +
			`{"id":"a1","role":"activity","content":{"n":[1,2]},"activityType":"PLAN"},` +
			`{"id":"u1","role":"user","content":[{"type":"text","text":"h\u00e9"}],"citations":[{"url":"u"}],"extra":[1,{"a":null}]},` +
			`{"id":"m1","role":"user","content":"dup id \ud83d\ude00 \ud83d","name":null,"error":null,"reasoning":null}],` +
			`"toolCalls":[{"id":"c1","name":"f","status":"complete","argsText":"{}","args":{}}],"state":{"a":[1]},"status":"idle"}`),
		[]byte(`{"messages":[{"id":"m1","role":"user","content":"x","content":"y","id":"m2"}],"messages":[{"id":"m3","role":"user","content":"z"}]}`),
		[]byte(`{"messages":null}`), []byte(`{"messages":{}}`), []byte(`{"messages":[1]}`), []byte(`[]`), []byte(`{"messages":[{"id":"m1","role":"user"}]}`),
		[]byte(`{"messages":[{"id":"m1","role":"assistant","content":"a","reasoningDurationMs":1e400}]}`),
		[]byte(`{"messages":[{"id":"m1","role":"activity","content":[1],"activityType":"x"}]}`),
		[]byte(`{"messages":[{"id":"m1","role":"tool","content":"a"}]}`),
		[]byte(`{"messages":[{"id":"m1","role":"user","content":"a","metadata":null}]}`),
		[]byte(`{"messages":[{"id":"m1","role":"user","content":"a","toolCallIds":["x",1]}]}`),
		[]byte(`{"status":"bogus","messages":[{"id":"m1","role":"user","content":"a"}]}`),
		[]byte("{\"messages\":[{\"id\":\"m\xff1\",\"role\":\"user\",\"content\":\"\xe2\x82 \\n\"}]} "),
		// What the trusted walk meets: whitespace everywhere, keys with
		// escapes, strings ending in backslashes or holding brackets and
		// quotes, one-letter escapes next to \u ones, nested values.
		[]byte(" { \"messages\" : [ { \"id\" : \"m1\" , \"role\":\"user\" ,\"content\" : \"a\\\\\" , \"streaming\" : true } ,\n\t{\"id\":\"m2\",\"r\\u006fle\":\"assistant\",\"con\\u0074ent\":\"b\\\"]}\\n\\t\\u00e9\\/\"} , {\"id\":\"m3\",\"role\":\"user\",\"metadata\":{\"a\":[\"]}\\\\\",{\"b\":\"\\\"\"}]} ,\"content\":\"x\\r\\b\\f\\\\\\\"\",\"reasoningDurationMs\" : 1.5e2 } ] , \"status\" : \"idle\" } "),
		[]byte(`{"messages":[{"id":"m1","role":"user","content":"\u0000\n\ud800x\n","name":"n\"","id":"m\\"}]}`),
	}
	// Snapshots of the 1.0 conversations.
	files, _ := filepath.Glob("testdata/agui10/*.jsonl")
	for _, file := range files {
		body, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		r := New(Options{})
		for _, line := range strings.Split(string(body), "\n") {
			if strings.TrimSpace(line) != "" {
				r.Apply([]byte(line))
			}
		}
		seeds = append(seeds, r.Snapshot())
	}
	return seeds
}

func TestRestoreDecoders(t *testing.T) {
	seeds := restoreSeeds(t)
	accepted := 0
	for _, s := range seeds {
		checkRestoreDecoders(t, Options{}, s)
		if New(Options{}).loadFast(s) {
			accepted++
		}
	}
	if accepted < len(seeds)/2 {
		t.Errorf("the fast decoder accepted %d of %d seeds", accepted, len(seeds))
	}
}

// FuzzRestoreDecoders: whatever the bytes, the fast snapshot decoder and
// the tree decoder agree (checkRestoreDecoders), and Restore gives a
// bad_snapshot or too_large diagnostic or a state whose snapshot restores
// identically.
func FuzzRestoreDecoders(f *testing.F) {
	for _, s := range restoreSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		opt := Options{MaxStateBytes: 1 << 12}
		checkRestoreDecoders(t, opt, data)
		r := New(opt)
		_, err := r.Restore(data)
		// Load is Restore without the change record.
		l := New(opt)
		if lerr := l.Load(data); (lerr == nil) != (err == nil) || err != nil && lerr.Error() != err.Error() {
			t.Fatalf("Load(%q): %v, Restore: %v", data, lerr, err)
		}
		if err != nil {
			if e, ok := err.(*Error); !ok || e.Code != "bad_snapshot" && e.Code != "too_large" {
				t.Fatalf("Restore(%q): %v", data, err)
			}
			return
		}
		snap := r.Snapshot()
		if got := l.Snapshot(); !bytes.Equal(got, snap) {
			t.Fatalf("Load(%q) snapshot\n%s\nRestore\n%s", data, got, snap)
		}
		r2 := New(opt)
		if _, err := r2.Restore(snap); err != nil {
			t.Fatalf("restore of own snapshot failed: %v\n%s", err, snap)
		}
		if got := r2.Snapshot(); !bytes.Equal(got, snap) {
			t.Fatalf("restore(snapshot()) differs:\n got %s\nwant %s", got, snap)
		}
	})
}
