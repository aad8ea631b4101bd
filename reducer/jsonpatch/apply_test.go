package jsonpatch

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/agui-reducer/agui/reducer/jsontree"
)

type applyCase struct {
	name  string
	doc   string
	patch string
	want  string // resulting document, byte for byte (key order matters)
	code  string // expected error code instead
	index int    // expected failing op, when code is set
}

// runCase applies c and checks the result, including that a failed patch
// leaves the document byte-identical.
func runCase(t *testing.T, c applyCase) {
	t.Helper()
	doc := parse(t, c.doc)
	before := string(jsontree.AppendJSON(nil, doc))
	ops, err := Decode(parse(t, c.patch))
	if err != nil {
		t.Fatalf("%s: Decode: %v", c.name, err)
	}
	got, err := Apply(doc, ops, nil)
	if c.code != "" {
		var pe *Error
		if !errors.As(err, &pe) || pe.Code != c.code || pe.Index != c.index {
			t.Errorf("%s: err = %v, want %s at op %d (doc now %s)", c.name, err, c.code, c.index, jsontree.AppendJSON(nil, got))
			return
		}
		if after := string(jsontree.AppendJSON(nil, got)); after != before {
			t.Errorf("%s: failed patch changed the document:\n got %s\nwant %s", c.name, after, before)
		}
		if after := string(jsontree.AppendJSON(nil, doc)); after != before {
			t.Errorf("%s: failed patch changed the original root:\n got %s\nwant %s", c.name, after, before)
		}
		return
	}
	if err != nil {
		t.Errorf("%s: %v", c.name, err)
		return
	}
	if s := string(jsontree.AppendJSON(nil, got)); s != c.want {
		t.Errorf("%s:\n got %s\nwant %s", c.name, s, c.want)
	}
}

func TestApplyRoot(t *testing.T) {
	for _, c := range []applyCase{
		{name: "add root", doc: `{"a":1}`, patch: `[{"op":"add","path":"","value":[1]}]`, want: `[1]`},
		{name: "replace root", doc: `[1]`, patch: `[{"op":"replace","path":"","value":{"b":2}}]`, want: `{"b":2}`},
		{name: "replace root with scalar", doc: `{}`, patch: `[{"op":"replace","path":"","value":"s"}]`, want: `"s"`},
		{name: "remove root", doc: `{"a":1}`, patch: `[{"op":"remove","path":""}]`, want: `null`},
		{name: "test root", doc: `{"a":1,"b":[2]}`, patch: `[{"op":"test","path":"","value":{"b":[2.0],"a":1}}]`, want: `{"a":1,"b":[2]}`},
		{name: "test root fails", doc: `{"a":1}`, patch: `[{"op":"test","path":"","value":{"a":2}}]`, code: CodeTestFailed},
		{name: "move to root", doc: `{"a":{"x":1},"b":2}`, patch: `[{"op":"move","from":"/a","path":""}]`, want: `{"x":1}`},
		{name: "copy to root", doc: `{"a":[1,{"y":2}]}`, patch: `[{"op":"copy","from":"/a/1","path":""}]`, want: `{"y":2}`},
		{name: "copy root to root", doc: `{"a":1}`, patch: `[{"op":"copy","from":"","path":""}]`, want: `{"a":1}`},
		{name: "move to root from missing", doc: `{"a":1}`, patch: `[{"op":"move","from":"/b","path":""}]`, code: CodeFromUnresolvable},
		{name: "root ops then more", doc: `{"a":1}`, patch: `[{"op":"replace","path":"","value":{"n":[]}},{"op":"add","path":"/n/-","value":1}]`, want: `{"n":[1]}`},
		{name: "root replaced then failure", doc: `{"a":1}`, patch: `[{"op":"replace","path":"","value":{"n":[]}},{"op":"remove","path":"/a"}]`, code: CodePathUnresolvable, index: 1},
		{name: "moved root mutated then failure", doc: `{"a":{"x":[1]}}`, patch: `[{"op":"move","from":"/a","path":""},{"op":"add","path":"/x/0","value":0},{"op":"test","path":"/x/0","value":9}]`, code: CodeTestFailed, index: 2},

		// Scalar and null documents.
		{name: "scalar doc replace root", doc: `5`, patch: `[{"op":"replace","path":"","value":6}]`, want: `6`},
		{name: "null doc add root", doc: `null`, patch: `[{"op":"add","path":"","value":{}}]`, want: `{}`},
		{name: "null doc add member", doc: `null`, patch: `[{"op":"add","path":"/a","value":1}]`, code: CodePathUnresolvable},
		{name: "number doc remove member", doc: `0`, patch: `[{"op":"remove","path":"/a"}]`, code: CodePathUnresolvable},
		{name: "string doc test index", doc: `"abc"`, patch: `[{"op":"test","path":"/0","value":"a"}]`, code: CodePathUnresolvable},
		{name: "test root of scalar", doc: `"abc"`, patch: `[{"op":"test","path":"","value":"abc"}]`, want: `"abc"`},
	} {
		runCase(t, c)
	}
}

