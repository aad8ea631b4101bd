package dialect

import "maps"

// Resent runs. The reducer takes a checkpoint at a run's RUN_STARTED and,
// when the same run (thread and run id) is started again while still open,
// rewinds to it before folding the run again (reducer/replay.go). The
// translator keeps the same rule for its own memory, from the canonical
// RUN_STARTED it passes on, so a resent run translates as it did the
// first time (the same derived ids, the same deltas): nothing flows back
// from the reducer. Only the run going on is kept; the memory it restores
// is what outlives a run (the ids in use, the tool calls, the id
// counters); what a run scopes is cleared at every RUN_STARTED anyway.
//
// The checkpoint costs what the run changes, not the conversation's size:
// it lists the ids the run adds and saves a tool call's record the first
// time the run changes it (touchTool), and copies the message ids only
// when a MESSAGES_SNAPSHOT replaces them.
type runCheckpoint struct {
	thread, run string
	n           [idKinds]int
	last        dialect

	msgs, activities []string            // ids added since
	allMsgs          map[string]bool     // t.msgs at the checkpoint, once a snapshot replaced them
	tools            map[string]*toolRec // records at the checkpoint (nil: absent), saved when first changed
}

// takeCheckpoint starts following the run that RUN_STARTED just started.
func (t *Translator) takeCheckpoint() {
	t.cp = &runCheckpoint{thread: t.thread, run: t.run, n: t.n, last: t.last, tools: map[string]*toolRec{}}
}

// resent reports whether a RUN_STARTED is the run going on, resent from its
// start.
func (t *Translator) resent(thread, run string) bool {
	return run != "" && t.running && t.cp != nil && t.cp.thread == thread && t.cp.run == run
}

// rewind puts the translator's memory back as it was at the checkpoint.
func (t *Translator) rewind() {
	cp := t.cp
	t.cp = nil
	if cp.allMsgs != nil {
		t.msgs = cp.allMsgs
	} else {
		for _, id := range cp.msgs {
			delete(t.msgs, id)
		}
	}
	for _, id := range cp.activities {
		delete(t.activities, id)
	}
	for id, rec := range cp.tools {
		if rec == nil {
			delete(t.tools, id)
		} else {
			t.tools[id] = rec
			t.noteLive(rec)
		}
	}
	t.n, t.last = cp.n, cp.last
}

// addMsg marks a message id in use.
func (t *Translator) addMsg(id string) {
	if t.msgs[id] {
		return
	}
	t.msgs[id] = true
	if t.cp != nil && t.cp.allMsgs == nil {
		t.cp.msgs = append(t.cp.msgs, id)
	}
}

// addActivity marks an activity message id.
func (t *Translator) addActivity(id string) {
	if t.activities[id] {
		return
	}
	t.activities[id] = true
	if t.cp != nil {
		t.cp.activities = append(t.cp.activities, id)
	}
}

// replaceMsgs is about to replace the message ids wholesale.
func (t *Translator) replaceMsgs() {
	if t.cp != nil && t.cp.allMsgs == nil {
		all := maps.Clone(t.msgs)
		for _, id := range t.cp.msgs {
			delete(all, id)
		}
		t.cp.allMsgs = all
	}
}

// touchTool saves tool call id's record, before it changes or is created,
// for the checkpoint, and returns it.
func (t *Translator) touchTool(id string) *toolRec {
	rec := t.tools[id]
	if t.cp == nil {
		return rec
	}
	if _, saved := t.cp.tools[id]; !saved {
		if rec != nil {
			s := *rec
			t.cp.tools[id] = &s
		} else {
			t.cp.tools[id] = nil
		}
	}
	return rec
}

// noteLive lists rec among the tool calls the run's end stops when it is
// running.
//
//go:noinline
func (t *Translator) noteLive(rec *toolRec) {
	if rec.running {
		t.live = append(t.live, rec)
	}
}
