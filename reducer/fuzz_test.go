package reducer

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// FuzzApply feeds arbitrary event sequences (one event per line). Whatever
// arrives: no panic, the snapshot is valid JSON, restore(snapshot()) is
// identical, change records keep a mirror equal to the state, and a
// rejected event leaves the state untouched.
func FuzzApply(f *testing.F) {
	files, _ := filepath.Glob("../testdata/streams/*.jsonl")
	for _, file := range files {
		if data, err := os.ReadFile(file); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte(`{"type":"TEXT_MESSAGE_CHUNK","messageId":"m","delta":"x"}` + "\n" + `{"type":"STATE_DELTA","delta":[{"op":"add","path":"/a","value":1}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		r := New(Options{MaxDepth: 64, Clock: fixedClock()})
		m := newMirror(t, r)
		for _, line := range bytes.Split(data, []byte("\n")) {
			before := r.Snapshot()
			c := r.Apply(line)
			if rejected(c) && !bytes.Equal(before, r.Snapshot()) {
				t.Fatalf("rejected event changed the state: %q", line)
			}
			m.apply(t, c)
		}
		snap := r.Snapshot()
		if !json.Valid(snap) {
			t.Fatalf("snapshot is not valid JSON: %s", snap)
		}
		m.check(t, r, "fuzz input")
		r2 := New(Options{})
		if _, err := r2.Restore(snap); err != nil {
			t.Fatalf("restore of own snapshot failed: %v", err)
		}
		if !bytes.Equal(snap, r2.Snapshot()) {
			t.Fatalf("restore(snapshot()) differs:\n%s\n%s", snap, r2.Snapshot())
		}
	})
}

// FuzzDecodeEvent: the decoder never panics, and a decoded event applies
// without panicking.
func FuzzDecodeEvent(f *testing.F) {
	f.Add([]byte(`{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"f","parentMessageId":null}`))
	f.Add([]byte(`{"type":"RUN_FINISHED","outcome":{"type":"interrupt","interrupts":[{"id":"i"}]}}`))
	f.Add([]byte(`{"type":"ACTIVITY_SNAPSHOT","messageId":"a","activityType":"x","content":{},"replace":false}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		ev, err := DecodeEvent(data, DecodeOptions{})
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("error is not an *Error: %T", err)
			}
			return
		}
		New(Options{}).ApplyEvent(ev)
	})
}
