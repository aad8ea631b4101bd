package jsonpatch

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"

	v5 "github.com/evanphx/json-patch/v5"

	"github.com/agui-reducer/agui/reducer/jsontree"
)

// TestDifferentialV5 applies thousands of random patches with Apply and
// with github.com/evanphx/json-patch/v5 and requires the same outcome.
//
// v5 is an independent RFC 6902 implementation, not fast-json-patch, so
// the generator still produces the inputs on which the two are known to
// disagree, and each such case is skipped and counted under a reason. Every
// reason is a place where v5 differs from fast-json-patch (which Apply
// follows); each was checked against fast-json-patch 3.1.1's source
// (src/core.ts) and v5.9.11's patch.go:
//
//   - root: an operation on the whole document ("" as path or from). v5
//     only accepts objects and arrays there, and resolves from "" to a stale
//     copy of the document as it was before the patch.
//   - empty token: v5's get("") returns the container itself; JavaScript
//     reads the member "" (objects) or element 0 (arrays, via ~~"").
//   - leading zero: v5 parses "01" as 1 everywhere; fast-json-patch checks
//     existence on the raw token, so replace/remove/from of /l/01 are
//     unresolvable while add and test use element 1.
//   - signed index: v5 accepts "+1", and "-0"/negative indices (when
//     enabled); fast-json-patch reports an illegal array index.
//   - test null: v5 handles a test against null inconsistently: it passes
//     on a missing location, and fails on a null that an earlier operation
//     of the same patch wrote (v5 keeps that one as a non-nil node, while a
//     parsed null is a nil node); it also accepts a test without value.
//     fast-json-patch fails on a missing location (undefined !== null),
//     passes on any null, and requires a value.
//   - move/copy past end: fast-json-patch does not bounds-check the
//     destination of move and copy (its inner add is unvalidated and splice
//     clamps the index), so the value is appended; v5 rejects it.
//   - move destination before removal: fast-json-patch validates the
//     destination path before removing the source, v5 only after; the two
//     differ when the removal changes what the destination's parent is.
//   - relative pointer: for a path or from such as "a/b", without the
//     leading "/", v5 ignores the first token and acts on "/b";
//     fast-json-patch rejects the path (OPERATION_PATH_INVALID) or cannot
//     resolve the from.
//   - v5 panic: v5's lazyNode.equal dereferences nil for a null array
//     element, so a test comparing arrays that hold null panics (a v5 bug;
//     fast-json-patch compares them normally). The panic is recovered.
//
// Documents are always objects or arrays (scalar and null documents are a
// root-level matter) and negative indices are disabled in v5, as the brief
// for this package requires.
func TestDifferentialV5(t *testing.T) {
	n := 30000
	if testing.Short() {
		n = 3000
	}
	r := rand.New(rand.NewPCG(2024, 6902))
	opts := v5.NewApplyOptions()
	opts.SupportNegativeIndices = false

	var agreed, bothOK, bothFailed int
	skipped := map[string]int{}
	for i := range n {
		doc := genDoc(r)
		docJSON := jsontree.AppendJSON(nil, doc)
		patch := genPatch(r, doc)
		patchJSON := jsontree.AppendJSON(nil, patch)

		if reason := staticDeviation(patch); reason != "" {
			skipped[reason]++
			continue
		}
		if reason := dynamicDeviation(t, doc, patch); reason != "" {
			skipped[reason]++
			continue
		}

		// Ours.
		var ours jsontree.Value
		ops, oerr := Decode(patch)
		if oerr == nil {
			ours, oerr = Apply(parse(t, string(docJSON)), ops, nil)
		}

		theirs, verr, panicked := applyV5(patchJSON, docJSON, opts)
		if panicked {
			skipped["v5 panic"]++
			continue
		}

		switch {
		case (oerr == nil) != (verr == nil):
			t.Fatalf("case %d: outcomes differ\ndoc   %s\npatch %s\nours  %s (err %v)\nv5    %s (err %v)",
				i, docJSON, patchJSON, jsontree.AppendJSON(nil, ours), oerr, theirs, verr)
		case oerr == nil:
			tv := parse(t, string(theirs))
			if !jsontree.Equal(ours, tv) {
				t.Fatalf("case %d: results differ\ndoc   %s\npatch %s\nours  %s\nv5    %s",
					i, docJSON, patchJSON, jsontree.AppendJSON(nil, ours), theirs)
			}
			bothOK++
		default:
			bothFailed++
		}
		agreed++
	}
	t.Logf("%d cases: %d agreed (%d applied, %d rejected by both); skipped as documented deviations: %v",
		n, agreed, bothOK, bothFailed, skipped)
	if bothOK < n/5 || bothFailed < n/10 {
		t.Errorf("generator is unbalanced: %d applied, %d rejected", bothOK, bothFailed)
	}
}

