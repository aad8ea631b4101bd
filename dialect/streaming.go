package dialect

import (
	"strings"

	"github.com/agui-reducer/agui/reducer/eventjson"
	"github.com/agui-reducer/agui/reducer/jsontree"
)

// The streaming events of seeds/003: a JSON object whose "event" field
// names it, with thread_id and an ISO timestamp (not used). They carry no
// message ids and no run lifecycle besides message_complete and error.
//
//	token {token}                           → TEXT_MESSAGE_START (first token) + TEXT_MESSAGE_CONTENT
//	tool_start {tool_name, arguments}       → TOOL_CALL_START (id "tool-<n>") + TOOL_CALL_ARGS;
//	                                          the call stays running while the server executes it
//	tool_end {tool_name, result, execution_time_ms}
//	                                        → TOOL_CALL_END (metadata.executionTimeMs) + TOOL_CALL_RESULT,
//	                                          for the oldest running tool_start of that name
//	tool_execution_request {execution_id, tool_name, arguments}
//	                                        → TOOL_CALL_START (id: execution_id) + ARGS + END, clientSide
//	tool_execution_complete {execution_id}  → TOOL_CALL_END if still running
//	message_complete {message}              → the message's final text (reconciled with the tokens),
//	                                          its metadata, TEXT_MESSAGE_END, RUN_FINISHED
//	error {error_type, error_message, recoverable}
//	                                        → RUN_ERROR {message, code: error_type}, recoverable
//
// The first event of a run starts one (RUN_STARTED with thread_id and an
// assigned run id).

// applyStreaming translates one seeds/003 streaming event.
func (t *Translator) applyStreaming(obj *jsontree.Object) *Diagnostic {
	ev, ok := obj.Get("event")
	name, isStr := ev.(string)
	if !ok || !isStr {
		return errNotMine
	}
	f := fieldsOf(obj, name)
	thread, _ := f.OptStr("thread_id")
	if f.Err != nil {
		return f.err()
	}
	switch name {
	case "token":
		token := f.Str("token", true)
		if f.Err != nil {
			return f.err()
		}
		if err := t.checkGrowth(false, token); err != nil {
			return err
		}
		if t.replayed != "" {
			return nil
		}
		t.ensureRun(thread)
		return t.segmentText("", "", token, "")
	case "tool_start", "tool_execution_request":
		return t.streamingToolStart(&f, thread)
	case "tool_end":
		return t.streamingToolEnd(&f, thread)
	case "tool_execution_complete":
		id := f.Str("execution_id", true)
		if f.Err != nil {
			return f.err()
		}
		if t.replayed != "" {
			return nil
		}
		rec := t.tools[id]
		if rec == nil {
			t.warn("unknown_tool_call", "tool_execution_complete: no tool call with execution_id '"+id+"'")
			return nil
		}
		if rec.running {
			t.endTool(id, nil)
		}
	case "message_complete":
		return t.messageComplete(&f, thread)
	case "error":
		msg := f.Str("error_message", true)
		typ, hasType := f.OptStr("error_type")
		var recoverable, hasRecoverable bool
		if v, ok := obj.Get("recoverable"); ok && v != nil {
			recoverable, hasRecoverable = v.(bool)
			if !hasRecoverable {
				f.Fail("recoverable must be a boolean")
			}
		}
		if f.Err != nil {
			return f.err()
		}
		if t.replayed != "" {
			return nil
		}
		t.failRun(msg, typ, hasType)
		if hasRecoverable {
			v := "false"
			if recoverable {
				v = "true"
			}
			t.startAmend().raw("recoverable", v).putAmend()
		}
	default:
		t.warn("unknown_type", "unknown streaming event '"+name+"' ignored")
		return errIgnored
	}
	return nil
}

// streamingToolStart translates tool_start (a server tool starts
// executing) and tool_execution_request (the client must execute one).
func (t *Translator) streamingToolStart(f *fields, thread string) *Diagnostic {
	name := f.Str("tool_name", true)
	var id string
	request := f.Type == "tool_execution_request"
	if request {
		id = f.Str("execution_id", true)
	}
	var args jsontree.Value
	a := f.Object("arguments")
	hasArgs := a != nil
	if hasArgs {
		args = a
	}
	if f.Err != nil {
		return f.err()
	}
	if hasArgs && len(argsJSON(args)) > t.opt.MaxFieldBytes {
		return errorf("too_large", f.Type+": arguments exceed the field limit")
	}
	if t.replayed != "" {
		return nil
	}
	t.ensureRun(thread)
	if !request {
		id = t.newID(idTool)
	}
	parent := ""
	if t.tools[id] == nil {
		parent = t.toolParent("", false, "")
	}
	rec := t.upsertTool(id, name, parent, args, hasArgs)
	if rec == nil {
		return nil
	}
	if !request {
		t.pending = append(t.pending, pendingTool{name: name, id: id})
		return nil
	}
	if rec.running {
		t.endTool(id, nil)
	}
	t.requestTool(id, nil, true)
	return nil
}

