package sse

import "testing"

func TestAppendUTF8(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"empty", "", ""},
		{"ascii", "abc", "abc"},
		{"valid multibyte", "h\u00e9 \u65e5 \U0001F600", "h\u00e9 \u65e5 \U0001F600"},
		{"encoded U+FFFD kept", "\uFFFD", "\uFFFD"},
		{"lone continuation", "a\x80b", "a\uFFFDb"},
		{"two continuations", "\x80\xBF", "\uFFFD\uFFFD"},
		{"truncated 3-byte", "a\xE2\x82b", "a\uFFFDb"},
		{"truncated 4-byte", "\xF0\x9F\x98", "\uFFFD"},
		{"truncated 4-byte then ascii", "\xF0\x9F\x98:", "\uFFFD:"},
		{"truncated then lead", "\xE2\x82\xE2\x82\xAC", "\uFFFD\u20AC"},
		{"overlong 2-byte", "\xC0\x80", "\uFFFD\uFFFD"},
		{"overlong 3-byte", "\xE0\x80\x80", "\uFFFD\uFFFD\uFFFD"},
		{"surrogate", "\xED\xA0\x80", "\uFFFD\uFFFD\uFFFD"},
		{"above U+10FFFF", "\xF4\x90\x80\x80", "\uFFFD\uFFFD\uFFFD\uFFFD"},
		{"F5 lead", "\xF5\x80", "\uFFFD\uFFFD"},
		{"FF", "\xFF", "\uFFFD"},
		{"NUL kept", "a\x00b", "a\x00b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := string(appendUTF8(nil, []byte(tt.in))); got != tt.want {
				t.Errorf("appendUTF8(%q) = %q, want %q", tt.in, got, tt.want)
			}
			// The oracle must agree, or one of the two is wrong.
			if got := refDecode([]byte(tt.in)); got != tt.want {
				t.Errorf("refDecode(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}
