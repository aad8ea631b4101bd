package reducer

import (
	"strings"

	"github.com/agui-reducer/agui/reducer/jsontree"
	"github.com/agui-reducer/agui/reducer/partialjson"
)

// argsParser follows a tool call's streamed arguments incrementally, so a
// TOOL_CALL_ARGS event costs O(delta) however long the arguments grow.
type argsParser struct {
	_ [0]func() // not compared: the compiler would write a == function for it (module size)

	p     *partialjson.Parser
	final bool // Args holds the exact parse; the parser is done

	// The pointer of the last edit: base (the call's args path) + rel
	// (the edit's path below args) = full. A streamed string's Append
	// edits repeat one path, so a token builds no pointer.
	base, rel, full string
}

// pointer returns base+rel, reusing the last one when they repeat.
func (a *argsParser) pointer(base, rel string) string {
	if a.full == "" || a.base != base || a.rel != rel {
		a.base, a.rel, a.full = base, rel, base+rel
	}
	return a.full
}

// liveArgs is the args value shown in the state: the exact parse once the
// call ended, else the parser's longest valid prefix, else {}.
func (t *ToolCall) liveArgs() jsontree.Value {
	if t.parser.final || t.parser.p == nil {
		if t.Args == nil {
			return jsontree.NewObject(0)
		}
		return t.Args
	}
	if v, ok := t.parser.p.Value(); ok {
		return v
	}
	return jsontree.NewObject(0)
}

func (r *Reducer) appendToolCall(c *Change, t *ToolCall) {
	t.pos, t.born = len(r.st.ToolCalls), r.epoch
	r.st.ToolCalls = append(r.st.ToolCalls, t)
	r.forgetTokens()
	r.toolByID[t.ID] = t
	// Sized for the call's members: appending to nil grows it five times.
	c.add(toolCallPath(t), t.AppendJSON(make([]byte, 0, 256+len(t.args))))
}

// toolStart adds a running tool call and attaches it to its assistant
// message, resolving the parent exactly as the official client does.
func (r *Reducer) toolStart(c *Change, ev *Event) {
	// Replays count too, as in the official tally.
	r.tallyStarted(c, ev.ToolCallID)
	if t := r.tool(ev.ToolCallID); t != nil {
		// A replayed start does not duplicate: rename if needed, merge
		// metadata, and ignore the parent.
		path := toolCallPath(t)
		if t.Name != ev.ToolCallName {
			c.warn("tool_call_renamed", "TOOL_CALL_START: tool call '"+t.ID+"' already exists with name '"+t.Name+"' — updating it to '"+ev.ToolCallName+"'")
			t.Name = ev.ToolCallName
			c.replace(path+"/name", jsonString(t.Name))
		}
		mergeMetadata(c, &t.Metadata, ev.Metadata, path)
		return
	}
	owner := r.resolveParent(c, ev, ev.ToolCallID, ev.ParentMessageID)
	t := &ToolCall{ID: ev.ToolCallID, Name: ev.ToolCallName, ParentMessageID: owner.ID, Status: ToolRunning}
	// The call inherits its message's tag; an existing parent is never
	// re-tagged.
	t.SubagentRunID, t.HasSubagentRunID = owner.SubagentRunID, owner.HasSubagentRunID
	t.Metadata = cloneObject(ev.Metadata)
	t.parser.p = newArgsParser(r.opt.MaxDepth)
	r.startArgsCheck(c, t)
	r.attachToolCall(c, owner, t.ID)
	r.appendToolCall(c, t)
}