func TestApplyObjects(t *testing.T) {
	doc := `{"a":1,"b":{"c":[1,2]},"n":null,"s":"str","z":0}`
	for _, c := range []applyCase{
		{name: "add new appends", doc: doc, patch: `[{"op":"add","path":"/new","value":{"k":1}}]`, want: `{"a":1,"b":{"c":[1,2]},"n":null,"s":"str","z":0,"new":{"k":1}}`},
		{name: "add existing keeps position", doc: doc, patch: `[{"op":"add","path":"/a","value":9}]`, want: `{"a":9,"b":{"c":[1,2]},"n":null,"s":"str","z":0}`},
		{name: "replace keeps position", doc: doc, patch: `[{"op":"replace","path":"/b","value":2}]`, want: `{"a":1,"b":2,"n":null,"s":"str","z":0}`},
		{name: "replace null member", doc: doc, patch: `[{"op":"replace","path":"/n","value":1}]`, want: `{"a":1,"b":{"c":[1,2]},"n":1,"s":"str","z":0}`},
		{name: "remove", doc: doc, patch: `[{"op":"remove","path":"/b"}]`, want: `{"a":1,"n":null,"s":"str","z":0}`},
		{name: "remove then add moves to end", doc: doc, patch: `[{"op":"remove","path":"/a"},{"op":"add","path":"/a","value":1}]`, want: `{"b":{"c":[1,2]},"n":null,"s":"str","z":0,"a":1}`},
		{name: "move to itself moves to end", doc: doc, patch: `[{"op":"move","from":"/a","path":"/a"}]`, want: `{"b":{"c":[1,2]},"n":null,"s":"str","z":0,"a":1}`},
		{name: "add null value", doc: doc, patch: `[{"op":"add","path":"/x","value":null}]`, want: `{"a":1,"b":{"c":[1,2]},"n":null,"s":"str","z":0,"x":null}`},
		{name: "nested add", doc: doc, patch: `[{"op":"add","path":"/b/d","value":true}]`, want: `{"a":1,"b":{"c":[1,2],"d":true},"n":null,"s":"str","z":0}`},
		{name: "empty key", doc: `{"":{"":1}}`, patch: `[{"op":"replace","path":"//","value":2}]`, want: `{"":{"":2}}`},
		{name: "add empty key", doc: `{}`, patch: `[{"op":"add","path":"/","value":2}]`, want: `{"":2}`},
		{name: "escapes", doc: `{"a/b":1,"m~n":2,"~1":3}`, patch: `[{"op":"replace","path":"/a~1b","value":10},{"op":"replace","path":"/m~0n","value":20},{"op":"replace","path":"/~01","value":30}]`, want: `{"a/b":10,"m~n":20,"~1":30}`},
		{name: "invalid escape left alone", doc: `{"~2":1,"~":2}`, patch: `[{"op":"replace","path":"/~2","value":3},{"op":"replace","path":"/~","value":4}]`, want: `{"~2":3,"~":4}`},
		{name: "keys that are numbers", doc: `{"0":{"1":1}}`, patch: `[{"op":"replace","path":"/0/1","value":2},{"op":"add","path":"/01","value":3}]`, want: `{"0":{"1":2},"01":3}`},
		{name: "constructor alone is fine", doc: `{}`, patch: `[{"op":"add","path":"/constructor","value":{}},{"op":"add","path":"/constructor/x","value":1}]`, want: `{"constructor":{"x":1}}`},
		{name: "inherited names are absent", doc: `{}`, patch: `[{"op":"replace","path":"/toString","value":1}]`, code: CodePathUnresolvable},

		{name: "replace missing", doc: doc, patch: `[{"op":"replace","path":"/x","value":1}]`, code: CodePathUnresolvable},
		{name: "remove missing", doc: doc, patch: `[{"op":"remove","path":"/x"}]`, code: CodePathUnresolvable},
		{name: "add below missing", doc: doc, patch: `[{"op":"add","path":"/x/y","value":1}]`, code: CodePathCannotAdd},
		{name: "add two below missing", doc: doc, patch: `[{"op":"add","path":"/b/x/y","value":1}]`, code: CodePathCannotAdd},
		{name: "replace below missing", doc: doc, patch: `[{"op":"replace","path":"/x/y","value":1}]`, code: CodePathUnresolvable},
		{name: "test below missing", doc: doc, patch: `[{"op":"test","path":"/x/y","value":1}]`, code: CodePathUnresolvable},
		{name: "add below number", doc: doc, patch: `[{"op":"add","path":"/a/y","value":1}]`, code: CodePathUnresolvable},
		{name: "add below null", doc: doc, patch: `[{"op":"add","path":"/n/y","value":1}]`, code: CodePathUnresolvable},
		{name: "add below string", doc: doc, patch: `[{"op":"add","path":"/s/0","value":1}]`, code: CodePathUnresolvable},
		{name: "add below zero", doc: doc, patch: `[{"op":"add","path":"/z/y","value":1}]`, code: CodePathUnresolvable},
		{name: "test missing", doc: doc, patch: `[{"op":"test","path":"/x","value":null}]`, code: CodeTestFailed},
		{name: "test null", doc: doc, patch: `[{"op":"test","path":"/n","value":null}]`, want: doc},
		{name: "test numbers by value", doc: doc, patch: `[{"op":"test","path":"/b/c","value":[1.0,2e0]}]`, want: doc},
		{name: "test fails", doc: doc, patch: `[{"op":"test","path":"/a","value":"1"}]`, code: CodeTestFailed},

		{name: "banned proto", doc: doc, patch: `[{"op":"add","path":"/__proto__","value":{}}]`, code: CodePathBanned},
		{name: "banned proto deep", doc: doc, patch: `[{"op":"add","path":"/b/__proto__/x","value":{}}]`, code: CodePathBanned},
		{name: "banned constructor prototype", doc: `{"constructor":{}}`, patch: `[{"op":"add","path":"/constructor/prototype","value":1}]`, code: CodePathBanned},
		{name: "constructor prototype on missing is cannot-add first", doc: `{}`, patch: `[{"op":"add","path":"/constructor/prototype","value":1}]`, code: CodePathCannotAdd},
		{name: "prototype alone is fine", doc: `{}`, patch: `[{"op":"add","path":"/prototype","value":1}]`, want: `{"prototype":1}`},
		{name: "banned test", doc: doc, patch: `[{"op":"test","path":"/__proto__","value":1}]`, code: CodePathBanned},
		{name: "banned from", doc: doc, patch: `[{"op":"copy","from":"/__proto__","path":"/x"}]`, code: CodePathBanned},
		{name: "missing before banned", doc: doc, patch: `[{"op":"copy","from":"/x/__proto__","path":"/y"}]`, code: CodeFromUnresolvable},
	} {
		runCase(t, c)
	}
}

