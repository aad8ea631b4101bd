package main

import "testing"

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
	})
}
