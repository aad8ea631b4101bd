package reducer

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
		c.add("/runToolCalls", r.st.RunToolCalls.appendJSON(nil))
		return
	}
	c.add("/runToolCalls/"+key+"/-", jsonString(id))
}

// clearTally empties the tally (a run starts or ends). The lists are let
// go, not truncated: a checkpoint may hold them.
func (r *Reducer) clearTally(c *Change) {
	clear(r.runToolSeen)
	clear(r.answered)
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