// streamingToolEnd translates tool_end: the oldest running tool_start of
// that name has finished with its result.
func (t *Translator) streamingToolEnd(f *fields, thread string) *Diagnostic {
	name := f.Str("tool_name", true)
	result, ok := f.Obj.Get("result")
	if !ok {
		f.Fail("result is required")
	}
	var meta *jsontree.Object
	if v, ok := f.Obj.Get("execution_time_ms"); ok && v != nil {
		n, isNum := v.(jsontree.Number)
		if !isNum {
			f.Fail("execution_time_ms must be a number")
		}
		meta = jsontree.NewObject(1)
		meta.Set("executionTimeMs", n)
	}
	if f.Err != nil {
		return f.err()
	}
	if t.replayed != "" {
		return nil
	}
	t.ensureRun(thread)
	id := ""
	for i, p := range t.pending {
		if p.name == name && t.tools[p.id] != nil {
			id = p.id
			t.pending = append(t.pending[:i], t.pending[i+1:]...)
			break
		}
	}
	if id == "" {
		// No tool_start: the call is known from its end alone.
		id = t.newID(idTool)
		if t.upsertTool(id, name, t.toolParent("", false, ""), nil, false) == nil {
			return nil
		}
	}
	t.endTool(id, meta)
	t.toolResult(id, toolContent(result))
	return nil
}

// messageComplete translates message_complete: the message's final text
// wins over the streamed tokens where they disagree, then the run finishes.
func (t *Translator) messageComplete(f *fields, thread string) *Diagnostic {
	mo := f.Object("message")
	if mo == nil && f.Err == nil {
		f.Fail("message is required")
	}
	if f.Err != nil {
		return f.err()
	}
	mf := fieldsOf(mo, "message_complete: message")
	role := mf.Str("role", true)
	content := mf.Str("content", true)
	meta := mf.Object("metadata")
	switch role {
	case "assistant", "user", "system", "developer":
	case "":
		// No role (or an empty one): the final message of the run's
		// answer, the assistant's, as the tokens before it are.
		role = "assistant"
	default:
		mf.Fail("role must be one of assistant, user, system")
	}
	if mf.Err != nil {
		return mf.err()
	}
	if len(content) > t.opt.MaxFieldBytes {
		return errorf("too_large", "message_complete: content exceeds the field limit")
	}
	if t.replayed != "" {
		return nil
	}
	t.ensureRun(thread)
	target := ""
	if role == "assistant" {
		target = t.reconcileSegments(content)
	} else {
		id := t.newID(idMessage)
		t.start("TEXT_MESSAGE_START").str("messageId", id).str("role", role).put()
		if content != "" {
			t.textContent(id, content)
		}
		t.start("TEXT_MESSAGE_END").str("messageId", id).put()
		target = id
	}
	// An empty metadata object says nothing about the message; amended,
	// it would give the message an empty metadata of its own.
	if target != "" && meta != nil && meta.Len() > 0 {
		t.startAmend().str("messageId", target).val("metadata", meta).putAmend()
	}
	t.finishRun(nil, "")
	return nil
}

// reconcileSegments makes the run's streamed assistant text agree with the
// final content of message_complete and returns the message that holds its
// end. Text split by tool calls into several segments agrees when content
// is their concatenation; otherwise the open segment takes what is missing,
// or is replaced when it disagrees.
func (t *Translator) reconcileSegments(content string) string {
	var known strings.Builder
	last := ""
	for _, id := range t.segs {
		if !t.msgs[id] {
			continue
		}
		text := t.text(id).text
		known.Write(text)
		last = id
		if string(text) == content {
			return id
		}
	}
	all := known.String()
	if content == all {
		t.closeSegment("")
		return last
	}
	if t.segmentOpen() && t.segText {
		id := t.seg
		shown := t.text(id).text
		delta, replace := "", false
		if len(t.segs) > 1 && strings.HasPrefix(content, all) {
			delta = content[len(all):]
		} else {
			delta, replace = eventjson.Reconcile(shown, content)
		}
		if replace {
			t.amendText(id, false, content)
		} else if delta != "" {
			t.textContent(id, delta)
		}
		t.closeSegment("")
		return id
	}
	if content == "" {
		return last
	}
	rest := content
	if all != "" && strings.HasPrefix(content, all) {
		rest = content[len(all):]
	}
	// The final text was not streamed (or not all of it): a new segment.
	t.segDone = true
	t.segmentText("", "", rest, "")
	id := t.seg
	t.closeSegment("")
	return id
}
