package reducer

import (
	"strconv"
	"strings"

	"github.com/agui-reducer/agui/reducer/jsontree"
)

// Dialects. Real backends do not all speak canonical AG-UI; the reducer
// also accepts the event shapes below and normalises each event at the
// edge, before reduction, into zero or more canonical events, so that the
// handlers only ever see canonical AG-UI:
//
//   - DialectAGUI: canonical AG-UI, a JSON object with an UPPER_CASE type.
//   - DialectSSEContract: the SSE contract of seeds/000. The event type is
//     the SSE event name, in snake_case (tool_call_start, tool_call_args,
//     tool_call_end, tool_result, reasoning_start, reasoning_message_start,
//     reasoning_message_content, reasoning_message_end, reasoning_end,
//     message, status, error), and the data has no type.
//   - DialectTanStack: TanStack AI (seeds/001). Its AG-UI variant uses the
//     canonical types with other fields (toolName, error:{message,code},
//     finishReason and a usage object on RUN_FINISHED, thinking text on
//     STEP_FINISHED, full content on TEXT_MESSAGE_CONTENT, input and result
//     on TOOL_CALL_END); its legacy chunks have a lowercase type (content,
//     thinking, tool_call, tool-input-available, approval-requested,
//     tool_result, done, error).
//   - DialectStreaming: the streaming events of seeds/003, a JSON object
//     whose "event" field names it (token, tool_start, tool_end,
//     tool_execution_request, tool_execution_complete, message_complete,
//     error).
//
// With Options.Dialect "" or DialectAuto the dialect is detected per event:
// a canonical UPPER_CASE type is AG-UI (TanStack's field variants are then
// normalised in place where the canonical field is missing); an SSE event
// name of the SSE contract whose data has no type is the SSE contract; a
// lowercase TanStack chunk type is TanStack; an "event" field is the
// streaming dialect. Mixing dialects in one conversation is handled event by
// event, since each maps to canonical events, with a "mixed_dialects"
// warning when a stream switches from one non-canonical dialect to another.
// Pinning a dialect rejects, with a "wrong_dialect" error and no change,
// every event that is not in it.
//
// Where a dialect gives no message, tool-call or run id, the reducer names
// the entity itself, deterministically (Options.NewID when set, else
// "msg-1", "tool-1", "run-1"… skipping ids in use): the same input always
// yields the same ids. docs/dialects.md has the full mapping.
const (
	DialectAuto        = "auto"
	DialectAGUI        = "agui"
	DialectSSEContract = "sse-contract"
	DialectTanStack    = "tanstack"
	DialectStreaming   = "streaming"
)

// Dialects returns the names Options.Dialect accepts besides "".
func Dialects() []string {
	return []string{DialectAuto, DialectAGUI, DialectSSEContract, DialectTanStack, DialectStreaming}
}

// dialect identifies one event shape.
type dialect uint8

const (
	dialectNone dialect = iota
	dialectAGUI
	dialectSSEContract
	dialectTanStack
	dialectStreaming
	dialectAuto
)

var dialectNames = [...]string{"", DialectAGUI, DialectSSEContract, DialectTanStack, DialectStreaming, DialectAuto}

func (d dialect) String() string { return dialectNames[d] }

func parseDialect(s string) (dialect, bool) {
	switch s {
	case "", DialectAuto:
		return dialectAuto, true
	case DialectAGUI:
		return dialectAGUI, true
	case DialectSSEContract:
		return dialectSSEContract, true
	case DialectTanStack:
		return dialectTanStack, true
	case DialectStreaming:
		return dialectStreaming, true
	}
	return dialectNone, false
}

// Kinds of the ids the dialects assign.
const (
	idMessage = iota
	idTool
	idRun
	idKinds
)

var idKindNames = [idKinds]string{"msg", "tool", "run"}

