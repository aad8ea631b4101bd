package reducer

import "github.com/agui-reducer/agui/reducer/jsontree"

// The SSE contract of seeds/000: the event type is the SSE event name, in
// snake_case, and the JSON data has no type (status and error data use
// "type" for something else). Every event may carry thread_id.
//
//	tool_call_start {toolCallId, toolCallName}  → TOOL_CALL_START (parent: the open text message)
//	tool_call_args {toolCallId, delta}          → TOOL_CALL_ARGS
//	tool_call_end {toolCallId}                  → TOOL_CALL_END
//	tool_result {toolCallId, content}           → TOOL_CALL_RESULT (message "result-<toolCallId>")
//	reasoning_start / reasoning_end             → REASONING_START / REASONING_END
//	reasoning_message_start|content|end         → REASONING_MESSAGE_START|CONTENT|END (content
//	                                              without a start starts the message)
//	message {content, agent?}                   → TEXT_MESSAGE_START (first chunk; name: agent)
//	                                              + TEXT_MESSAGE_CONTENT
//	status {type: start|running}                → RUN_STARTED unless running
//	status {type: complete}                     → RUN_FINISHED
//	status {type: error, message?}              → RUN_ERROR
//	error {message, code?}                      → RUN_ERROR
//
// The contract has no run ids: the first event of a run starts one
// (RUN_STARTED with thread_id and an assigned run id), so the conversation
// shows as loading until status complete or error.

// sseContractEvent reports whether name is an SSE event name of seeds/000.
func sseContractEvent(name string) bool {
	switch name {
	case "tool_call_start", "tool_call_args", "tool_call_end", "tool_result",
		"reasoning_start", "reasoning_message_start", "reasoning_message_content", "reasoning_message_end", "reasoning_end",
		"message", "status", "error":
		return true
	}
	return false
}

// applySSEContract folds one SSE-contract event.
func (r *Reducer) applySSEContract(c *Change, name string, obj *jsontree.Object) error {
	if !sseContractEvent(name) {
		return errNotMine
	}
	f := fields{obj: obj, typ: name}
	thread, _ := f.optStr("thread_id")
	var ev Event
	switch name {
	case "tool_call_start":
		ev = Event{Type: ToolCallStart, ToolCallID: f.str("toolCallId", true), ToolCallName: f.str("toolCallName", true)}
		f.optStr("agent")
	case "tool_call_args":
		ev = Event{Type: ToolCallArgs, ToolCallID: f.str("toolCallId", true), Delta: f.str("delta", true), HasDelta: true}
	case "tool_call_end":
		ev = Event{Type: ToolCallEnd, ToolCallID: f.str("toolCallId", true)}
	case "tool_result":
		ev = Event{Type: ToolCallResult, ToolCallID: f.str("toolCallId", true), Content: f.str("content", true)}
		if role, ok := f.optStr("role"); ok && role != "tool" {
			f.fail(`role must be "tool"`)
		}
	case "reasoning_start":
		ev = Event{Type: ReasoningStart, MessageID: f.str("messageId", true)}
	case "reasoning_end":
		ev = Event{Type: ReasoningEnd, MessageID: f.str("messageId", true)}
	case "reasoning_message_start":
		ev = Event{Type: ReasoningMessageStart, MessageID: f.str("messageId", true), Role: "assistant"}
		if role, ok := f.optStr("role"); ok && role != "assistant" {
			f.fail(`role must be "assistant"`)
		}
	case "reasoning_message_content":
		ev = Event{Type: ReasoningMessageContent, MessageID: f.str("messageId", true), Delta: f.str("delta", true), HasDelta: true}
	case "reasoning_message_end":
		ev = Event{Type: ReasoningMessageEnd, MessageID: f.str("messageId", true)}
	case "message":
		content := f.str("content", true)
		agent, _ := f.optStr("agent")
		if f.err != nil {
			return errOf(f.err)
		}
		if r.replaying != "" {
			return nil
		}
		if err := r.checkGrowth(false, content); err != nil {
			return err
		}
		r.ensureRun(c, thread)
		return r.segmentText(c, "", agent, content, 0, false)
	case "status":
		return r.sseStatus(c, &f, thread)
	case "error":
		msg := f.str("message", true)
		code, hasCode := f.optStr("code")
		if f.err != nil {
			return errOf(f.err)
		}
		if r.replaying == "" {
			r.failRun(c, msg, code, hasCode)
		}
		return nil
	}
	if f.err != nil {
		return errOf(f.err)
	}
	if err := r.checkDelta(&ev); err != nil {
		return err
	}
	if r.replaying != "" {
		return nil
	}
	r.ensureRun(c, thread)
	switch ev.Type {
	case ToolCallStart:
		ev.ParentMessageID = r.toolParent(c, "", false, 0, false)
	case ReasoningMessageContent:
		if r.findMessage(ev.MessageID) == nil {
			// The contract's own concurrent example streams reasoning
			// without reasoning_message_start.
			start := Event{Type: ReasoningMessageStart, MessageID: ev.MessageID, Role: "assistant"}
			r.emit(c, &start)
		}
	case ToolCallResult:
		ev.MessageID = r.derivedID(idMessage, "result-"+ev.ToolCallID)
		r.closeSegment(c, 0, false)
		if r.dialect.seg != "" {
			r.dialect.segDone = true
		}
	}
	r.emit(c, &ev)
	return nil
}

// sseStatus folds a status event: the run's lifecycle.
func (r *Reducer) sseStatus(c *Change, f *fields, thread string) error {
	status := f.str("type", true)
	msg, hasMsg := f.optStr("message")
	if f.err != nil {
		return errOf(f.err)
	}
	if r.replaying != "" {
		return nil
	}
	switch status {
	case "start", "running":
		r.ensureRun(c, thread)
	case "complete":
		r.finishRun(c, nil, 0, false)
	case "error":
		if !hasMsg || msg == "" {
			msg = "The agent reported an error"
		}
		r.failRun(c, msg, "", false)
	default:
		c.warn("unknown_type", "status: unknown status type '"+status+"' ignored")
		return errIgnored
	}
	return nil
}

// checkDelta rejects, before a run is started for it, a delta that would
// push a streamed field past the field limit.
func (r *Reducer) checkDelta(ev *Event) error {
	n := 0
	switch ev.Type {
	case ToolCallArgs:
		if t := r.toolByID[ev.ToolCallID]; t != nil {
			n = len(t.args)
		}
	case ReasoningMessageContent:
		if m := r.findMessage(ev.MessageID); m != nil {
			n = len(m.reasoning)
		}
	default:
		return nil
	}
	if n+len(ev.Delta) > r.opt.MaxFieldBytes {
		return errorf("too_large", "delta would exceed the field limit")
	}
	return nil
}