// Random documents use a small alphabet so that paths often hit.
var genKeys = []string{"a", "b", "c", "0", "1", "a~b", "x/y"}

func genDoc(r *rand.Rand) jsontree.Value {
	if r.IntN(3) == 0 {
		return genArray(r, 0)
	}
	return genObject(r, 0)
}

func genObject(r *rand.Rand, depth int) *jsontree.Object {
	o := jsontree.NewObject(0)
	for range r.IntN(5) {
		o.Set(genKeys[r.IntN(len(genKeys))], genValue(r, depth+1))
	}
	return o
}

func genArray(r *rand.Rand, depth int) *jsontree.Array {
	a := &jsontree.Array{Elems: []jsontree.Value{}}
	for range r.IntN(5) {
		a.Elems = append(a.Elems, genValue(r, depth+1))
	}
	return a
}

func genValue(r *rand.Rand, depth int) jsontree.Value {
	k := r.IntN(10)
	if depth >= 3 {
		k = 4 + r.IntN(6)
	}
	switch k {
	case 0, 1:
		return genObject(r, depth)
	case 2, 3:
		return genArray(r, depth)
	case 4, 5:
		return jsontree.Number(strconv.Itoa(r.IntN(4)))
	case 6:
		return "s" + strconv.Itoa(r.IntN(3))
	case 7:
		return r.IntN(2) == 0
	case 8:
		return nil
	default:
		return "x"
	}
}

// genPaths lists the pointers of every location in v, root ("") first.
func genPaths(v jsontree.Value) []string {
	type item struct {
		ptr string
		v   jsontree.Value
	}
	var out []string
	stack := []item{{"", v}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		out = append(out, it.ptr)
		switch x := it.v.(type) {
		case *jsontree.Object:
			for i, k := range x.Keys() {
				stack = append(stack, item{string(appendToken([]byte(it.ptr), k)), x.ValueAt(i)})
			}
		case *jsontree.Array:
			for i, e := range x.Elems {
				stack = append(stack, item{it.ptr + "/" + strconv.Itoa(i), e})
			}
		}
	}
	return out
}

// genPointer picks a pointer that exists (with probability about
// pExist), is one token below an existing location, or is random.
func genPointer(r *rand.Rand, doc jsontree.Value, pExist int) string {
	paths := genPaths(doc)
	base := paths[r.IntN(len(paths))]
	if k := r.IntN(100); k < pExist {
		if len(paths) > 1 {
			return paths[1+r.IntN(len(paths)-1)]
		}
		return "/" + genToken(r)
	}
	switch r.IntN(20) {
	case 0: // rare shapes, most of them known deviations
		return []string{"", "/", "/a/", "/01", "/-1", "/+1", "/00", "/0/-", "/a/0/1"}[r.IntN(9)]
	case 1, 2, 3: // random
		var b strings.Builder
		for range 1 + r.IntN(3) {
			b.WriteString("/" + genToken(r))
		}
		return b.String()
	case 4, 5, 6: // an existing location with its last token changed
		if i := strings.LastIndexByte(base, '/'); i >= 0 {
			return base[:i+1] + genToken(r)
		}
		return "/" + genToken(r)
	default: // one token below an existing location
		return base + "/" + genToken(r)
	}
}

func genToken(r *rand.Rand) string {
	switch r.IntN(8) {
	case 0, 1:
		return strconv.Itoa(r.IntN(6))
	case 2:
		return "-"
	case 3:
		return "99999999999999999999"
	default:
		return strings.NewReplacer("~", "~0", "/", "~1").Replace(genKeys[r.IntN(len(genKeys))])
	}
}

