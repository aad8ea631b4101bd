package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/agui-reducer/agui/dialect"
	"github.com/agui-reducer/agui/reducer"
)

// checkConversationOf: after a restore, the translator learns from the
// state (dialect.ConversationOf) exactly what reading the snapshot would
// tell it (dialect.ReadConversation).
func checkConversationOf(t *testing.T, snapshot []byte) {
	t.Helper()
	r := reducer.New(reducer.Options{})
	if _, err := r.Restore(snapshot); err != nil {
		return
	}
	norm := func(c *dialect.Conversation) *dialect.Conversation {
		if len(c.MessageIDs) == 0 {
			c.MessageIDs = nil
		}
		if len(c.ToolCalls) == 0 {
			c.ToolCalls = nil
		}
		if len(c.RunningSteps) == 0 {
			c.RunningSteps = nil
		}
		return c
	}
	want, ok := dialect.ReadConversation(snapshot)
	if !ok {
		t.Fatalf("restored %q, which ReadConversation refuses", snapshot)
	}
	if got := dialect.ConversationOf(r.State()); !reflect.DeepEqual(norm(got), norm(want)) {
		t.Fatalf("dialect.ConversationOf(restore(%q)) = %+v, ReadConversation %+v", snapshot, got, want)
	}
}

// conversationSeeds are the snapshots of the 1.0 conversations, at every
// event, and a few by hand.
func conversationSeeds(t testing.TB) [][]byte {
	seeds := [][]byte{
		manyMessagesSnapshot(3),
		[]byte(`{"threadId":"t","runId":"r","status":"running","messages":[{"id":"m1","role":"user","content":"a"},{"id":"m1","role":"user","content":"b"},{"id":"","role":"user","content":"c"}],` +
			`"toolCalls":[{"id":"c1","name":"f","status":"running"},{"id":"c1","name":"g","status":"complete"}],"steps":[{"name":"s","status":"running"},{"name":"","status":"running"},{"name":"x","status":"completed"}]}`),
		[]byte(`{"runId":"r","runId":"r\u0032","status":"idle","messages":[{"id":"m\u00e9","id":"m2","role":"user","content":"a"}]}`),
	}
	files, _ := filepath.Glob("../reducer/testdata/agui10/*.jsonl")
	for _, file := range files {
		body, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		r := reducer.New(reducer.Options{})
		for _, line := range strings.Split(string(body), "\n") {
			if strings.TrimSpace(line) != "" {
				r.Apply([]byte(line))
				seeds = append(seeds, r.Snapshot())
			}
		}
	}
	return seeds
}

func TestConversationOf(t *testing.T) {
	for _, s := range conversationSeeds(t) {
		checkConversationOf(t, s)
	}
}

func FuzzConversationOf(f *testing.F) {
	for _, s := range conversationSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(checkConversationOf)
}
