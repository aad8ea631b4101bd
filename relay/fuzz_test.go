package relay

import (
	"encoding/json"
	"testing"
)

// FuzzEventID: a Last-Event-ID is read into a run key and a sequence that
// print back to the same id, or refused; never a panic.
func FuzzEventID(f *testing.F) {
	for _, s := range []string{"AAAAAAAAAAAAAAAA:0", "abcdEFGH0123-_xy:17", "k:1", ":", "AAAAAAAAAAAAAAAA:-1", "AAAAAAAAAAAAAAAA:01", "AAAAAAAAAAAAAAAA:99999999999999999999", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, id string) {
		key, seq, ok := parseEventID(id)
		if !ok {
			return
		}
		if eventID(key, seq) != id || len(key) != runKeyLen || seq < 0 {
			t.Fatalf("%q read as %q %d", id, key, seq)
		}
	})
}

// FuzzNewMessages: whatever messages a request carries, the run's input
// is a JSON array of at most those messages, without the known ids.
func FuzzNewMessages(f *testing.F) {
	f.Add(`[{"id":"a","role":"user","content":"hi"},{"id":"b","role":"user","content":"x"}]`, "a")
	f.Add(`[{"role":"user","content":"no id"}]`, "")
	f.Add(`[1, "x", null, {"id":7}]`, "7")
	f.Fuzz(func(t *testing.T, msgs, known string) {
		var raw []json.RawMessage
		if json.Unmarshal([]byte(msgs), &raw) != nil {
			return
		}
		out := newMessages(raw, map[string]bool{known: true})
		if out == nil {
			return
		}
		var got []map[string]any
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatalf("input %s is not an array of objects: %v", out, err)
		}
		if len(got) > len(raw) {
			t.Fatalf("%d messages from %d", len(got), len(raw))
		}
		for _, m := range got {
			if id, _ := m["id"].(string); id != "" && id == known {
				t.Fatalf("known message %q kept: %s", known, out)
			}
		}
	})
}
