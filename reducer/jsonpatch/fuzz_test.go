package jsonpatch

import (
	"bytes"
	"errors"
	"strconv"
	"testing"

	"github.com/agui-reducer/agui/reducer/jsontree"
)

// FuzzApply checks that Apply never panics, that a failed patch leaves the
// document byte-identical, and that the recorded changes, replayed with
// plain RFC 6902 semantics on a copy of the original, rebuild the result
// exactly (key order included).
func FuzzApply(f *testing.F) {
	for _, s := range [][2]string{
		{`{"a":{"b":[1,2]},"c":3}`, `[{"op":"add","path":"/a/b/-","value":{"x":[1]}},{"op":"remove","path":"/c"}]`},
		{`{"a":1,"b":2}`, `[{"op":"move","from":"/a","path":"/b"},{"op":"test","path":"/b","value":1}]`},
		{`{"l":[0,{},[5]]}`, `[{"op":"move","from":"/l/0","path":"/l/1/foo"}]`},
		{`{"l":[0,1]}`, `[{"op":"copy","from":"/l/0","path":"/l/9"},{"op":"add","path":"/l/01","value":2}]`},
		{`{"a":{"x":1}}`, `[{"op":"replace","path":"","value":[]},{"op":"add","path":"/-","value":1},{"op":"remove","path":"/9"}]`},
		{`[1,2,3]`, `[{"op":"move","from":"/0","path":"/-"},{"op":"copy","from":"","path":"/1"}]`},
		{`{"a/b":{"~":1}}`, `[{"op":"replace","path":"/a~1b/~0","value":2},{"op":"remove","path":""}]`},
		{`5`, `[{"op":"test","path":"","value":5.0}]`},
	} {
		f.Add([]byte(s[0]), []byte(s[1]))
	}
	f.Fuzz(func(t *testing.T, docJSON, patchJSON []byte) {
		opt := jsontree.ParseOptions{MaxDepth: 64}
		doc, err := jsontree.Parse(docJSON, opt)
		if err != nil {
			return
		}
		patch, err := jsontree.Parse(patchJSON, opt)
		if err != nil {
			return
		}
		ops, err := Decode(patch)
		if err != nil {
			var pe *Error
			if !errors.As(err, &pe) {
				t.Fatalf("Decode error %v is not an *Error", err)
			}
			return
		}
		before := jsontree.AppendJSON(nil, doc)
		patchBefore := jsontree.AppendJSON(nil, patch)
		orig := jsontree.Clone(doc)

		var changes []Change
		got, err := Apply(doc, ops, func(c Change) { changes = append(changes, c) })

		if after := jsontree.AppendJSON(nil, patch); !bytes.Equal(after, patchBefore) {
			t.Fatalf("Apply changed the patch: %s", after)
		}
		if err != nil {
			var pe *Error
			if !errors.As(err, &pe) || pe.Index < 0 || pe.Index >= len(ops) {
				t.Fatalf("Apply error %v is not an *Error with an op index", err)
			}
			if got != doc {
				t.Fatalf("failed Apply returned a different root")
			}
			if after := jsontree.AppendJSON(nil, doc); !bytes.Equal(after, before) {
				t.Fatalf("failed patch changed the document:\nbefore %s\nafter  %s", before, after)
			}
			return
		}
		replayed := replay(t, jsontree.Clone(orig), changes)
		want := jsontree.AppendJSON(nil, got)
		if r := jsontree.AppendJSON(nil, replayed); !bytes.Equal(r, want) {
			t.Fatalf("replaying the changes gives\n%s\nbut Apply gave\n%s", r, want)
		}

		// The same patch applied without a recorder gives the same result.
		got2, err := Apply(jsontree.Clone(orig), ops, nil)
		if err != nil || !bytes.Equal(jsontree.AppendJSON(nil, got2), want) {
			t.Fatalf("Apply without recorder differs: %v", err)
		}

		// Within generous bounds too, with the size kept incrementally
		// equal to the size measured afresh; within a tight bound the patch
		// either applies exactly or changes nothing.
		b := Bounds{Size: jsontree.Size(orig), MaxSize: 1 << 40}
		got3, err := ApplyBounded(jsontree.Clone(orig), ops, nil, &b)
		if err != nil || !bytes.Equal(jsontree.AppendJSON(nil, got3), want) {
			t.Fatalf("ApplyBounded differs: %v", err)
		}
		if n := jsontree.Size(got3); b.Size != n {
			t.Fatalf("incremental size %d, measured %d", b.Size, n)
		}
		tight := Bounds{Size: jsontree.Size(orig), MaxSize: max(1, b.Size-1)}
		cp := jsontree.Clone(orig)
		if got4, err := ApplyBounded(cp, ops, nil, &tight); err == nil {
			if !bytes.Equal(jsontree.AppendJSON(nil, got4), want) || tight.Size != b.Size {
				t.Fatalf("ApplyBounded within a tight bound differs")
			}
		} else if !bytes.Equal(jsontree.AppendJSON(nil, cp), before) {
			t.Fatalf("a patch refused by its bound changed the document")
		}
	})
}

// replay applies normalized changes with strict RFC 6902 semantics: add
// only creates, replace only overwrites, remove only deletes.
func replay(t *testing.T, doc jsontree.Value, changes []Change) jsontree.Value {
	t.Helper()
	for _, c := range changes {
		var v jsontree.Value
		if c.Op != KindRemove {
			var err error
			if v, err = jsontree.Parse(c.Value, jsontree.ParseOptions{MaxDepth: 1 << 20}); err != nil {
				t.Fatalf("change %+v: value: %v", c, err)
			}
		} else if c.Value != nil {
			t.Fatalf("remove carries a value: %+v", c)
		}
		if c.Path == "" {
			if c.Op != KindReplace {
				t.Fatalf("root change %q", c.Op)
			}
			doc = v
			continue
		}
		parentPtr, last := splitLast(c.Path)
		parent, ok := lookup(doc, parentPtr)
		if !ok {
			t.Fatalf("change %s %s: parent does not exist", c.Op, c.Path)
		}
		switch p := parent.(type) {
		case *jsontree.Object:
			_, exists := p.Get(last)
			switch {
			case c.Op == KindAdd && !exists, c.Op == KindReplace && exists:
				p.Set(last, v)
			case c.Op == KindRemove && exists:
				p.Delete(last)
			default:
				t.Fatalf("change %s %s: member exists=%v", c.Op, c.Path, exists)
			}
		case *jsontree.Array:
			i, err := strconv.Atoi(last)
			if err != nil || i < 0 || strconv.Itoa(i) != last {
				t.Fatalf("change %s %s: not a concrete index", c.Op, c.Path)
			}
			switch {
			case c.Op == KindAdd && i <= len(p.Elems):
				p.Elems = append(p.Elems[:i], append([]jsontree.Value{v}, p.Elems[i:]...)...)
			case c.Op == KindReplace && i < len(p.Elems):
				p.Elems[i] = v
			case c.Op == KindRemove && i < len(p.Elems):
				p.Elems = append(p.Elems[:i], p.Elems[i+1:]...)
			default:
				t.Fatalf("change %s %s: index out of range (len %d)", c.Op, c.Path, len(p.Elems))
			}
		default:
			t.Fatalf("change %s %s: parent is not a container", c.Op, c.Path)
		}
	}
	return doc
}
