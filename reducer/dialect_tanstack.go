package reducer

import (
	"math"
	"strconv"

	"github.com/agui-reducer/agui/reducer/jsontree"
)

// Canonical AG-UI, and TanStack AI's variant of it (seeds/001).
//
// TanStack's AG-UI events use the canonical types with other fields. Where
// the canonical field is missing, the variant's field stands in for it:
//
//	RUN_STARTED          no threadId                → the current thread
//	RUN_FINISHED         usage {promptTokens, completionTokens, totalTokens}
//	                                                 → usage [{model, inputTokens, outputTokens, totalTokens}]
//	                     finishReason               → metadata.finishReason of the assistant message it ended
//	RUN_ERROR            error {message, code}      → message, code
//	TEXT_MESSAGE_CONTENT content (accumulated)      → the delta it adds (or a replacement when it disagrees)
//	TOOL_CALL_START      toolName                   → toolCallName; no parent → the open assistant message
//	TOOL_CALL_ARGS       args (accumulated)         → the delta it adds (or a replacement)
//	TOOL_CALL_END        input                      → the call's arguments; result → TOOL_CALL_RESULT
//	STEP_STARTED/FINISHED stepId                    → stepName
//	STEP_FINISHED        delta / content (thinking) → REASONING_MESSAGE_START/CONTENT on a message named
//	                                                  after the step, ended by the next other event
//	CUSTOM               approval-requested, tool-input-available
//	                                                 → also shown on the tool call (approval, clientSide)
//
// A canonical event has none of these fields missing and takes the fast
// path unchanged.

// tanstackChunk reports whether t is a TanStack legacy chunk type.
func tanstackChunk(t string) bool {
	switch t {
	case "content", "thinking", "tool_call", "tool-input-available", "approval-requested", "tool_result", "done", "error":
		return true
	}
	return false
}

// variant is what a canonical-typed event carries beyond canonical AG-UI,
// read (and checked) before anything is folded.
type variant struct {
	used bool // the event used a variant field

	finishReason string
	hasFinish    bool

	text        string // TEXT_MESSAGE_CONTENT / TOOL_CALL_ARGS: accumulated text that disagrees
	replaceText bool
	replaceArgs bool

	input     jsontree.Value // TOOL_CALL_END input
	hasInput  bool
	result    string // TOOL_CALL_END result
	hasResult bool

	thinking        string // STEP_FINISHED thinking: delta, or the whole text when replaceThinking
	hasThinking     bool
	replaceThinking bool

	customTool string           // CUSTOM approval-requested / tool-input-available: the call
	approval   *jsontree.Object // its approval request
	clientSide bool
}

// applyAGUI folds a canonical event. With variants, TanStack's field
// variants are normalised first, and the type may come from the SSE event
// line alone.
func (r *Reducer) applyAGUI(c *Change, name string, obj *jsontree.Object, variants bool) error {
	if !variants {
		ev, err := DecodeEventObject(obj)
		if err != nil {
			return err
		}
		r.emit(c, &ev)
		return nil
	}
	if t, ok := obj.Get("type"); (!ok || t == nil) && isCanonical(EventType(name)) {
		obj.Set("type", name)
	}
	var x variant
	if err := r.readVariant(obj, &x); err != nil {
		return err
	}
	ev, err := DecodeEventObject(obj)
	if err != nil {
		return err
	}
	if x.used {
		r.noteDialect(c, dialectTanStack)
	}
	r.foldVariant(c, &ev, &x)
	return nil
}

