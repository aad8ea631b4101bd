package dialect

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agui-reducer/agui/reducer/sse"
)

// FuzzNormalize feeds arbitrary event sequences through the dialect
// normaliser: data holds one event per line, names the SSE event names of
// the events (comma-separated, reused in turn), mode picks the dialect
// (auto for most values) and a tight field limit. Whatever arrives: no
// panic, the snapshot is valid JSON, restore(snapshot()) is identical,
// change records keep a mirror equal to the state, and a rejected event
// leaves the state untouched.
func FuzzNormalize(f *testing.F) {
	files, _ := filepath.Glob("testdata/*/*.*")
	for _, file := range files {
		body, err := os.ReadFile(file)
		if err != nil {
			continue
		}
		switch filepath.Ext(file) {
		case ".jsonl":
			f.Add("", body, uint8(0))
		case ".sse":
			evs, _ := sse.ParseAll(body)
			var names []string
			var data [][]byte
			for _, e := range evs {
				names = append(names, e.Type)
				data = append(data, []byte(e.Data))
			}
			f.Add(strings.Join(names, ","), bytes.Join(data, []byte("\n")), uint8(0))
		}
	}
	f.Add("tool_call_start,message,status", []byte(`{"toolCallId":"c","toolCallName":"f"}`+"\n"+`{"content":"x"}`+"\n"+`{"type":"complete"}`), uint8(8))
	f.Add("", []byte(`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","content":"abc"}`+"\n"+`{"event":"token","token":"x"}`), uint8(3))
	modes := []string{"", AGUI, SSEContract, TanStack, Streaming}
	f.Fuzz(func(t *testing.T, names string, data []byte, mode uint8) {
		opt := Options{MaxDepth: 64}
		if int(mode&7) < len(modes) {
			opt.Dialect = modes[mode&7]
		}
		if mode&8 != 0 {
			opt.MaxFieldBytes = 16
		}
		r := newPipeline(opt)
		m := newMirror(t, r)
		list := strings.Split(names, ",")
		var c Change
		for i, line := range bytes.Split(data, []byte("\n")) {
			before := r.Snapshot()
			r.ApplyFrameInto(&c, list[i%len(list)], line)
			if (rejected(&c) || hasCode(&c, "wrong_dialect")) && (len(c.Ops) > 0 || !bytes.Equal(before, r.Snapshot())) {
				t.Fatalf("rejected event %d changed the state: %q %+v", i, line, c.Diagnostics)
			}
			m.apply(t, &c)
		}
		snap := r.Snapshot()
		if !json.Valid(snap) {
			t.Fatalf("snapshot is not valid JSON: %s", snap)
		}
		m.check(t, r, "fuzz input")
		r2 := newPipeline(Options{})
		if _, err := r2.Restore(snap); err != nil {
			t.Fatalf("restore of own snapshot failed: %v", err)
		}
		if !bytes.Equal(snap, r2.Snapshot()) {
			t.Fatalf("restore(snapshot()) differs:\n%s\n%s", snap, r2.Snapshot())
		}
	})
}
