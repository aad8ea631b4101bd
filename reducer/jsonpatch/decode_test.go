package jsonpatch

import (
	"errors"
	"testing"

	"github.com/agui-reducer/agui/reducer/jsontree"
)

func parse(t testing.TB, s string) jsontree.Value {
	t.Helper()
	v, err := jsontree.Parse([]byte(s), jsontree.ParseOptions{})
	if err != nil {
		t.Fatalf("Parse(%s): %v", s, err)
	}
	return v
}

func TestDecodeErrors(t *testing.T) {
	tests := []struct {
		patch string
		code  string
		index int
	}{
		{`{}`, CodeSequenceNotAnArray, -1},
		{`null`, CodeSequenceNotAnArray, -1},
		{`"add"`, CodeSequenceNotAnArray, -1},
		{`[1]`, CodeNotAnObject, 0},
		{`[null]`, CodeNotAnObject, 0},
		{`[[]]`, CodeNotAnObject, 0},
		{`[{"op":"test","path":"","value":1},"x"]`, CodeNotAnObject, 1},
		{`[{"op":"foo","path":"/a"}]`, CodeOpInvalid, 0},
		{`[{"path":"/a","value":1}]`, CodeOpInvalid, 0},
		{`[{"op":null,"path":"/a","value":1}]`, CodeOpInvalid, 0},
		{`[{"op":["add"],"path":"/a","value":1}]`, CodeOpInvalid, 0},
		{`[{"op":"_get","path":"/a"}]`, CodeOpInvalid, 0},
		{`[{"op":"toString","path":"/a"}]`, CodeOpInvalid, 0},
		{`[{"op":"ADD","path":"/a","value":1}]`, CodeOpInvalid, 0},
		{`[{"op":"foo"}]`, CodeOpInvalid, 0}, // op is checked before path
		{`[{"op":"add","value":1}]`, CodePathInvalid, 0},
		{`[{"op":"add","path":null,"value":1}]`, CodePathInvalid, 0},
		{`[{"op":"add","path":1,"value":1}]`, CodePathInvalid, 0},
		{`[{"op":"add","path":"a","value":1}]`, CodePathInvalid, 0},
		{`[{"op":"remove","path":" /a"}]`, CodePathInvalid, 0},
		{`[{"op":"move","path":"a"}]`, CodePathInvalid, 0}, // path before from
		{`[{"op":"move","path":"/a"}]`, CodeFromRequired, 0},
		{`[{"op":"copy","path":"/a","from":null}]`, CodeFromRequired, 0},
		{`[{"op":"copy","path":"/a","from":["/b"]}]`, CodeFromRequired, 0},
		{`[{"op":"add","path":"/a"}]`, CodeValueRequired, 0},
		{`[{"op":"replace","path":"/a"}]`, CodeValueRequired, 0},
		{`[{"op":"test","path":"/a"}]`, CodeValueRequired, 0},
		{`[{"op":"add","path":"/a","value":1},{"op":"add","path":"/b"}]`, CodeValueRequired, 1},
	}
	for _, tt := range tests {
		_, err := Decode(parse(t, tt.patch))
		var pe *Error
		if !errors.As(err, &pe) || pe.Code != tt.code || pe.Index != tt.index {
			t.Errorf("Decode(%s): err = %v, want %s at %d", tt.patch, err, tt.code, tt.index)
		}
	}
}

func TestDecode(t *testing.T) {
	ops, err := Decode(parse(t, `[
		{"op":"add","path":"/a","value":null},
		{"op":"remove","path":"","value":1,"from":"/x"},
		{"op":"move","from":"/a","path":"/b","extra":true},
		{"op":"copy","from":"","path":"/c"},
		{"op":"test","path":"/a","value":{"k":[1]}},
		{"op":"replace","path":"/~0","value":"v","from":2}
	]`))
	if err != nil {
		t.Fatal(err)
	}
	want := []Op{
		{Kind: "add", Path: "/a", HasValue: true},
		{Kind: "remove", Path: "", From: "/x", HasFrom: true, Value: jsontree.Number("1"), HasValue: true},
		{Kind: "move", Path: "/b", From: "/a", HasFrom: true},
		{Kind: "copy", Path: "/c", From: "", HasFrom: true},
		{Kind: "test", Path: "/a", Value: parse(t, `{"k":[1]}`), HasValue: true},
		{Kind: "replace", Path: "/~0", Value: "v", HasValue: true},
	}
	if len(ops) != len(want) {
		t.Fatalf("got %d ops, want %d", len(ops), len(want))
	}
	for i := range want {
		g, w := ops[i], want[i]
		if g.Kind != w.Kind || g.Path != w.Path || g.From != w.From || g.HasFrom != w.HasFrom ||
			g.HasValue != w.HasValue || !jsontree.Equal(g.Value, w.Value) {
			t.Errorf("op %d = %+v, want %+v", i, g, w)
		}
	}
}

// TestApplyValidatesOps checks that hand-built Ops get the same checks as
// decoded ones.
func TestApplyValidatesOps(t *testing.T) {
	tests := []struct {
		op   Op
		code string
	}{
		{Op{Kind: "nope", Path: "/a"}, CodeOpInvalid},
		{Op{Kind: "add", Path: "a", HasValue: true}, CodePathInvalid},
		{Op{Kind: "copy", Path: "/a"}, CodeFromRequired},
		{Op{Kind: "replace", Path: "/a"}, CodeValueRequired},
	}
	for _, tt := range tests {
		doc := parse(t, `{"a":1}`)
		ops := []Op{{Kind: "add", Path: "/b", Value: true, HasValue: true}, tt.op}
		got, err := Apply(doc, ops, nil)
		var pe *Error
		if !errors.As(err, &pe) || pe.Code != tt.code || pe.Index != 1 {
			t.Errorf("Apply(%+v): err = %v, want %s at 1", tt.op, err, tt.code)
		}
		if s := string(jsontree.AppendJSON(nil, got)); s != `{"a":1}` {
			t.Errorf("Apply(%+v) left %s", tt.op, s)
		}
	}
}
