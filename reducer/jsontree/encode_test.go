package jsontree

import (
	"strings"
	"testing"
)

func TestAppendString(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", `""`},
		{"plain", `"plain"`},
		{`"q" \b/`, `"\"q\" \\b/"`},
		{"\b\f\n\r\t", `"\b\f\n\r\t"`},
		{"\x00\x01\x1f", `"\u0000\u0001\u001f"`},
		{"\x7f", "\"\x7f\""},
		{"<script>&", `"<script>&"`},
		{"\u2028\u2029", "\"\u2028\u2029\""},
		{"é中😀", `"é中😀"`},
		{"a\xffb", `"a�b"`},
		{"\xe2\x82", `"�"`},
		{"x\xe2\x82\n", `"x�\n"`},
	}
	for _, tt := range tests {
		if got := string(AppendString([]byte("pre"), tt.in)); got != "pre"+tt.want {
			t.Errorf("AppendString(%q) = %s, want pre%s", tt.in, got, tt.want)
		}
	}
}

func TestAppendJSON(t *testing.T) {
	o := NewObject(0)
	o.Set("b", Number("1"))
	o.Set("a", &Array{Elems: []Value{nil, true, false, "s", Number("2.50")}})
	o.Set("e", &Array{})
	o.Set("f", NewObject(0))
	o.Set("k\"ey", "v")
	tests := []struct {
		v    Value
		want string
	}{
		{nil, `null`},
		{true, `true`},
		{Number("-1e400"), `-1e400`},
		{"x", `"x"`},
		{o, `{"b":1,"a":[null,true,false,"s",2.50],"e":[],"f":{},"k\"ey":"v"}`},
		{(*Array)(nil), `null`},
		{(*Object)(nil), `null`},
		{&Array{Elems: []Value{(*Object)(nil), 42}}, `[null,null]`}, // 42 is not a Value
	}
	for _, tt := range tests {
		if got := string(AppendJSON(nil, tt.v)); got != tt.want {
			t.Errorf("AppendJSON = %s, want %s", got, tt.want)
		}
	}
}

// deepArray returns [[[...]]] nested n levels, built without recursion.
func deepArray(n int) Value {
	var v Value = &Array{}
	for i := 1; i < n; i++ {
		v = &Array{Elems: []Value{v}}
	}
	return v
}

func TestAppendJSONDeep(t *testing.T) {
	const n = 1_000_000 // far deeper than Parse allows: patches can build this
	got := AppendJSON(nil, deepArray(n))
	if want := strings.Repeat("[", n) + strings.Repeat("]", n); string(got) != want {
		t.Errorf("deep AppendJSON wrong (len %d)", len(got))
	}
}

// TestAppendStringWords: a byte to escape, or not, at every offset of
// strings around the eight-byte words AppendString skips plain text by.
func TestAppendStringWords(t *testing.T) {
	cases := []struct{ in, out string }{
		{`"`, `\"`}, {`\`, `\\`}, {"\n", `\n`}, {"\x01", `\u0001`}, {"\x1f", `\u001f`},
		{"\x7f", "\x7f"}, {" ", " "}, {"!", "!"}, {"#", "#"}, {"[", "["}, {"]", "]"},
		{"é", "é"}, {"😀", "😀"}, {"\xff", "\uFFFD"}, {"\xed\xa0\x80", `\ud800`},
	}
	for _, c := range cases {
		for n := 0; n <= 19; n++ {
			for at := 0; at <= n; at++ {
				in := strings.Repeat("a", at) + c.in + strings.Repeat("a", n-at)
				want := `"` + strings.Repeat("a", at) + c.out + strings.Repeat("a", n-at) + `"`
				if got := string(AppendString(nil, in)); got != want {
					t.Fatalf("AppendString(%q) = %s, want %s", in, got, want)
				}
			}
		}
	}
}
