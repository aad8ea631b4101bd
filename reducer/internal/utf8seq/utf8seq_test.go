package utf8seq

import "testing"

func TestLen(t *testing.T) {
	tests := []struct {
		in string
		n  int
		ok bool
	}{
		{"a", 1, true},
		{"é", 2, true},
		{"€", 3, true},
		{"😀", 4, true},
		{"\x80", 1, false},             // a continuation byte alone
		{"\xC0\xAF", 1, false},         // overlong: C0 never starts a sequence
		{"\xE2\x82", 2, false},         // truncated: the maximal subpart
		{"\xE2\x82x", 2, false},        // cut short by ASCII
		{"\xED\xA0\x80", 1, false},     // a surrogate
		{"\xF0\x9F\x98", 3, false},     // truncated 4-byte sequence
		{"\xF4\x90\x80\x80", 1, false}, // above U+10FFFF
		{"\xFF", 1, false},
	}
	for _, tt := range tests {
		if n, ok := Len(tt.in, 0); n != tt.n || ok != tt.ok {
			t.Errorf("Len(%q) = %d, %v; want %d, %v", tt.in, n, ok, tt.n, tt.ok)
		}
		if n, ok := Len([]byte("x"+tt.in), 1); n != tt.n || ok != tt.ok {
			t.Errorf("Len([]byte(x%q), 1) = %d, %v; want %d, %v", tt.in, n, ok, tt.n, tt.ok)
		}
	}
}