func genPatch(r *rand.Rand, doc jsontree.Value) jsontree.Value {
	kinds := []string{"add", "remove", "replace", "move", "copy", "test"}
	a := &jsontree.Array{}
	for range 1 + r.IntN(3) {
		o := jsontree.NewObject(4)
		kind := kinds[r.IntN(len(kinds))]
		pExist := 75 // remove, replace, test
		switch kind {
		case "add", "move", "copy":
			pExist = 25
		}
		path := genPointer(r, doc, pExist)
		if r.IntN(40) == 0 { // malformed operations
			switch r.IntN(4) {
			case 0:
				kind = "nope"
			case 1:
				path = strings.TrimPrefix(path, "/")
			case 2:
				kind = "add" // without value below
			case 3:
				kind = "move" // without from below
			}
			o.Set("op", kind)
			o.Set("path", path)
		} else {
			o.Set("op", kind)
			o.Set("path", path)
			switch kind {
			case "add", "replace":
				o.Set("value", genValue(r, 1))
			case "move", "copy":
				o.Set("from", genPointer(r, doc, 85))
			case "test":
				// Test often against the current value so that some pass.
				if v, ok := lookup(doc, path); ok && r.IntN(2) == 0 {
					o.Set("value", jsontree.Clone(v))
				} else {
					o.Set("value", genValue(r, 2))
				}
			}
		}
		a.Elems = append(a.Elems, o)
	}
	return a
}

// lookup resolves a canonical pointer in v.
func lookup(v jsontree.Value, ptr string) (jsontree.Value, bool) {
	if ptr == "" {
		return v, true
	}
	if ptr[0] != '/' {
		return nil, false
	}
	for _, raw := range strings.Split(ptr[1:], "/") {
		key := unescape(raw)
		switch x := v.(type) {
		case *jsontree.Object:
			var ok bool
			if v, ok = x.Get(key); !ok {
				return nil, false
			}
		case *jsontree.Array:
			i, ok := elementKey(key, len(x.Elems))
			if !ok {
				return nil, false
			}
			v = x.Elems[i]
		default:
			return nil, false
		}
	}
	return v, true
}

var (
	leadingZero = regexp.MustCompile(`^0[0-9]+$`)
	signed      = regexp.MustCompile(`^[-+][0-9]+$`)
)

// staticDeviation names the documented v5 deviation a patch contains.
func staticDeviation(patch jsontree.Value) string {
	for _, e := range patch.(*jsontree.Array).Elems {
		o := e.(*jsontree.Object)
		kind, _ := o.Get("op")
		var ptrs []string
		for _, f := range []string{"path", "from"} {
			if v, ok := o.Get(f); ok {
				if s, ok := v.(string); ok {
					ptrs = append(ptrs, s)
				}
			}
		}
		for _, p := range ptrs {
			if p == "" {
				return "root"
			}
			if p[0] != '/' {
				if strings.Contains(p, "/") {
					return "relative pointer"
				}
				continue
			}
			for _, tok := range strings.Split(p, "/")[1:] {
				switch {
				case tok == "":
					return "empty token"
				case leadingZero.MatchString(tok):
					return "leading zero"
				case signed.MatchString(tok):
					return "signed index"
				}
			}
		}
		if v, ok := o.Get("value"); kind == "test" && (!ok || v == nil) {
			return "test null"
		}
	}
	return ""
}

// dynamicDeviation replays the patch with Apply and reports the
// documented deviation an operation hits in the state it runs on.
func dynamicDeviation(t *testing.T, doc jsontree.Value, patch jsontree.Value) string {
	ops, err := Decode(patch)
	if err != nil {
		return ""
	}
	state := jsontree.Clone(doc)
	for i := range ops {
		op := &ops[i]
		if op.Kind == KindMove || op.Kind == KindCopy {
			parent, last := splitLast(op.Path)
			pre, preOK := lookup(state, parent)
			post, postOK := pre, preOK
			if op.Kind == KindMove {
				after, err := Apply(jsontree.Clone(state), []Op{{Kind: KindRemove, Path: op.From}}, nil)
				if err != nil {
					return "" // the move fails the same way in both
				}
				post, postOK = lookup(after, parent)
				if preOK != postOK || kindOf(pre) != kindOf(post) {
					return "move destination before removal"
				}
			}
			if arr, ok := post.(*jsontree.Array); postOK && ok && isDigits(last) {
				if i, ok := parseIndex(last); ok && i > len(arr.Elems) {
					return "move/copy past end"
				}
			}
		}
		var err error
		if state, err = Apply(state, ops[i:i+1], nil); err != nil {
			return ""
		}
	}
	return ""
}

