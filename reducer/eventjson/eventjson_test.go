package eventjson

import (
	"testing"

	"github.com/agui-reducer/agui/reducer/jsontree"
)

func TestLimitsDefaults(t *testing.T) {
	got := Limits{MaxDepth: 7, MaxFieldBytes: -1}.Defaults()
	want := Limits{MaxEventBytes: DefaultMaxEventBytes, MaxDepth: 7, MaxFieldBytes: DefaultMaxFieldBytes}
	if got != want {
		t.Fatalf("Defaults() = %+v, want %+v", got, want)
	}
}

func TestParseObject(t *testing.T) {
	tests := []struct {
		in, code string
		depth    int
	}{
		{in: `{"type":"X"}`},
		{in: `{"type":`, code: "bad_json"},
		{in: `[1]`, code: "bad_event"},
		{in: `{"a":{"b":{}}}`, depth: 2, code: "bad_json"},
	}
	for _, tt := range tests {
		obj, err := ParseObject([]byte(tt.in), tt.depth)
		switch {
		case tt.code == "" && (err != nil || obj == nil):
			t.Errorf("ParseObject(%s) = %v, %v; want an object", tt.in, obj, err)
		case tt.code != "" && (err == nil || err.Code != tt.code):
			t.Errorf("ParseObject(%s) error = %v; want code %s", tt.in, err, tt.code)
		}
	}
}

// TestFields checks each reader, and that the first problem is kept.
func TestFields(t *testing.T) {
	obj, err := ParseObject([]byte(`{"s":"a","n":null,"i":1,"a":[],"o":{},"metadata":null}`), 0)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		read func(d *Fields) any
		want any
		err  string
	}{
		{"Str", func(d *Fields) any { return d.Str("s", true) }, "a", ""},
		{"Str absent, required", func(d *Fields) any { return d.Str("x", true) }, "", "T: x is required"},
		{"Str null, optional", func(d *Fields) any { return d.Str("n", false) }, "", ""},
		{"Str not a string", func(d *Fields) any { return d.Str("i", false) }, "", "T: i must be a string"},
		{"OptStr null", func(d *Fields) any { s, ok := d.OptStr("n"); return [2]any{s, ok} }, [2]any{"", false}, ""},
		{"PresentStr null", func(d *Fields) any { s, ok := d.PresentStr("n"); return [2]any{s, ok} }, [2]any{"", false}, "T: n must be a string"},
		{"PresentStr", func(d *Fields) any { s, ok := d.PresentStr("s"); return [2]any{s, ok} }, [2]any{"a", true}, ""},
		{"Array", func(d *Fields) any { return d.Array("a", true) != nil }, true, ""},
		{"Array absent, required", func(d *Fields) any { return d.Array("x", true) == nil }, true, "T: x is required"},
		{"Array not an array", func(d *Fields) any { return d.Array("o", false) == nil }, true, "T: o must be an array"},
		{"Object", func(d *Fields) any { return d.Object("o") != nil }, true, ""},
		{"Object not an object", func(d *Fields) any { return d.Object("s") == nil }, true, "T: s must be an object"},
		{"Metadata null", func(d *Fields) any { return d.Metadata() == nil }, true, "T: metadata must be an object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := &Fields{Obj: obj, Type: "T"}
			if got := tt.read(d); got != tt.want {
				t.Errorf("read = %v, want %v", got, tt.want)
			}
			msg := ""
			if d.Err != nil {
				if d.Err.Code != "bad_event" {
					t.Errorf("code = %s, want bad_event", d.Err.Code)
				}
				msg = d.Err.Message
			}
			if msg != tt.err {
				t.Errorf("problem = %q, want %q", msg, tt.err)
			}
		})
	}
	d := &Fields{Obj: jsontree.NewObject(0)}
	d.Str("a", true)
	d.Str("b", true)
	if d.Err == nil || d.Err.Message != "event: a is required" {
		t.Errorf("first problem = %v, want event: a is required", d.Err)
	}
}
