package dialect

import (
	"strings"
	"testing"

	"github.com/agui-reducer/agui/reducer"
	"github.com/stretchr/testify/require"
)

// translated folds a frame the way Pipeline.Apply does when it takes no
// shortcut: every frame through the translator.
func translated(p *Pipeline, c *reducer.Change, name string, data []byte) {
	c.Reset()
	p.translate(c, name, data)
}

// TestPipelineShortcuts: Pipeline.Apply folds the frames it takes past the
// translator (streamed tokens, opaque canonical events) into the records
// and state the translator's own route makes, edge cases of the token
// layout included, in each dialect and with the reducer's size limit
// below the translator's.
func TestPipelineShortcuts(t *testing.T) {
	for _, d := range []string{"", "agui", "tanstack", "streaming", "sse-contract", "nope"} {
		for _, limit := range []int{0, 200} {
			fast, slow := shortcutPipelines(d, limit)
			var cf, cs reducer.Change
			for i, f := range shortcutFrames {
				fast.p.Apply(&cf, f.name, []byte(f.data))
				translated(slow.p, &cs, f.name, []byte(f.data))
				require.Equal(t, string(cs.AppendJSON(nil)), string(cf.AppendJSON(nil)), "dialect %q, reducer limit %d, frame %d %s", d, limit, i, f.data)
			}
			require.Equal(t, string(slow.Snapshot()), string(fast.Snapshot()), "dialect %q, reducer limit %d", d, limit)
		}
	}
}

// shortcutPipelines returns two equal pipelines of dialect d, their
// reducer's event size limit reducerLimit (0: the default).
func shortcutPipelines(d string, reducerLimit int) (fast, slow *pipeline) {
	fast, slow = newPipeline(Options{Dialect: d}), newPipeline(Options{Dialect: d})
	if reducerLimit > 0 {
		for _, p := range []*pipeline{fast, slow} {
			p.r = reducer.New(reducer.Options{MaxEventBytes: reducerLimit, Clock: fixedClock()})
			p.p = NewPipeline(p.r, p.t)
		}
	}
	return fast, slow
}

// FuzzPipelineShortcuts: any frame, after a run with a text and a
// reasoning message open, folds through Pipeline.Apply as through the
// translator's own route.
func FuzzPipelineShortcuts(f *testing.F) {
	for _, fr := range shortcutFrames {
		f.Add(fr.name, []byte(fr.data), false)
	}
	f.Fuzz(func(t *testing.T, name string, data []byte, small bool) {
		limit := 0
		if small {
			limit = 200
		}
		fast, slow := shortcutPipelines("", limit)
		var cf, cs reducer.Change
		for _, fr := range shortcutFrames[:2] {
			fast.p.Apply(&cf, fr.name, []byte(fr.data))
			translated(slow.p, &cs, fr.name, []byte(fr.data))
		}
		for _, fr := range []string{`{"type":"REASONING_MESSAGE_START","messageId":"rs1","role":"reasoning"}`, string(data), string(data)} {
			fast.p.Apply(&cf, name, []byte(fr))
			translated(slow.p, &cs, name, []byte(fr))
			if a, b := string(cs.AppendJSON(nil)), string(cf.AppendJSON(nil)); a != b {
				t.Fatalf("frame %q: translated %s, Pipeline.Apply %s", fr, a, b)
			}
		}
		if a, b := string(slow.Snapshot()), string(fast.Snapshot()); a != b {
			t.Fatalf("states differ: translated %s, Pipeline.Apply %s", a, b)
		}
	})
}

var long = strings.Repeat("x", 300)

// shortcutFrames are frames around the token layout Pipeline.Apply takes
// past the translator, and others.
var shortcutFrames = []struct{ name, data string }{
	{"", `{"type":"RUN_STARTED","threadId":"t1","runId":"r1"}`},
	{"", `{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}`},
	{"", `{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"Hello"}`},
	{"", `{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":""}`},
	{"", `{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"ends in a quote:\""}`},
	{"", `{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":":"}`},
	{"", `{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"","delta":""}`},
	{"", `{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":" \"quoted\" \u00e9\ud83d"}`},
	{"", `{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"\ude00 tail"}`},
	{"", `{"type":"TEXT_MESSAGE_CONTENT","messageId":"m\u0031","delta":"escaped id"}`},
	{"", `{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"` + long + `"}`},
	{"", `{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"extra","x":1}`},
	{"", `{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1", "delta":"space"}`},
	{"", `{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"ctl` + "\x01" + `"}`},
	{"", `{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"bad utf8 ` + "\xff" + `"}`},
	{"", `{"type":"TEXT_MESSAGE_CONTENT","messageId":"nope","delta":"unknown id"}`},
	{"", `{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"unterminated}`},
	{"message", `{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"named frame"}`},
	{"", `{"type":"REASONING_MESSAGE_START","messageId":"rs1","role":"reasoning"}`},
	{"", `{"type":"REASONING_MESSAGE_CONTENT","messageId":"rs1","delta":""}`},
	{"", `{"type":"REASONING_MESSAGE_CONTENT","messageId":"rs1","delta":"think"}`},
	{"", `{"type":"REASONING_MESSAGE_END","messageId":"rs1"}`},
	{"", `{"type":"REASONING_MESSAGE_CONTENT","messageId":"rs1","delta":"after end"}`},
	{"", `{"type":"TEXT_MESSAGE_END","messageId":"m1"}`},
	{"", `{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"after end"}`},
	{"", `{"type":"STATE_DELTA","delta":[{"op":"add","path":"/a","value":1}]}`},
	{"", `{"type":"TEXT_MESSAGE_CHUNK","messageId":"m2","delta":"chunk"}`},
	{"", `{"type":"TEXT_MESSAGE_CONTENT","messageId":"m2","delta":"into a chunk"}`},
	{"", `{"type":"RUN_FINISHED","threadId":"t1","runId":"r1"}`},
	// Another dialect's text stream, then canonical tokens into it.
	{"", `{"type":"content","id":"r2","delta":"tanstack"}`},
	{"", `{"type":"TEXT_MESSAGE_CONTENT","messageId":"r2","delta":"into a translated message"}`},
	{"", `{"event":"token","thread_id":"t1","token":"streaming"}`},
	{"", `{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"last"}`},
}
