package dialect

import (
	"math"
	"strconv"

	"github.com/agui-reducer/agui/reducer/eventjson"
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
//	                     finishReason               → finishReason (AmendEvent)
//	RUN_ERROR            error {message, code}      → message, code
//	TEXT_MESSAGE_CONTENT content (accumulated)      → content (AmendEvent): the delta it adds, or a replacement
//	TOOL_CALL_START      toolName                   → toolCallName; no parent → the open assistant message
//	TOOL_CALL_ARGS       args (accumulated)         → argsText (AmendEvent)
//	TOOL_CALL_END        input                      → args (AmendEvent); result → TOOL_CALL_RESULT
//	STEP_STARTED/FINISHED stepId                    → stepName
//	STEP_FINISHED        delta / content (thinking) → REASONING_MESSAGE_START/CONTENT on a message named
//	                                                  after the step, ended by the next other event
//	CUSTOM               approval-requested, tool-input-available
//	                                                 → also approval / clientSide (AmendEvent)
//
// A canonical event has none of these fields missing and is passed on as
// it came.

// tanstackChunk reports whether t is a TanStack legacy chunk type.
func tanstackChunk(t string) bool {
	switch t {
	case "content", "thinking", "tool_call", "tool-input-available", "approval-requested", "tool_result", "done", "error":
		return true
	}
	return false
}

// variant is what a canonical-typed event carries beyond canonical AG-UI,
// read (and checked) before anything is emitted.
type variant struct {
	used      bool // the event used a variant field
	rewritten bool // obj differs from the event's text

	finishReason string
	hasFinish    bool

	content    string // TEXT_MESSAGE_CONTENT / TOOL_CALL_ARGS: accumulated text
	hasContent bool

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

// applyAGUI translates a canonical event, with TanStack's field variants
// normalised, and the type taken from the SSE event line when the data
// has none.
func (t *Translator) applyAGUI(name string, data []byte, obj *jsontree.Object) *Diagnostic {
	var x variant
	if v, ok := obj.Get("type"); (!ok || v == nil) && isCanonical(name) {
		obj.Set("type", name)
		x.rewritten = true
	}
	if err := t.readVariant(obj, &x); err != nil {
		return err
	}
	if checkCanonical(obj, x.hasContent) != nil {
		// The reducer refuses it: pass it on alone, for the reducer to say
		// why, and emit nothing around it.
		if x.rewritten {
			t.b = jsontree.AppendJSON(t.b[:0], obj)
			t.emitFn(t.b)
		} else {
			t.emitFn(data)
		}
		return nil
	}
	if x.used {
		t.noteDialect(dialectTanStack)
	}
	t.foldVariant(data, obj, &x)
	return nil
}

// checkCanonical checks what the reducer requires of a canonical event
// that the translator emits others around, or remembers something of: the
// base fields and the ids. An event it refuses is still passed on (the
// reducer reports what is wrong) but not remembered.
//
// whole says the event's text comes whole (TanStack content or args),
// not as the delta canonical AG-UI requires.
func checkCanonical(obj *jsontree.Object, whole bool) *Diagnostic {
	typ := objString(obj, "type")
	f := fieldsOf(obj, typ)
	f.Str("type", true)
	if v, ok := obj.Get("timestamp"); ok && v != nil {
		if _, isNum := v.(jsontree.Number); !isNum {
			f.Fail("timestamp must be a number")
		}
	}
	if v, ok := obj.Get("metadata"); ok {
		if _, isObj := v.(*jsontree.Object); !isObj {
			f.Fail("metadata must be an object")
		}
	}
	switch typ {
	case "TEXT_MESSAGE_START":
		f.Str("messageId", true)
		switch role, _ := f.OptStr("role"); role {
		case "", "assistant", "user", "system", "developer":
		default:
			f.Fail("role must be one of developer, system, assistant, user")
		}
		f.OptStr("name")
	case "TEXT_MESSAGE_END", "REASONING_START", "REASONING_END", "REASONING_MESSAGE_START", "REASONING_MESSAGE_END":
		f.Str("messageId", true)
	case "TEXT_MESSAGE_CONTENT", "REASONING_MESSAGE_CONTENT":
		f.Str("messageId", true)
		f.Str("delta", !whole)
	case "TOOL_CALL_START":
		f.Str("toolCallId", true)
		f.Str("toolCallName", true)
		f.OptStr("parentMessageId")
	case "TOOL_CALL_ARGS":
		f.Str("toolCallId", true)
		f.Str("delta", !whole)
	case "TOOL_CALL_END":
		f.Str("toolCallId", true)
	case "TOOL_CALL_RESULT":
		f.Str("messageId", true)
		f.Str("toolCallId", true)
		f.Str("content", true)
	case "RUN_STARTED":
		f.Str("threadId", true)
		f.Str("runId", true)
		f.OptStr("parentRunId")
		if in := f.Object("input"); in != nil {
			if v, ok := in.Get("messages"); ok && v != nil {
				if _, isArr := v.(*jsontree.Array); !isArr {
					f.Fail("input.messages must be an array")
				}
			}
		}
	case "RUN_FINISHED":
		f.OptStr("threadId")
		f.OptStr("runId")
		if o := f.Object("outcome"); o != nil {
			switch v, _ := o.Get("type"); v {
			case "success":
			case "interrupt":
				if l, _ := o.Get("interrupts"); l == nil {
					f.Fail("outcome.interrupts is required")
				} else if _, isArr := l.(*jsontree.Array); !isArr {
					f.Fail("outcome.interrupts must be an array")
				}
			default:
				f.Fail(`outcome.type must be "success" or "interrupt"`)
			}
		}
		f.Array("usage", false)
	case "RUN_ERROR":
		f.Str("message", true)
		f.OptStr("code")
		f.Array("usage", false)
	case "STEP_STARTED", "STEP_FINISHED":
		f.Str("stepName", true)
	case "CUSTOM":
		f.Str("name", true)
	}
	return f.err()
}

// readVariant rewrites TanStack's variant fields of obj into canonical ones
// where the canonical field is missing, and collects what has no canonical
// field. It emits nothing.
func (t *Translator) readVariant(obj *jsontree.Object, x *variant) *Diagnostic {
	typ := objString(obj, "type")
	f := fieldsOf(obj, typ)
	missing := func(key string) bool {
		v, ok := obj.Get(key)
		return !ok || v == nil
	}
	set := func(key string, v jsontree.Value) {
		obj.Set(key, v)
		x.rewritten = true
	}
	drop := func(key string) {
		obj.Delete(key)
		x.rewritten = true
	}
	switch typ {
	case "TEXT_MESSAGE_CONTENT":
		if d, _ := obj.Get("delta"); d != nil && d != "" {
			return nil // a canonical delta
		}
		content, ok := f.OptStr("content")
		if !ok || f.Err != nil {
			return f.err()
		}
		x.used, x.content, x.hasContent = true, content, true
	case "RUN_STARTED":
		if missing("threadId") {
			x.used = true
			set("threadId", t.thread)
		}
	case "RUN_FINISHED":
		if v, ok := obj.Get("finishReason"); ok {
			x.used = true
			if v != nil {
				s, isStr := v.(string)
				if !isStr {
					return errorf("bad_event", "RUN_FINISHED: finishReason must be a string or null")
				}
				x.finishReason, x.hasFinish = s, true
			}
			drop("finishReason")
		}
		if u, ok := obj.Get("usage"); ok {
			if uo, isObj := u.(*jsontree.Object); isObj {
				x.used = true
				model, _ := f.OptStr("model")
				arr, err := usageArray(uo, model, "RUN_FINISHED")
				if err != nil {
					return err
				}
				set("usage", arr)
			}
		}
		return f.err()
	case "RUN_ERROR":
		if missing("message") {
			if e := f.Object("error"); e != nil {
				x.used = true
				ef := fieldsOf(e, "RUN_ERROR: error")
				msg := ef.Str("message", true)
				code, hasCode := ef.OptStr("code")
				if ef.Err != nil {
					return ef.err()
				}
				set("message", msg)
				if hasCode && missing("code") {
					set("code", code)
				}
				drop("error")
			}
		}
		return f.err()
	case "TOOL_CALL_START":
		if missing("toolCallName") {
			name, ok := f.OptStr("toolName")
			if !ok || f.Err != nil {
				return f.err()
			}
			x.used = true
			set("toolCallName", name)
			drop("toolName")
			if missing("parentMessageId") && t.active != "" && t.msgs[t.active] {
				set("parentMessageId", t.active)
			}
		}
	case "TOOL_CALL_ARGS":
		if missing("delta") {
			args, ok := f.OptStr("args")
			if !ok || f.Err != nil {
				return f.err()
			}
			x.used, x.content, x.hasContent = true, args, true
		}
	case "TOOL_CALL_END":
		if v, ok := obj.Get("input"); ok && v != nil {
			x.used, x.input, x.hasInput = true, v, true
			if len(argsJSON(v)) > t.opt.MaxFieldBytes {
				return errorf("too_large", "TOOL_CALL_END: input exceeds the field limit")
			}
			drop("input")
		}
		if v, ok := obj.Get("result"); ok && v != nil {
			x.used, x.result, x.hasResult = true, toolContent(v), true
			drop("result")
		}
	case "STEP_STARTED", "STEP_FINISHED":
		if missing("stepName") {
			id, ok := f.OptStr("stepId")
			if !ok || f.Err != nil {
				return f.err()
			}
			x.used = true
			set("stepName", id)
			drop("stepId")
		}
		if typ == "STEP_FINISHED" {
			return t.readThinking(obj, &f, x)
		}
	case "CUSTOM":
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
	return f.err()
}

// readThinking reads the thinking text a TanStack STEP_FINISHED streams:
// delta, else content, the whole text so far, compared with what arrived.
func (t *Translator) readThinking(obj *jsontree.Object, f *fields, x *variant) *Diagnostic {
	delta, hasDelta := f.OptStr("delta")
	content, hasContent := f.OptStr("content")
	if f.Err != nil {
		return f.err()
	}
	step := objString(obj, "stepName")
	var shown []byte
	if t.stepMsg != "" && t.step == step {
		if r := t.texts[t.stepMsg]; r != nil {
			shown = r.reasoning
		}
	}
	switch {
	case hasDelta && delta != "":
		x.thinking = delta
	case hasContent:
		x.thinking, x.replaceThinking = eventjson.Reconcile(shown, content)
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
	if len(shown)+len(x.thinking) > t.opt.MaxFieldBytes {
		return errorf("too_large", "STEP_FINISHED: thinking text would exceed the field limit")
	}
	obj.Delete("delta")
	obj.Delete("content")
	x.rewritten = true
	return nil
}

// foldVariant emits a canonical event and what its variant fields add
// around it.
func (t *Translator) foldVariant(data []byte, obj *jsontree.Object, x *variant) {
	pass := func() {
		if x.rewritten {
			t.passOnObject(obj)
		} else {
			t.passOn(data, obj)
		}
	}
	if t.replayed != "" {
		pass() // part of a replayed run: the reducer skips it
		return
	}
	typ, step, ts := objString(obj, "type"), objString(obj, "stepName"), timestampOf(obj)
	sameStep := typ == "STEP_FINISHED" && x.hasThinking && t.step == step
	t.closeStepThinking(typ, ts, sameStep)
	switch typ {
	case "TEXT_MESSAGE_CONTENT":
		if x.hasContent {
			b := t.startAmend().str("messageId", objString(obj, "messageId")).str("content", x.content)
			if m, _ := obj.Get("metadata"); m != nil {
				b.val("metadata", m)
			}
			b.putAmend()
			return
		}
	case "TOOL_CALL_ARGS":
		if x.hasContent {
			t.startAmend().str("toolCallId", objString(obj, "toolCallId")).str("argsText", x.content).putAmend()
			return
		}
	case "TOOL_CALL_END":
		if id := objString(obj, "toolCallId"); t.tools[id] != nil && x.hasInput {
			t.startAmend().str("toolCallId", id).val("args", x.input).putAmend()
		}
	case "RUN_FINISHED":
		if x.hasFinish {
			t.startAmend().str("finishReason", x.finishReason).putAmend()
		}
	case "STEP_FINISHED":
		if x.hasThinking {
			t.stepThinking(step, ts, x)
		}
		if (x.used || t.lastStep == step) && !t.steps[step] {
			// TanStack streams thinking in many STEP_FINISHED events: the
			// first finishes the step, the others only carry text.
			return
		}
	}
	pass()
	switch typ {
	case "TOOL_CALL_END":
		if x.hasResult {
			t.toolResult(objString(obj, "toolCallId"), x.result)
		}
	case "CUSTOM":
		if t.tools[x.customTool] != nil && (x.approval != nil || x.clientSide) {
			t.requestTool(x.customTool, x.approval, x.clientSide)
		}
	}
}

// stepThinking streams STEP_FINISHED thinking text into the reasoning of a
// message named after the step.
func (t *Translator) stepThinking(step string, ts jsontree.Number, x *variant) {
	if t.stepMsg == "" || t.step != step || !t.msgs[t.stepMsg] {
		id := t.derivedID(idMessage, step)
		if t.stepStarted == step && t.stepTS != "" {
			ts = t.stepTS // the thinking began with its step
		}
		t.start("REASONING_MESSAGE_START").str("messageId", id).str("role", "reasoning").num("timestamp", ts).put()
		t.step, t.stepMsg = step, id
	}
	t.lastStep = step
	if x.replaceThinking {
		t.amendText(t.stepMsg, true, x.thinking)
		return
	}
	if x.thinking != "" {
		t.reasoningContent(t.stepMsg, x.thinking)
	}
}

// closeStepThinking ends the reasoning STEP_FINISHED thinking streams into
// when another event follows (anything but more of the same step's
// thinking and events that do not interrupt it), timing it by that event.
func (t *Translator) closeStepThinking(typ string, ts jsontree.Number, sameStep bool) {
	if t.stepMsg == "" || sameStep {
		return
	}
	switch typ {
	case "RAW", "CUSTOM", "STATE_SNAPSHOT", "STATE_DELTA", "ACTIVITY_SNAPSHOT", "ACTIVITY_DELTA", "REASONING_ENCRYPTED_VALUE":
		return
	}
	id := t.stepMsg
	t.step, t.stepMsg = "", ""
	if !t.msgs[id] {
		return
	}
	t.start("REASONING_MESSAGE_END").str("messageId", id).num("timestamp", ts).put()
}

// applyTanStack translates a TanStack event: canonical (with variants), or
// a legacy chunk.
func (t *Translator) applyTanStack(name string, data []byte, obj *jsontree.Object) *Diagnostic {
	typ := objString(obj, "type")
	if isCanonical(typ) || typ == "" && isCanonical(name) {
		return t.applyAGUI(name, data, obj)
	}
	if !tanstackChunk(typ) {
		return errNotMine
	}
	f := fieldsOf(obj, typ)
	base, _ := f.OptStr("id") // the response id: names the messages it creates
	ts := timestampOf(obj)
	if f.Err != nil {
		return f.err()
	}
	switch typ {
	case "content":
		return t.tanstackText(&f, base, false, ts)
	case "thinking":
		return t.tanstackText(&f, base, true, ts)
	case "tool_call":
		return t.tanstackToolCall(&f, base, ts)
	case "tool-input-available", "approval-requested":
		return t.tanstackToolRequest(&f, base, ts)
	case "tool_result":
		id := f.Str("toolCallId", true)
		v, ok := obj.Get("content")
		if !ok {
			f.Fail("content is required")
		}
		if f.Err != nil {
			return f.err()
		}
		if t.replayed != "" {
			return nil
		}
		t.ensureRun("")
		t.closeIndexed(id)
		t.closeSegment(ts)
		if t.seg != "" {
			t.segDone = true
		}
		t.toolResult(id, toolContent(v))
	case "done":
		reason, hasReason := f.OptStr("finishReason")
		var usage *jsontree.Array
		switch u, _ := obj.Get("usage"); u := u.(type) {
		case *jsontree.Object:
			model, _ := f.OptStr("model")
			var err *Diagnostic
			if usage, err = usageArray(u, model, "done"); err != nil {
				return err
			}
		case *jsontree.Array:
			usage = u // already TokenUsage[]
		case nil:
		default:
			f.Fail("usage must be an object")
		}
		if f.Err != nil {
			return f.err()
		}
		if t.replayed != "" {
			return nil
		}
		t.closeSegment(ts)
		if hasReason {
			t.startAmend().str("finishReason", reason).putAmend()
		}
		t.finishRun(usage, ts)
	case "error":
		e := f.Object("error")
		if e == nil && f.Err == nil {
			f.Fail("error is required")
		}
		if f.Err != nil {
			return f.err()
		}
		ef := fieldsOf(e, "error: error")
		msg := ef.Str("message", true)
		code, hasCode := ef.OptStr("code")
		if ef.Err != nil {
			return ef.err()
		}
		if t.replayed != "" {
			return nil
		}
		t.failRun(msg, code, hasCode)
	}
	return nil
}

// tanstackText translates a content or thinking chunk: delta when it has
// one, else content, the whole text so far, compared with the segment's.
func (t *Translator) tanstackText(f *fields, base string, thinking bool, ts jsontree.Number) *Diagnostic {
	delta, hasDelta := f.OptStr("delta")
	content, hasContent := f.OptStr("content")
	f.OptStr("role")
	if f.Err == nil && !hasDelta && !hasContent {
		f.Fail("delta or content is required")
	}
	if f.Err != nil {
		return f.err()
	}
	whole := delta == "" && hasContent
	if whole && len(content) > t.opt.MaxFieldBytes {
		return errorf("too_large", f.Type+": content exceeds the field limit")
	}
	// plan compares a whole text with the open segment's.
	plan := func() (string, bool) {
		if !whole {
			return delta, false
		}
		if !t.segmentOpen() {
			return content, false
		}
		r := t.text(t.seg)
		if thinking {
			return eventjson.Reconcile(r.reasoning, content)
		}
		return eventjson.Reconcile(r.text, content)
	}
	delta, replace := plan()
	if !replace {
		if err := t.checkGrowth(thinking, delta); err != nil {
			return err
		}
	}
	if t.replayed != "" {
		return nil
	}
	if t.ensureRun("") {
		delta, replace = plan() // a new run has no open segment
	}
	if replace {
		t.amendText(t.seg, thinking, content)
		return nil
	}
	if thinking {
		return t.segmentThinking(base, delta, ts)
	}
	// Text completes the tool calls before it (TanStack's rule).
	t.endIndexed()
	return t.segmentText(base, "", delta, ts)
}

// tanstackToolCall translates a tool_call chunk: the first chunk of an
// index (or of a new toolCall.id) starts the call, every chunk appends its
// arguments.
func (t *Translator) tanstackToolCall(f *fields, base string, ts jsontree.Number) *Diagnostic {
	tc := f.Object("toolCall")
	if tc == nil && f.Err == nil {
		f.Fail("toolCall is required")
	}
	index, hasIndex := -1, false
	if v, ok := f.Obj.Get("index"); ok && v != nil {
		n, isNum := v.(jsontree.Number)
		x, err := strconv.ParseFloat(string(n), 64)
		if !isNum || err != nil || x < 0 || x != math.Trunc(x) || x > 1<<30 {
			f.Fail("index must be a non-negative integer")
		}
		index, hasIndex = int(x), true
	}
	if f.Err != nil {
		return f.err()
	}
	tf := fieldsOf(tc, "tool_call: toolCall")
	id, hasID := tf.OptStr("id")
	var name, args string
	if fn := tf.Object("function"); fn != nil {
		ff := fieldsOf(fn, "tool_call: toolCall.function")
		name, _ = ff.OptStr("name")
		args, _ = ff.OptStr("arguments")
		if ff.Err != nil {
			return ff.err()
		}
	}
	if tf.Err != nil {
		return tf.err()
	}
	if id == "" && !hasIndex {
		return errorf("bad_event", "tool_call: toolCall.id or index is required")
	}
	var entry *indexedTool
	for i := len(t.indexed) - 1; i >= 0; i-- {
		if hasIndex && t.indexed[i].index == index || !hasIndex && t.indexed[i].id == id {
			entry = &t.indexed[i]
			break
		}
	}
	if entry != nil && hasID && id != "" && entry.id != id {
		entry = nil // a new call at a reused index
	}
	shown := 0
	if entry != nil {
		if rec := t.tools[entry.id]; rec != nil {
			shown = rec.args
		}
	}
	if shown+len(args) > t.opt.MaxFieldBytes {
		return errorf("too_large", "tool_call: arguments would exceed the field limit")
	}
	if t.replayed != "" {
		return nil
	}
	if t.ensureRun("") {
		entry = nil // a new run: no call is open
	}
	if entry == nil {
		if id == "" {
			id = t.newID(idTool)
		}
		parent := ""
		if t.tools[id] == nil {
			parent = t.toolParent(base, true, ts)
		}
		if t.upsertTool(id, name, parent, nil, false) == nil {
			return nil
		}
		t.indexed = append(t.indexed, indexedTool{index: index, id: id, open: true})
	} else {
		id = entry.id
		if rec := t.tools[id]; rec != nil && name != "" && rec.name == "" {
			t.touchTool(id)
			rec.name = name
			t.startAmend().str("toolCallId", id).str("name", name).putAmend()
		}
	}
	if args != "" {
		t.toolArgs(id, args)
	}
	return nil
}

// tanstackToolRequest translates tool-input-available (the client must run
// the tool) and approval-requested (the user must approve it): the call's
// input is complete, and the request shows on the call.
func (t *Translator) tanstackToolRequest(f *fields, base string, ts jsontree.Number) *Diagnostic {
	id := f.Str("toolCallId", true)
	name, _ := f.OptStr("toolName")
	input, hasInput := f.Obj.Get("input")
	var approval *jsontree.Object
	if f.Type == "approval-requested" {
		approval = f.Object("approval")
		if approval == nil && f.Err == nil {
			f.Fail("approval is required")
		}
	}
	if f.Err != nil {
		return f.err()
	}
	if hasInput && len(argsJSON(input)) > t.opt.MaxFieldBytes {
		return errorf("too_large", f.Type+": input exceeds the field limit")
	}
	if t.replayed != "" {
		return nil
	}
	t.ensureRun("")
	parent := ""
	if t.tools[id] == nil {
		parent = t.toolParent(base, true, ts)
	}
	rec := t.upsertTool(id, name, parent, input, hasInput)
	if rec == nil {
		return nil
	}
	t.closeIndexed(id)
	if rec.running {
		t.endTool(id, nil)
	}
	t.requestTool(id, approval, approval == nil)
	return nil
}

// closeIndexed marks a tool_call chunk call as ended.
func (t *Translator) closeIndexed(id string) {
	for i := range t.indexed {
		if t.indexed[i].id == id {
			t.indexed[i].open = false
		}
	}
}

// endIndexed ends every tool_call chunk call still open.
func (t *Translator) endIndexed() {
	for i := range t.indexed {
		e := &t.indexed[i]
		if !e.open {
			continue
		}
		e.open = false
		if rec := t.tools[e.id]; rec != nil && rec.running {
			t.endTool(e.id, nil)
		}
	}
}
