package reducer

import "strconv"

// The run's tool-call tally (AgentState.RunToolCalls): kept in the state so
// that restore(snapshot()) mid-run reports the same pendingToolCallIds at
// the run's end. The sets beside the lists make each step O(1).

// tallyStarted counts a TOOL_CALL_START.
func (r *Reducer) tallyStarted(c *Change, id string) {
	if r.runToolSeen[id] {
		return
	}
	r.runToolSeen[id] = true
	r.tallyAppend(c, &r.st.RunToolCalls.Started, "started", id)
}

// tallyAnswered counts a TOOL_CALL_RESULT.
func (r *Reducer) tallyAnswered(c *Change, id string) {
	if r.answered[id] {
		return
	}
	r.answered[id] = true
	r.tallyAppend(c, &r.st.RunToolCalls.Answered, "answered", id)
}

func (r *Reducer) tallyAppend(c *Change, list *[]string, key, id string) {
	was := r.st.RunToolCalls.empty()
	*list = append(*list, id)
	if was {
		c.add("/runToolCalls", r.st.RunToolCalls.appendJSON(make([]byte, 0, 32+len(id))))
		return
	}
	c.add("/runToolCalls/"+key+"/-", jsonString(id))
}

// clearTally empties the tally (a run starts or ends). The lists are let
// go, not truncated: a checkpoint may hold them.
func (r *Reducer) clearTally(c *Change) {
	clear(r.runToolSeen)
	clear(r.answered)
	if r.st.RunPatches > 0 {
		r.st.RunPatches = 0
		c.remove("/runPatches")
	}
	if r.st.RunToolCalls.empty() {
		return
	}
	r.st.RunToolCalls = RunTally{}
	c.remove("/runToolCalls")
}

// indexTally rebuilds the sets from the lists (restore, rewind).
func (r *Reducer) indexTally() {
	clear(r.runToolSeen)
	clear(r.answered)
	for _, id := range r.st.RunToolCalls.Started {
		r.runToolSeen[id] = true
	}
	for _, id := range r.st.RunToolCalls.Answered {
		r.answered[id] = true
	}
}

// countPatch counts an event of RunPatches that changed the state (its
// fold added to the ops, which held ops before it; an event that changed
// nothing, an unknown id, is no part of what a resend must skip).
func (r *Reducer) countPatch(c *Change, ev *Event, mark, ops int) {
	if !isPatch(ev.Type) || r.st.Status != StatusRunning || refusedSince(c, mark) || len(c.Ops) == ops {
		return
	}
	r.st.RunPatches++
	c.add("/runPatches", strconv.AppendInt(nil, int64(r.st.RunPatches), 10))
}

// isPatch reports whether events of type t count in RunPatches.
func isPatch(t EventType) bool {
	switch t {
	case StateSnapshot, StateDelta, ActivitySnapshot, ActivityDelta, MessagesSnapshot, ReasoningEncryptedValue,
		ThinkingTextMessageStart, ThinkingTextMessageContent, ThinkingTextMessageEnd:
		return true
	}
	return false
}