// readVariant rewrites TanStack's variant fields of obj into canonical ones
// where the canonical field is missing, and collects what has no canonical
// field. It changes no state.
func (r *Reducer) readVariant(obj *jsontree.Object, x *variant) error {
	typ := EventType(objString(obj, "type"))
	f := fields{obj: obj, typ: string(typ)}
	missing := func(key string) bool {
		v, ok := obj.Get(key)
		return !ok || v == nil
	}
	switch typ {
	case TextMessageContent:
		if d, _ := obj.Get("delta"); d != nil && d != "" {
			return nil // the fast path: a canonical delta
		}
		content, ok := f.optStr("content")
		if !ok || f.err != nil {
			return errOf(f.err)
		}
		x.used = true
		delta := content
		if m := r.findMessage(objString(obj, "messageId")); m != nil && m.contentKind != contentValue {
			delta, x.replaceText = reconcile(m.text, content)
		}
		if x.replaceText {
			if len(content) > r.opt.MaxFieldBytes {
				return errorf("too_large", "TEXT_MESSAGE_CONTENT: content exceeds the field limit")
			}
			x.text = content
		}
		obj.Set("delta", delta)
	case RunStarted:
		if missing("threadId") {
			x.used = true
			obj.Set("threadId", r.st.ThreadID)
		}
	case RunFinished:
		if v, ok := obj.Get("finishReason"); ok {
			x.used = true
			if v != nil {
				s, isStr := v.(string)
				if !isStr {
					return errorf("bad_event", "RUN_FINISHED: finishReason must be a string or null")
				}
				x.finishReason, x.hasFinish = s, true
			}
		}
		if u, ok := obj.Get("usage"); ok {
			if uo, isObj := u.(*jsontree.Object); isObj {
				x.used = true
				model, _ := f.optStr("model")
				arr, err := usageArray(uo, model, "RUN_FINISHED")
				if err != nil {
					return err
				}
				obj.Set("usage", arr)
			}
		}
		return errOf(f.err)
	case RunError:
		if missing("message") {
			if e := f.object("error"); e != nil {
				x.used = true
				ef := fields{obj: e, typ: "RUN_ERROR: error"}
				msg := ef.str("message", true)
				code, hasCode := ef.optStr("code")
				if ef.err != nil {
					return errOf(ef.err)
				}
				obj.Set("message", msg)
				if hasCode && missing("code") {
					obj.Set("code", code)
				}
			}
		}
		return errOf(f.err)
	case ToolCallStart:
		if missing("toolCallName") {
			name, ok := f.optStr("toolName")
			if !ok || f.err != nil {
				return errOf(f.err)
			}
			x.used = true
			obj.Set("toolCallName", name)
			if missing("parentMessageId") {
				if m := r.findMessage(r.dialect.active); m != nil && m.Role == "assistant" {
					obj.Set("parentMessageId", m.ID)
				}
			}
		}
	case ToolCallArgs:
		if missing("delta") {
			args, ok := f.optStr("args")
			if !ok || f.err != nil {
				return errOf(f.err)
			}
			x.used = true
			delta := args
			if t := r.toolByID[objString(obj, "toolCallId")]; t != nil {
				delta, x.replaceArgs = reconcile(t.args, args)
			}
			if x.replaceArgs {
				if len(args) > r.opt.MaxFieldBytes {
					return errorf("too_large", "TOOL_CALL_ARGS: args exceed the field limit")
				}
				x.text = args
			}
			obj.Set("delta", delta)
		}
	case ToolCallEnd:
		if v, ok := obj.Get("input"); ok && v != nil {
			x.used, x.input, x.hasInput = true, v, true
			if len(argsJSON(v)) > r.opt.MaxFieldBytes {
				return errorf("too_large", "TOOL_CALL_END: input exceeds the field limit")
			}
		}
		if v, ok := obj.Get("result"); ok && v != nil {
			x.used, x.result, x.hasResult = true, toolContent(v), true
		}
	case StepStarted, StepFinished:
		if missing("stepName") {
			id, ok := f.optStr("stepId")
			if !ok || f.err != nil {
				return errOf(f.err)
			}
			x.used = true
			obj.Set("stepName", id)
		}
		if typ == StepFinished {
			return r.readThinking(obj, &f, x)
		}
	case Custom:
		name := objString(obj, "name")
		if name != "approval-requested" && name != "tool-input-available" {
			return nil
		}
		v, _ := obj.Get("value")
		val, _ := v.(*jsontree.Object)
		if val == nil {
			return nil
		}
		if id := objString(val, "toolCallId"); id != "" {
			x.used, x.customTool = true, id
			a, _ := val.Get("approval")
			x.approval, _ = a.(*jsontree.Object)
			x.clientSide = name == "tool-input-available"
		}
	}
	return errOf(f.err)
}

