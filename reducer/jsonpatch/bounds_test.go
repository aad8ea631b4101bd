package jsonpatch

import (
	"strconv"
	"strings"
	"testing"

	"github.com/agui-reducer/agui/reducer/jsontree"
	"github.com/stretchr/testify/require"
)

func mustOps(t *testing.T, patch string) []Op {
	t.Helper()
	v, err := jsontree.Parse([]byte(patch), jsontree.ParseOptions{})
	require.NoError(t, err)
	ops, err := Decode(v)
	require.NoError(t, err)
	return ops
}

// Copies of the root double the document with each op: the bound refuses
// the op that would pass it, before cloning, and the patch changes nothing.
func TestBoundsCopyDoubling(t *testing.T) {
	doc, err := jsontree.Parse([]byte(`{"pad":"`+strings.Repeat("x", 1000)+`"}`), jsontree.ParseOptions{})
	require.NoError(t, err)
	var ops []string
	for i := range 30 {
		ops = append(ops, `{"op":"copy","from":"","path":"/k`+strconv.Itoa(i)+`"}`)
	}
	patch := mustOps(t, "["+strings.Join(ops, ",")+"]")
	before := string(jsontree.AppendJSON(nil, doc))
	b := Bounds{Size: jsontree.Size(doc), MaxSize: 1 << 20}
	got, err := ApplyBounded(doc, patch, func(Change) {}, &b)
	require.Error(t, err)
	require.Equal(t, CodeTooLarge, err.(*Error).Code)
	require.Same(t, doc, got)
	require.Equal(t, before, string(jsontree.AppendJSON(nil, doc)))
	require.Equal(t, jsontree.Size(doc), b.Size)
}

// Moving a large value back and forth keeps the size but re-encodes it
// each time: the bytes one patch may take are bounded too.
func TestBoundsMoveChurn(t *testing.T) {
	doc, err := jsontree.Parse([]byte(`{"a":"`+strings.Repeat("x", 1000)+`"}`), jsontree.ParseOptions{})
	require.NoError(t, err)
	var ops []string
	for range 50 {
		ops = append(ops, `{"op":"move","from":"/a","path":"/b"}`, `{"op":"move","from":"/b","path":"/a"}`)
	}
	b := Bounds{Size: jsontree.Size(doc), MaxSize: 20000}
	_, err = ApplyBounded(doc, mustOps(t, "["+strings.Join(ops, ",")+"]"), nil, &b)
	require.Error(t, err)
	require.Equal(t, CodeTooLarge, err.(*Error).Code)
}

func TestBoundsObjectRoot(t *testing.T) {
	for _, patch := range []string{
		`[{"op":"remove","path":""}]`,
		`[{"op":"replace","path":"","value":5}]`,
		`[{"op":"add","path":"/a","value":1},{"op":"replace","path":"","value":null}]`,
		`[{"op":"add","path":"/l","value":[1]},{"op":"move","from":"/l","path":""}]`,
	} {
		doc, err := jsontree.Parse([]byte(`{"x":{"y":1}}`), jsontree.ParseOptions{})
		require.NoError(t, err)
		got, err := ApplyBounded(doc, mustOps(t, patch), nil, &Bounds{ObjectRoot: true})
		require.Error(t, err, patch)
		require.Equal(t, CodeRootNotObject, err.(*Error).Code, patch)
		require.Equal(t, `{"x":{"y":1}}`, string(jsontree.AppendJSON(nil, got)), patch)
	}
	doc, _ := jsontree.Parse([]byte(`{"x":{"y":1}}`), jsontree.ParseOptions{})
	got, err := ApplyBounded(doc, mustOps(t, `[{"op":"move","from":"/x","path":""}]`), nil, &Bounds{ObjectRoot: true})
	require.NoError(t, err)
	require.Equal(t, `{"y":1}`, string(jsontree.AppendJSON(nil, got)))
}

// A Journal undoes successive patches, a root replacement included, once
// the caller puts the old root back.
func TestJournalRollback(t *testing.T) {
	orig := `{"a":{"b":[1,2]},"c":3}`
	doc, _ := jsontree.Parse([]byte(orig), jsontree.ParseOptions{})
	var j Journal
	cur := doc
	for _, p := range []string{
		`[{"op":"add","path":"/a/b/-","value":3},{"op":"remove","path":"/c"}]`,
		`[{"op":"move","from":"/a","path":"/z"},{"op":"copy","from":"/z","path":"/y"}]`,
		`[{"op":"replace","path":"/z/b/0","value":9},{"op":"move","from":"/z","path":""}]`,
		`[{"op":"add","path":"/n","value":{}}]`,
	} {
		var err error
		cur, err = ApplyBounded(cur, mustOps(t, p), nil, &Bounds{Journal: &j})
		require.NoError(t, err, p)
	}
	require.NotEqual(t, orig, string(jsontree.AppendJSON(nil, cur)))
	j.Rollback(0)
	require.Equal(t, 0, j.Len())
	require.Equal(t, orig, string(jsontree.AppendJSON(nil, doc)))
}