// dialectState is what the normaliser remembers between events: the ids it
// assigned and the entities that id-less dialect events continue. It is
// scoped to one run, except for the id counters and the last dialect seen.
type dialectState struct {
	last dialect      // dialect of the last non-canonical event (mixed-dialect warning)
	n    [idKinds]int // counters behind assigned ids

	// The assistant message that id-less text and thinking go to (a
	// "segment"): seg is its id, segText and segReasoning whether a text or
	// reasoning stream is open on it, segDone that a tool call took it over,
	// so that later text opens a new segment. segs lists the run's segments.
	seg                   string
	segText, segReasoning bool
	segDone               bool
	segs                  []string

	// tools are the tool calls of TanStack tool_call chunks, found again by
	// index; pending are the seeds/003 tool_start calls awaiting tool_end.
	tools   []indexedTool
	pending []pendingTool

	// TanStack's AG-UI variant: the assistant message of the last
	// TEXT_MESSAGE_START (owner of tool calls without a parent), and the
	// reasoning message STEP_FINISHED thinking text streams into.
	active      string
	step        string // step whose thinking is streaming ("" none)
	stepMsg     string // its reasoning message
	stepStarted string // last STEP_STARTED step name, and its timestamp
	stepTS      float64
	stepHasTS   bool
	lastStep    string // last step finished by thinking text
}

type indexedTool struct {
	index int // -1 when the chunk had none
	id    string
	open  bool // not yet ended
}

type pendingTool struct{ name, id string }

// endRun forgets what was scoped to the run that just started or ended.
func (d *dialectState) endRun() {
	d.seg, d.segText, d.segReasoning, d.segDone = "", false, false, false
	d.segs = d.segs[:0]
	d.tools = d.tools[:0]
	d.pending = d.pending[:0]
	d.active, d.step, d.stepMsg, d.stepStarted, d.lastStep = "", "", "", "", ""
	d.stepHasTS = false
}

// observe follows the canonical events the reducer folds.
func (d *dialectState) observe(ev *Event) {
	switch ev.Type {
	case RunStarted, RunFinished, RunError:
		d.endRun()
	case TextMessageStart:
		if ev.Role == "assistant" {
			d.active = ev.MessageID
		}
	case TextMessageChunk:
		if ev.MessageID != "" && (ev.Role == "" || ev.Role == "assistant") {
			d.active = ev.MessageID
		}
	}
}

// errNotMine tells the caller an event is not in the dialect asked;
// errIgnored that it is, but unknown and ignored with a warning.
var (
	errNotMine = errorf("wrong_dialect", "")
	errIgnored = errorf("ignored", "")
)

// applyFrame decodes one event, data and the SSE event name when it came in
// a frame ("" otherwise), in the configured dialect, and folds the canonical
// events it stands for. A rejected event changes nothing.
func (r *Reducer) applyFrame(c *Change, name string, data []byte) {
	pin, ok := parseDialect(r.opt.Dialect)
	if !ok {
		c.fail("bad_option", "unknown dialect '"+r.opt.Dialect+"' (want one of "+strings.Join(Dialects(), ", ")+")")
		return
	}
	if name == "" && (pin == dialectAuto || pin == dialectAGUI || pin == dialectTanStack) && r.dialect.stepMsg == "" {
		// Streamed tokens are nearly every event: decode them without a tree.
		// The event lives in the Reducer so it does not escape per call.
		if r.applyHotText(c, data) {
			return
		}
		var ok bool
		if r.hot, ok = decodeHot(data, r.opt.MaxDepth); ok {
			r.emit(c, &r.hot)
			r.hot = Event{}
			return
		}
	}
	v, err := jsontree.Parse(data, jsontree.ParseOptions{MaxDepth: r.opt.MaxDepth})
	if err != nil {
		c.fail("bad_json", "event is not valid JSON: "+err.Error())
		return
	}
	obj, isObj := v.(*jsontree.Object)
	if !isObj {
		c.fail("bad_event", "event is not a JSON object")
		return
	}
	d := pin
	if pin == dialectAuto {
		d, name = detectDialect(name, obj)
	} else if pin == dialectAGUI {
		if other, _ := detectDialect(name, obj); other != dialectAGUI {
			d = dialectNone // another dialect's event: not canonical
		}
	} else if pin == dialectSSEContract && name == "" && objString(obj, "type") == "error" {
		name = "error" // an SSE-contract error sent without its event line
	}
	switch d {
	case dialectAGUI:
		err = r.applyAGUI(c, name, obj, pin == dialectAuto)
	case dialectSSEContract:
		err = r.applySSEContract(c, name, obj)
	case dialectTanStack:
		err = r.applyTanStack(c, name, obj)
	case dialectStreaming:
		err = r.applyStreaming(c, obj)
	default:
		err = errNotMine
	}
	if d != dialectAGUI && len(r.checkpoints) > 0 {
		r.dropCheckpoints() // see replay.go
	}
	switch {
	case err == errIgnored:
	case err == errNotMine:
		c.fail("wrong_dialect", "event is not in the "+pin.String()+" dialect"+describe(name, obj))
	case err != nil:
		c.failErr(err)
	case pin == dialectAuto && d != dialectAGUI:
		r.noteDialect(c, d)
	}
}

