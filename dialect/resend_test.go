package dialect

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agui-reducer/agui/reducer"
	"github.com/stretchr/testify/require"
)

type frame struct{ name, data string }

// streamFrames reads a dialect stream of testdata: JSON lines, or an SSE
// body split into its frames.
func streamFrames(t testing.TB, path string) []frame {
	t.Helper()
	if filepath.Ext(path) == ".jsonl" {
		var out []frame
		for _, l := range readLines(t, path) {
			out = append(out, frame{data: l})
		}
		return out
	}
	body, err := os.ReadFile(path)
	require.NoError(t, err)
	var out []frame
	for _, block := range strings.Split(strings.ReplaceAll(string(body), "\r\n", "\n"), "\n\n") {
		var f frame
		var data []string
		for _, l := range strings.Split(block, "\n") {
			if v, ok := strings.CutPrefix(l, "event:"); ok {
				f.name = strings.TrimSpace(v)
			} else if v, ok := strings.CutPrefix(l, "data:"); ok {
				data = append(data, strings.TrimPrefix(v, " "))
			}
		}
		if len(data) > 0 {
			f.data = strings.Join(data, "\n")
			out = append(out, f)
		}
	}
	return out
}

// Property: a dialect stream cut at any point and resent from the start of
// any run it began before the cut folds, through the translator, to the
// state of the uncut stream, as a canonical stream does (reducer/replay.go).
func TestDialectCutAndResendConverges(t *testing.T) {
	files, err := filepath.Glob("testdata/*/*.*")
	require.NoError(t, err)
	checked := 0
	for _, f := range files {
		if ext := filepath.Ext(f); ext != ".jsonl" && ext != ".sse" {
			continue
		}
		frames := streamFrames(t, f)
		fold := func(p *pipeline, fs []frame) {
			for _, fr := range fs {
				p.ApplyFrameInto(new(Change), fr.name, []byte(fr.data))
			}
		}
		newP := func() *pipeline {
			p := newPipeline(Options{})
			p.r = reducer.New(reducer.Options{})
			return p
		}
		want := newP()
		// The frames that start a run: those whose translation begins
		// with RUN_STARTED.
		var starts []int
		for i, fr := range frames {
			c := new(Change)
			want.ApplyFrameInto(c, fr.name, []byte(fr.data))
			if strings.Contains(fr.data, `"RUN_STARTED"`) && strings.Contains(fr.data, `"runId"`) {
				starts = append(starts, i)
			}
		}
		wantSnap := want.Snapshot()
		for cut := 0; cut <= len(frames); cut++ {
			for _, from := range starts {
				if from > cut {
					break
				}
				p := newP()
				fold(p, frames[:cut])
				fold(p, frames[from:])
				if got := p.Snapshot(); !bytes.Equal(got, wantSnap) {
					t.Errorf("%s cut at %d, resent from %d:\n got %s\nwant %s", f, cut, from, got, wantSnap)
				}
				checked++
			}
		}
	}
	t.Logf("%d cut/resend pairs", checked)
}
