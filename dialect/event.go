package dialect

import (
	"github.com/agui-reducer/agui/reducer"
	"github.com/agui-reducer/agui/reducer/jsontree"
)

// The canonical events a translator emits are built as JSON text, member by
// member, in one reused buffer; what the translator remembers of each is
// noted on the way (see observe).

// canonicalTypes are the canonical AG-UI event types (package reducer's).
var canonicalTypes = map[string]bool{
	"TEXT_MESSAGE_START": true, "TEXT_MESSAGE_CONTENT": true, "TEXT_MESSAGE_END": true, "TEXT_MESSAGE_CHUNK": true,
	"TOOL_CALL_START": true, "TOOL_CALL_ARGS": true, "TOOL_CALL_END": true, "TOOL_CALL_CHUNK": true, "TOOL_CALL_RESULT": true,
	"THINKING_START": true, "THINKING_END": true, "THINKING_TEXT_MESSAGE_START": true, "THINKING_TEXT_MESSAGE_CONTENT": true, "THINKING_TEXT_MESSAGE_END": true,
	"STATE_SNAPSHOT": true, "STATE_DELTA": true, "MESSAGES_SNAPSHOT": true, "ACTIVITY_SNAPSHOT": true, "ACTIVITY_DELTA": true,
	"RAW": true, "CUSTOM": true, "RUN_STARTED": true, "RUN_FINISHED": true, "RUN_ERROR": true, "STEP_STARTED": true, "STEP_FINISHED": true,
	"REASONING_START": true, "REASONING_MESSAGE_START": true, "REASONING_MESSAGE_CONTENT": true, "REASONING_MESSAGE_END": true,
	"REASONING_MESSAGE_CHUNK": true, "REASONING_END": true, "REASONING_ENCRYPTED_VALUE": true,
	"SUBAGENT_STARTED": true, "SUBAGENT_FINISHED": true, "SUBAGENT_ERROR": true, // AG-UI 1.0
}

func isCanonical(t string) bool { return canonicalTypes[t] }

// info is what the translator reads of a canonical event it emits or passes
// on.
type info struct {
	_ [0]func() // not compared: the compiler would write a == function for it (module size)

	typ                                        string
	messageID, toolCallID, toolCallName, role  string
	runID, threadID, stepName, parentMessageID string
	customName, delta                          string
	ts                                         jsontree.Number
	messages                                   *jsontree.Array // MESSAGES_SNAPSHOT
}

// builder writes one event.
//
// Its start, key and put methods, objString, errorf and fields.err are
// marked go:noinline: called from about 70 places, inlined they made the
// wasm module 12.7 KB (brotli) larger, with no difference in the dialect
// benchmarks (the module's budget: docs/performance.md, "Download size").
type builder struct {
	t  *Translator
	in info
}

// start begins a canonical event of type typ.
//
//go:noinline
func (t *Translator) start(typ string) *builder {
	t.b = append(append(append(t.b[:0], `{"type":"`...), typ...), '"')
	t.bld = builder{t: t, in: info{typ: typ}}
	return &t.bld
}

// startAmend begins an amendment (an object); its members go into it.
//
//go:noinline
func (t *Translator) startAmend() *builder {
	t.b = append(t.b[:0], '{')
	t.bld = builder{t: t}
	return &t.bld
}

//go:noinline
func (b *builder) key(k string) {
	if c := b.t.b[len(b.t.b)-1]; c != '{' {
		b.t.b = append(b.t.b, ',')
	}
	b.t.b = append(append(append(b.t.b, '"'), k...), `":`...)
}

// str adds a string member.
func (b *builder) str(k, v string) *builder {
	b.key(k)
	b.t.b = jsontree.AppendString(b.t.b, v)
	switch k {
	case "messageId":
		b.in.messageID = v
	case "toolCallId":
		b.in.toolCallID = v
	case "toolCallName":
		b.in.toolCallName = v
	case "role":
		b.in.role = v
	case "runId":
		b.in.runID = v
	case "threadId":
		b.in.threadID = v
	case "stepName":
		b.in.stepName = v
	case "parentMessageId":
		b.in.parentMessageID = v
	}
	return b
}

// val adds a member holding any JSON value.
func (b *builder) val(k string, v jsontree.Value) *builder {
	b.key(k)
	b.t.b = jsontree.AppendJSON(b.t.b, v)
	return b
}

// raw adds a member whose JSON text is v.
func (b *builder) raw(k, v string) *builder {
	b.key(k)
	b.t.b = append(b.t.b, v...)
	return b
}

// num adds a timestamp (or any number) when ts is not "".
func (b *builder) num(k string, ts jsontree.Number) *builder {
	if ts != "" {
		b.key(k)
		b.t.b = append(b.t.b, ts...)
		if k == "timestamp" {
			b.in.ts = ts
		}
	}
	return b
}

