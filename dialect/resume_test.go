package dialect

import (
	"reflect"
	"testing"

	"github.com/agui-reducer/agui/reducer/jsontree"
)

// resumeTree is Resume as it was written before it scanned instead of
// parsing: the reference FuzzResume holds the scan to.
func resumeTree(t *Translator, snapshot []byte) {
	t.Reset()
	v, _ := jsontree.Parse(snapshot, jsontree.ParseOptions{MaxDepth: 1 << 24})
	o, _ := v.(*jsontree.Object)
	if o == nil {
		return
	}
	t.thread, t.run = objString(o, "threadId"), objString(o, "runId")
	t.running = objString(o, "status") == "running"
	if t.run != "" && !t.running {
		t.done[t.run] = true
	}
	for _, key := range [...]string{"messages", "toolCalls", "steps"} {
		a, _ := o.Get(key)
		arr, _ := a.(*jsontree.Array)
		if arr == nil {
			continue
		}
		for _, e := range arr.Elems {
			if eo, ok := e.(*jsontree.Object); ok {
				if id := objString(eo, "id"); id != "" {
					switch key {
					case "messages":
						t.msgs[id] = true
					case "toolCalls":
						t.tools[id] = &toolRec{name: objString(eo, "name"), running: objString(eo, "status") == "running"}
					}
				}
				if key == "steps" && objString(eo, "status") == "running" {
					t.steps[objString(eo, "name")] = true
				}
			}
		}
	}
}

// checkResume compares what Resume and resumeTree remember of snapshot.
func checkResume(t *testing.T, snapshot []byte) {
	t.Helper()
	got, want := New(Options{}), New(Options{})
	got.Resume(snapshot)
	resumeTree(want, snapshot)
	type memory struct {
		Thread, Run string
		Running     bool
		Msgs, Steps map[string]bool
		Done        map[string]bool
		Tools       map[string]toolRec
	}
	of := func(t *Translator) memory {
		m := memory{t.thread, t.run, t.running, t.msgs, t.steps, t.done, map[string]toolRec{}}
		for id, r := range t.tools {
			m.Tools[id] = *r
		}
		return m
	}
	if g, w := of(got), of(want); !reflect.DeepEqual(g, w) {
		t.Fatalf("Resume(%q) remembers %+v, want %+v", snapshot, g, w)
	}
}

var resumeSnapshots = []string{
	``, `[]`, `{}`, `{"threadId":"t1","runId":"r1","status":"idle"}`,
	`{"threadId":"t1","runId":"r1","status":"running"}`,
	`{"runId":"r1","runId":"r2","status":1,"threadId":null}`,
	`{"messages":[{"id":"m1","role":"user","content":"hi"},{"id":""},{"id":2},"m3",{"id":"m\u0034","id":"m5"}]}`,
	`{"messages":[{"id":"m1"}],"messages":{"id":"m2"}}`,
	`{"toolCalls":[{"id":"c1","name":"search","status":"running"},{"id":"c2","name":7,"status":"complete"},{"id":"c1","name":"again","status":"\u0072unning"}]}`,
	`{"steps":[{"name":"plan","status":"running"},{"status":"running"},{"name":"done","status":"completed"}]}`,
	`{"threadId":"t","messages":[{"id":"m1"}],"steps":[`, `{"messages":[{"id":"m1"}]} x`,
	`{"messages":[{"id":"m1","content":{"nested":[{"id":"no"}]}}],"toolCalls":null,"steps":"x"}`,
}

func TestResume(t *testing.T) {
	for _, s := range resumeSnapshots {
		checkResume(t, []byte(s))
	}
}

// FuzzResume holds the scanning Resume to the tree-based one it replaced:
// whatever the text, both remember the same thread, run, ids and steps.
func FuzzResume(f *testing.F) {
	for _, s := range resumeSnapshots {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, snapshot []byte) {
		checkResume(t, snapshot)
	})
}
