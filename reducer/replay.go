package reducer

import (
	"slices"

	"github.com/agui-reducer/agui/reducer/jsonpatch"
	"github.com/agui-reducer/agui/reducer/jsontree"
)

// Replays. A reconnecting transport may resend a run's events. A run is
// identified by its (threadId, runId); the rules:
//
//   - A RUN_STARTED of a run already folded to its end (its RUN_FINISHED or
//     RUN_ERROR was applied while it was open) starts skipping: the events
//     that follow are dropped until that run's own RUN_FINISHED/RUN_ERROR,
//     a RUN_STARTED of another run, a local action or the end of the
//     stream (Stream.Close, the web module's endStream()). Nothing can
//     leave the reducer skipping for good.
//   - A RUN_STARTED of a run that is still open (started, not ended) means
//     the run is resent from its start: the reducer rewinds to the
//     checkpoint it took at that run's first RUN_STARTED, then folds it
//     again, so the resent events do not apply twice.
//
// A checkpoint costs O(1) to take plus the entities the run changes: the
// message and tool-call lists are copied (pointers), an entity that
// existed at the checkpoint is saved the first time the run changes it
// (touch), and the patches of the shared state and activity content keep
// their undo records (jsonpatch.Journal). Runs still open when more start
// keep their checkpoints (up to maxCheckpoints, oldest dropped). The local
// actions that start a new turn drop them. The amendments of the dialects
// (amend.go) are handlers like the others: they touch what they change.
// The dialect translator in front of a reducer keeps the same rule for
// its own memory (package dialect, rewind.go), from the canonical events
// it passes on, so nothing flows back from the reducer to it.

// runKey identifies a run.
type runKey struct{ thread, run string }

// maxCheckpoints bounds the runs open at once that can still be rewound;
// maxJournal the undo records kept for them.
const (
	maxCheckpoints = 4
	maxJournal     = 1 << 16
)

type checkpoint struct {
	key   runKey
	epoch uint64 // entities born before it are saved when touched
	st    AgentState
	steps []Step
	msgs  []*Message
	tools []*ToolCall
	subs  []Subagent // subagents are few: kept whole

	savedMsgs  map[*Message]Message // made when first needed: most runs change only their own
	savedTools map[*ToolCall]ToolCall
	journal    int // r.journal.Len() at the checkpoint

	stateBytes, activityBytes int64
	chunks                    chunkState
	verify                    verifier

	restored bool // taken when a restored run was resent: catch up after a rewind to it
}

// runOf names the run an event belongs to; RUN_FINISHED may leave out its
// ids (the current run), RUN_ERROR has none.
func (r *Reducer) runOf(ev *Event) runKey {
	if ev.Type == RunStarted {
		return runKey{ev.ThreadID, ev.RunID}
	}
	if ev.RunID == "" {
		return runKey{r.st.ThreadID, r.st.RunID}
	}
	thread := ev.ThreadID
	if thread == "" {
		thread = r.st.ThreadID
	}
	return runKey{thread, ev.RunID}
}

// skipReplay applies the replay rules to ev before it is folded and
// reports whether to drop it.
func (r *Reducer) skipReplay(c *Change, ev *Event) bool {
	if cu := r.catching; cu != nil {
		switch ev.Type {
		case RunStarted:
			if r.runOf(ev) == cu.key {
				cu.restart() // resent again: followed from its start again
				return true
			}
			r.endCatchup() // another run: the resend was cut short
		case RunFinished, RunError:
			same := ev.Type == RunError || ev.RunID == "" || r.runOf(ev) == cu.key
			if cu.pending != nil {
				// A run already folded, resent to its end with nothing
				// new: a replay, skipped whole.
				r.endCatchup()
				if same {
					return true
				}
			} else {
				r.caughtUp(c) // the open run's end is new
			}
		}
	}
	switch ev.Type {
	case RunStarted:
		k := r.runOf(ev)
		if ev.RunID == "" {
			break
		}
		if r.doneKeys[k] {
			held := *ev
			r.startCatchup(k, &held)
			c.warn("replayed_run", "RUN_STARTED: run '"+ev.RunID+"' was already folded; folding only what its events add")
			return true
		}
		if i := r.findCheckpoint(k); i >= 0 {
			c.warn("resent_run", "RUN_STARTED: run '"+ev.RunID+"' is resent from its start; folding it again")
			restored := r.checkpoints[i].restored
			r.rewind(c, i)
			if restored {
				r.takeCheckpoint(k)
				r.checkpoints[len(r.checkpoints)-1].restored = true
				r.startCatchup(k, nil)
				return true
			}
		} else if r.restored == k && r.st.Status == StatusRunning && r.st.RunID == k.run && r.st.ThreadID == k.thread {
			// Restored mid-run, the run is resent from its start: what
			// it folded before the snapshot is in the state already.
			c.warn("resent_run", "RUN_STARTED: run '"+ev.RunID+"' is resent from its start; folding what the restored state does not show")
			r.takeCheckpoint(k)
			r.checkpoints[len(r.checkpoints)-1].restored = true
			r.startCatchup(k, nil)
			return true
		}
		r.restored = runKey{}
		r.takeCheckpoint(k)
	case RunFinished, RunError:
		k := r.runOf(ev)
		i := r.findCheckpoint(k)
		if i >= 0 || k == (runKey{r.st.ThreadID, r.st.RunID}) && r.st.Status == StatusRunning {
			if k.run != "" {
				r.doneKeys[k] = true
				r.doneRuns[k.run] = true
			}
		}
		if i >= 0 {
			r.closeCheckpoint(i)
		}
	}
	return false
}

