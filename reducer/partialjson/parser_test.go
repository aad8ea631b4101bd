package partialjson

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/agui-reducer/agui/reducer/jsontree"
)

// step is one Write (or Close) and the live value expected after it, as
// encode renders it.
type step struct {
	write string
	close bool
	want  string
}

func w(s, want string) step   { return step{write: s, want: want} }
func closed(want string) step { return step{close: true, want: want} }

func TestLiveValue(t *testing.T) {
	tests := []struct {
		name     string
		opt      Options
		steps    []step
		err      bool // Err is set at the end
		complete bool // Complete at the end
	}{
		{name: "nothing", steps: []step{w("", "none"), w(" \n\t\r", "none")}},
		{name: "nothing closed", steps: []step{w(" ", "none"), closed("none")}, err: true},
		{name: "open string value", steps: []step{w(`{"query": "te`, `{"query":"te"}`), w(`st`, `{"query":"test"}`), w(`"}`, `{"query":"test"}`)}, complete: true},
		{name: "number waits", steps: []step{w(`{"a":1`, `{}`), w(`2`, `{}`), w(`,`, `{"a":12}`)}},
		{name: "number ended by brace", steps: []step{w(`{"a":-1.5e+3`, `{}`), w(`}`, `{"a":-1.5e+3}`)}, complete: true},
		{name: "number ended by space", steps: []step{w(`[0 `, `[0]`), w(`]`, `[0]`)}, complete: true},
		{name: "partial key", steps: []step{w(`{"ke`, `{}`), w(`y"`, `{}`), w(` :`, `{}`), w(` `, `{}`), w(`"`, `{"key":""}`)}},
		{name: "partial literal", steps: []step{w(`[1,2,tr`, `[1,2]`), w(`ue`, `[1,2,true]`), w(`,fals`, `[1,2,true]`), w(`e,nul`, `[1,2,true,false]`), w(`l]`, `[1,2,true,false,null]`)}, complete: true},
		{name: "split unicode escape", steps: []step{w(`{"s":"\u00`, `{"s":""}`), w(`e9"}`, `{"s":"é"}`)}, complete: true},
		{name: "split backslash", steps: []step{w(`["a\`, `["a"]`), w(`n`, `["a\n"]`), w(`"]`, `["a\n"]`)}, complete: true},
		{name: "surrogate pair across writes", steps: []step{w(`["x\ud83d`, `["x"]`), w(`\ude00`, `["x😀"]`), w(`"]`, `["x😀"]`)}, complete: true},
		{name: "surrogate pair split inside low", steps: []step{w(`["\ud83d\u`, `[""]`), w(`de`, `[""]`), w(`00y"]`, `["😀y"]`)}, complete: true},
		{name: "unpaired high then text", steps: []step{w(`["\ud83d`, `[""]`), w(`x"]`, `["�x"]`)}, complete: true},
		{name: "unpaired high at end", steps: []step{w(`["\uD83D"]`, `["�"]`)}, complete: true},
		{name: "unpaired high then escape", steps: []step{w(`["\ud83d\`, `[""]`), w(`n"]`, `["�\n"]`)}, complete: true},
		{name: "high high low", steps: []step{w(`["\ud83d\ud83d`, `["�"]`), w(`\ude00"]`, `["�😀"]`)}, complete: true},
		{name: "lone low", steps: []step{w(`["\ude00"]`, `["�"]`)}, complete: true},
		{name: "split UTF-8", steps: []step{w("[\"\xf0\x9f", `[""]`), w("\x98", `[""]`), w("\x80\"]", `["😀"]`)}, complete: true},
		{name: "invalid UTF-8", steps: []step{w("[\"a\xffb\xe2\x82\"]", `["a�b��"]`)}, complete: true},
		{name: "nested", steps: []step{
			w(`{"a":[{"b":[1,{"c":"x`, `{"a":[{"b":[1,{"c":"x"}]}]}`),
			w(`"}],"d":[[]`, `{"a":[{"b":[1,{"c":"x"}],"d":[[]]}]}`),
			w(`]}]}`, `{"a":[{"b":[1,{"c":"x"}],"d":[[]]}]}`),
		}, complete: true},
		{name: "whitespace everywhere", steps: []step{w(" \t{ \"a\" :\n[ 1 , \"x\" ] ,\r\n\"b\" : { } , \"c\" : null } \n", `{"a":[1,"x"],"b":{},"c":null}`)}, complete: true},
		{name: "duplicate key keeps position", steps: []step{w(`{"a":1,"b":2,"a":[`, `{"a":[],"b":2}`), w(`3]}`, `{"a":[3],"b":2}`)}, complete: true},
		{name: "pointer escapes", steps: []step{w(`{"a/b":{"c~d":"x"}}`, `{"a/b":{"c~d":"x"}}`)}, complete: true},
		{name: "all escapes", steps: []step{w(`["\"\\\/\b\f\n\r\t\u0041\u00e9\u4e2d"]`, `["\"\\/\b\f\n\r\tAé中"]`)}, complete: true},
		{name: "top-level number", steps: []step{w(`12`, `none`), w(`3`, `none`), closed(`123`)}, complete: true},
		{name: "top-level number and space", steps: []step{w(`12 `, `12`), w(" \n", `12`), closed(`12`)}, complete: true},
		{name: "top-level incomplete number", steps: []step{w(`1.`, `none`), closed(`none`)}, err: true},
		{name: "top-level string", steps: []step{w(`"ab`, `"ab"`), w(`c"`, `"abc"`)}, complete: true},
		{name: "top-level literal", steps: []step{w(`nul`, `none`), w(`l`, `null`), closed(`null`)}, complete: true},
		{name: "empty containers", steps: []step{w(`[`, `[]`), w(`{`, `[{}]`), w(`}`, `[{}]`), w(`,[]]`, `[{},[]]`)}, complete: true},

		{name: "bad value keeps last good", steps: []step{w(`{"a":1,"b":x`, `{"a":1}`), w(`1}`, `{"a":1}`)}, err: true},
		{name: "trailing garbage", steps: []step{w(`[1,2]`, `[1,2]`), w(` x`, `[1,2]`)}, err: true, complete: true},
		{name: "second top-level value", steps: []step{w(`1 2`, `1`)}, err: true, complete: true},
		{name: "number ended by wrong bracket", steps: []step{w(`[1}`, `[]`)}, err: true},
		{name: "number ended by letter", steps: []step{w(`[1x`, `[]`)}, err: true},
		{name: "leading zero", steps: []step{w(`[01]`, `[]`)}, err: true},
		{name: "bad number", steps: []step{w(`[-]`, `[]`)}, err: true},
		{name: "missing colon", steps: []step{w(`{"a" 1}`, `{}`)}, err: true},
		{name: "control character", steps: []step{w("[\"ab\x01\"]", `["ab"]`)}, err: true},
		{name: "bad escape", steps: []step{w(`["a\q"]`, `["a"]`)}, err: true},
		{name: "bad hex", steps: []step{w(`["\u00g0"]`, `[""]`)}, err: true},
		{name: "bad literal", steps: []step{w(`[tx`, `[]`)}, err: true},
		{name: "writes after error ignored", steps: []step{w(`[1,`, `[1]`), w(`x`, `[1]`), w(`2]`, `[1]`), closed(`[1]`)}, err: true},
		{name: "comma before close", steps: []step{w(`[1,]`, `[1]`)}, err: true},
		{name: "single quotes", steps: []step{w(`{'a':1}`, `{}`)}, err: true},
		{name: "close inside string", steps: []step{w(`{"a":"b`, `{"a":"b"}`), closed(`{"a":"b"}`)}, err: true},
		{name: "close after nested number", steps: []step{w(`{"a":1`, `{}`), closed(`{}`)}, err: true},
		{name: "depth within limit", opt: Options{MaxDepth: 3}, steps: []step{w(`[[[1]]]`, `[[[1]]]`)}, complete: true},
		{name: "depth over limit", opt: Options{MaxDepth: 3}, steps: []step{w(`[[{"a":[`, `[[{}]]`)}, err: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := New(tt.opt)
			var r replayer
			emit := func(e Edit) {
				if err := r.apply(e); err != nil {
					t.Fatalf("edit %+v: %v", e, err)
				}
			}
			var input strings.Builder
			wasClosed := false
			for i, s := range tt.steps {
				if s.close {
					p.Close(emit)
					wasClosed = true
				} else {
					p.Write(s.write, emit)
					input.WriteString(s.write)
				}
				got := encode(p.Value())
				if got != s.want {
					t.Errorf("step %d: Value = %s, want %s", i, got, s.want)
				}
				if replayed := encode(r.root, r.present); replayed != got {
					t.Errorf("step %d: replayed edits = %s, Value = %s", i, replayed, got)
				}
				ref, failed := refEncode(input.String(), wasClosed, tt.opt.MaxDepth)
				if ref != s.want {
					t.Errorf("step %d: reference = %s, want %s", i, ref, s.want)
				}
				if failed != (p.Err() != nil) {
					t.Errorf("step %d: Err = %v, reference failed: %v", i, p.Err(), failed)
				}
			}
			if err := p.Err(); (err != nil) != tt.err {
				t.Errorf("Err = %v, want error: %v", err, tt.err)
			}
			if got := p.Complete(); got != tt.complete {
				t.Errorf("Complete = %v, want %v", got, tt.complete)
			}
		})
	}
}

func TestEdits(t *testing.T) {
	tests := []struct {
		name   string
		writes []string
		want   []Edit
	}{
		{
			name:   "object",
			writes: []string{`{"a/b": "x`, `y\u00`, `e9", "n": [1, {"~": tru`, `e}]}`},
			want: []Edit{
				{Op: Replace, Path: "", Value: jsontree.NewObject(0)},
				{Op: Add, Path: "/a~1b", Value: ""},
				{Op: Append, Path: "/a~1b", Text: "x"},
				{Op: Append, Path: "/a~1b", Text: "y"},
				{Op: Append, Path: "/a~1b", Text: "é"},
				{Op: Add, Path: "/n", Value: &jsontree.Array{}},
				{Op: Add, Path: "/n/0", Value: jsontree.Number("1")},
				{Op: Add, Path: "/n/1", Value: jsontree.NewObject(0)},
				{Op: Add, Path: "/n/1/~0", Value: true},
			},
		},
		{
			name:   "root string",
			writes: []string{`"ab`, `\n`, `"`},
			want: []Edit{
				{Op: Replace, Path: "", Value: ""},
				{Op: Append, Path: "", Text: "ab"},
				{Op: Append, Path: "", Text: "\n"},
			},
		},
		{
			name:   "duplicate key",
			writes: []string{`{"k":1,"k":{}}`},
			want: []Edit{
				{Op: Replace, Path: "", Value: jsontree.NewObject(0)},
				{Op: Add, Path: "/k", Value: jsontree.Number("1")},
				{Op: Add, Path: "/k", Value: jsontree.NewObject(0)},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var p Parser // the zero value is ready to use
			var got []Edit
			for _, s := range tt.writes {
				p.Write(s, func(e Edit) { got = append(got, e) })
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %d edits %+v, want %d", len(got), got, len(tt.want))
			}
			for i := range got {
				g, wt := got[i], tt.want[i]
				if g.Op != wt.Op || g.Path != wt.Path || g.Text != wt.Text || encode(g.Value, true) != encode(wt.Value, true) {
					t.Errorf("edit %d = %v %q %s %q, want %v %q %s %q", i, g.Op, g.Path, encode(g.Value, true), g.Text, wt.Op, wt.Path, encode(wt.Value, true), wt.Text)
				}
			}
		})
	}
}

// TestEditContainersStayEmpty checks that containers handed out in edits
// are not the parser's own: they must not fill up behind the consumer.
func TestEditContainersStayEmpty(t *testing.T) {
	p := New(Options{})
	var added []jsontree.Value
	p.Write(`{"a":[1,[2],{"b":3}],"c":{"d":[]}}`, func(e Edit) {
		if e.Op != Append {
			added = append(added, e.Value)
		}
	})
	for i, v := range added {
		if err := checkFresh(v); err != nil {
			t.Errorf("edit %d: %v", i, err)
		}
	}
}

// TestValueIsCopy checks that Value does not share containers with the
// parser or with earlier results.
func TestValueIsCopy(t *testing.T) {
	p := New(Options{})
	p.Write(`{"a":[1],"b":{"c":"x`, nil)
	v1, _ := p.Value()
	v1.(*jsontree.Object).Set("z", true)
	a, _ := v1.(*jsontree.Object).Get("a")
	a.(*jsontree.Array).Elems = nil
	v2, _ := p.Value()
	if got, want := encode(v2, true), `{"a":[1],"b":{"c":"x"}}`; got != want {
		t.Errorf("after mutating a copy, Value = %s, want %s", got, want)
	}
}

func TestSyntaxError(t *testing.T) {
	p := New(Options{})
	p.Write(`{"a":`, nil)
	p.Write(` [1, x]`, nil)
	var se *SyntaxError
	if !errors.As(p.Err(), &se) {
		t.Fatalf("Err = %v, want *SyntaxError", p.Err())
	}
	if se.Offset != 10 {
		t.Errorf("Offset = %d, want 10", se.Offset)
	}
	if want := `partialjson: invalid character 'x' looking for beginning of value at offset 10`; se.Error() != want {
		t.Errorf("Error() = %q, want %q", se.Error(), want)
	}
}

// TestAppendPerWrite checks that a string's text arrives as one Append per
// Write, however many bytes the write holds.
func TestAppendPerWrite(t *testing.T) {
	p := New(Options{})
	var ops []EditOp
	emit := func(e Edit) { ops = append(ops, e.Op) }
	p.Write(`["`, emit)
	p.Write(strings.Repeat(`ab\n\u00e9`, 100), emit)
	p.Write(strings.Repeat(`c`, 100), emit)
	if want := []EditOp{Replace, Add, Append, Append}; !reflect.DeepEqual(ops, want) {
		t.Errorf("ops = %v, want %v", ops, want)
	}
}

// TestDeepNesting checks that the default depth limit is enforced without
// exhausting the stack, and that Value copes with the deepest documents.
func TestDeepNesting(t *testing.T) {
	p := New(Options{})
	n := 0
	p.Write(strings.Repeat(`[`, DefaultMaxDepth), func(Edit) { n++ })
	if p.Err() != nil || n != DefaultMaxDepth {
		t.Fatalf("after %d '[': Err = %v, %d edits", DefaultMaxDepth, p.Err(), n)
	}
	if _, ok := p.Value(); !ok {
		t.Fatal("no value")
	}
	p.Write(`[`, nil)
	if p.Err() == nil {
		t.Fatal("no error beyond the maximum depth")
	}
}

func TestWriteAfterClose(t *testing.T) {
	p := New(Options{})
	p.Write(`[1]`, nil)
	p.Close(nil)
	p.Write(`x`, nil)
	p.Close(nil)
	if p.Err() != nil || encode(p.Value()) != `[1]` {
		t.Errorf("Err = %v, Value = %s", p.Err(), encode(p.Value()))
	}
}