// put ends the event and emits it.
//
//go:noinline
func (b *builder) put() {
	b.t.b = append(b.t.b, '}')
	b.t.emit(b.t.b, &b.in)
}

// putAmend ends an amendment and hands it to the host's amend function,
// or, for a host that has none (it re-emits canonical AG-UI), emits it as
// the CUSTOM event AmendEvent, which a client sees as any custom event.
//
//go:noinline
func (b *builder) putAmend() {
	b.t.b = append(b.t.b, '}')
	b.t.passAmend(b.t.b)
}

// passAmend hands an amendment (one line of JSON) on, as putAmend does.
func (t *Translator) passAmend(amendment []byte) {
	if t.amendFn != nil {
		t.amendFn(amendment)
		return
	}
	t.wrap = append(append(append(t.wrap[:0], `{"type":"CUSTOM","name":"`+AmendEvent+`","value":`...), amendment...), '}')
	t.emitFn(t.wrap)
}

// emit sends one canonical event on and remembers what it tells.
func (t *Translator) emit(data []byte, in *info) {
	t.emitFn(data)
	t.observe(in)
}

// infoOf reads what the translator remembers of a canonical event object.
func infoOf(obj *jsontree.Object) info {
	in := info{
		typ:             objString(obj, "type"),
		messageID:       objString(obj, "messageId"),
		toolCallID:      objString(obj, "toolCallId"),
		toolCallName:    objString(obj, "toolCallName"),
		role:            objString(obj, "role"),
		runID:           objString(obj, "runId"),
		threadID:        objString(obj, "threadId"),
		stepName:        objString(obj, "stepName"),
		parentMessageID: objString(obj, "parentMessageId"),
		customName:      objString(obj, "name"),
		delta:           objString(obj, "delta"),
		ts:              timestampOf(obj),
	}
	switch in.typ {
	case "MESSAGES_SNAPSHOT":
		v, _ := obj.Get("messages")
		in.messages, _ = v.(*jsontree.Array)
	case "RUN_STARTED":
		if input, _ := obj.Get("input"); input != nil {
			if o, ok := input.(*jsontree.Object); ok {
				v, _ := o.Get("messages")
				in.messages, _ = v.(*jsontree.Array)
			}
		}
	}
	return in
}

// passOn emits a canonical event as it came, and remembers what it tells
// unless the reducer will refuse it.
func (t *Translator) passOn(data []byte, obj *jsontree.Object) {
	if checkCanonical(obj, false) != nil {
		t.emitFn(data)
		return
	}
	in := infoOf(obj)
	if t.emitObjFn != nil && in.messages == nil {
		// The reducer takes the tree over (it may keep and patch parts of
		// it): the translator keeps only in's strings.
		t.emitObjFn(data, obj)
		t.observe(&in)
		return
	}
	t.emit(data, &in)
}

// mayAccept reports whether translate would pass a canonical event in
// the reducer's flat shape (reducer.Reducer.ApplyCanonical) on untouched,
// remembering no more than observe does: not an amendment, within the
// size limit, no step thinking open for it to end, in a dialect that
// takes canonical AG-UI as it comes.
func (t *Translator) mayAccept(name string, data []byte) bool {
	if name == AmendEvent || len(data) > t.opt.MaxEventBytes || t.stepMsg != "" {
		return false
	}
	switch t.pin {
	case dialectAuto, dialectAGUI, dialectTanStack:
		return true
	}
	return false
}

// acceptCanonical takes note of a canonical event the reducer decoded
// without a tree (reducer.Reducer.ApplyCanonical), as translate does
// (applyAGUI, passOn, observe), and reports true; it reports false, having
// noted nothing, for an event translate reads more of (TanStack's tool
// requests), which the caller then translates. Such an event has every
// member of its type that checkCanonical requires, none of TanStack's
// variant fields, and values of the kinds both require.
func (t *Translator) acceptCanonical(ev *reducer.Event) bool {
	if t.pin == dialectAGUI {
		return true // passed on with no note taken (translate)
	}
	if ev.CustomName == "approval-requested" || ev.CustomName == "tool-input-available" {
		return false
	}
	// What infoOf reads: the members of the event's type (a flat event has
	// no others), the role of a text message its own or the reducer's
	// default, "assistant", which observe takes an absent one for.
	t.observe(&info{typ: string(ev.Type), messageID: ev.MessageID, toolCallID: ev.ToolCallID, toolCallName: ev.ToolCallName,
		role: ev.Role, runID: ev.RunID, threadID: ev.ThreadID, parentMessageID: ev.ParentMessageID, delta: ev.Delta})
	return true
}

// passOnObject emits a canonical event that the translator rewrote.
func (t *Translator) passOnObject(obj *jsontree.Object) {
	t.b = jsontree.AppendJSON(t.b[:0], obj)
	if checkCanonical(obj, false) != nil {
		t.emitFn(t.b)
		return
	}
	in := infoOf(obj)
	t.emit(t.b, &in)
}