// resolveParent finds or creates the assistant message that owns a new tool
// call: an assistant message named by parentMessageId, else a new assistant
// message with that id, else (no parent, or the parent is not an assistant)
// a new assistant message keyed by the tool call id. A message that
// holds only reasoning is a "reasoning" message in the official shape, so
// it is not an assistant parent either (as in the official client).
func (r *Reducer) resolveParent(c *Change, ev *Event, toolCallID, parentID string) *Message {
	if parentID != "" {
		if m := r.findMessage(parentID); m != nil {
			// Judged from what a snapshot keeps (reasoning present, no text,
			// no tool calls), not from how the slot was created, so that a
			// restored reducer decides alike.
			reasoningOnly := m.hasReasoning && m.contentKind != contentValue && len(m.text) == 0 && len(m.ToolCallIDs) == 0
			if m.Role == "assistant" && !reasoningOnly {
				return m
			}
			role := m.Role
			if reasoningOnly {
				role = "reasoning"
			}
			c.warn("parent_not_assistant", "TOOL_CALL_START: parentMessageId '"+parentID+"' matches a '"+role+"' message, not assistant — falling back to toolCallId")
		} else {
			return r.newToolOwner(c, ev, parentID)
		}
	}
	if m := r.findMessage(toolCallID); m != nil && m.Role == "assistant" {
		// Replays after a restore find the owner they created before.
		return m
	}
	return r.newToolOwner(c, ev, toolCallID)
}

func (r *Reducer) newToolOwner(c *Change, ev *Event, id string) *Message {
	m := &Message{ID: id, Role: "assistant"}
	m.SubagentRunID, m.HasSubagentRunID = ev.SubagentRunID, ev.HasSubagentRunID
	r.appendMessage(c, m)
	return m
}

func (r *Reducer) attachToolCall(c *Change, m *Message, id string) {
	path := messagePath(m)
	if m.ToolCallIDs == nil {
		m.ToolCallIDs = []string{id}
		c.add(path+"/toolCallIds", appendStrings(make([]byte, 0, len(id)+4), m.ToolCallIDs))
		return
	}
	m.ToolCallIDs = append(m.ToolCallIDs, id)
	c.add(path+"/toolCallIds/-", jsonString(id))
}

func (r *Reducer) toolArgs(c *Change, ev *Event) {
	t := r.tool(ev.ToolCallID)
	if t == nil {
		c.warn("unknown_tool_call", "TOOL_CALL_ARGS: No message found containing tool call with ID '"+ev.ToolCallID+"'")
		return
	}
	if r.argsDelta(c, t, ev.Delta) {
		mergeMetadata(c, &t.Metadata, ev.Metadata, toolCallPath(t))
	}
}

// argsDelta appends delta to t's arguments: their text and, while they
// parse, the live args. It reports false (with a diagnostic) when the
// arguments would exceed the field limit.
func (r *Reducer) argsDelta(c *Change, t *ToolCall, delta string) bool {
	if len(t.args)+len(delta) > r.opt.MaxFieldBytes {
		c.fail("too_large", "TOOL_CALL_ARGS: arguments of tool call '"+t.ID+"' would exceed the field limit")
		return false
	}
	if delta == "" {
		return true
	}
	n := len(t.args)
	t.args = appendJS(t.args, delta)
	c.appendToken(argsTextPath(t), argsTail(t.args, n, delta))
	if !t.parser.final && t.parser.p != nil {
		t.parser.p.Write(delta, func(e partialjson.Edit) {
			r.argsEdit(c, t, e)
		})
	}
	return true
}

// argsTail is the text of the op that appends delta to t.args (args after
// appendJS, n its length before): a view of args's new bytes, so that
// delta (a token's, held by the caller) needs no copy. Bytes of args are
// only ever appended to, except for a high surrogate at its end, which
// appendJS rewrites in place when the low half follows: the text is a
// copy when appendJS joined a pair (the op carries delta as given) or
// when args ends with a high surrogate or the start of one.
func argsTail(args []byte, n int, delta string) string {
	k := len(args)
	if k != n+len(delta) || k >= 1 && args[k-1] == 0xED ||
		k >= 2 && args[k-2] == 0xED && args[k-1]&0xF0 == 0xA0 || endsHighSurrogate(args) {
		return strings.Clone(delta)
	}
	return bytesString(args[n:])
}

