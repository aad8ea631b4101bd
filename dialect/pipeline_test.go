package dialect

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/agui-reducer/agui/reducer"
	"github.com/stretchr/testify/require"
)

// TestPipelineFoldsAsStream: a canonical SSE body, with ids, a frame too
// large, and a second response that resends frames, gives the same change
// records and state through a Pipeline (with and without a translator) as
// through the reducer's own Stream, however the body is split.
func TestPipelineFoldsAsStream(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "testdata", "streams", "*.jsonl"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		events := readLines(t, f)
		var first, second strings.Builder
		for i, ev := range events {
			first.WriteString("id: " + strconv.Itoa(i) + "\ndata: " + ev + "\n\n")
			if i == len(events)/2 {
				first.WriteString("data: " + strings.Repeat("x", 5000) + "\n\n") // over MaxEventBytes
			}
		}
		for i := len(events) / 2; i < len(events); i++ { // a reconnect resends from the middle
			second.WriteString("id: " + strconv.Itoa(i) + "\ndata: " + events[i] + "\n\n")
		}
		bodies := []string{first.String()[:first.Len()-10], second.String()} // the first cut inside its last frame
		opt := reducer.Options{MaxEventBytes: 4096}
		for _, step := range []int{1, 7, 1 << 20} {
			name := filepath.Base(f) + "/step=" + strconv.Itoa(step)
			r0 := reducer.New(opt)
			want := foldBodies(bodies, step, r0.NewStream)
			all := strings.Join(want, "\n")
			require.Contains(t, all, `"resent_frames"`, name)
			require.Contains(t, all, `"too_large"`, name)
			for _, tr := range []*Translator{nil, New(Options{MaxEventBytes: opt.MaxEventBytes})} {
				r := reducer.New(opt)
				p := NewPipeline(r, tr)
				got := foldBodies(bodies, step, func() interface {
					Feed([]byte, func(*reducer.Change))
					Close()
				} {
					return p
				})
				require.Equal(t, want, got, "%s (translator: %v): change records", name, tr != nil)
				require.Equal(t, string(r0.Snapshot()), string(r.Snapshot()), "%s (translator: %v): state", name, tr != nil)
			}
		}
	}
}

// foldBodies feeds each body, step bytes at a time, to a new stream, and
// returns the change records.
func foldBodies[S interface {
	Feed([]byte, func(*reducer.Change))
	Close()
}](bodies []string, step int, newStream func() S) []string {
	var out []string
	each := func(c *reducer.Change) { out = append(out, string(c.AppendJSON(nil))) }
	for _, body := range bodies {
		s := newStream()
		for i := 0; i < len(body); i += step {
			s.Feed([]byte(body[i:min(i+step, len(body))]), each)
		}
		s.Close()
	}
	return out
}
