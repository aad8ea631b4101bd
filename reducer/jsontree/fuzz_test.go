package jsontree

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"
)

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`null`, `{"a":[1,2,{"b":"c"}],"d":-1.5e3}`, `"\ud83d\ude00\ud83d"`, "\"\xe2\x82\"",
		`{"a":1,"a":2}`, `[[[[]]]]`, `1e400`, ` [ ] `, `{"":""}`, `"\u0000"`, `[1,]`, `01`,
	} {
		f.Add([]byte(s))
	}
	var reused Parser // one Parser across the inputs, as a stream's translator keeps
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := Parse(data, ParseOptions{})
		valid := json.Valid(data)
		if rv, rerr := reused.Parse(data, ParseOptions{}); (rerr == nil) != (err == nil) || err == nil && !Equal(rv, v) {
			t.Fatalf("Parser.Parse(%q) = %v, %v; Parse: %v, %v", data, rv, rerr, v, err)
		}
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("error %v is not a *SyntaxError", err)
			}
			if valid && se.Code != CodeTooDeep {
				t.Fatalf("Parse rejected valid JSON %q: %v", data, err)
			}
			return
		}
		if !valid {
			t.Fatalf("Parse accepted invalid JSON %q", data)
		}
		out := AppendJSON(nil, v)
		if !json.Valid(out) {
			t.Fatalf("AppendJSON wrote invalid JSON %q", out)
		}
		v2, err := Parse(out, ParseOptions{})
		if err != nil {
			t.Fatalf("re-Parse(%q): %v", out, err)
		}
		if !Equal(v, v2) {
			t.Fatalf("re-Parse(%q) is not Equal to the original", out)
		}
		if out2 := AppendJSON(nil, v2); !bytes.Equal(out, out2) {
			t.Fatalf("AppendJSON not stable: %q then %q", out, out2)
		}
		if c := Clone(v); !bytes.Equal(AppendJSON(nil, c), out) {
			t.Fatalf("Clone changed the encoding")
		}
	})
}

// FuzzScanObject checks that ScanObject agrees with Parse (see checkScan):
// same acceptance, same errors, and members that rebuild Parse's object.
// depth picks a small MaxDepth (0 means the default).
func FuzzScanObject(f *testing.F) {
	for _, s := range []string{
		`{}`, `{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":" token"}`,
		`{"a":[1,2,{"b":"c"}],"d":-1.5e3}`, `{"\ud83d\ude00\ud83d":"\u0041\n"}`, "{\"\xe2\x82\":\"\xff\"}",
		`{"a":1,"a":2}`, `{"k":[[[[]]]]}`, `{"k":1e400} `, ` {"":""}`, `[1,2]`, `"{}"`,
		`{"a":1,}`, `{"a" 1}`, `{"a":[}`, `[1,]`, `[ "a" , {"b":[2]} ]`, `[`, `[1 2]`, `[1,`, `{"k":{"x":[1,{"y":null}],"z":"\"]}"}}`, `{"a":"\u12"}`,
	} {
		f.Add([]byte(s), uint8(0))
		f.Add([]byte(s), uint8(3))
	}
	f.Fuzz(func(t *testing.T, data []byte, depth uint8) {
		checkScan(t, data, ParseOptions{MaxDepth: int(depth % 8)})
		if v, err := Parse(data, ParseOptions{}); err == nil {
			if s, ok := v.(string); ok {
				checkUnquote(t, bytes.TrimSpace(data), s)
			}
		}
	})
}

// FuzzStringEnd checks StringEnd against the byte loop it replaces, from
// every offset of the input, and HasPrefix against bytes.HasPrefix.
func FuzzStringEnd(f *testing.F) {
	for _, s := range []string{
		`TEXT_MESSAGE_CONTENT","messageId":"m1","delta":" token"}`, `a\"b"`, `a\\"`, "h\xc3\xa9llo, w\xc3\xb6rld\"",
		"tab\there\"", `ends in escape\`, `0123456789abcdef"`, `01234567\"9abcdef"`,
	} {
		f.Add([]byte(s), uint8(0))
	}
	f.Fuzz(func(t *testing.T, data []byte, cut uint8) {
		for i := 0; i <= len(data); i++ {
			checkStringEnd(t, data, i)
		}
		n := min(int(cut), len(data))
		prefix := string(data[:n])
		if cut%2 == 1 && n > 0 {
			prefix = prefix[:n-1] + string(prefix[n-1]^0x20)
		}
		if got, want := HasPrefix(data, prefix), bytes.HasPrefix(data, []byte(prefix)); got != want {
			t.Fatalf("HasPrefix(%q, %q) = %v, want %v", data, prefix, got, want)
		}
	})
}
