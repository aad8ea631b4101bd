package dialect

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

// applySSEContract translates one SSE-contract event.
func (t *Translator) applySSEContract(name string, obj *jsontree.Object) *Diagnostic {
	if !sseContractEvent(name) {
		return errNotMine
	}
	f := fieldsOf(obj, name)
	thread, _ := f.OptStr("thread_id")
	var typ, id, delta, toolName string
	switch name {
	case "tool_call_start":
		typ, id, toolName = "TOOL_CALL_START", f.Str("toolCallId", true), f.Str("toolCallName", true)
		f.OptStr("agent")
	case "tool_call_args":
		typ, id, delta = "TOOL_CALL_ARGS", f.Str("toolCallId", true), f.Str("delta", true)
	case "tool_call_end":
		typ, id = "TOOL_CALL_END", f.Str("toolCallId", true)
	case "tool_result":
		typ, id, delta = "TOOL_CALL_RESULT", f.Str("toolCallId", true), f.Str("content", true)
		if role, ok := f.OptStr("role"); ok && role != "tool" {
			f.Fail(`role must be "tool"`)
		}
	case "reasoning_start":
		typ, id = "REASONING_START", f.Str("messageId", true)
	case "reasoning_end":
		typ, id = "REASONING_END", f.Str("messageId", true)
	case "reasoning_message_start":
		typ, id = "REASONING_MESSAGE_START", f.Str("messageId", true)
		if role, ok := f.OptStr("role"); ok && role != "assistant" {
			f.Fail(`role must be "assistant"`)
		}
	case "reasoning_message_content":
		typ, id, delta = "REASONING_MESSAGE_CONTENT", f.Str("messageId", true), f.Str("delta", true)
	case "reasoning_message_end":
		typ, id = "REASONING_MESSAGE_END", f.Str("messageId", true)
	case "message":
		content := f.Str("content", true)
		agent, _ := f.OptStr("agent")
		if f.Err != nil {
			return f.err()
		}
		if t.replayed != "" {
			return nil
		}
		if err := t.checkGrowth(false, content); err != nil {
			return err
		}
		t.ensureRun(thread)
		return t.segmentText("", agent, content, "")
	case "status":
		return t.sseStatus(&f, thread)
	case "error":
		msg := f.Str("message", true)
		code, hasCode := f.OptStr("code")
		if f.Err != nil {
			return f.err()
		}
		if t.replayed == "" {
			t.failRun(msg, code, hasCode)
		}
		return nil
	}
	if f.Err != nil {
		return f.err()
	}
	if err := t.checkDelta(typ, id, delta); err != nil {
		return err
	}
	if t.replayed != "" {
		return nil
	}
	t.ensureRun(thread)
	switch typ {
	case "TOOL_CALL_START":
		parent := t.toolParent("", false, "")
		b := t.start(typ).str("toolCallId", id).str("toolCallName", toolName)
		if parent != "" {
			b.str("parentMessageId", parent)
		}
		b.put()
	case "TOOL_CALL_ARGS":
		t.toolArgs(id, delta)
	case "TOOL_CALL_END":
		t.endTool(id, nil)
	case "TOOL_CALL_RESULT":
		t.closeSegment("")
		if t.seg != "" {
			t.segDone = true
		}
		t.toolResult(id, delta)
	case "REASONING_MESSAGE_START":
		t.start(typ).str("messageId", id).str("role", "reasoning").put()
	case "REASONING_MESSAGE_CONTENT":
		if !t.msgs[id] {
			// The contract's own concurrent example streams reasoning
			// without reasoning_message_start.
			t.start("REASONING_MESSAGE_START").str("messageId", id).str("role", "reasoning").put()
		}
		t.reasoningContent(id, delta)
	default:
		t.start(typ).str("messageId", id).put()
	}
	return nil
}

// sseStatus translates a status event: the run's lifecycle.
func (t *Translator) sseStatus(f *fields, thread string) *Diagnostic {
	status := f.Str("type", true)
	msg, hasMsg := f.OptStr("message")
	if f.Err != nil {
		return f.err()
	}
	if t.replayed != "" {
		return nil
	}
	switch status {
	case "start", "running":
		t.ensureRun(thread)
	case "complete":
		t.finishRun(nil, "")
	case "error":
		if !hasMsg || msg == "" {
			msg = "The agent reported an error"
		}
		t.failRun(msg, "", false)
	default:
		t.warn("unknown_type", "status: unknown status type '"+status+"' ignored")
		return errIgnored
	}
	return nil
}

// checkDelta rejects, before a run is started for it, a delta that would
// push a streamed field past the field limit.
func (t *Translator) checkDelta(typ, id, delta string) *Diagnostic {
	n := 0
	switch typ {
	case "TOOL_CALL_ARGS":
		if rec := t.tools[id]; rec != nil {
			n = rec.args
		}
	case "REASONING_MESSAGE_CONTENT":
		if r := t.texts[id]; r != nil {
			n = len(r.reasoning)
		}
	default:
		return nil
	}
	if n+len(delta) > t.opt.MaxFieldBytes {
		return errorf("too_large", "delta would exceed the field limit")
	}
	return nil
}
