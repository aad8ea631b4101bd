package reducer

import (
	"strconv"

	"github.com/agui-reducer/agui/reducer/jsontree"
)

func (r *Reducer) setStatus(c *Change, status string, loading bool) {
	if r.st.Status != status {
		r.st.Status = status
		c.replace("/status", jsonString(status))
	}
	if r.st.IsLoading != loading {
		r.st.IsLoading = loading
		c.replace("/isLoading", jsonBool(loading))
	}
}

func (r *Reducer) runStarted(c *Change, ev *Event) {
	// Import the input messages first: a bad one refuses the whole event.
	var in []*Message
	var raws []jsontree.Value
	if ev.Input != nil {
		tools, _ := ev.Input.Get("tools")
		r.SetTools(tools)
		mv, _ := ev.Input.Get("messages")
		if list, _ := mv.(*jsontree.Array); list != nil {
			for _, raw := range list.Elems {
				m, err := r.importMessage(raw)
				if err != nil {
					e := err.(*Error)
					c.fail("bad_event", "RUN_STARTED: input."+e.Message)
					return
				}
				in, raws = append(in, m), append(raws, raw)
			}
		}
	}
	var add int64
	for _, m := range in {
		add += m.charge
	}
	if add > 0 && r.overBudget(r.stateBytes, r.activityBytes+add) {
		c.fail("too_large", "RUN_STARTED: "+r.budgetError("the input's activity content", r.stateBytes+r.activityBytes+add))
		return
	}
	r.clearTally(c)
	r.setStatus(c, StatusRunning, true)
	if r.st.Error != nil {
		r.st.Error = nil
		c.replace("/error", []byte("null"))
	}
	if r.st.ThreadID != ev.ThreadID {
		r.st.ThreadID = ev.ThreadID
		c.replace("/threadId", jsonString(ev.ThreadID))
	}
	if r.st.RunID != ev.RunID {
		r.st.RunID = ev.RunID
		c.replace("/runId", jsonString(ev.RunID))
	}
	if len(r.st.Steps) > 0 {
		r.st.Steps = r.st.Steps[:0]
		c.replace("/steps", []byte("[]"))
	}
	// Input messages are appended when their id is new; existing ones are
	// not updated (official semantics).
	for i, m := range in {
		if r.findMessage(m.ID) != nil {
			continue
		}
		r.appendMessage(c, m)
		r.reflectToolCalls(c, m, raws[i])
	}
}

func (r *Reducer) runFinished(c *Change, ev *Event) {
	r.setStatus(c, StatusIdle, false)
	r.closeOpen(c, false)
	var interrupts *jsontree.Array
	class := "success"
	if ev.Outcome != nil {
		switch t, _ := ev.Outcome.Get("type"); t {
		case "interrupt":
			class = "interrupt"
			l, _ := ev.Outcome.Get("interrupts")
			interrupts, _ = l.(*jsontree.Array)
			interrupts = stripNullTags(interrupts)
		case "cancelled":
			class = "cancelled"
		}
	}
	if r.st.Outcome != class {
		r.st.Outcome = class
		c.add("/outcome", jsonString(class))
	}
	r.setPending(c, ev, class)
	r.clearTally(c)
	if interrupts != nil || r.st.Interrupts != nil && r.st.Interrupts.Len() > 0 {
		r.st.Interrupts = interrupts
		c.replace("/interrupts", appendArrayOrEmpty(nil, interrupts))
	}
	r.setUsage(c, ev.Usage)
	if class != "success" {
		// Only a success captures a result: the last one stays.
		return
	}
	if ev.HasResult {
		r.st.Result, r.st.HasResult = ev.Result, true
		c.add("/result", jsonValue(ev.Result))
	} else if r.st.HasResult {
		r.st.Result, r.st.HasResult = nil, false
		c.remove("/result")
	}
}

// stripNullTags copies the interrupts whose subagentRunId is null without
// that key, as the official client copies them into pendingInterrupts.
func stripNullTags(a *jsontree.Array) *jsontree.Array {
	if a == nil {
		return nil
	}
	var out *jsontree.Array
	for i, e := range a.Elems {
		o, _ := e.(*jsontree.Object)
		if o == nil {
			continue
		}
		if v, ok := o.Get("subagentRunId"); !ok || v != nil {
			continue
		}
		if out == nil {
			out = &jsontree.Array{Elems: append([]jsontree.Value(nil), a.Elems...)}
		}
		cp := jsontree.NewObject(o.Len())
		for j := 0; j < o.Len(); j++ {
			if o.KeyAt(j) != "subagentRunId" {
				cp.Set(o.KeyAt(j), o.ValueAt(j))
			}
		}
		out.Elems[i] = cp
	}
	if out == nil {
		return a
	}
	return out
}

