package jsontree

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func mustParse(t testing.TB, s string) Value {
	t.Helper()
	v, err := Parse([]byte(s), ParseOptions{})
	if err != nil {
		t.Fatalf("Parse(%q): %v", s, err)
	}
	return v
}

// parseValidTests are inputs Parse accepts; the property tests of ScanObject reuse them.
var parseValidTests = []struct {
	in   string
	want string // AppendJSON of the result
}{
	{`null`, `null`},
	{`true`, `true`},
	{`false`, `false`},
	{` 0 `, `0`},
	{`-0`, `-0`},
	{"\t\r\n 1.5e+10 \n", `1.5e+10`},
	{`-12.5E-3`, `-12.5E-3`},
	{`"abc"`, `"abc"`},
	{`""`, `""`},
	{`[]`, `[]`},
	{`{}`, `{}`},
	{` [ ] `, `[]`},
	{`{ }`, `{}`},
	{`[1,[2,{"a":[]}]]`, `[1,[2,{"a":[]}]]`},
	{` { "b" : 1 , "a" : [ true , null ] } `, `{"b":1,"a":[true,null]}`},
	{`[[[[[]]]]]`, `[[[[[]]]]]`},
	{`{"":{"":""}}`, `{"":{"":""}}`},

	// Numbers are kept as written.
	{`1e400`, `1e400`},
	{`123456789012345678901234567890`, `123456789012345678901234567890`},
	{`-0.000000000000000000000000000001e-999`, `-0.000000000000000000000000000001e-999`},
	{`[1E+2,0.5,-0.0]`, `[1E+2,0.5,-0.0]`},

	// Escapes.
	{`"\"\\\/\b\f\n\r\t"`, `"\"\\/\b\f\n\r\t"`},
	{`"\u0041\u00e9\u4E2D"`, `"Aé中"`},
	{`"\u0000\u001F\u007f"`, "\"\\u0000\\u001f\x7f\""},
	{`"\ud83d\ude00"`, `"😀"`},
	{`"\uD83D\uDE00"`, `"😀"`},
	{`"<>&\u2028\u2029"`, "\"<>&\u2028\u2029\""},

	// Unpaired surrogates stay lone, as JSON.parse keeps them, and are
	// written back as escapes, as JSON.stringify writes them.
	{`"\ud83d"`, `"\ud83d"`},
	{`"\ude00"`, `"\ude00"`},
	{`"\ud83dx"`, `"\ud83dx"`},
	{`"\ud83d\u0041"`, `"\ud83dA"`},
	{`"\ud83d\ud83d\ude00"`, `"\ud83d😀"`},
	{`"\ude00\ud83d"`, `"\ude00\ud83d"`},
	{`"\uDBFF\uDFFF\uDBFF"`, "\"\U0010FFFF\\udbff\""},

	// Invalid UTF-8 is replaced per maximal subpart, as TextDecoder does.
	{"\"\xff\"", `"�"`},
	{"\"a\xffb\"", `"a�b"`},
	{"\"\xe2\x82\"", `"�"`},            // truncated 3-byte sequence: one U+FFFD
	{"\"\xe2\x82A\"", `"�A"`},          // ... followed by ASCII
	{"\"\xf0\x9f\x98\"", `"�"`},        // truncated 4-byte sequence
	{"\"\xed\xa0\x80\"", `"���"`},      // UTF-8-encoded surrogate
	{"\"\xc0\xaf\"", `"��"`},           // overlong
	{"\"\xf4\x90\x80\x80\"", `"����"`}, // above U+10FFFF
	{"\"\x80\x80\"", `"��"`},           // lone continuation bytes
	{"\"é\xff\\n\"", `"é�\n"`},         // mixed with an escape
	{"\"héllo wörld\"", `"héllo wörld"`},
}

