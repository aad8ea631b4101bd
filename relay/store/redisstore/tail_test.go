package redisstore

import (
	"strconv"
	"strings"
	"testing"

	"github.com/agui-reducer/agui/relay/store"
)

// newWatched is a tail (no subscription) watching run "r", seeded with
// its record at frames frames.
func newWatched(frames int64) *tail {
	t := &tail{watches: map[string]*watch{}}
	_, _, _, changed := t.take("r", 0, 1)
	t.seed(&store.Run{Key: "r", Frames: frames}, changed)
	return t
}

// frameString is frames as "seq=data,…".
func frameString(fs []store.Frame) string {
	var b strings.Builder
	for _, f := range fs {
		b.WriteString(strconv.FormatInt(f.Seq, 10) + "=" + string(f.Data))
		b.WriteByte(',')
	}
	return b.String()
}

// TestWatch: what the notifications tell a watch, and when a reader must
// read Redis instead.
func TestWatch(t *testing.T) {
	for _, tc := range []struct {
		name   string
		notes  []string
		after  int64
		ok     bool
		frames string
		done   bool
	}{
		{"caught up", nil, 3, true, "", false},
		{"one frame", []string{"r:4:f\nA"}, 3, true, "4=A,", false},
		{"frames in one message", []string{"r:4:m\n1:A2:BC0:"}, 3, true, "4=A,5=BC,6=,", false},
		{"data with colons and newlines", []string{"r:4:m\n3:a:b4:c\nde"}, 3, true, "4=a:b,5=c\nde,", false},
		{"from the middle", []string{"r:4:m\n1:A1:B", "r:6:f\nC"}, 4, true, "5=B,6=C,", false},
		{"behind the watch", []string{"r:4:f\nA"}, 1, false, "", false},
		{"ahead of the watch", nil, 7, false, "", false},
		{"a gap", []string{"r:5:f\nA"}, 3, false, "", false},
		{"a seq announced again (frames lost)", []string{"r:4:f\nA", "r:4:f\nB"}, 3, false, "", false},
		{"the last frame", []string{"r:4:efinished\nZ"}, 3, true, "4=Z,", true},
		{"the end without a frame", []string{"r:4:xerror\n"}, 3, true, "", true},
		{"a bad length", []string{"r:4:m\n9:A"}, 3, false, "", false},
		{"another run's", []string{"q:4:f\nA"}, 3, true, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWatched(3)
			for _, n := range tc.notes {
				w.notify(n)
			}
			fs, r, ok, _ := w.take("r", tc.after, 100)
			if ok != tc.ok {
				t.Fatalf("ok %v, want %v", ok, tc.ok)
			}
			if !ok {
				return
			}
			if got := frameString(fs); got != tc.frames || r.Done() != tc.done {
				t.Fatalf("frames %q done %v, want %q %v", got, r.Done(), tc.frames, tc.done)
			}
		})
	}
}

// FuzzNotify: no notification makes a watch panic or hand out frames that
// do not follow the reader's seq one by one.
func FuzzNotify(f *testing.F) {
	for _, s := range []string{"r:4:f\nA", "r:4:m\n1:A2:BC", "r:4:efinished\nZ", "r:4:xerror\n", "r:4:m\n9:A", "r::\n", "r"} {
		f.Add(s, int64(3))
	}
	f.Fuzz(func(t *testing.T, note string, after int64) {
		w := newWatched(3)
		w.notify(note)
		w.notify(note)
		fs, _, ok, _ := w.take("r", after, 100)
		if !ok {
			return
		}
		for i, fr := range fs {
			if fr.Seq != after+1+int64(i) {
				t.Fatalf("frame %d has seq %d after %d", i, fr.Seq, after)
			}
		}
	})
}