// describe names an event for a diagnostic by its SSE name, its type or
// its event field.
func describe(name string, obj *jsontree.Object) string {
	var parts []string
	if name != "" {
		parts = append(parts, "SSE event '"+name+"'")
	}
	if t := objString(obj, "type"); t != "" {
		parts = append(parts, "type '"+t+"'")
	} else if e := objString(obj, "event"); e != "" {
		parts = append(parts, "event '"+e+"'")
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

// noteDialect warns when a stream switches from one non-canonical dialect to
// another: each event is still folded on its own terms.
func (r *Reducer) noteDialect(c *Change, d dialect) {
	if last := r.dialect.last; last != dialectNone && last != d {
		c.warn("mixed_dialects", "a "+d.String()+" event follows "+last.String()+" events; each event is folded on its own terms")
	}
	r.dialect.last = d
}

// detectDialect tells an event's dialect from its shape (see Dialects). It
// returns the event name to use: an SSE-contract error sent without its SSE
// event line is named "error".
func detectDialect(name string, obj *jsontree.Object) (dialect, string) {
	tv, hasType := obj.Get("type")
	typ, isStr := tv.(string)
	if isStr && isCanonical(EventType(typ)) {
		return dialectAGUI, name
	}
	if sseContractEvent(name) {
		switch {
		case !hasType, name == "status":
			return dialectSSEContract, name
		case name == "error" && typ == "error" && !hasObject(obj, "error"):
			return dialectSSEContract, name
		}
	}
	if isStr && tanstackChunk(typ) {
		if typ == "error" && !hasObject(obj, "error") && objString(obj, "message") != "" {
			return dialectSSEContract, "error"
		}
		return dialectTanStack, name
	}
	if !hasType {
		if e, ok := obj.Get("event"); ok {
			if _, isStr := e.(string); isStr {
				return dialectStreaming, name
			}
		}
	}
	// Canonical decoding reports whatever is wrong with it.
	return dialectAGUI, name
}

func hasObject(obj *jsontree.Object, key string) bool {
	v, _ := obj.Get(key)
	_, ok := v.(*jsontree.Object)
	return ok
}

func objString(obj *jsontree.Object, key string) string {
	v, _ := obj.Get(key)
	s, _ := v.(string)
	return s
}

// emit folds one canonical event the normaliser produced (or passed on).
func (r *Reducer) emit(c *Change, ev *Event) {
	r.applyEvent(c, ev)
	r.dialect.observe(ev)
}

// newID returns a fresh id of the given kind for an entity the dialect did
// not name: the host's NewID when set, else "<kind>-<n>" from a counter,
// skipping ids in use, so the same input always yields the same ids.
func (r *Reducer) newID(kind int) string {
	name := idKindNames[kind]
	if r.opt.NewID != nil {
		if id := r.opt.NewID(name); id != "" {
			return id
		}
	}
	for {
		r.dialect.n[kind]++
		id := name + "-" + strconv.Itoa(r.dialect.n[kind])
		if !r.idTaken(kind, id) {
			return id
		}
	}
}

// derivedID returns base, or base-2, base-3… when base is in use: the id of
// an entity named after another (a tool result after its call).
func (r *Reducer) derivedID(kind int, base string) string {
	if !r.idTaken(kind, base) {
		return base
	}
	for k := 2; ; k++ {
		id := base + "-" + strconv.Itoa(k)
		if !r.idTaken(kind, id) {
			return id
		}
	}
}

func (r *Reducer) idTaken(kind int, id string) bool {
	switch kind {
	case idRun:
		// A run id already folded would make the new run look like a replay.
		return id == r.st.RunID || r.doneRuns[id]
	case idTool:
		return r.toolByID[id] != nil
	}
	return r.msgByID[id] != nil || r.toolByID[id] != nil
}

// ensureRun starts a run, as RUN_STARTED, when none is running: dialects
// without run lifecycle events still show a loading conversation while
// they stream. threadID "" keeps the current thread. It reports whether it
// started one: what the dialect remembered of the last run is then gone.
func (r *Reducer) ensureRun(c *Change, threadID string) bool {
	if r.st.Status == StatusRunning {
		return false
	}
	if threadID == "" {
		threadID = r.st.ThreadID
	}
	ev := Event{Type: RunStarted, ThreadID: threadID, RunID: r.newID(idRun)}
	r.emit(c, &ev)
	return true
}

// finishRun ends the run as RUN_FINISHED does, with TokenUsage[] usage when
// given.
func (r *Reducer) finishRun(c *Change, usage *jsontree.Array, ts float64, hasTS bool) {
	r.closeSegment(c, ts, hasTS)
	ev := Event{Type: RunFinished, ThreadID: r.st.ThreadID, RunID: r.st.RunID, Usage: usage, Timestamp: ts, HasTimestamp: hasTS}
	r.emit(c, &ev)
}

// failRun ends the run as RUN_ERROR does.
func (r *Reducer) failRun(c *Change, message, code string, hasCode bool) {
	ev := Event{Type: RunError, Message: message, Code: code, HasCode: hasCode}
	r.emit(c, &ev)
}

// setRecoverable records whether a failed run may be retried (seeds/003).
func (r *Reducer) setRecoverable(c *Change, recoverable bool) {
	if e := r.st.Error; e != nil {
		e.Recoverable, e.HasRecoverable = recoverable, true
		c.add("/error/recoverable", jsonBool(recoverable))
	}
}

// Segments: the assistant message id-less text and thinking stream into.

// segmentOpen reports whether a segment is open for more text.
func (r *Reducer) segmentOpen() bool {
	d := &r.dialect
	return d.seg != "" && !d.segDone && r.findMessage(d.seg) != nil
}

// openSegment makes a new segment current, named after base when given.
func (r *Reducer) openSegment(base string) string {
	d := &r.dialect
	var id string
	if base != "" {
		id = r.derivedID(idMessage, base)
	} else {
		id = r.newID(idMessage)
	}
	d.seg, d.segText, d.segReasoning, d.segDone = id, false, false, false
	d.segs = append(d.segs, id)
	return id
}

// checkGrowth rejects, before anything is folded, text that would push the
// segment's content (or reasoning) past the field limit.
func (r *Reducer) checkGrowth(reasoning bool, delta string) error {
	n := 0
	if r.segmentOpen() {
		m := r.findMessage(r.dialect.seg)
		n = len(m.text)
		if reasoning {
			n = len(m.reasoning)
		}
	}
	if n+len(delta) > r.opt.MaxFieldBytes {
		return errorf("too_large", "message text would exceed the field limit")
	}
	return nil
}

// segmentText appends delta to the current segment's text, opening the
// segment (named after base, or counted) and its text stream as needed.
// name is the author name a new message gets ("" for none).
func (r *Reducer) segmentText(c *Change, base, name string, delta string, ts float64, hasTS bool) error {
	if err := r.checkGrowth(false, delta); err != nil {
		return err
	}
	d := &r.dialect
	if !r.segmentOpen() {
		r.openSegment(base)
	}
	id := d.seg
	if d.segReasoning {
		d.segReasoning = false
		end := Event{Type: ReasoningMessageEnd, MessageID: id, Timestamp: ts, HasTimestamp: hasTS}
		r.emit(c, &end)
	}
	if !d.segText {
		d.segText = true
		start := Event{Type: TextMessageStart, MessageID: id, Role: "assistant", Name: name, HasName: name != ""}
		r.emit(c, &start)
	}
	if delta != "" {
		ev := Event{Type: TextMessageContent, MessageID: id, Delta: delta, HasDelta: true}
		r.emit(c, &ev)
	}
	return nil
}

// segmentThinking appends delta to the current segment's reasoning, opening
// what is needed, as segmentText does.
func (r *Reducer) segmentThinking(c *Change, base, delta string, ts float64, hasTS bool) error {
	if err := r.checkGrowth(true, delta); err != nil {
		return err
	}
	d := &r.dialect
	if !r.segmentOpen() {
		r.openSegment(base)
	}
	id := d.seg
	if !d.segReasoning {
		d.segReasoning = true
		start := Event{Type: ReasoningMessageStart, MessageID: id, Role: "assistant", Timestamp: ts, HasTimestamp: hasTS}
		r.emit(c, &start)
	}
	if delta != "" {
		ev := Event{Type: ReasoningMessageContent, MessageID: id, Delta: delta, HasDelta: true}
		r.emit(c, &ev)
	}
	return nil
}

// closeSegment ends the text and reasoning streams open on the segment.
func (r *Reducer) closeSegment(c *Change, ts float64, hasTS bool) {
	d := &r.dialect
	if d.segReasoning {
		d.segReasoning = false
		end := Event{Type: ReasoningMessageEnd, MessageID: d.seg, Timestamp: ts, HasTimestamp: hasTS}
		r.emit(c, &end)
	}
	if d.segText {
		d.segText = false
		end := Event{Type: TextMessageEnd, MessageID: d.seg}
		r.emit(c, &end)
	}
}

// toolParent returns the assistant message a dialect tool call without a
// parent belongs to: the current segment, whose text ends there (later text
// opens a new segment). With create, a segment (named after base) is
// opened when there is none; otherwise "" lets TOOL_CALL_START key a new
// assistant message by the tool call id, as for canonical events.
func (r *Reducer) toolParent(c *Change, base string, create bool, ts float64, hasTS bool) string {
	d := &r.dialect
	if d.seg == "" || r.findMessage(d.seg) == nil {
		if !create {
			return ""
		}
		r.openSegment(base)
	}
	r.closeSegment(c, ts, hasTS)
	d.segDone = true
	return d.seg
}

// Tool calls.

// argsJSON is the argument text of a tool call whose input a dialect sends
// parsed.
func argsJSON(input jsontree.Value) string {
	return string(jsontree.AppendJSON(nil, input))
}

// upsertTool makes sure tool call id exists, starting it (under parent) when
// new, and that its arguments are input when the event carries them: the
// arguments of a new call, or a replacement of different ones.
func (r *Reducer) upsertTool(c *Change, id, name, parent string, input jsontree.Value, hasInput bool) *ToolCall {
	t := r.toolByID[id]
	if t == nil {
		start := Event{Type: ToolCallStart, ToolCallID: id, ToolCallName: name, ParentMessageID: parent}
		r.emit(c, &start)
		if t = r.toolByID[id]; t == nil {
			return nil // skipped as part of a replayed run
		}
		if hasInput {
			args := Event{Type: ToolCallArgs, ToolCallID: id, Delta: argsJSON(input), HasDelta: true}
			r.emit(c, &args)
		}
		return t
	}
	if name != "" && t.Name == "" {
		t.Name = name
		c.replace(toolCallPath(t)+"/name", jsonString(name))
	}
	if hasInput {
		r.setToolInput(c, t, input)
	}
	return t
}

// setToolInput makes input the arguments of t, unless its argument text
// already parses to the same value.
func (r *Reducer) setToolInput(c *Change, t *ToolCall, input jsontree.Value) {
	if len(t.args) > 0 {
		if v, err := jsontree.Parse(t.args, jsontree.ParseOptions{MaxDepth: r.opt.MaxDepth}); err == nil && jsontree.Equal(v, input) && !sameShapeDiffers(v, input) {
			return
		}
	}
	r.setToolArgs(c, t, argsJSON(input))
}

// setToolArgs replaces the argument text of t wholesale (a dialect that
// sends the accumulated text rather than a delta, and that text does not
// extend what arrived), keeping args in step.
func (r *Reducer) setToolArgs(c *Change, t *ToolCall, text string) {
	path := toolCallPath(t)
	t.args = []byte(text)
	c.replace(path+"/argsText", jsonString(text))
	if t.parser.final {
		v, err := jsontree.Parse(t.args, jsontree.ParseOptions{MaxDepth: r.opt.MaxDepth})
		if err != nil || len(t.args) == 0 {
			v = jsontree.NewObject(0)
		}
		t.Args = v
	} else {
		t.parser.p = newArgsParser(r.opt.MaxDepth)
		t.parser.p.Write(text, func(partialEdit) {})
	}
	c.replace(path+"/args", jsonValue(t.liveArgs()))
}

// endTool ends a running tool call as TOOL_CALL_END does.
func (r *Reducer) endTool(c *Change, id string, meta *jsontree.Object) {
	end := Event{Type: ToolCallEnd, ToolCallID: id, Metadata: meta}
	r.emit(c, &end)
}

// toolResult folds a tool's result as TOOL_CALL_RESULT, naming the tool
// message "result-<toolCallId>" as AddToolResult does.
func (r *Reducer) dialectResult(c *Change, toolCallID, content string) {
	ev := Event{Type: ToolCallResult, MessageID: r.derivedID(idMessage, "result-"+toolCallID), ToolCallID: toolCallID, Content: content}
	r.emit(c, &ev)
}

// setApproval shows on tool call t that it waits for the user's approval
// (the approval request as sent, e.g. {id, needsApproval}).
func (r *Reducer) setApproval(c *Change, t *ToolCall, approval *jsontree.Object) {
	t.Approval = jsontree.Clone(approval).(*jsontree.Object)
	c.add(toolCallPath(t)+"/approval", jsonValue(t.Approval))
}

// setClientSide shows on tool call t that the client must run it.
func (r *Reducer) setClientSide(c *Change, t *ToolCall) {
	if !t.ClientSide {
		t.ClientSide = true
		c.add(toolCallPath(t)+"/clientSide", jsonBool(true))
	}
}

// Message text given whole.

// reconcile compares the full text a dialect sends with the text shown: it
// returns the suffix to append when full extends it, "" when full is what is
// shown or a stale prefix of it, and replace when they disagree.
func reconcile(shown []byte, full string) (delta string, replace bool) {
	cur := bytesString(shown)
	switch {
	case strings.HasPrefix(full, cur):
		return full[len(cur):], false
	case strings.HasPrefix(cur, full):
		return "", false
	}
	return "", true
}

// setText replaces the content of m wholesale.
func (r *Reducer) setText(c *Change, m *Message, text string) {
	r.setTextContent(m)
	m.text = []byte(text)
	c.replace(messagePath(m)+"/content", jsonString(text))
}

// setReasoning replaces the reasoning of m wholesale.
func (r *Reducer) setReasoning(c *Change, m *Message, text string) {
	path := messagePath(m) + "/reasoning"
	if m.hasReasoning {
		c.replace(path, jsonString(text))
	} else {
		c.add(path, jsonString(text))
	}
	m.hasReasoning, m.reasoning = true, []byte(text)
}

// finishReasonTarget is the assistant message a finish reason describes:
// the last message of the conversation, looking past the tool messages
// that answer its tool calls.
func (r *Reducer) finishReasonTarget() *Message {
	for i := len(r.st.Messages) - 1; i >= 0; i-- {
		m := r.st.Messages[i]
		if m.Role == "tool" {
			continue
		}
		if m.Role == "assistant" {
			return m
		}
		return nil
	}
	return nil
}

// setFinishReason records why the model stopped as metadata.finishReason of
// the message it stopped.
func (r *Reducer) setFinishReason(c *Change, reason string) {
	m := r.finishReasonTarget()
	if m == nil {
		return
	}
	meta := jsontree.NewObject(1)
	meta.Set("finishReason", reason)
	mergeMetadata(c, &m.Metadata, meta, messagePath(m))
}

// usageArray turns a usage object ({promptTokens, completionTokens,
// totalTokens}, or canonical TokenUsage keys) into the canonical TokenUsage[]
// form; model, when not "", fills a missing model. Counts must be numbers.
func usageArray(u *jsontree.Object, model, typ string) (*jsontree.Array, error) {
	out := jsontree.NewObject(u.Len())
	for i := 0; i < u.Len(); i++ {
		key, val := u.KeyAt(i), u.ValueAt(i)
		switch key {
		case "promptTokens":
			key = "inputTokens"
		case "completionTokens":
			key = "outputTokens"
		case "inputTokens", "outputTokens", "totalTokens", "reasoningTokens", "cachedInputTokens":
		case "provider", "model":
			if _, ok := val.(string); !ok && val != nil {
				return nil, errorf("bad_event", typ+": usage."+key+" must be a string")
			}
			if val != nil {
				out.Set(key, val)
			}
			continue
		default:
			continue // unknown keys are stripped, as the official schema does
		}
		if val == nil {
			continue
		}
		if _, ok := val.(jsontree.Number); !ok {
			return nil, errorf("bad_event", typ+": usage."+u.KeyAt(i)+" must be a number")
		}
		out.Set(key, val)
	}
	if _, ok := out.Get("model"); !ok && model != "" {
		withModel := jsontree.NewObject(out.Len() + 1)
		withModel.Set("model", model)
		for i := 0; i < out.Len(); i++ {
			withModel.Set(out.KeyAt(i), out.ValueAt(i))
		}
		out = withModel
	}
	return jsontree.NewArray(out), nil
}

// toolContent is the text of a tool result a dialect may send as any JSON
// value: a string as is, anything else as its JSON text.
func toolContent(v jsontree.Value) string {
	if s, ok := v.(string); ok {
		return s
	}
	return string(jsontree.AppendJSON(nil, v))
}

// timestampOf reads a numeric timestamp (milliseconds), as the canonical
// decoder does; other types count as absent.
func timestampOf(obj *jsontree.Object) (float64, bool) {
	v, _ := obj.Get("timestamp")
	n, ok := v.(jsontree.Number)
	if !ok {
		return 0, false
	}
	f, err := strconv.ParseFloat(string(n), 64)
	return f, err == nil
}

// errOf turns a decoding problem into an error, nil when there is none.
func errOf(e *Error) error {
	if e == nil {
		return nil
	}
	return e
}