func TestApplyArrays(t *testing.T) {
	doc := `{"l":[10,{"x":1},[5]]}`
	for _, c := range []applyCase{
		{name: "append with -", doc: doc, patch: `[{"op":"add","path":"/l/-","value":3}]`, want: `{"l":[10,{"x":1},[5],3]}`},
		{name: "insert first", doc: doc, patch: `[{"op":"add","path":"/l/0","value":3}]`, want: `{"l":[3,10,{"x":1},[5]]}`},
		{name: "insert at length", doc: doc, patch: `[{"op":"add","path":"/l/3","value":3}]`, want: `{"l":[10,{"x":1},[5],3]}`},
		{name: "insert past length", doc: doc, patch: `[{"op":"add","path":"/l/4","value":3}]`, code: CodeValueOutOfBounds},
		{name: "insert huge index", doc: doc, patch: `[{"op":"add","path":"/l/99999999999999999999","value":3}]`, code: CodeValueOutOfBounds},
		{name: "insert index that ~~ would wrap to 0", doc: doc, patch: `[{"op":"add","path":"/l/4294967296","value":3}]`, code: CodeValueOutOfBounds},
		{name: "insert leading zero", doc: doc, patch: `[{"op":"add","path":"/l/01","value":3}]`, want: `{"l":[10,3,{"x":1},[5]]}`},
		{name: "insert many leading zeros", doc: doc, patch: `[{"op":"add","path":"/l/0000000000000000000000002","value":3}]`, want: `{"l":[10,{"x":1},3,[5]]}`},
		{name: "insert empty token is 0", doc: doc, patch: `[{"op":"add","path":"/l/","value":3}]`, want: `{"l":[3,10,{"x":1},[5]]}`},
		{name: "insert non-integer", doc: doc, patch: `[{"op":"add","path":"/l/x","value":3}]`, code: CodePathIllegalArrayIndex},
		{name: "insert negative", doc: doc, patch: `[{"op":"add","path":"/l/-1","value":3}]`, code: CodePathIllegalArrayIndex},
		{name: "insert plus sign", doc: doc, patch: `[{"op":"add","path":"/l/+1","value":3}]`, code: CodePathIllegalArrayIndex},
		{name: "insert exponent", doc: doc, patch: `[{"op":"add","path":"/l/1e0","value":3}]`, code: CodePathIllegalArrayIndex},
		{name: "insert length", doc: doc, patch: `[{"op":"add","path":"/l/length","value":3}]`, code: CodePathIllegalArrayIndex},
		{name: "replace", doc: doc, patch: `[{"op":"replace","path":"/l/1","value":3}]`, want: `{"l":[10,3,[5]]}`},
		{name: "replace leading zero is unresolvable", doc: doc, patch: `[{"op":"replace","path":"/l/01","value":3}]`, code: CodePathUnresolvable},
		{name: "replace empty token is unresolvable", doc: doc, patch: `[{"op":"replace","path":"/l/","value":3}]`, code: CodePathUnresolvable},
		{name: "replace - is unresolvable", doc: doc, patch: `[{"op":"replace","path":"/l/-","value":3}]`, code: CodePathUnresolvable},
		{name: "replace past end", doc: doc, patch: `[{"op":"replace","path":"/l/3","value":3}]`, code: CodePathUnresolvable},
		{name: "replace non-integer is unresolvable first", doc: doc, patch: `[{"op":"replace","path":"/l/x","value":3}]`, code: CodePathUnresolvable},
		{name: "remove", doc: doc, patch: `[{"op":"remove","path":"/l/0"}]`, want: `{"l":[{"x":1},[5]]}`},
		{name: "remove last", doc: doc, patch: `[{"op":"remove","path":"/l/2"}]`, want: `{"l":[10,{"x":1}]}`},
		{name: "remove leading zero is unresolvable", doc: doc, patch: `[{"op":"remove","path":"/l/00"}]`, code: CodePathUnresolvable},
		{name: "remove -", doc: doc, patch: `[{"op":"remove","path":"/l/-"}]`, code: CodePathUnresolvable},
		{name: "remove huge", doc: doc, patch: `[{"op":"remove","path":"/l/99999999999999999999"}]`, code: CodePathUnresolvable},
		{name: "test", doc: doc, patch: `[{"op":"test","path":"/l/1","value":{"x":1}}]`, want: doc},
		{name: "test leading zero reads the element", doc: doc, patch: `[{"op":"test","path":"/l/01","value":{"x":1}}]`, want: doc},
		{name: "test empty token reads element 0", doc: doc, patch: `[{"op":"test","path":"/l/","value":10}]`, want: doc},
		{name: "test - fails", doc: doc, patch: `[{"op":"test","path":"/l/-","value":null}]`, code: CodeTestFailed},
		{name: "test past end fails", doc: doc, patch: `[{"op":"test","path":"/l/3","value":null}]`, code: CodeTestFailed},
		{name: "test huge fails", doc: doc, patch: `[{"op":"test","path":"/l/99999999999999999999","value":10}]`, code: CodeTestFailed},
		{name: "test non-integer", doc: doc, patch: `[{"op":"test","path":"/l/x","value":1}]`, code: CodePathIllegalArrayIndex},
		{name: "test through leading zero", doc: doc, patch: `[{"op":"test","path":"/l/01/x","value":1}]`, want: doc},
		{name: "add through leading zero", doc: doc, patch: `[{"op":"add","path":"/l/01/y","value":1}]`, code: CodePathCannotAdd},
		{name: "replace through leading zero", doc: doc, patch: `[{"op":"replace","path":"/l/01/x","value":1}]`, code: CodePathUnresolvable},
		{name: "copy through leading zero", doc: doc, patch: `[{"op":"copy","from":"/l/0","path":"/l/01/y"}]`, want: `{"l":[10,{"x":1,"y":10},[5]]}`},
		{name: "add through -", doc: doc, patch: `[{"op":"add","path":"/l/-/x","value":1}]`, code: CodePathCannotAdd},
		{name: "test through -", doc: doc, patch: `[{"op":"test","path":"/l/-/x","value":1}]`, code: CodePathUnresolvable},
		{name: "add through non-integer", doc: doc, patch: `[{"op":"add","path":"/l/x/y","value":1}]`, code: CodePathCannotAdd},
		{name: "test through non-integer", doc: doc, patch: `[{"op":"test","path":"/l/x/y","value":1}]`, code: CodePathIllegalArrayIndex},
		{name: "nested array", doc: doc, patch: `[{"op":"add","path":"/l/2/0","value":4},{"op":"replace","path":"/l/2/1","value":6}]`, want: `{"l":[10,{"x":1},[4,6]]}`},
		{name: "array root", doc: `[1,2]`, patch: `[{"op":"add","path":"/1","value":9},{"op":"remove","path":"/0"}]`, want: `[9,2]`},
	} {
		runCase(t, c)
	}
}

