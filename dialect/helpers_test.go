package dialect

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/agui-reducer/agui/reducer"
	"github.com/agui-reducer/agui/reducer/jsontree"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden files")

type Change = reducer.Change

// pipeline is a Translator and a Reducer composed by a Pipeline, the way
// a host composes them (see wasm/bridge.go).
type pipeline struct {
	r *reducer.Reducer
	t *Translator
	p *Pipeline
}

// newPipeline returns a translator and a reducer with the same limits and
// ids; the reducer's clock advances 100 ms per reading.
func newPipeline(opt Options) *pipeline {
	p := &pipeline{
		r: reducer.New(reducer.Options{NewID: opt.NewID, MaxEventBytes: opt.MaxEventBytes, MaxDepth: opt.MaxDepth, MaxFieldBytes: opt.MaxFieldBytes, Clock: fixedClock()}),
		t: New(opt),
	}
	p.p = NewPipeline(p.r, p.t)
	return p
}

func (p *pipeline) ApplyFrameInto(c *Change, name string, data []byte) { p.p.Apply(c, name, data) }

func (p *pipeline) Snapshot() []byte { return p.r.Snapshot() }

func (p *pipeline) Restore(snap []byte) (*Change, error) {
	c, err := p.r.Restore(snap)
	if err == nil {
		p.t.Resume(snap)
	}
	return c, err
}

func (p *pipeline) Fail(message, code string) *Change {
	c := p.r.Fail(message, code)
	p.t.EndRun()
	return c
}

// NewStream starts a new SSE body.
func (p *pipeline) NewStream() *Pipeline {
	p.p.Drop()
	return p.p
}

// state is the snapshot decoded for assertions.
type state = map[string]any

func snapshotOf(t testing.TB, p *pipeline) state {
	t.Helper()
	var s state
	require.NoError(t, json.Unmarshal(p.Snapshot(), &s))
	return s
}

func msgs(s state) []any  { return s["messages"].([]any) }
func tools(s state) []any { return s["toolCalls"].([]any) }
func msg(s state, i int) map[string]any {
	return msgs(s)[i].(map[string]any)
}
func tool(s state, i int) map[string]any { return tools(s)[i].(map[string]any) }

func ids(s state) []string {
	var out []string
	for _, m := range msgs(s) {
		out = append(out, m.(map[string]any)["id"].(string))
	}
	return out
}

func codes(cs []*Change) []string {
	var out []string
	for _, c := range cs {
		for _, d := range c.Diagnostics {
			out = append(out, d.Code)
		}
	}
	return out
}

func hasCode(c *Change, code string) bool {
	for _, d := range c.Diagnostics {
		if d.Code == code {
			return true
		}
	}
	return false
}

type eventCase struct {
	name   string
	opt    Options
	events []string
	check  func(t *testing.T, s state, cs []*Change)
}

// foldLines applies each line as a frame without an SSE name.
func foldLines(t testing.TB, p *pipeline, lines []string) []*Change {
	t.Helper()
	return foldFrames(t, p, lines)
}

// readLines reads a JSON-lines stream: one event per non-blank line, a
// leading UTF-8 BOM tolerated.
func readLines(t testing.TB, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); l != "" {
			out = append(out, l)
		}
	}
	require.NoError(t, sc.Err())
	return out
}

// golden compares got (JSON) with the indented golden file, or rewrites it
// under -update.
func golden(t testing.TB, path string, got []byte) {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, json.Indent(&buf, got, "", "  "))
	buf.WriteByte('\n')
	if *update {
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, buf.Bytes(), 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "missing golden file; run go test ./dialect -run Golden -update and check it by hand")
	require.Equal(t, string(want), buf.String(), "%s differs", path)
}

// fixedClock returns a clock that advances 100 ms per reading, so golden
// reasoning durations are stable.
func fixedClock() func() float64 {
	now := 0.0
	return func() float64 { now += 100; return now }
}

// mirror is what a host does with change records: it keeps its own copy of
// the state JSON and applies each op. Tests check it always equals Snapshot.
type mirror struct{ doc jsontree.Value }

func newMirror(t testing.TB, p *pipeline) *mirror {
	v, err := jsontree.Parse(p.Snapshot(), jsontree.ParseOptions{})
	require.NoError(t, err)
	return &mirror{doc: v}
}

func (m *mirror) apply(t testing.TB, c *Change) {
	t.Helper()
	for _, op := range c.Ops {
		var val jsontree.Value
		if op.Kind == reducer.OpAdd || op.Kind == reducer.OpReplace {
			v, err := jsontree.Parse(op.Value, jsontree.ParseOptions{})
			require.NoError(t, err, "op value of %s %s", op.Kind, op.Path)
			val = v
		}
		if op.Path == "" {
			require.Equal(t, reducer.OpReplace, op.Kind, "root op")
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
			case reducer.OpAdd, reducer.OpReplace:
				if op.Kind == reducer.OpReplace {
					_, ok := p.Get(last)
					require.True(t, ok, "replace of a missing key %s", op.Path)
				}
				p.Set(last, val)
			case reducer.OpRemove:
				_, pos := p.Delete(last)
				require.GreaterOrEqual(t, pos, 0, "remove of a missing key %s", op.Path)
			case reducer.OpAppend:
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
			case reducer.OpAdd:
				require.LessOrEqual(t, idx, len(p.Elems), op.Path)
				p.Elems = append(p.Elems, nil)
				copy(p.Elems[idx+1:], p.Elems[idx:])
				p.Elems[idx] = val
			case reducer.OpReplace:
				require.Less(t, idx, len(p.Elems), op.Path)
				p.Elems[idx] = val
			case reducer.OpRemove:
				require.Less(t, idx, len(p.Elems), op.Path)
				p.Elems = append(p.Elems[:idx], p.Elems[idx+1:]...)
			case reducer.OpAppend:
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

// check asserts the mirror equals the snapshot.
func (m *mirror) check(t testing.TB, p *pipeline, what string) {
	t.Helper()
	want, err := jsontree.Parse(p.Snapshot(), jsontree.ParseOptions{})
	require.NoError(t, err)
	if !jsontree.Equal(want, m.doc) {
		require.JSONEq(t, string(jsontree.AppendJSON(nil, want)), string(jsontree.AppendJSON(nil, m.doc)), "mirror diverged after %s", what)
	}
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
