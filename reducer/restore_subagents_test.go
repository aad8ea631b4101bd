package reducer

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestRestoreForgetsSubagents: a reducer that folded subagents and is then
// restored from another snapshot folds the same events as a fresh reducer
// does (restore replaced the subagent list but kept the old index by id, so
// a subagent of the same id was "found" at a position the new list did not
// have, and dropped).
func TestRestoreForgetsSubagents(t *testing.T) {
	files, err := filepath.Glob("testdata/agui10/*.jsonl")
	require.NoError(t, err)
	for _, f := range files {
		lines := readLines(t, f)
		fresh := New(Options{})
		empty := fresh.Snapshot()
		foldLines(t, fresh, lines)

		used := New(Options{})
		foldLines(t, used, lines)
		_, err := used.Restore(empty)
		require.NoError(t, err)
		foldLines(t, used, lines)
		require.JSONEq(t, string(fresh.Snapshot()), string(used.Snapshot()), filepath.Base(f))
	}
}