func TestApplyMoveCopy(t *testing.T) {
	doc := `{"a":{"x":1},"l":[0,1,2],"s":"str"}`
	for _, c := range []applyCase{
		{name: "move member", doc: doc, patch: `[{"op":"move","from":"/a","path":"/b"}]`, want: `{"l":[0,1,2],"s":"str","b":{"x":1}}`},
		{name: "move over existing keeps its position", doc: doc, patch: `[{"op":"move","from":"/s","path":"/a"}]`, want: `{"a":"str","l":[0,1,2]}`},
		{name: "move into array", doc: doc, patch: `[{"op":"move","from":"/s","path":"/l/1"}]`, want: `{"a":{"x":1},"l":[0,"str",1,2]}`},
		{name: "move within array", doc: doc, patch: `[{"op":"move","from":"/l/0","path":"/l/2"}]`, want: `{"a":{"x":1},"l":[1,2,0],"s":"str"}`},
		{name: "move within array with -", doc: doc, patch: `[{"op":"move","from":"/l/0","path":"/l/-"}]`, want: `{"a":{"x":1},"l":[1,2,0],"s":"str"}`},
		{name: "move to index past end appends", doc: doc, patch: `[{"op":"move","from":"/s","path":"/l/10"}]`, want: `{"a":{"x":1},"l":[0,1,2,"str"]}`},
		{name: "move to huge index", doc: doc, patch: `[{"op":"move","from":"/s","path":"/l/99999999999999999999"}]`, code: CodeValueOutOfBounds},
		{name: "move to non-integer index", doc: doc, patch: `[{"op":"move","from":"/s","path":"/l/x"}]`, code: CodePathIllegalArrayIndex},
		{name: "move into own child", doc: doc, patch: `[{"op":"move","from":"/a","path":"/a/y"}]`, code: CodePathUnresolvable},
		{name: "move into own grandchild", doc: `{"a":{"b":{}}}`, patch: `[{"op":"move","from":"/a","path":"/a/b/c"}]`, code: CodePathUnresolvable},
		{name: "move root into child", doc: doc, patch: `[{"op":"move","from":"","path":"/z"}]`, code: CodePathUnresolvable},
		{name: "move into own child that the removal shifted away", doc: `{"l":[{"a":0},{"k":2}]}`, patch: `[{"op":"move","from":"/l/0","path":"/l/0/x"}]`, want: `{"l":[{"k":2,"x":{"a":0}}]}`},
		{name: "move below a scalar element", doc: `{"l":[1,{"k":2}]}`, patch: `[{"op":"move","from":"/l/0","path":"/l/0/x"}]`, code: CodePathUnresolvable},
		{name: "move whose destination turns into an array drops the value", doc: `{"l":[0,{},[5]]}`, patch: `[{"op":"move","from":"/l/0","path":"/l/1/foo"}]`, want: `{"l":[{},[5]]}`},
		{name: "move whose destination parent vanishes", doc: `{"l":[0,{}]}`, patch: `[{"op":"move","from":"/l/0","path":"/l/1/foo"}]`, code: CodePathUnresolvable},
		{name: "move whose destination parent becomes scalar", doc: `{"l":[{},5]}`, patch: `[{"op":"move","from":"/l/0","path":"/l/0/k"}]`, code: CodePathUnresolvable},
		{name: "move from missing", doc: doc, patch: `[{"op":"move","from":"/x","path":"/b"}]`, code: CodeFromUnresolvable},
		{name: "move from leading zero", doc: doc, patch: `[{"op":"move","from":"/l/01","path":"/b"}]`, code: CodeFromUnresolvable},
		{name: "move from -", doc: doc, patch: `[{"op":"move","from":"/l/-","path":"/b"}]`, code: CodeFromUnresolvable},
		{name: "move from without slash", doc: doc, patch: `[{"op":"move","from":"a","path":"/b"}]`, code: CodeFromUnresolvable},
		{name: "move from below scalar", doc: doc, patch: `[{"op":"move","from":"/s/0","path":"/b"}]`, code: CodeFromUnresolvable},
		{name: "move to below missing", doc: doc, patch: `[{"op":"move","from":"/s","path":"/x/y"}]`, code: CodePathUnresolvable},
		{name: "from checked before destination index", doc: doc, patch: `[{"op":"move","from":"/x","path":"/l/x"}]`, code: CodeFromUnresolvable},
		{name: "copy member", doc: doc, patch: `[{"op":"copy","from":"/a","path":"/b"}]`, want: `{"a":{"x":1},"l":[0,1,2],"s":"str","b":{"x":1}}`},
		{name: "copy is deep", doc: doc, patch: `[{"op":"copy","from":"/a","path":"/b"},{"op":"add","path":"/b/y","value":2}]`, want: `{"a":{"x":1},"l":[0,1,2],"s":"str","b":{"x":1,"y":2}}`},
		{name: "copy into own child", doc: doc, patch: `[{"op":"copy","from":"/a","path":"/a/self"}]`, want: `{"a":{"x":1,"self":{"x":1}},"l":[0,1,2],"s":"str"}`},
		{name: "copy root into child", doc: `{"a":1}`, patch: `[{"op":"copy","from":"","path":"/b"}]`, want: `{"a":1,"b":{"a":1}}`},
		{name: "copy into array", doc: doc, patch: `[{"op":"copy","from":"/l/2","path":"/l/0"}]`, want: `{"a":{"x":1},"l":[2,0,1,2],"s":"str"}`},
		{name: "copy to index past end appends", doc: doc, patch: `[{"op":"copy","from":"/l/0","path":"/l/7"}]`, want: `{"a":{"x":1},"l":[0,1,2,0],"s":"str"}`},
		{name: "copy from missing", doc: doc, patch: `[{"op":"copy","from":"/l/3","path":"/b"}]`, code: CodeFromUnresolvable},
		{name: "copy from empty token", doc: doc, patch: `[{"op":"copy","from":"/l/","path":"/b"}]`, code: CodeFromUnresolvable},
		{name: "copy to below number", doc: doc, patch: `[{"op":"copy","from":"/s","path":"/l/0/x"}]`, code: CodePathUnresolvable},
	} {
		runCase(t, c)
	}
}

