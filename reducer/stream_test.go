package reducer

import (
	"bytes"
	"math/rand"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// foldSSE feeds an SSE body to a Stream in pieces cut at the given offsets,
// checking after every event that the change records keep a mirror equal to
// the snapshot and that a rejected event changed nothing. It returns a copy
// of every change.
func foldSSE(t testing.TB, r *Reducer, body []byte, cuts []int) []*Change {
	t.Helper()
	m := newMirror(t, r)
	s := r.NewStream()
	var out []*Change
	before := string(r.Snapshot())
	each := func(c *Change) {
		m.apply(t, c)
		m.check(t, r, "SSE event "+strconv.Itoa(len(out)))
		if rejected(c) {
			require.Empty(t, c.Ops, "rejected SSE event %d has ops", len(out))
			require.Equal(t, before, string(r.Snapshot()), "rejected SSE event %d changed the state", len(out))
		}
		before = string(r.Snapshot())
		cp := &Change{Ops: append([]Op(nil), c.Ops...), Events: append([]CustomEvent(nil), c.Events...), Diagnostics: append([]Diagnostic(nil), c.Diagnostics...)}
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

// onlyEventID reports whether c is the change a Stream adds after a chunk
// whose frames moved the last event id.
func onlyEventID(c *Change) bool {
	return len(c.Ops) == 1 && c.Ops[0].Path == "/lastEventId" && len(c.Events) == 0 && len(c.Diagnostics) == 0
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

// TestCorpusAsSSE turns every recorded corpus stream into an SSE body (with
// event names, comments, ids and CRLF line endings here and there) and feeds
// it to Reducer.NewStream cut at many random byte offsets: the final state
// must be exactly the one the lines give when applied directly.
func TestCorpusAsSSE(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(corpusDir, "*.jsonl"))
	require.NoError(t, err)
	require.Len(t, files, 20, "the corpus is part of the repository: "+corpusDir)
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".jsonl"), func(t *testing.T) {
			lines := readLines(t, f)
			direct := New(Options{Clock: fixedClock()})
			for _, l := range lines {
				direct.Apply([]byte(l))
			}
			direct.SetLastEventID(strconv.Itoa(len(lines) - 1)) // the body's frames carry ids
			want := string(direct.Snapshot())

			rng := rand.New(rand.NewSource(int64(len(lines))))
			var body bytes.Buffer
			body.WriteString("\xef\xbb\xbf: recorded from " + filepath.Base(f) + "\n\n")
			for i, l := range lines {
				eol := "\n"
				if rng.Intn(4) == 0 {
					eol = "\r\n"
				}
				if rng.Intn(3) == 0 {
					body.WriteString("event: message" + eol)
				}
				if rng.Intn(5) == 0 {
					body.WriteString(": keep-alive" + eol)
				}
				body.WriteString("id: " + strconv.Itoa(i) + eol)
				body.WriteString("data: " + l + eol + eol)
			}
			data := body.Bytes()
			for trial := 0; trial < 40; trial++ {
				r := New(Options{Clock: fixedClock()})
				cuts := randomCuts(rng, len(data), []int{1, 3, 17, 100, len(data) / 2}[trial%5])
				if trial == 0 {
					cuts = nil // whole
				}
				cs := foldSSE(t, r, data, cuts)
				cs = slices.DeleteFunc(cs, onlyEventID)
				require.Len(t, cs, len(lines), "trial %d: one change per event (and the id's, per chunk)", trial)
				require.Equal(t, want, string(r.Snapshot()), "trial %d", trial)
			}
			// Byte by byte.
			r := New(Options{Clock: fixedClock()})
			s := r.NewStream()
			for i := range data {
				s.Feed(data[i:i+1], func(*Change) {})
			}
			require.Equal(t, want, string(r.Snapshot()), "byte by byte")
		})
	}
}