func splitLast(ptr string) (parent, last string) {
	i := strings.LastIndexByte(ptr, '/')
	if i < 0 {
		return "", ptr
	}
	return ptr[:i], unescape(ptr[i+1:])
}

func kindOf(v jsontree.Value) string {
	switch v.(type) {
	case *jsontree.Object:
		return "object"
	case *jsontree.Array:
		return "array"
	}
	return "scalar"
}

// TestDifferentialDeviations pins each documented deviation with one
// example, checking that v5 really disagrees, so the skips above stay
// honest if either library changes.
func TestDifferentialDeviations(t *testing.T) {
	opts := v5.NewApplyOptions()
	opts.SupportNegativeIndices = false
	tests := []struct {
		reason, doc, patch string
	}{
		{"root", `{"a":1}`, `[{"op":"replace","path":"","value":5}]`},
		{"empty token", `{"a":{"b":1}}`, `[{"op":"replace","path":"/a/","value":2}]`},
		{"leading zero", `{"l":[1,2]}`, `[{"op":"replace","path":"/l/01","value":3}]`},
		{"signed index", `{"l":[1,2]}`, `[{"op":"add","path":"/l/+1","value":3}]`},
		{"test null", `{"a":1}`, `[{"op":"test","path":"/b","value":null}]`},
		{"test null", `{"a":1}`, `[{"op":"replace","path":"/a","value":null},{"op":"test","path":"/a","value":null}]`},
		{"move/copy past end", `{"a":1,"l":[]}`, `[{"op":"copy","from":"/a","path":"/l/3"}]`},
		{"move destination before removal", `{"l":[0,1,{}]}`, `[{"op":"move","from":"/l/0","path":"/l/1/k"}]`},
		{"relative pointer", `{"a":1,"b":2}`, `[{"op":"remove","path":"x/b"}]`},
		{"v5 panic", `{"l":[null]}`, `[{"op":"test","path":"/l","value":[null]}]`},
	}
	for _, tt := range tests {
		patch := parse(t, tt.patch)
		want := tt.reason
		if want == "v5 panic" {
			want = ""
		}
		if got := staticDeviation(patch) + dynamicDeviation(t, parse(t, tt.doc), patch); got != want {
			t.Errorf("%s: classified as %q", tt.reason, got)
		}
		ops, oerr := Decode(patch)
		var ours jsontree.Value
		if oerr == nil {
			ours, oerr = Apply(parse(t, tt.doc), ops, nil)
		}
		theirs, verr, panicked := applyV5([]byte(tt.patch), []byte(tt.doc), opts)
		if panicked != (tt.reason == "v5 panic") {
			t.Errorf("%s: v5 panicked: %v", tt.reason, panicked)
		}
		same := (oerr == nil) == (verr == nil)
		if same && oerr == nil {
			same = jsontree.Equal(ours, parse(t, string(theirs)))
		}
		if same {
			t.Errorf("%s: v5 agrees now (ours %s, %v; v5 %s, %v); drop the skip", tt.reason, jsontree.AppendJSON(nil, ours), oerr, theirs, verr)
		}
		t.Logf("%-32s ours: %s %v | v5: %s %v", tt.reason, jsontree.AppendJSON(nil, ours), errCode(oerr), theirs, verr)
	}
}

// applyV5 runs v5, turning a panic into a report.
func applyV5(patch, doc []byte, opts *v5.ApplyOptions) (out []byte, err error, panicked bool) {
	defer func() {
		if r := recover(); r != nil {
			out, err, panicked = nil, fmt.Errorf("panic: %v", r), true
		}
	}()
	p, err := v5.DecodePatch(patch)
	if err != nil {
		return nil, err, false
	}
	out, err = p.ApplyWithOptions(doc, opts)
	return out, err, false
}

func errCode(err error) string {
	if e, ok := err.(*Error); ok {
		return e.Code
	}
	return fmt.Sprint(err)
}
