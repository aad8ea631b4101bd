package main

import (
	"encoding/json"
	"testing"
	"unicode/utf8"
)

// FuzzEscapeControls: whatever the input, the output has no control
// character left, and text with none is printed as it is.
func FuzzEscapeControls(f *testing.F) {
	for _, s := range []string{"plain", "a\nb", "\x1b[2K", "\u0085\u2028\u202e", "\xff", "line 99: error x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := escapeControls(s)
		clean := true
		for _, r := range s {
			if unsafeRune(r) {
				clean = false
			}
		}
		if clean && out != s {
			t.Fatalf("%q changed to %q", s, out)
		}
		for _, r := range out {
			if unsafeRune(r) {
				t.Fatalf("%q → %q keeps %U", s, out, r)
			}
		}

		// The printed state: the same JSON, with nothing a terminal acts on.
		if !utf8.ValidString(s) {
			return
		}
		doc, _ := json.MarshalIndent(map[string]any{"id": s, "list": []string{s, "x"}}, "", "  ")
		esc := escapeJSONText(doc)
		var a, b any
		if err := json.Unmarshal(doc, &a); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(esc, &b); err != nil {
			t.Fatalf("%s: %v", esc, err)
		}
		if ja, jb := mustJSON(t, a), mustJSON(t, b); ja != jb {
			t.Fatalf("%q: %s != %s", s, ja, jb)
		}
		for _, r := range string(esc) {
			if r != '\n' && unsafeRune(r) {
				t.Fatalf("%q → %s keeps %U", s, esc, r)
			}
		}
	})
}

func mustJSON(t *testing.T, v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