// argsEdit turns one parser edit into a change op on t's args.
func (r *Reducer) argsEdit(c *Change, t *ToolCall, e partialjson.Edit) {
	path := t.parser.pointer(argsPath(t), e.Path)
	switch e.Op {
	case partialjson.Append:
		c.appendToken(path, e.Text)
	case partialjson.Replace:
		c.replace(path, jsonValue(e.Value))
	case partialjson.End:
	default:
		c.add(path, jsonValue(e.Value))
	}
	r.checkEdit(c, t, e)
}

func (r *Reducer) toolEnd(c *Change, ev *Event) {
	t := r.tool(ev.ToolCallID)
	if t == nil {
		c.warn("unknown_tool_call", "TOOL_CALL_END: No message found containing tool call with ID '"+ev.ToolCallID+"'")
		return
	}
	path := toolCallPath(t)
	whole := r.finishArgs(c, t)
	if t.Status == ToolRunning {
		// Arguments cut off are not a finished call.
		t.Status = ToolComplete
		if !whole {
			t.Status = ToolError
		}
		c.replace(path+"/status", jsonString(t.Status))
	}
	mergeMetadata(c, &t.Metadata, ev.Metadata, path)
}

// finishArgs replaces the live args by the exact parse of the whole text
// and judges them (finalArgsCheck). Text that is not valid JSON (cut off)
// gets {} as args, with a diagnostic, marks the arguments invalid
// ("truncated") and reports false.
func (r *Reducer) finishArgs(c *Change, t *ToolCall) bool {
	if t.parser.final {
		return true
	}
	var exact jsontree.Value
	var parseErr error
	if len(t.args) == 0 {
		exact = jsontree.NewObject(0)
	} else {
		v, err := jsontree.Parse(t.args, jsontree.ParseOptions{MaxDepth: r.opt.MaxDepth, JSText: true})
		if err != nil {
			c.warn("bad_args", "TOOL_CALL_END: arguments of tool call '"+t.ID+"' are not valid JSON: "+err.Error())
			parseErr = err
		} else {
			exact = v
		}
	}
	live := t.liveArgs()
	r.finalArgsCheck(c, t, exact, parseErr)
	if parseErr != nil {
		// The args stay best-effort: {} (safeArgs keeps the members
		// that were complete and valid).
		exact = jsontree.NewObject(0)
	}
	t.Args, t.parser = exact, argsParser{final: true}
	if !sameText(live, exact) && (!jsontree.Equal(live, exact) || sameShapeDiffers(live, exact)) {
		c.replace(toolCallPath(t)+"/args", jsonValue(exact))
	}
	return parseErr == nil
}

// sameText reports whether a and b are the same tree, member order and
// number spellings included, so that their JSON texts are the same: what
// the streamed arguments nearly always are when they end (then neither
// text need be written to compare them). false says nothing.
func sameText(a, b jsontree.Value) bool {
	switch a := a.(type) {
	case *jsontree.Object:
		b, ok := b.(*jsontree.Object)
		if !ok || a == nil || b == nil || a.Len() != b.Len() {
			return false
		}
		for i := range a.Len() {
			if a.KeyAt(i) != b.KeyAt(i) || !sameText(a.ValueAt(i), b.ValueAt(i)) {
				return false
			}
		}
		return true
	case *jsontree.Array:
		b, ok := b.(*jsontree.Array)
		if !ok || a == nil || b == nil || len(a.Elems) != len(b.Elems) {
			return false
		}
		for i, e := range a.Elems {
			if !sameText(e, b.Elems[i]) {
				return false
			}
		}
		return true
	case string, jsontree.Number, bool, nil:
		return a == b
	}
	return false
}

// sameShapeDiffers catches values Equal treats as equal but whose JSON text
// differs (1 vs 1.0), so the JS mirror ends byte-identical to the state.
func sameShapeDiffers(a, b jsontree.Value) bool {
	return string(jsontree.AppendJSON(nil, a)) != string(jsontree.AppendJSON(nil, b))
}

