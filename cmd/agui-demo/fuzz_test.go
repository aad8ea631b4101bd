package main

import "testing"

// FuzzParseEventID: Last-Event-ID comes from the client; parsing never
// panics, and what it accepts is an id the server could have written.
func FuzzParseEventID(f *testing.F) {
	for _, s := range []string{"run-1.ab12cd34:17", "a:b:0", "x:01", ":1", "x", "x:99999999999999999999", "\x00:1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, id string) {
		key, seq, ok := parseEventID(id)
		if !ok {
			return
		}
		if key == "" || seq < 0 || eventID(key, seq) != id {
			t.Fatalf("%q parsed as %q, %d", id, key, seq)
		}
	})
}
