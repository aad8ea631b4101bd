package reducer

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite golden files")

const corpusDir = "../testdata/corpus/dotnet"

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
	require.NoError(t, err, "missing golden file; run go test ./reducer -run Golden -update and check it by hand")
	require.Equal(t, string(want), buf.String(), "%s differs", path)
}

// fixedClock returns a clock that advances 100 ms per reading, so golden
// reasoning durations are stable.
func fixedClock() func() float64 {
	now := 0.0
	return func() float64 { now += 100; return now }
}

// TestGoldenStreams folds every testdata stream and compares the final state
// and the exported Message[] with their golden files.
func TestGoldenStreams(t *testing.T) {
	files, err := filepath.Glob("../testdata/streams/*.jsonl")
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(files), 12)
	seen := map[string]bool{}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".jsonl")
		t.Run(name, func(t *testing.T) {
			lines := readLines(t, f)
			for _, l := range lines {
				var ev struct{ Type string }
				if json.Unmarshal([]byte(l), &ev) == nil {
					seen[ev.Type] = true
				}
			}
			r := New(Options{Clock: fixedClock()})
			cs := foldLines(t, r, lines)
			for i, c := range cs {
				for _, d := range c.Diagnostics {
					t.Logf("event %d: %s %s: %s", i, d.Level, d.Code, d.Message)
				}
			}
			base := strings.TrimSuffix(f, ".jsonl")
			golden(t, base+".state.json", r.Snapshot())
			golden(t, base+".messages.json", r.AppendMessages(nil))
		})
	}
	for _, typ := range allTypes {
		require.True(t, seen[string(typ)], "no golden stream has a %s event", typ)
	}
}

var allTypes = []EventType{
	TextMessageStart, TextMessageContent, TextMessageEnd, TextMessageChunk,
	ToolCallStart, ToolCallArgs, ToolCallEnd, ToolCallChunk, ToolCallResult,
	ThinkingStart, ThinkingEnd, ThinkingTextMessageStart, ThinkingTextMessageContent, ThinkingTextMessageEnd,
	StateSnapshot, StateDelta, MessagesSnapshot, ActivitySnapshot, ActivityDelta,
	Raw, Custom, RunStarted, RunFinished, RunError, StepStarted, StepFinished,
	ReasoningStart, ReasoningMessageStart, ReasoningMessageContent, ReasoningMessageEnd,
	ReasoningMessageChunk, ReasoningEnd, ReasoningEncryptedValue,
}

// TestCorpus folds every recorded stream: no error-level diagnostic, golden
// final state; a turn-2 file is folded after its turn 1 in the same reducer.
func TestCorpus(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(corpusDir, "*.jsonl"))
	require.NoError(t, err)
	require.Len(t, files, 20, "the corpus is part of the repository: "+corpusDir)
	for _, f := range files {
		base := filepath.Base(f)
		if strings.HasSuffix(base, "-turn2.jsonl") {
			continue
		}
		name := strings.TrimSuffix(base, "-turn1.jsonl")
		t.Run(name, func(t *testing.T) {
			r := New(Options{Clock: fixedClock()})
			for turn := 1; turn <= 2; turn++ {
				path := strings.Replace(f, "-turn1.jsonl", "-turn"+string(rune('0'+turn))+".jsonl", 1)
				if _, err := os.Stat(path); err != nil {
					continue
				}
				if turn == 2 {
					// The UI sends the next request from the folded state.
					in := r.RunInput(RunInputOptions{RunID: "next"})
					require.True(t, json.Valid(in))
				}
				cs := foldLines(t, r, readLines(t, path))
				for i, c := range cs {
					require.False(t, c.HasError(), "turn %d event %d: %+v", turn, i, c.Diagnostics)
				}
				golden(t, filepath.Join("../testdata/corpus", name+"-turn"+string(rune('0'+turn))+".state.json"), r.Snapshot())
			}
			golden(t, filepath.Join("../testdata/corpus", name+".messages.json"), r.AppendMessages(nil))
			s := snapshotOf(t, r)
			require.Equal(t, "idle", s["status"], "every recorded run finishes")
			for _, m := range msgs(s) {
				require.Equal(t, false, m.(map[string]any)["streaming"])
			}
		})
	}
}