// observe follows a canonical event on its way to the reducer: the ids it
// puts in use, the run's lifecycle (with the reducer's rule for replayed
// runs, which it skips whole), the active assistant message, the steps.
func (t *Translator) observe(in *info) {
	if t.replayed != "" {
		if in.typ == "RUN_FINISHED" || in.typ == "RUN_ERROR" {
			t.replayed = ""
		}
		return
	}
	switch in.typ {
	case "RUN_STARTED":
		if in.runID != "" && t.done[in.runID] {
			t.replayed = in.runID
			return
		}
		if t.resent(in.threadID, in.runID) {
			t.rewind() // as the reducer does (rewind.go)
		}
		t.running, t.run, t.thread = true, in.runID, in.threadID
		t.endRun()
		clear(t.steps) // the reducer lists the run's steps only
		t.cp = nil
		if in.runID != "" {
			t.takeCheckpoint()
		}
		t.noteMessages(in.messages)
	case "RUN_FINISHED", "RUN_ERROR":
		if t.running && t.run != "" {
			t.done[t.run] = true
		}
		t.running, t.cp = false, nil
		for _, rec := range t.live {
			rec.running = false // the reducer ends the calls left open
		}
		clear(t.live)
		t.live = t.live[:0]
		t.endRun()
	case "TEXT_MESSAGE_START":
		t.addMsg(in.messageID)
		if in.role == "assistant" || in.role == "" {
			t.active = in.messageID
		}
	case "TEXT_MESSAGE_CHUNK":
		if in.messageID != "" {
			t.addMsg(in.messageID)
			if in.role == "" || in.role == "assistant" {
				t.active = in.messageID
			}
		}
	case "REASONING_MESSAGE_START", "REASONING_MESSAGE_CHUNK", "TOOL_CALL_RESULT", "ACTIVITY_SNAPSHOT":
		if in.messageID != "" {
			t.addMsg(in.messageID)
			if in.typ == "ACTIVITY_SNAPSHOT" {
				t.addActivity(in.messageID)
			}
		}
		if rec := t.touchTool(in.toolCallID); rec != nil && in.typ == "TOOL_CALL_RESULT" {
			rec.running = false
		}
	case "TOOL_CALL_START", "TOOL_CALL_CHUNK":
		if rec := t.touchTool(in.toolCallID); rec != nil {
			if in.typ == "TOOL_CALL_START" {
				rec.name = in.toolCallName
			}
		} else if in.toolCallID != "" {
			rec := &toolRec{name: in.toolCallName, running: true}
			t.tools[in.toolCallID] = rec
			t.noteLive(rec)
		}
		if in.parentMessageID != "" {
			t.addMsg(in.parentMessageID)
		}
	case "TOOL_CALL_END":
		if rec := t.touchTool(in.toolCallID); rec != nil {
			rec.running = false
		}
	case "TEXT_MESSAGE_CONTENT", "REASONING_MESSAGE_CONTENT":
		// Canonical text into a message this translator streams into: what
		// it compares whole texts with must include it.
		if r := t.texts[in.messageID]; r != nil && in.delta != "" {
			if in.typ == "TEXT_MESSAGE_CONTENT" {
				r.text = append(r.text, in.delta...)
			} else {
				r.reasoning = append(r.reasoning, in.delta...)
			}
		}
	case "STEP_STARTED":
		t.steps[in.stepName] = true
		t.stepStarted, t.stepTS = in.stepName, in.ts
	case "STEP_FINISHED":
		delete(t.steps, in.stepName)
	case "MESSAGES_SNAPSHOT":
		if in.messages != nil {
			// The snapshot is the conversation now: what it lacks is gone,
			// but for the client's activity messages, which the reducer keeps.
			t.replaceMsgs()
			clear(t.msgs)
			for id := range t.activities {
				t.msgs[id] = true
			}
		}
		t.noteMessages(in.messages)
	}
}

// noteMessages remembers the ids of messages (AG-UI Message[]) and of
// their tool calls as in use.
func (t *Translator) noteMessages(list *jsontree.Array) {
	if list == nil {
		return
	}
	for _, e := range list.Elems {
		if m, ok := e.(*jsontree.Object); ok {
			t.noteMessage(m)
		}
	}
}

// noteMessage remembers the id of message m and of its tool calls.
func (t *Translator) noteMessage(m *jsontree.Object) {
	if id := objString(m, "id"); id != "" {
		t.addMsg(id)
	}
	calls, _ := m.Get("toolCalls")
	a, _ := calls.(*jsontree.Array)
	if a == nil {
		return
	}
	for _, tc := range a.Elems {
		if tco, ok := tc.(*jsontree.Object); ok {
			if id := objString(tco, "id"); id != "" && t.tools[id] == nil {
				t.touchTool(id)
				t.tools[id] = &toolRec{}
			}
		}
	}
}
