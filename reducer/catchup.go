package reducer

import "bytes"

// Catching up. Two resends have no checkpoint to rewind to (replay.go):
//
//   - a run resent from its start to a reducer restored from a snapshot
//     taken while the run was going on (the checkpoint of the run's start
//     is not in the snapshot);
//   - a RUN_STARTED naming a run already folded to its end: a replay of
//     it, or a later run that reuses its id (an adapter that echoes the
//     client's run id, an interrupt resumed under the same id).
//
// In both the reducer catches up: an event the state already shows is
// dropped, and the first event it does not show ends the catch-up and is
// folded, with everything after it. An event is shown when it starts an
// entity the state holds (a message, a tool call, a subagent, a step, a
// tool result), streams text that the entity's text
// has at that place (its deltas are followed through the text), or ends
// what is not open (which changes nothing, then as now). For a run already folded, its RUN_STARTED is
// held back: a replay that shows nothing new changes nothing, as before,
// and a new run under the same id folds from its RUN_STARTED on, so its
// answer is not lost for its id. Deduplication thus goes by what is
// resent, never by the id alone.
//
// The events that change the state in ways it cannot be compared with
// (state and activity snapshots and patches, messages snapshots, encrypted
// values, legacy THINKING_* text, whose messages the reducer names itself)
// are counted in the state while the run goes on (AgentState.RunPatches):
// that many of them are resent, the next is new. Of a run folded to its
// end, all of them are. Custom, raw and reasoning-span events change no
// state: during a catch-up they are dropped. A stream whose frames carry
// ids ends the catch-up exactly, after the frame whose id is the cursor
// the catch-up began with (the last frame folded): everything after it is
// new (Stream, SetLastEventID); and a response whose first frame has an id
// not folded was resumed after the cursor the client sent: it is new,
// unless it starts the run again. Amendments are idempotent and always fold.
//
// A catch-up ends at a RUN_STARTED of another run and at a local action;
// that of a run already folded ends at the end of its stream too (its
// held RUN_STARTED dropped: a replay cut short), while that of an open run
// goes on into the next stream, which may go on resending it. Nothing
// leaves the reducer catching up for good: the first new event ends it.
type catchup struct {
	key     runKey
	pending *Event // the held RUN_STARTED of a run already folded; nil: the run is open
	cursor  string // state.lastEventId when it began

	// How far the resent deltas went through each entity's text.
	text, reasoning map[*Message]int
	args            map[*ToolCall]int
	patches         int            // events of RunPatches seen
	resumed         bool           // a response began after the cursor: what comes is new unless it starts the run again
	steps           map[string]int // STEP_STARTED seen, by name
}

// startCatchup begins catching up with run k; pending is its held
// RUN_STARTED when the run was folded to its end already.
func (r *Reducer) startCatchup(k runKey, pending *Event) {
	r.catching = &catchup{key: k, pending: pending, cursor: r.st.LastEventID}
	r.catching.restart()
}

// restart follows a resend from the run's start again.
func (cu *catchup) restart() {
	cu.text, cu.reasoning = map[*Message]int{}, map[*Message]int{}
	cu.args = map[*ToolCall]int{}
	cu.steps = map[string]int{}
	cu.patches, cu.resumed = 0, false
}

// endCatchup stops catching up, dropping a held RUN_STARTED: the replay
// was cut short, or was a replay to its end.
func (r *Reducer) endCatchup() { r.catching = nil }

// caughtUp ends the catch-up at an event the state does not show: a held
// RUN_STARTED folds first, as the start of a new run under a known id.
func (r *Reducer) caughtUp(c *Change) {
	cu := r.catching
	r.catching = nil
	if cu == nil || cu.pending == nil {
		return
	}
	c.warn("reused_run", "RUN_STARTED: run '"+cu.key.run+"' was folded already, and what follows is new: a later run under the same id; folding it")
	ev := cu.pending
	r.takeCheckpoint(cu.key)
	if r.opt.Strict {
		r.verify.check(c, ev)
	}
	r.reduce(c, ev)
}