func TestParseValid(t *testing.T) {
	for _, tt := range parseValidTests {
		v, err := Parse([]byte(tt.in), ParseOptions{})
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.in, err)
			continue
		}
		if got := string(AppendJSON(nil, v)); got != tt.want {
			t.Errorf("Parse(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

// parseInvalidTests are inputs Parse rejects; the property tests of ScanObject reuse them.
var parseInvalidTests = []struct {
	in     string
	code   string
	offset int
}{
	{``, CodeEmpty, 0},
	{"  \n\t", CodeEmpty, 4},
	{`nul`, CodeUnexpectedEnd, 3},
	{`nulx`, CodeSyntax, 3},
	{`tru e`, CodeSyntax, 3},
	{`falsy`, CodeSyntax, 4},
	{`01`, CodeTrailingData, 1},
	{`1 2`, CodeTrailingData, 2},
	{`[1]x`, CodeTrailingData, 3},
	{`{} {}`, CodeTrailingData, 3},
	{`[1,]`, CodeSyntax, 3},
	{`[,1]`, CodeSyntax, 1},
	{`[1 2]`, CodeSyntax, 3},
	{`{,}`, CodeSyntax, 1},
	{`{"a"}`, CodeSyntax, 4},
	{`{"a":}`, CodeSyntax, 5},
	{`{a:1}`, CodeSyntax, 1},
	{`{"a":1,}`, CodeSyntax, 7},
	{`{"a":1]`, CodeSyntax, 6},
	{`[1}`, CodeSyntax, 2},
	{`[1`, CodeUnexpectedEnd, 2},
	{`[`, CodeUnexpectedEnd, 1},
	{`{"a":1`, CodeUnexpectedEnd, 6},
	{`{"a"`, CodeUnexpectedEnd, 4},
	{`"abc`, CodeUnexpectedEnd, 4},
	{"\"a\x01\"", CodeSyntax, 2},
	{"\"a\n\"", CodeSyntax, 2},
	{`"\x"`, CodeSyntax, 2},
	{`"\u12"`, CodeSyntax, 5},
	{`"\u12`, CodeUnexpectedEnd, 5},
	{`"\ud83d\u12x"`, CodeSyntax, 11},
	{`"\`, CodeUnexpectedEnd, 2},
	{`-`, CodeUnexpectedEnd, 1},
	{`-a`, CodeSyntax, 1},
	{`1.`, CodeUnexpectedEnd, 2},
	{`1.e5`, CodeSyntax, 2},
	{`1e`, CodeUnexpectedEnd, 2},
	{`1e+`, CodeUnexpectedEnd, 3},
	{`1e+x`, CodeSyntax, 3},
	{`+1`, CodeSyntax, 0},
	{`.5`, CodeSyntax, 0},
	{`NaN`, CodeSyntax, 0},
	{`Infinity`, CodeSyntax, 0},
	{`-Infinity`, CodeSyntax, 1},
	{`'a'`, CodeSyntax, 0},
	{"\xef\xbb\xbf1", CodeSyntax, 0}, // byte order mark
	{"[1]\x00", CodeTrailingData, 3},
}

func TestParseInvalid(t *testing.T) {
	for _, tt := range parseInvalidTests {
		_, err := Parse([]byte(tt.in), ParseOptions{})
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("Parse(%q): err = %v, want *SyntaxError", tt.in, err)
			continue
		}
		if se.Code != tt.code || se.Offset != tt.offset {
			t.Errorf("Parse(%q): code %q offset %d (%v), want %q at %d", tt.in, se.Code, se.Offset, se, tt.code, tt.offset)
		}
		if json.Valid([]byte(tt.in)) {
			t.Errorf("test bug: encoding/json accepts %q", tt.in)
		}
	}
}

// parseDepthTests exercise ParseOptions.MaxDepth; the property tests of ScanObject reuse them.
var parseDepthTests = []struct {
	in       string
	maxDepth int
	code     string // "" for success
}{
	{`[[[1]]]`, 3, ""},
	{`[[[[1]]]]`, 3, CodeTooDeep},
	{`[[[[]]]]`, 3, CodeTooDeep},
	{`[[[]]]`, 3, ""},
	{`{"a":{"a":{"a":1}}}`, 3, ""},
	{`{"a":{"a":{"a":{}}}}`, 3, CodeTooDeep},
	{`[{"a":[{}]}]`, 4, ""},
	{`[{"a":[{}]}]`, 3, CodeTooDeep},
	{`1`, 1, ""},
	{`[]`, 1, ""},
	{`[[]]`, 1, CodeTooDeep},
	{strings.Repeat("[", DefaultMaxDepth) + strings.Repeat("]", DefaultMaxDepth), 0, ""},
	{strings.Repeat("[", DefaultMaxDepth+1) + strings.Repeat("]", DefaultMaxDepth+1), 0, CodeTooDeep},
	{strings.Repeat("[", 100000), 0, CodeTooDeep},
	{strings.Repeat(`{"a":`, 100000), 0, CodeTooDeep},
	{strings.Repeat("[", 100000) + strings.Repeat("]", 100000), 200000, ""},
}

func TestParseDepth(t *testing.T) {
	for _, tt := range parseDepthTests {
		v, err := Parse([]byte(tt.in), ParseOptions{MaxDepth: tt.maxDepth})
		name := tt.in
		if len(name) > 40 {
			name = name[:40] + "..."
		}
		if tt.code == "" {
			if err != nil {
				t.Errorf("Parse(%s, %d): %v", name, tt.maxDepth, err)
			} else if out := AppendJSON(nil, v); !bytes.Equal(out, []byte(tt.in)) {
				t.Errorf("Parse(%s, %d) round trip = %.40s", name, tt.maxDepth, out)
			}
			continue
		}
		var se *SyntaxError
		if !errors.As(err, &se) || se.Code != tt.code {
			t.Errorf("Parse(%s, %d): err = %v, want code %s", name, tt.maxDepth, err, tt.code)
		}
	}
}

func TestParseDuplicateKeys(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"a":1,"b":2,"a":3}`, `{"a":3,"b":2}`},
		{`{"a":1,"a":2,"a":3}`, `{"a":3}`},
		{`{"a":{"x":1},"b":2,"a":{"y":2}}`, `{"a":{"y":2},"b":2}`},
		// Past the size where objects switch to a key index.
		{`{"k0":0,"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,"k0":"x","k9":"y","k10":10}`,
			`{"k0":"x","k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":"y","k10":10}`},
		// Duplicates in nested objects do not interfere with each other.
		{`{"a":{"a":1,"a":2},"a":{"b":1,"b":2}}`, `{"a":{"b":2}}`},
	}
	for _, tt := range tests {
		v := mustParse(t, tt.in)
		if got := string(AppendJSON(nil, v)); got != tt.want {
			t.Errorf("Parse(%s) = %s, want %s", tt.in, got, tt.want)
		}
		// The index built while parsing must agree with the keys.
		checkIndex(t, v)
	}
}

// checkIndex verifies Find on every key of every object in v.
func checkIndex(t *testing.T, v Value) {
	t.Helper()
	stack := []Value{v}
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch x := v.(type) {
		case *Array:
			stack = append(stack, x.Elems...)
		case *Object:
			for i, k := range x.Keys() {
				if j := x.Find(k); j != i {
					t.Errorf("Find(%q) = %d, want %d", k, j, i)
				}
			}
			if x.Find("\x00missing") != -1 {
				t.Errorf("Find(missing) != -1")
			}
			for i := 0; i < x.Len(); i++ {
				stack = append(stack, x.ValueAt(i))
			}
		}
	}
}

// TestParseRoundTrip checks Parse→AppendJSON against encoding/json's
// compact form for inputs whose strings are already in canonical form.
func TestParseRoundTrip(t *testing.T) {
	inputs := []string{
		`{"z":1,"a":2,"m":{"y":[1,2,3],"b":null}}`,
		` [ {"id" : "x" , "n": -1.25e-3 }, [ ], { } , "<b>&amp;</b>" ] `,
		`{"emoji":"😀","cjk":"中文","latin":"éàü","ctl":"\n\t\"\\","line":"\u2028"}`,
		"{\n  \"deep\": [[[[[[[[[[\"x\"]]]]]]]]]],\n  \"big\": 123456789012345678901234567890\n}",
		`[true,false,null,0,-0,1E5,"",{"":""}]`,
	}
	for _, in := range inputs {
		var want bytes.Buffer
		if err := json.Compact(&want, []byte(in)); err != nil {
			t.Fatalf("json.Compact(%s): %v", in, err)
		}
		// encoding/json leaves \u2028 escaped in the source; JSON.stringify
		// writes it raw.
		w := strings.ReplaceAll(want.String(), `\u2028`, "\u2028")
		got := AppendJSON(nil, mustParse(t, in))
		if string(got) != w {
			t.Errorf("round trip of %s\n got %s\nwant %s", in, got, w)
		}
	}
}

func TestParseDoesNotAlias(t *testing.T) {
	data := []byte(`{"key":"value","n":12,"arr":["x"]}`)
	v := mustParse(t, string(data))
	for i := range data {
		data[i] = 'X'
	}
	if got := string(AppendJSON(nil, v)); got != `{"key":"value","n":12,"arr":["x"]}` {
		t.Errorf("value changed with its input: %s", got)
	}
}

// TestParseStringScan puts each kind of special byte at every offset of
// strings around the 8-byte scanning width, so no alignment can slip past
// the word-at-a-time scanner.
func TestParseStringScan(t *testing.T) {
	specials := []struct {
		insert, want string // raw bytes in the JSON text, decoded result
	}{
		{`\n`, "\n"},
		{`\"`, `"`},
		{`\\`, `\`},
		{"é", "é"},
		{"\xff", "\uFFFD"},
		{"\x7f", "\x7f"},
		{" ", " "},
		{"~", "~"},
	}
	for n := 0; n < 24; n++ {
		for pos := 0; pos <= n; pos++ {
			for _, sp := range specials {
				pad := strings.Repeat("a", n)
				in := `"` + pad[:pos] + sp.insert + pad[pos:] + `"`
				v, err := Parse([]byte(in), ParseOptions{})
				if err != nil {
					t.Fatalf("Parse(%q): %v", in, err)
				}
				if want := pad[:pos] + sp.want + pad[pos:]; v != want {
					t.Fatalf("Parse(%q) = %q, want %q", in, v, want)
				}
				// A control byte at the same spot must be rejected.
				bad := `"` + pad[:pos] + "\x1f" + pad[pos:] + `"`
				if _, err := Parse([]byte(bad), ParseOptions{}); err == nil {
					t.Fatalf("Parse(%q) accepted a control character", bad)
				}
			}
		}
	}
}