// newTurn is what a local action that starts a new turn does: a replay
// being skipped ends, and open runs can no longer be rewound (that would
// drop what the user added).
func (r *Reducer) newTurn() {
	r.endReplay()
	r.dropCheckpoints()
	r.restored = runKey{}
}

// endReplay ends a replay being skipped, or a catch-up (catchup.go): local
// actions and the end of a stream call it.
func (r *Reducer) endReplay() { r.endCatchup() }

// EndReplay ends the skipping of a replayed run, if one is under way: a
// host calls it when the user stops a run. Stream.Close and the local
// actions do it themselves.
func (r *Reducer) EndReplay() { r.endReplay() }

// findRunID finds the checkpoint of an open run with that id.
func (r *Reducer) findRunID(id string) int {
	for i, cp := range r.checkpoints {
		if cp.key.run == id {
			return i
		}
	}
	return -1
}

func (r *Reducer) findCheckpoint(k runKey) int {
	for i, cp := range r.checkpoints {
		if cp.key == k {
			return i
		}
	}
	return -1
}

func (r *Reducer) takeCheckpoint(k runKey) {
	if len(r.checkpoints) == maxCheckpoints {
		r.closeCheckpoint(0)
	}
	r.epoch++
	cp := &checkpoint{
		key:   k,
		epoch: r.epoch,
		st:    r.st,
		steps: slices.Clone(r.st.Steps),
		// The lists are shared, not copied (a copy would cost the
		// conversation's length each run): appends go past the
		// checkpoint's length, and what changes a message in place
		// copies the list first (ownMessages). Tool calls are only
		// appended.
		msgs:  r.st.Messages[:len(r.st.Messages):len(r.st.Messages)],
		tools: r.st.ToolCalls[:len(r.st.ToolCalls):len(r.st.ToolCalls)],
		subs:  saveSubagents(r.st.Subagents),

		journal: r.journal.Len(),

		stateBytes: r.stateBytes, activityBytes: r.activityBytes,
		chunks: r.chunks,
		verify: cloneVerifier(r.verify),
	}
	r.checkpoints = append(r.checkpoints, cp)
	r.newest = r.epoch
	r.msgsShared = true
}

// ownMessages makes the message list the state's alone, copying it when a
// checkpoint shares it, before a handler changes it in place.
func (r *Reducer) ownMessages() {
	if r.msgsShared {
		r.st.Messages = append(make([]*Message, 0, len(r.st.Messages)+1), r.st.Messages...)
		r.msgsShared = false
	}
}

func cloneVerifier(v verifier) verifier { return v.clone() }

// saveSubagents copies the subagents as they are: their handlers replace
// their fields, never change what a field points to.
func saveSubagents(list []*Subagent) []Subagent {
	out := make([]Subagent, len(list))
	for i, s := range list {
		out[i] = *s
	}
	return out
}

// closeCheckpoint forgets checkpoint i (its run ended).
func (r *Reducer) closeCheckpoint(i int) {
	r.checkpoints = slices.Delete(r.checkpoints, i, i+1)
	r.afterCheckpointsChange()
}

// dropCheckpoints forgets every checkpoint: the open runs can no longer be
// rewound.
func (r *Reducer) dropCheckpoints() {
	clear(r.checkpoints)
	r.checkpoints = r.checkpoints[:0]
	r.afterCheckpointsChange()
}