// catchUp reports whether ev, a canonical event met while catching up, is
// shown already (drop it); when it is not, the catch-up ends and ev folds.
// A delta that goes past the text shown is trimmed to what is new.
func (r *Reducer) catchUp(c *Change, ev *Event) bool {
	if !r.catching.resumed && r.shown(ev) {
		return true
	}
	r.caughtUp(c)
	return false
}

func (r *Reducer) shown(ev *Event) bool {
	cu := r.catching
	switch ev.Type {
	case TextMessageStart:
		return r.msgByID[ev.MessageID] != nil
	case ReasoningMessageStart:
		m := r.msgByID[ev.MessageID]
		return m != nil && m.hasReasoning
	case TextMessageContent:
		m := r.msgByID[ev.MessageID]
		return m != nil && m.contentKind != contentValue && follow(cu.text, m, m.text, ev)
	case ReasoningMessageContent:
		m := r.msgByID[ev.MessageID]
		return m != nil && m.hasReasoning && follow(cu.reasoning, m, m.reasoning, ev)
	case TextMessageEnd, ReasoningMessageEnd:
		// The end of what is not open changes nothing, then as now.
		m := r.msgByID[ev.MessageID]
		return m == nil || !m.Streaming
	case ToolCallStart:
		return r.toolByID[ev.ToolCallID] != nil
	case ToolCallArgs:
		t := r.toolByID[ev.ToolCallID]
		return t != nil && follow(cu.args, t, t.args, ev)
	case ToolCallEnd:
		t := r.toolByID[ev.ToolCallID]
		return t == nil || t.Status != ToolRunning
	case ToolCallResult:
		return r.msgByID[ev.MessageID] != nil
	case SubagentStarted:
		return r.subByID[ev.SubagentRunID] != nil
	case SubagentFinished, SubagentError:
		s := r.subByID[ev.SubagentRunID]
		return s != nil && s.Status != SubagentStatusRunning
	case StepStarted:
		n := 0
		for _, s := range r.st.Steps {
			if s.Name == ev.StepName {
				n++
			}
		}
		if cu.steps[ev.StepName] < n {
			cu.steps[ev.StepName]++
			return true
		}
		return false
	case StepFinished:
		for _, s := range r.st.Steps {
			if s.Name == ev.StepName && s.Status == StepRunning {
				return false
			}
		}
		return true
	case Custom, Raw, ReasoningStart, ReasoningEnd, ThinkingStart, ThinkingEnd:
		return true
	}
	if isPatch(ev.Type) {
		// The first RunPatches of them were folded before the snapshot;
		// of a run folded to its end, all were.
		if cu.pending != nil {
			return true
		}
		if cu.patches < r.st.RunPatches {
			cu.patches++
			return true
		}
		return false
	}
	return false
}

// follow follows a resent delta through shown, the text of entity key: it
// reports whether the delta is the text at the place the deltas before it
// reached. A delta that begins with the rest of the text is trimmed to
// what goes past it (and is not shown).
func follow[K comparable](pos map[K]int, key K, shown []byte, ev *Event) bool {
	d := ev.Delta
	p, ok := pos[key]
	if !ok && d != "" && !bytes.HasPrefix(shown, []byte(d)) {
		// The entity's text began before the run (text added to a
		// message of an earlier run): the run's first delta is found
		// in it.
		if i := bytes.Index(shown, []byte(d)); i > 0 {
			p = i
		}
	}
	if p+len(d) <= len(shown) && string(shown[p:p+len(d)]) == d {
		pos[key] = p + len(d)
		return true
	}
	if p < len(shown) && len(d) > len(shown)-p && d[:len(shown)-p] == string(shown[p:]) {
		ev.Delta = d[len(shown)-p:]
		pos[key] = len(shown)
	}
	return false
}

// passCursor ends the catch-up after the frame with id id, when id is the
// cursor it began with: every frame after it is new.
func (r *Reducer) passCursor(c *Change, id string) {
	if cu := r.catching; cu != nil && id != "" && id == cu.cursor {
		r.caughtUp(c)
	}
}
