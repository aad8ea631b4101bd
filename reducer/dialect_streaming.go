package reducer

import (
	"strings"

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
//	                                        → RUN_ERROR {message, code: error_type}, error.recoverable
//
// The first event of a run starts one (RUN_STARTED with thread_id and an
// assigned run id).

// applyStreaming folds one seeds/003 streaming event.
func (r *Reducer) applyStreaming(c *Change, obj *jsontree.Object) error {
	ev, ok := obj.Get("event")
	name, isStr := ev.(string)
	if !ok || !isStr {
		return errNotMine
	}
	f := fields{obj: obj, typ: name}
	thread, _ := f.optStr("thread_id")
	if f.err != nil {
		return errOf(f.err)
	}
	switch name {
	case "token":
		token := f.str("token", true)
		if f.err != nil {
			return errOf(f.err)
		}
		if err := r.checkGrowth(false, token); err != nil {
			return err
		}
		if r.replaying != "" {
			return nil
		}
		r.ensureRun(c, thread)
		return r.segmentText(c, "", "", token, 0, false)
	case "tool_start", "tool_execution_request":
		return r.streamingToolStart(c, &f, thread)
	case "tool_end":
		return r.streamingToolEnd(c, &f, thread)
	case "tool_execution_complete":
		id := f.str("execution_id", true)
		if f.err != nil {
			return errOf(f.err)
		}
		if r.replaying != "" {
			return nil
		}
		t := r.toolByID[id]
		if t == nil {
			c.warn("unknown_tool_call", "tool_execution_complete: no tool call with execution_id '"+id+"'")
			return nil
		}
		if t.Status == ToolRunning {
			r.endTool(c, id, nil)
		}
	case "message_complete":
		return r.messageComplete(c, &f, thread)
	case "error":
		msg := f.str("error_message", true)
		typ, hasType := f.optStr("error_type")
		var recoverable, hasRecoverable bool
		if v, ok := obj.Get("recoverable"); ok && v != nil {
			recoverable, hasRecoverable = v.(bool)
			if !hasRecoverable {
				f.fail("recoverable must be a boolean")
			}
		}
		if f.err != nil {
			return errOf(f.err)
		}
		if r.replaying != "" {
			return nil
		}
		r.failRun(c, msg, typ, hasType)
		if hasRecoverable {
			r.setRecoverable(c, recoverable)
		}
	default:
		c.warn("unknown_type", "unknown streaming event '"+name+"' ignored")
		return errIgnored
	}
	return nil
}

// streamingArgs reads the arguments object of a tool event.
func streamingArgs(f *fields) (jsontree.Value, bool) {
	if a := f.object("arguments"); a != nil {
		return a, true
	}
	return nil, false
}

// streamingToolStart folds tool_start (a server tool starts executing) and
// tool_execution_request (the client must execute one).
func (r *Reducer) streamingToolStart(c *Change, f *fields, thread string) error {
	name := f.str("tool_name", true)
	var id string
	request := f.typ == "tool_execution_request"
	if request {
		id = f.str("execution_id", true)
	}
	args, hasArgs := streamingArgs(f)
	if f.err != nil {
		return errOf(f.err)
	}
	if hasArgs && len(argsJSON(args)) > r.opt.MaxFieldBytes {
		return errorf("too_large", f.typ+": arguments exceed the field limit")
	}
	if r.replaying != "" {
		return nil
	}
	r.ensureRun(c, thread)
	if !request {
		id = r.newID(idTool)
	}
	parent := ""
	if r.toolByID[id] == nil {
		parent = r.toolParent(c, "", false, 0, false)
	}
	t := r.upsertTool(c, id, name, parent, args, hasArgs)
	if t == nil {
		return nil
	}
	if !request {
		r.dialect.pending = append(r.dialect.pending, pendingTool{name: name, id: id})
		return nil
	}
	if t.Status == ToolRunning {
		r.endTool(c, id, nil)
	}
	r.setClientSide(c, t)
	return nil
}

// streamingToolEnd folds tool_end: the oldest running tool_start of that
// name has finished with its result.
func (r *Reducer) streamingToolEnd(c *Change, f *fields, thread string) error {
	name := f.str("tool_name", true)
	result, ok := f.obj.Get("result")
	if !ok {
		f.fail("result is required")
	}
	var meta *jsontree.Object
	if v, ok := f.obj.Get("execution_time_ms"); ok && v != nil {
		n, isNum := v.(jsontree.Number)
		if !isNum {
			f.fail("execution_time_ms must be a number")
		}
		meta = jsontree.NewObject(1)
		meta.Set("executionTimeMs", n)
	}
	if f.err != nil {
		return errOf(f.err)
	}
	if r.replaying != "" {
		return nil
	}
	r.ensureRun(c, thread)
	d := &r.dialect
	id := ""
	for i, p := range d.pending {
		if p.name == name && r.toolByID[p.id] != nil {
			id = p.id
			d.pending = append(d.pending[:i], d.pending[i+1:]...)
			break
		}
	}
	if id == "" {
		// No tool_start: the call is known from its end alone.
		id = r.newID(idTool)
		if r.upsertTool(c, id, name, r.toolParent(c, "", false, 0, false), nil, false) == nil {
			return nil
		}
	}
	r.endTool(c, id, meta)
	r.dialectResult(c, id, toolContent(result))
	return nil
}

// messageComplete folds message_complete: the message's final text wins
// over the streamed tokens where they disagree, then the run finishes.
func (r *Reducer) messageComplete(c *Change, f *fields, thread string) error {
	mo := f.object("message")
	if mo == nil && f.err == nil {
		f.fail("message is required")
	}
	if f.err != nil {
		return errOf(f.err)
	}
	mf := fields{obj: mo, typ: "message_complete: message"}
	role := mf.str("role", true)
	content := mf.str("content", true)
	meta := mf.object("metadata")
	switch role {
	case "assistant", "user", "system", "developer", "":
	default:
		mf.fail("role must be one of assistant, user, system")
	}
	if mf.err != nil {
		return errOf(mf.err)
	}
	if len(content) > r.opt.MaxFieldBytes {
		return errorf("too_large", "message_complete: content exceeds the field limit")
	}
	if r.replaying != "" {
		return nil
	}
	r.ensureRun(c, thread)
	var target *Message
	if role == "assistant" {
		target = r.reconcileSegments(c, content)
	} else {
		id := r.newID(idMessage)
		start := Event{Type: TextMessageStart, MessageID: id, Role: role}
		r.emit(c, &start)
		if content != "" {
			ev := Event{Type: TextMessageContent, MessageID: id, Delta: content, HasDelta: true}
			r.emit(c, &ev)
		}
		end := Event{Type: TextMessageEnd, MessageID: id}
		r.emit(c, &end)
		target = r.findMessage(id)
	}
	if target != nil {
		mergeMetadata(c, &target.Metadata, meta, messagePath(target))
	}
	r.finishRun(c, nil, 0, false)
	return nil
}

// reconcileSegments makes the run's streamed assistant text agree with the
// final content of message_complete and returns the message that holds its
// end. Text split by tool calls into several segments agrees when content
// is their concatenation; otherwise the open segment takes what is missing,
// or is replaced when it disagrees.
func (r *Reducer) reconcileSegments(c *Change, content string) *Message {
	d := &r.dialect
	var known strings.Builder
	var last *Message
	for _, id := range d.segs {
		if m := r.findMessage(id); m != nil && m.Role == "assistant" {
			known.Write(m.text)
			last = m
			if string(m.text) == content {
				return m
			}
		}
	}
	all := known.String()
	if content == all {
		r.closeSegment(c, 0, false)
		return last
	}
	if r.segmentOpen() && d.segText {
		m := r.findMessage(d.seg)
		delta, replace := "", false
		if len(d.segs) > 1 && strings.HasPrefix(content, all) {
			delta = content[len(all):]
		} else {
			delta, replace = reconcile(m.text, content)
		}
		if replace {
			r.setText(c, m, content)
		} else if delta != "" {
			ev := Event{Type: TextMessageContent, MessageID: m.ID, Delta: delta, HasDelta: true}
			r.emit(c, &ev)
		}
		r.closeSegment(c, 0, false)
		return m
	}
	if content == "" {
		return last
	}
	rest := content
	if all != "" && strings.HasPrefix(content, all) {
		rest = content[len(all):]
	}
	// The final text was not streamed (or not all of it): a new segment.
	d.segDone = true
	r.segmentText(c, "", "", rest, 0, false)
	m := r.findMessage(d.seg)
	r.closeSegment(c, 0, false)
	return m
}