// setPending records the tool calls a successful run leaves to the client
// (official pendingToolCallIds): the outcome's list when non-empty, else
// the run's started calls that no result answered.
func (r *Reducer) setPending(c *Change, ev *Event, class string) {
	pending := []string{}
	if class == "success" {
		if ev.Outcome != nil {
			l, _ := ev.Outcome.Get("pendingToolCallIds")
			if a, _ := l.(*jsontree.Array); a != nil && a.Len() > 0 {
				for _, e := range a.Elems {
					pending = append(pending, e.(string))
				}
			}
		}
		if len(pending) == 0 {
			for _, id := range r.st.RunToolCalls.Started {
				if !r.answered[id] {
					pending = append(pending, id)
				}
			}
		}
	}
	if len(pending) == 0 && len(r.st.PendingToolCallIDs) == 0 {
		return
	}
	r.st.PendingToolCallIDs = pending
	c.replace("/pendingToolCallIds", appendStrings(nil, pending))
}

func (r *Reducer) setUsage(c *Change, usage *jsontree.Array) {
	if usage == nil && r.st.Usage == nil {
		return
	}
	r.st.Usage = usage
	c.replace("/usage", appendArrayOrEmpty(nil, usage))
}

// runError records a failed run (RUN_ERROR, or the host's fail action).
func (r *Reducer) runError(c *Change, message, code string, hasCode bool, usage *jsontree.Array) {
	r.setStatus(c, StatusError, false)
	r.st.Error = &RunErr{Message: message, Code: code, HasCode: hasCode}
	c.replace("/error", r.st.Error.appendJSON(nil))
	r.closeOpen(c, true)
	r.clearTally(c)
	if usage != nil {
		r.setUsage(c, usage)
	}
}

// closeOpen stops every streaming message; running tool calls end as
// complete when the run finished, or as errored when it failed.
func (r *Reducer) closeOpen(c *Change, failed bool) {
	// Once per run, not per token: a scan is cheaper than keeping sets,
	// and it starts where a message may stream (open.go).
	msgs, tools := r.st.Messages[min(r.open.msgs, len(r.st.Messages)):], r.st.ToolCalls[min(r.open.tools, len(r.st.ToolCalls)):]
	r.open = openFrom{len(r.st.Messages), len(r.st.ToolCalls)}
	for _, m := range msgs {
		if m.Streaming {
			r.stopStreaming(c, m)
		}
	}
	for _, t := range tools {
		if t.Status != ToolRunning {
			continue
		}
		r.touchTool(t)
		path := toolCallPath(t)
		if failed {
			// The arguments never finished: keep what arrived rather than
			// replacing it by {}.
			live := t.liveArgs()
			r.finishArgs(c, t)
			if !jsontree.Equal(live, t.Args) || sameShapeDiffers(live, t.Args) {
				t.Args = live
				c.replace(toolCallPath(t)+"/args", jsonValue(live))
			}
			t.Status = ToolError
		} else {
			t.Status = ToolComplete
			if !r.finishArgs(c, t) {
				t.Status = ToolError
			}
		}
		c.replace(path+"/status", jsonString(t.Status))
	}
	// Nothing of the run goes on once it is over: its subagents and its
	// steps end with it, or a UI would show them working for ever.
	for _, s := range r.st.Subagents {
		if s.Status != SubagentStatusRunning {
			continue
		}
		if failed {
			s.Status = SubagentStatusError
			if e := r.st.Error; e != nil {
				s.Error = &RunErr{Message: e.Message, Code: e.Code, HasCode: e.HasCode}
			} else {
				s.Error = &RunErr{Message: "the run ended"}
			}
		} else {
			s.Status = SubagentStatusFinished
		}
		c.replace(subagentPath(s), s.appendJSON(nil))
	}
	for i := range r.st.Steps {
		if r.st.Steps[i].Status == StepRunning {
			r.st.Steps[i].Status = StepDone
			c.replace("/steps/"+strconv.Itoa(i)+"/status", jsonString(StepDone))
		}
	}
}

func (r *Reducer) stepStarted(c *Change, ev *Event) {
	st := Step{Name: ev.StepName, Status: StepRunning}
	r.st.Steps = append(r.st.Steps, st)
	c.add("/steps/-", st.appendJSON(nil))
}

func (r *Reducer) stepFinished(c *Change, ev *Event) {
	for i := len(r.st.Steps) - 1; i >= 0; i-- {
		if r.st.Steps[i].Name == ev.StepName && r.st.Steps[i].Status == StepRunning {
			r.st.Steps[i].Status = StepDone
			c.replace("/steps/"+strconv.Itoa(i)+"/status", jsonString(StepDone))
			return
		}
	}
	c.warn("unknown_step", "STEP_FINISHED: step \""+ev.StepName+"\" was not started")
}
