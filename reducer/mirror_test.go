package reducer

import (
	"strconv"
	"strings"
	"testing"

	"github.com/agui-reducer/agui/reducer/jsontree"
	"github.com/stretchr/testify/require"
)

// mirror is what a host does with change records: it keeps its own copy of
// the state JSON and applies each op. Tests check it always equals Snapshot.
type mirror struct{ doc jsontree.Value }

func newMirror(t testing.TB, r *Reducer) *mirror {
	v, err := jsontree.Parse(r.Snapshot(), jsontree.ParseOptions{})
	require.NoError(t, err)
	return &mirror{doc: v}
}

func (m *mirror) apply(t testing.TB, c *Change) {
	t.Helper()
	for _, op := range c.Ops {
		var val jsontree.Value
		if op.Kind == OpAdd || op.Kind == OpReplace {
			v, err := jsontree.Parse(op.Value, jsontree.ParseOptions{})
			require.NoError(t, err, "op value of %s %s", op.Kind, op.Path)
			val = v
		}
		if op.Path == "" {
			require.Equal(t, OpReplace, op.Kind, "root op")
			m.doc = val
			continue
		}
		segs := strings.Split(op.Path[1:], "/")
		for i := range segs {
			segs[i] = strings.ReplaceAll(strings.ReplaceAll(segs[i], "~1", "/"), "~0", "~")
		}
		parent := m.doc
		for _, s := range segs[:len(segs)-1] {
			parent = child(t, parent, s, op.Path)
		}
		last := segs[len(segs)-1]
		switch p := parent.(type) {
		case *jsontree.Object:
			switch op.Kind {
			case OpAdd, OpReplace:
				if op.Kind == OpReplace {
					_, ok := p.Get(last)
					require.True(t, ok, "replace of a missing key %s", op.Path)
				}
				p.Set(last, val)
			case OpRemove:
				_, pos := p.Delete(last)
				require.GreaterOrEqual(t, pos, 0, "remove of a missing key %s", op.Path)
			case OpAppend:
				cur, ok := p.Get(last)
				s, isStr := cur.(string)
				require.True(t, ok && isStr, "append to a non-string at %s", op.Path)
				p.Set(last, s+op.Text)
			}
		case *jsontree.Array:
			idx := len(p.Elems)
			if last != "-" {
				n, err := strconv.Atoi(last)
				require.NoError(t, err, op.Path)
				idx = n
			}
			switch op.Kind {
			case OpAdd:
				require.LessOrEqual(t, idx, len(p.Elems), op.Path)
				p.Elems = append(p.Elems, nil)
				copy(p.Elems[idx+1:], p.Elems[idx:])
				p.Elems[idx] = val
			case OpReplace:
				require.Less(t, idx, len(p.Elems), op.Path)
				p.Elems[idx] = val
			case OpRemove:
				require.Less(t, idx, len(p.Elems), op.Path)
				p.Elems = append(p.Elems[:idx], p.Elems[idx+1:]...)
			case OpAppend:
				s, isStr := p.Elems[idx].(string)
				require.True(t, isStr, op.Path)
				p.Elems[idx] = s + op.Text
			}
		default:
			t.Fatalf("op %s %s: parent is not a container", op.Kind, op.Path)
		}
	}
}

func child(t testing.TB, v jsontree.Value, seg, path string) jsontree.Value {
	t.Helper()
	switch p := v.(type) {
	case *jsontree.Object:
		c, ok := p.Get(seg)
		require.True(t, ok, "missing %q in %s", seg, path)
		return c
	case *jsontree.Array:
		n, err := strconv.Atoi(seg)
		require.NoError(t, err, path)
		require.Less(t, n, len(p.Elems), path)
		return p.Elems[n]
	}
	t.Fatalf("path %s goes through a scalar", path)
	return nil
}

// checkMirror asserts the mirror equals the reducer's snapshot.
func (m *mirror) check(t testing.TB, r *Reducer, what string) {
	t.Helper()
	want, err := jsontree.Parse(r.Snapshot(), jsontree.ParseOptions{})
	require.NoError(t, err)
	if !jsontree.Equal(want, m.doc) {
		require.JSONEq(t, string(jsontree.AppendJSON(nil, want)), string(jsontree.AppendJSON(nil, m.doc)), "mirror diverged after %s", what)
	}
}

// foldLines applies each line, checking after every event that the change
// records keep a mirror equal to the snapshot, and returns every change.
func foldLines(t testing.TB, r *Reducer, lines []string) []*Change {
	t.Helper()
	m := newMirror(t, r)
	out := make([]*Change, 0, len(lines))
	for i, l := range lines {
		before := string(r.Snapshot())
		c := applyLine(r, l)
		m.apply(t, c)
		m.check(t, r, "event "+strconv.Itoa(i)+": "+truncate(l))
		if rejected(c) {
			require.Empty(t, c.Ops, "rejected event %d has ops", i)
			require.Equal(t, before, string(r.Snapshot()), "rejected event %d changed the state", i)
		}
		out = append(out, c)
	}
	return out
}

// rejected reports whether the change's diagnostics say the whole event was
// refused, so the state must be exactly as before.
func rejected(c *Change) bool {
	for _, d := range c.Diagnostics {
		switch d.Code {
		case "bad_json", "bad_event", "too_large":
			return true
		}
	}
	return false
}

func truncate(s string) string {
	if len(s) > 120 {
		return s[:120] + "…"
	}
	return s
}

// amendPrefix marks a test line that is an amendment (Reducer.Amend), not
// an event: what a translator hands the host besides canonical events.
const amendPrefix = "amend:"

// applyLine applies an event line, or an amendment line.
func applyLine(r *Reducer, l string) *Change {
	if v, ok := strings.CutPrefix(l, amendPrefix); ok {
		c := new(Change)
		r.Amend(c, []byte(v))
		return c
	}
	return r.Apply([]byte(l))
}