func (r *Reducer) afterCheckpointsChange() {
	if len(r.checkpoints) == 0 {
		r.journal.Reset()
		r.newest = 0
		return
	}
	r.newest = r.checkpoints[len(r.checkpoints)-1].epoch
}

// journalFor returns the journal the next patch records into, if a
// checkpoint needs it.
func (r *Reducer) journalFor() *jsonpatch.Journal {
	if len(r.checkpoints) == 0 {
		return nil
	}
	if r.journal.Len() > maxJournal {
		r.dropCheckpoints()
		return nil
	}
	return &r.journal
}

// touch saves m for the checkpoints taken after it was born, before a
// handler changes it in place.
func (r *Reducer) touch(m *Message) {
	if m == nil || m.born >= r.newest {
		return
	}
	for _, cp := range r.checkpoints {
		if m.born < cp.epoch {
			if _, ok := cp.savedMsgs[m]; !ok {
				if cp.savedMsgs == nil {
					cp.savedMsgs = map[*Message]Message{}
				}
				cp.savedMsgs[m] = saveMessage(m)
			}
		}
	}
}

func saveMessage(m *Message) Message {
	s := *m
	s.text = slices.Clone(m.text)
	s.reasoning = slices.Clone(m.reasoning)
	s.ToolCallIDs = slices.Clone(m.ToolCallIDs)
	if m.Metadata != nil {
		s.Metadata = jsontree.Clone(m.Metadata).(*jsontree.Object)
	}
	return s
}

// touchTool is touch for a tool call.
func (r *Reducer) touchTool(t *ToolCall) {
	if t == nil || t.born >= r.newest {
		return
	}
	for _, cp := range r.checkpoints {
		if t.born < cp.epoch {
			if _, ok := cp.savedTools[t]; !ok {
				s := *t
				s.args = slices.Clone(t.args)
				if t.SafeArgs != nil {
					s.SafeArgs = jsontree.Clone(t.SafeArgs) // filled in place as members complete
				}
				if t.Metadata != nil {
					s.Metadata = jsontree.Clone(t.Metadata).(*jsontree.Object)
				}
				if cp.savedTools == nil {
					cp.savedTools = map[*ToolCall]ToolCall{}
				}
				cp.savedTools[t] = s
			}
		}
	}
}

// tool finds a tool call by id for a handler that changes it.
func (r *Reducer) tool(id string) *ToolCall {
	t := r.toolByID[id]
	r.touchTool(t)
	return t
}

// rewind puts the state back as it was at checkpoint i and forgets the
// checkpoints from i on; the change replaces the whole document.
func (r *Reducer) rewind(c *Change, i int) {
	cp := r.checkpoints[i]
	r.journal.Rollback(cp.journal)
	for m, s := range cp.savedMsgs {
		*m = s
	}
	for t, s := range cp.savedTools {
		*t = s
		if !t.parser.final && t.parser.p != nil {
			// The parser and the validation went on with the run's
			// deltas: start them again.
			r.rebuildArgsCheck(t)
		}
	}
	// The cursor goes back with the state: a reconnect must not ask for
	// what follows frames the state no longer holds. The run's frames
	// must all be folded again.
	r.folded.forget()
	r.st = cp.st
	r.folded.add(r.st.LastEventID)
	r.st.Steps = cp.steps
	r.st.Messages = cp.msgs
	r.st.ToolCalls = cp.tools
	r.msgsShared = true
	r.open = openFrom{}
	r.st.Subagents = make([]*Subagent, len(cp.subs))
	clear(r.subByID)
	for i := range cp.subs {
		s := cp.subs[i]
		s.pos = i
		r.st.Subagents[i] = &s
		r.subByID[s.ID] = &s
	}
	r.indexTally()
	r.stateBytes, r.activityBytes = cp.stateBytes, cp.activityBytes
	r.chunks, r.verify = cp.chunks, cp.verify
	r.forgetTokens()
	clear(r.msgByID)
	clear(r.cited)
	for i, m := range r.st.Messages {
		m.pos = i
		if _, ok := r.msgByID[m.ID]; !ok {
			r.msgByID[m.ID] = m
		}
		if m.Citations != nil {
			r.cited[m] = struct{}{}
		}
	}
	clear(r.toolByID)
	for i, t := range r.st.ToolCalls {
		t.pos = i
		r.toolByID[t.ID] = t
	}
	clear(r.checkpoints[i:])
	r.checkpoints = r.checkpoints[:i]
	r.afterCheckpointsChange()
	c.replace("", r.st.AppendJSON(nil))
}