// readThinking reads the thinking text a TanStack STEP_FINISHED streams:
// delta, else content, the whole text so far, compared with what arrived.
func (r *Reducer) readThinking(obj *jsontree.Object, f *fields, x *variant) error {
	delta, hasDelta := f.optStr("delta")
	content, hasContent := f.optStr("content")
	if f.err != nil {
		return errOf(f.err)
	}
	step := objString(obj, "stepName")
	var shown []byte
	if d := &r.dialect; d.stepMsg != "" && d.step == step {
		if m := r.findMessage(d.stepMsg); m != nil {
			shown = m.reasoning
		}
	}
	switch {
	case hasDelta && delta != "":
		x.thinking = delta
	case hasContent:
		x.thinking, x.replaceThinking = reconcile(shown, content)
		if x.replaceThinking {
			x.thinking = content
		}
	default:
		return nil
	}
	x.used, x.hasThinking = true, true
	if x.replaceThinking {
		shown = nil
	}
	if len(shown)+len(x.thinking) > r.opt.MaxFieldBytes {
		return errorf("too_large", "STEP_FINISHED: thinking text would exceed the field limit")
	}
	return nil
}

// foldVariant folds a decoded canonical event and what its variant fields
// add around it.
func (r *Reducer) foldVariant(c *Change, ev *Event, x *variant) {
	if r.replaying != "" {
		r.emit(c, ev) // part of a replayed run: skipped as a whole
		return
	}
	d := &r.dialect
	sameStep := ev.Type == StepFinished && x.hasThinking && d.step == ev.StepName
	r.closeStepThinking(c, ev, sameStep)
	switch ev.Type {
	case TextMessageContent:
		if x.replaceText {
			if m := r.findMessage(ev.MessageID); m != nil {
				r.setText(c, m, x.text)
			}
		}
	case ToolCallArgs:
		if x.replaceArgs {
			if t := r.toolByID[ev.ToolCallID]; t != nil {
				r.setToolArgs(c, t, x.text)
			}
		}
	case ToolCallEnd:
		if t := r.toolByID[ev.ToolCallID]; t != nil && x.hasInput {
			r.setToolInput(c, t, x.input)
		}
	case RunFinished:
		if x.hasFinish {
			r.setFinishReason(c, x.finishReason)
		}
	case StepStarted:
		d.stepStarted, d.stepTS, d.stepHasTS = ev.StepName, ev.Timestamp, ev.HasTimestamp
	case StepFinished:
		if x.hasThinking {
			r.stepThinking(c, ev, x)
		}
		if (x.used || d.lastStep == ev.StepName) && !r.stepRunning(ev.StepName) {
			// TanStack streams thinking in many STEP_FINISHED events: the
			// first finishes the step, the others only carry text.
			return
		}
	}
	r.emit(c, ev)
	switch ev.Type {
	case ToolCallEnd:
		if x.hasResult {
			r.dialectResult(c, ev.ToolCallID, x.result)
		}
	case Custom:
		if t := r.toolByID[x.customTool]; t != nil {
			if x.approval != nil {
				r.setApproval(c, t, x.approval)
			}
			if x.clientSide {
				r.setClientSide(c, t)
			}
		}
	}
}

func (r *Reducer) stepRunning(name string) bool {
	for i := len(r.st.Steps) - 1; i >= 0; i-- {
		if r.st.Steps[i].Name == name && r.st.Steps[i].Status == StepRunning {
			return true
		}
	}
	return false
}

