package dialect

import (
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/agui-reducer/agui/reducer"
	"github.com/stretchr/testify/require"
)

// foldSSE feeds an SSE body to a Stream in pieces cut at the given offsets,
// checking after every event that the change records keep a mirror equal to
// the snapshot and that a rejected event changed nothing. It returns a copy
// of every change.
func foldSSE(t testing.TB, r *pipeline, body []byte, cuts []int) []*Change {
	t.Helper()
	m := newMirror(t, r)
	s := r.NewStream()
	var out []*Change
	before := string(r.Snapshot())
	each := func(c *Change) {
		m.apply(t, c)
		m.check(t, r, "SSE event "+strconv.Itoa(len(out)))
		if rejected(c) || hasCode(c, "wrong_dialect") {
			require.Empty(t, c.Ops, "rejected SSE event %d has ops", len(out))
			require.Equal(t, before, string(r.Snapshot()), "rejected SSE event %d changed the state", len(out))
		}
		before = string(r.Snapshot())
		cp := &Change{Ops: append([]reducer.Op(nil), c.Ops...), Events: append([]reducer.CustomEvent(nil), c.Events...), Diagnostics: append([]reducer.Diagnostic(nil), c.Diagnostics...)}
		out = append(out, cp)
	}
	prev := 0
	for _, cut := range cuts {
		s.Feed(body[prev:cut], each)
		prev = cut
	}
	s.Feed(body[prev:], each)
	s.Close()
	return out
}

// randomCuts returns n sorted offsets into a body of the given size.
func randomCuts(rng *rand.Rand, size, n int) []int {
	if size == 0 {
		return nil
	}
	cuts := make([]int, n)
	for i := range cuts {
		cuts[i] = rng.Intn(size + 1)
	}
	sort.Ints(cuts)
	return cuts
}

// TestDialectGoldens folds every dialect stream of testdata/dialects (one
// directory per dialect: .jsonl event lines, .sse bodies) detecting the
// dialect per event, and compares the final state with its hand-checked
// golden file. Pinning the directory's dialect must give the same state;
// an SSE body cut anywhere must too. No event may be rejected.
func TestDialectGoldens(t *testing.T) {
	files, err := filepath.Glob("testdata/*/*.*")
	require.NoError(t, err)
	n := 0
	for _, f := range files {
		ext := filepath.Ext(f)
		if ext != ".jsonl" && ext != ".sse" {
			continue
		}
		n++
		dir := filepath.Base(filepath.Dir(f))
		name := dir + "/" + strings.TrimSuffix(filepath.Base(f), ext)
		t.Run(name, func(t *testing.T) {
			fold := func(opt Options) (*pipeline, []*Change) {
				r := newPipeline(opt)
				if ext == ".jsonl" {
					return r, foldLines(t, r, readLines(t, f))
				}
				body, err := os.ReadFile(f)
				require.NoError(t, err)
				return r, foldSSE(t, r, body, nil)
			}
			r, cs := fold(Options{})
			for i, c := range cs {
				for _, d := range c.Diagnostics {
					t.Logf("event %d: %s %s: %s", i, d.Level, d.Code, d.Message)
				}
				require.False(t, c.HasError(), "event %d: %+v", i, c.Diagnostics)
			}
			snap := r.Snapshot()
			golden(t, strings.TrimSuffix(f, ext)+".state.json", snap)
			restored := newPipeline(Options{})
			_, err := restored.Restore(snap)
			require.NoError(t, err)
			require.Equal(t, string(snap), string(restored.Snapshot()), "restore(snapshot())")

			if _, ok := parseDialect(dir); ok {
				pinned, cs := fold(Options{Dialect: dir})
				for i, c := range cs {
					require.False(t, c.HasError(), "pinned %s, event %d: %+v", dir, i, c.Diagnostics)
				}
				require.Equal(t, string(snap), string(pinned.Snapshot()), "pinned %s", dir)
			}
			if ext == ".sse" {
				body, err := os.ReadFile(f)
				require.NoError(t, err)
				rng := rand.New(rand.NewSource(int64(len(body))))
				for trial := 0; trial < 50; trial++ {
					split := newPipeline(Options{})
					foldSSE(t, split, body, randomCuts(rng, len(body), 1+trial%16))
					require.Equal(t, string(snap), string(split.Snapshot()), "trial %d", trial)
				}
			}
		})
	}
	require.GreaterOrEqual(t, n, 20)
}