// toolResultEvent folds TOOL_CALL_RESULT: its content is a string or (1.0)
// content parts, kept as sent on the message and the call, which also
// gets their text form.
func (r *Reducer) toolResultEvent(c *Change, ev *Event) {
	r.tallyAnswered(c, ev.ToolCallID)
	parts, _ := ev.Content.(*jsontree.Array)
	text, _ := ev.Content.(string)
	if parts != nil {
		text = partsText(parts)
	}
	r.toolResult(c, ev.MessageID, ev.ToolCallID, text, parts, ev.Metadata, ev)
}

// partsText is the text form of content parts: their text parts joined by
// newlines.
func partsText(parts *jsontree.Array) string {
	var b []byte
	n := 0
	for _, p := range parts.Elems {
		o, _ := p.(*jsontree.Object)
		if o == nil {
			continue
		}
		if t, _ := o.Get("type"); t != "text" {
			continue
		}
		s, _ := o.Get("text")
		str, _ := s.(string)
		if n > 0 {
			b = append(b, '\n')
		}
		b = appendJS(b, str)
		n++
	}
	return string(b)
}

// toolResult records a tool's result on its call and inserts a tool message
// after the owning assistant message and the tool messages that follow it.
// parts, when non-nil, is the result as content parts (content its text
// form); ev, when non-nil, is the event that carried it.
func (r *Reducer) toolResult(c *Change, messageID, toolCallID, content string, parts *jsontree.Array, meta *jsontree.Object, ev *Event) {
	m := &Message{ID: messageID, Role: "tool", ToolCallID: toolCallID, contentKind: contentText, text: []byte(content)}
	if parts != nil {
		m.contentKind, m.text, m.value = contentValue, nil, parts
	}
	if ev != nil {
		m.SubagentRunID, m.HasSubagentRunID = ev.SubagentRunID, ev.HasSubagentRunID
	}
	m.Metadata = cloneObject(meta)
	pos := len(r.st.Messages)
	if owner := r.ownerOf(toolCallID); owner != nil {
		pos = owner.pos + 1
		for pos < len(r.st.Messages) && r.st.Messages[pos].Role == "tool" {
			pos++
		}
	}
	r.insertMessage(c, pos, m)
	if t := r.tool(toolCallID); t != nil {
		path := toolCallPath(t)
		t.Result, t.HasResult, t.ResultMessageID = content, true, messageID
		c.add(path+"/result", jsonString(content))
		c.add(path+"/resultMessageId", jsonString(messageID))
		if parts != nil {
			t.ResultContent = parts
			c.add(path+"/resultContent", jsonValue(parts))
		} else if t.ResultContent != nil {
			t.ResultContent = nil
			c.remove(path + "/resultContent")
		}
		if t.Status == ToolRunning {
			r.finishArgs(c, t)
			t.Status = ToolComplete
			c.replace(path+"/status", jsonString(ToolComplete))
		}
	}
}

// ownerOf returns the first assistant message whose toolCallIds hold id.
func (r *Reducer) ownerOf(toolCallID string) *Message {
	t := r.toolByID[toolCallID]
	if t == nil {
		return nil // no message can name a call the reducer never saw
	}
	if m := r.findMessage(t.ParentMessageID); m != nil && m.Role == "assistant" && containsString(m.ToolCallIDs, toolCallID) {
		return m
	}
	// Rare: duplicate ids or a snapshot moved the call. Fall back to a scan.
	for _, m := range r.st.Messages {
		if m.Role == "assistant" && containsString(m.ToolCallIDs, toolCallID) {
			return m
		}
	}
	return nil
}

func containsString(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

type partialEdit = partialjson.Edit

func newArgsParser(depth int) *partialjson.Parser {
	return partialjson.New(partialjson.Options{MaxDepth: depth, JSText: true, Ends: true})
}