// TestApplyAtomic runs patches that make many kinds of changes and then
// fail at their last operation; the document must come back byte for byte.
func TestApplyAtomic(t *testing.T) {
	var big strings.Builder
	big.WriteString(`{"obj":{`)
	for i := range 20 {
		if i > 0 {
			big.WriteByte(',')
		}
		fmt.Fprintf(&big, `"k%d":%d`, i, i)
	}
	big.WriteString(`},"arr":[0,1,2,3,4],"small":{"a":1,"b":2,"c":3},"deep":{"x":{"y":[{"z":1}]}}}`)
	doc := big.String()
	steps := []string{
		`{"op":"add","path":"/obj/k3","value":"over"}`,
		`{"op":"remove","path":"/obj/k0"}`,
		`{"op":"add","path":"/obj/k0","value":0}`,
		`{"op":"remove","path":"/obj/k10"}`,
		`{"op":"add","path":"/obj/new","value":{"n":[1]}}`,
		`{"op":"add","path":"/obj/new/n/-","value":2}`,
		`{"op":"replace","path":"/small/b","value":[]}`,
		`{"op":"remove","path":"/small/a"}`,
		`{"op":"add","path":"/small/a","value":"back"}`,
		`{"op":"move","from":"/small/c","path":"/small/d"}`,
		`{"op":"add","path":"/arr/0","value":"first"}`,
		`{"op":"remove","path":"/arr/3"}`,
		`{"op":"replace","path":"/arr/1","value":"r"}`,
		`{"op":"move","from":"/arr/0","path":"/arr/-"}`,
		`{"op":"copy","from":"/deep","path":"/arr/2"}`,
		`{"op":"add","path":"/arr/2/x/y/0/z","value":2}`,
		`{"op":"move","from":"/deep/x/y/0","path":"/obj/moved"}`,
		`{"op":"copy","from":"/obj","path":"/deep/x/copy"}`,
		`{"op":"remove","path":"/deep/x/copy/k5"}`,
		`{"op":"test","path":"/arr/2/x/y/0/z","value":2}`,
		`{"op":"replace","path":"","value":{"whole":"new"}}`,
		`{"op":"add","path":"/whole2","value":1}`,
	}
	failures := []struct{ op, code string }{
		{`{"op":"test","path":"/whole","value":"old"}`, CodeTestFailed},
		{`{"op":"remove","path":"/nothing"}`, CodePathUnresolvable},
		{`{"op":"add","path":"/no/where","value":1}`, CodePathCannotAdd},
	}
	for n := 0; n <= len(steps); n++ {
		for _, f := range failures {
			patch := "[" + strings.Join(append(steps[:n:n], f.op), ",") + "]"
			runCase(t, applyCase{name: fmt.Sprintf("%d steps then %s", n, f.op), doc: doc, patch: patch, code: f.code, index: n})
		}
	}
	// And the whole sequence succeeds when nothing fails.
	ops, err := Decode(parse(t, "["+strings.Join(steps, ",")+"]"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := Apply(parse(t, doc), ops, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s := string(jsontree.AppendJSON(nil, got)); s != `{"whole":"new","whole2":1}` {
		t.Errorf("full sequence = %s", s)
	}
}

// TestApplyDoesNotAliasOps checks that values from the patch are copied
// into the document.
func TestApplyDoesNotAliasOps(t *testing.T) {
	patch := parse(t, `[{"op":"add","path":"/a","value":{"k":[1]}},{"op":"replace","path":"","value":{"r":{}}}]`)
	ops, err := Decode(patch)
	if err != nil {
		t.Fatal(err)
	}
	before := string(jsontree.AppendJSON(nil, patch))
	for range 2 {
		doc, err := Apply(parse(t, `{}`), ops[:1], nil)
		if err != nil {
			t.Fatal(err)
		}
		doc.(*jsontree.Object).Set("x", 1)
		v, _ := doc.(*jsontree.Object).Get("a")
		v.(*jsontree.Object).Set("k", "changed")

		doc, err = Apply(doc, ops[1:], nil)
		if err != nil {
			t.Fatal(err)
		}
		doc.(*jsontree.Object).Set("y", 2)
	}
	if after := string(jsontree.AppendJSON(nil, patch)); after != before {
		t.Errorf("patch changed to %s", after)
	}
}

func TestRecorder(t *testing.T) {
	tests := []struct {
		name, doc, patch string
		want             []string // "op path value"
	}{
		{"add member", `{"a":1}`, `[{"op":"add","path":"/b","value":{"x":[1]}}]`, []string{`add /b {"x":[1]}`}},
		{"add existing is replace", `{"a":1}`, `[{"op":"add","path":"/a","value":2}]`, []string{`replace /a 2`}},
		{"add -", `{"l":[1,2]}`, `[{"op":"add","path":"/l/-","value":3}]`, []string{`add /l/2 3`}},
		{"add leading zero", `{"l":[1,2]}`, `[{"op":"add","path":"/l/01","value":3}]`, []string{`add /l/1 3`}},
		{"add empty token", `{"l":[1,2]}`, `[{"op":"add","path":"/l/","value":3}]`, []string{`add /l/0 3`}},
		{"replace", `{"l":[1,{"a":1}]}`, `[{"op":"replace","path":"/l/1/a","value":null}]`, []string{`replace /l/1/a null`}},
		{"remove", `{"l":[1,2]}`, `[{"op":"remove","path":"/l/0"}]`, []string{`remove /l/0 `}},
		{"escaped keys", `{"a/b":{"~":1}}`, `[{"op":"replace","path":"/a~1b/~0","value":2}]`, []string{`replace /a~1b/~0 2`}},
		{"invalid escape re-escaped", `{"~2":1}`, `[{"op":"remove","path":"/~2"}]`, []string{`remove /~02 `}},
		{"move", `{"a":{"x":1},"l":[]}`, `[{"op":"move","from":"/a","path":"/l/-"}]`, []string{`remove /a `, `add /l/0 {"x":1}`}},
		{"move over existing", `{"a":1,"b":2}`, `[{"op":"move","from":"/a","path":"/b"}]`, []string{`remove /a `, `replace /b 1`}},
		{"move past end", `{"a":1,"l":[0]}`, `[{"op":"move","from":"/a","path":"/l/5"}]`, []string{`remove /a `, `add /l/1 1`}},
		{"move through leading zero", `{"a":1,"l":[0,{}]}`, `[{"op":"move","from":"/a","path":"/l/01/k"}]`, []string{`remove /a `, `add /l/1/k 1`}},
		{"move dropped", `{"l":[0,{},[5]]}`, `[{"op":"move","from":"/l/0","path":"/l/1/foo"}]`, []string{`remove /l/0 `}},
		{"copy", `{"a":[1]}`, `[{"op":"copy","from":"/a","path":"/b"}]`, []string{`add /b [1]`}},
		{"copy from escaped", `{"a/b":[1]}`, `[{"op":"copy","from":"/a~1b","path":"/c~0"}]`, []string{`add /c~0 [1]`}},
		{"test records nothing", `{"a":1}`, `[{"op":"test","path":"/a","value":1}]`, nil},
		{"root replace", `{"a":1}`, `[{"op":"replace","path":"","value":[1]}]`, []string{`replace  [1]`}},
		{"root add", `{"a":1}`, `[{"op":"add","path":"","value":2}]`, []string{`replace  2`}},
		{"root remove", `{"a":1}`, `[{"op":"remove","path":""}]`, []string{`replace  null`}},
		{"root move", `{"a":{"b":1}}`, `[{"op":"move","from":"/a","path":""}]`, []string{`replace  {"b":1}`}},
		{"root copy", `{"a":{"b":1}}`, `[{"op":"copy","from":"/a","path":""}]`, []string{`replace  {"b":1}`}},
		{"value as of the op", `{}`, `[{"op":"add","path":"/a","value":{"n":1}},{"op":"add","path":"/a/m","value":2}]`, []string{`add /a {"n":1}`, `add /a/m 2`}},
		{"moved value as of the op", `{"a":{"n":1}}`, `[{"op":"move","from":"/a","path":"/b"},{"op":"remove","path":"/b/n"}]`, []string{`remove /a `, `add /b {"n":1}`, `remove /b/n `}},
	}
	for _, tt := range tests {
		ops, err := Decode(parse(t, tt.patch))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		_, err = Apply(parse(t, tt.doc), ops, func(c Change) {
			got = append(got, c.Op+" "+c.Path+" "+string(c.Value))
		})
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
			t.Errorf("%s: recorded\n%s\nwant\n%s", tt.name, strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
		}
	}
}

// TestRecorderOnFailure documents that changes before the failing op are
// reported (and must be discarded by the caller).
func TestRecorderOnFailure(t *testing.T) {
	ops, err := Decode(parse(t, `[{"op":"add","path":"/a","value":1},{"op":"remove","path":"/x"}]`))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	if _, err := Apply(parse(t, `{}`), ops, func(Change) { n++ }); err == nil {
		t.Fatal("patch did not fail")
	}
	if n != 1 {
		t.Errorf("recorded %d changes before the failure, want 1", n)
	}
}