// stepThinking streams STEP_FINISHED thinking text into the reasoning of a
// message named after the step.
func (r *Reducer) stepThinking(c *Change, ev *Event, x *variant) {
	d := &r.dialect
	if d.stepMsg == "" || d.step != ev.StepName || r.findMessage(d.stepMsg) == nil {
		id := r.derivedID(idMessage, ev.StepName)
		ts, hasTS := ev.Timestamp, ev.HasTimestamp
		if d.stepStarted == ev.StepName && d.stepHasTS {
			ts, hasTS = d.stepTS, true // the thinking began with its step
		}
		start := Event{Type: ReasoningMessageStart, MessageID: id, Role: "assistant", Timestamp: ts, HasTimestamp: hasTS}
		r.emit(c, &start)
		d.step, d.stepMsg = ev.StepName, id
	}
	d.lastStep = ev.StepName
	if x.replaceThinking {
		if m := r.findMessage(d.stepMsg); m != nil {
			r.setReasoning(c, m, x.thinking)
		}
		return
	}
	if x.thinking != "" {
		content := Event{Type: ReasoningMessageContent, MessageID: d.stepMsg, Delta: x.thinking, HasDelta: true}
		r.emit(c, &content)
	}
}

// closeStepThinking ends the reasoning STEP_FINISHED thinking streams into
// when another event follows (anything but more of the same step's
// thinking and events that do not interrupt it), timing it by that event.
func (r *Reducer) closeStepThinking(c *Change, ev *Event, sameStep bool) {
	d := &r.dialect
	if d.stepMsg == "" || sameStep {
		return
	}
	switch ev.Type {
	case Raw, Custom, StateSnapshot, StateDelta, ActivitySnapshot, ActivityDelta, ReasoningEncryptedValue:
		return
	}
	id := d.stepMsg
	d.step, d.stepMsg = "", ""
	if r.findMessage(id) == nil {
		return
	}
	end := Event{Type: ReasoningMessageEnd, MessageID: id, Timestamp: ev.Timestamp, HasTimestamp: ev.HasTimestamp}
	r.emit(c, &end)
}

// applyTanStack folds a TanStack event: canonical (with variants), or a
// legacy chunk.
func (r *Reducer) applyTanStack(c *Change, name string, obj *jsontree.Object) error {
	typ := objString(obj, "type")
	if isCanonical(EventType(typ)) || typ == "" && isCanonical(EventType(name)) {
		return r.applyAGUI(c, name, obj, true)
	}
	if !tanstackChunk(typ) {
		return errNotMine
	}
	f := fields{obj: obj, typ: typ}
	base, _ := f.optStr("id") // the response id: names the messages it creates
	ts, hasTS := timestampOf(obj)
	if f.err != nil {
		return errOf(f.err)
	}
	switch typ {
	case "content":
		return r.tanstackText(c, &f, base, false, ts, hasTS)
	case "thinking":
		return r.tanstackText(c, &f, base, true, ts, hasTS)
	case "tool_call":
		return r.tanstackToolCall(c, &f, base, ts, hasTS)
	case "tool-input-available", "approval-requested":
		return r.tanstackToolRequest(c, &f, base, ts, hasTS)
	case "tool_result":
		id := f.str("toolCallId", true)
		v, ok := obj.Get("content")
		if !ok {
			f.fail("content is required")
		}
		if f.err != nil {
			return errOf(f.err)
		}
		if r.replaying != "" {
			return nil
		}
		r.ensureRun(c, "")
		r.closeIndexed(id)
		r.closeSegment(c, ts, hasTS)
		if r.dialect.seg != "" {
			r.dialect.segDone = true
		}
		r.dialectResult(c, id, toolContent(v))
	case "done":
		reason, hasReason := f.optStr("finishReason")
		var usage *jsontree.Array
		switch u, _ := obj.Get("usage"); u := u.(type) {
		case *jsontree.Object:
			model, _ := f.optStr("model")
			var err error
			if usage, err = usageArray(u, model, "done"); err != nil {
				return err
			}
		case *jsontree.Array:
			usage = u // already TokenUsage[]
		case nil:
		default:
			f.fail("usage must be an object")
		}
		if f.err != nil {
			return errOf(f.err)
		}
		if r.replaying != "" {
			return nil
		}
		r.closeSegment(c, ts, hasTS)
		if hasReason {
			r.setFinishReason(c, reason)
		}
		r.finishRun(c, usage, ts, hasTS)
	case "error":
		e := f.object("error")
		if e == nil && f.err == nil {
			f.fail("error is required")
		}
		if f.err != nil {
			return errOf(f.err)
		}
		ef := fields{obj: e, typ: "error: error"}
		msg := ef.str("message", true)
		code, hasCode := ef.optStr("code")
		if ef.err != nil {
			return errOf(ef.err)
		}
		if r.replaying != "" {
			return nil
		}
		r.failRun(c, msg, code, hasCode)
	}
	return nil
}

