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
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := Parse(data, ParseOptions{})
		valid := json.Valid(data)
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