// tanstackText folds a content or thinking chunk: delta when it has one,
// else content, the whole text so far, compared with the segment's.
func (r *Reducer) tanstackText(c *Change, f *fields, base string, thinking bool, ts float64, hasTS bool) error {
	delta, hasDelta := f.optStr("delta")
	content, hasContent := f.optStr("content")
	f.optStr("role")
	if f.err == nil && !hasDelta && !hasContent {
		f.fail("delta or content is required")
	}
	if f.err != nil {
		return errOf(f.err)
	}
	whole := delta == "" && hasContent
	if whole && len(content) > r.opt.MaxFieldBytes {
		return errorf("too_large", f.typ+": content exceeds the field limit")
	}
	// plan compares a whole text with the open segment's.
	plan := func() (string, bool) {
		if !whole {
			return delta, false
		}
		if !r.segmentOpen() {
			return content, false
		}
		m := r.findMessage(r.dialect.seg)
		if thinking {
			return reconcile(m.reasoning, content)
		}
		return reconcile(m.text, content)
	}
	delta, replace := plan()
	if !replace {
		if err := r.checkGrowth(thinking, delta); err != nil {
			return err
		}
	}
	if r.replaying != "" {
		return nil
	}
	if r.ensureRun(c, "") {
		delta, replace = plan() // a new run has no open segment
	}
	if replace {
		m := r.findMessage(r.dialect.seg)
		if thinking {
			r.setReasoning(c, m, content)
		} else {
			r.setText(c, m, content)
		}
		return nil
	}
	if thinking {
		return r.segmentThinking(c, base, delta, ts, hasTS)
	}
	// Text completes the tool calls before it (TanStack's rule).
	r.endIndexed(c)
	return r.segmentText(c, base, "", delta, ts, hasTS)
}

// tanstackToolCall folds a tool_call chunk: the first chunk of an index
// (or of a new toolCall.id) starts the call, every chunk appends its
// arguments.
func (r *Reducer) tanstackToolCall(c *Change, f *fields, base string, ts float64, hasTS bool) error {
	tc := f.object("toolCall")
	if tc == nil && f.err == nil {
		f.fail("toolCall is required")
	}
	index, hasIndex := -1, false
	if v, ok := f.obj.Get("index"); ok && v != nil {
		n, isNum := v.(jsontree.Number)
		x, err := strconv.ParseFloat(string(n), 64)
		if !isNum || err != nil || x < 0 || x != math.Trunc(x) || x > 1<<30 {
			f.fail("index must be a non-negative integer")
		}
		index, hasIndex = int(x), true
	}
	if f.err != nil {
		return errOf(f.err)
	}
	tf := fields{obj: tc, typ: "tool_call: toolCall"}
	id, hasID := tf.optStr("id")
	var name, args string
	if fn := tf.object("function"); fn != nil {
		ff := fields{obj: fn, typ: "tool_call: toolCall.function"}
		name, _ = ff.optStr("name")
		args, _ = ff.optStr("arguments")
		if ff.err != nil {
			return errOf(ff.err)
		}
	}
	if tf.err != nil {
		return errOf(tf.err)
	}
	if id == "" && !hasIndex {
		return errorf("bad_event", "tool_call: toolCall.id or index is required")
	}
	d := &r.dialect
	var entry *indexedTool
	for i := len(d.tools) - 1; i >= 0; i-- {
		if hasIndex && d.tools[i].index == index || !hasIndex && d.tools[i].id == id {
			entry = &d.tools[i]
			break
		}
	}
	if entry != nil && hasID && id != "" && entry.id != id {
		entry = nil // a new call at a reused index
	}
	shown := 0
	if entry != nil {
		if t := r.toolByID[entry.id]; t != nil {
			shown = len(t.args)
		}
	}
	if shown+len(args) > r.opt.MaxFieldBytes {
		return errorf("too_large", "tool_call: arguments would exceed the field limit")
	}
	if r.replaying != "" {
		return nil
	}
	if r.ensureRun(c, "") {
		entry = nil // a new run: no call is open
	}
	if entry == nil {
		if id == "" {
			id = r.newID(idTool)
		}
		parent := ""
		if r.toolByID[id] == nil {
			parent = r.toolParent(c, base, true, ts, hasTS)
		}
		if r.upsertTool(c, id, name, parent, nil, false) == nil {
			return nil
		}
		d.tools = append(d.tools, indexedTool{index: index, id: id, open: true})
	} else {
		id = entry.id
		if t := r.toolByID[id]; t != nil && name != "" && t.Name == "" {
			t.Name = name
			c.replace(toolCallPath(t)+"/name", jsonString(name))
		}
	}
	if args != "" {
		ev := Event{Type: ToolCallArgs, ToolCallID: id, Delta: args, HasDelta: true}
		r.emit(c, &ev)
	}
	return nil
}

// tanstackToolRequest folds tool-input-available (the client must run the
// tool) and approval-requested (the user must approve it): the call's
// input is complete, and the request shows on the call.
func (r *Reducer) tanstackToolRequest(c *Change, f *fields, base string, ts float64, hasTS bool) error {
	id := f.str("toolCallId", true)
	name, _ := f.optStr("toolName")
	input, hasInput := f.obj.Get("input")
	var approval *jsontree.Object
	if f.typ == "approval-requested" {
		approval = f.object("approval")
		if approval == nil && f.err == nil {
			f.fail("approval is required")
		}
	}
	if f.err != nil {
		return errOf(f.err)
	}
	if hasInput && len(argsJSON(input)) > r.opt.MaxFieldBytes {
		return errorf("too_large", f.typ+": input exceeds the field limit")
	}
	if r.replaying != "" {
		return nil
	}
	r.ensureRun(c, "")
	parent := ""
	if r.toolByID[id] == nil {
		parent = r.toolParent(c, base, true, ts, hasTS)
	}
	t := r.upsertTool(c, id, name, parent, input, hasInput)
	if t == nil {
		return nil
	}
	r.closeIndexed(id)
	if t.Status == ToolRunning {
		r.endTool(c, id, nil)
	}
	if approval != nil {
		r.setApproval(c, t, approval)
	} else {
		r.setClientSide(c, t)
	}
	return nil
}

// closeIndexed marks a tool_call chunk call as ended.
func (r *Reducer) closeIndexed(id string) {
	for i := range r.dialect.tools {
		if r.dialect.tools[i].id == id {
			r.dialect.tools[i].open = false
		}
	}
}

// endIndexed ends every tool_call chunk call still open.
func (r *Reducer) endIndexed(c *Change) {
	for i := range r.dialect.tools {
		e := &r.dialect.tools[i]
		if !e.open {
			continue
		}
		e.open = false
		if t := r.toolByID[e.id]; t != nil && t.Status == ToolRunning {
			r.endTool(c, e.id, nil)
		}
	}
}
