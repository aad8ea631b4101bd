package reducer

import (
	"strconv"

	"github.com/agui-reducer/agui/reducer/jsontree"
)

// Chunk kinds. The official 1.0 transform keeps one pending chunk stream
// per lane: a lane is a subagentRunId, the parent agent the untagged lane.
const (
	chunkNone = iota
	chunkText
	chunkTool
	chunkReasoning
)

// chunkLane is one lane's open chunk stream and what its opener set.
type chunkLane struct {
	_ [0]func() // not compared: the compiler would write a == function for it (module size)

	owner    string // subagentRunId; "" is the parent lane
	kind     int
	id       string
	role     string // text: the established role
	name     string
	hasName  bool
	toolName string
	parent   string // tool: parentMessageId ("" when absent)
}

// chunkState is the chunk transform's memory between events.
type chunkState struct {
	lanes      []*chunkLane // open lanes, in the order they (re)opened
	mode       int          // chunkNone when no lane is open, else the last opened kind
	thinkingID string       // reasoning message the THINKING_* events write to
}

func (s *chunkState) lane(owner string) *chunkLane {
	for _, l := range s.lanes {
		if l.owner == owner {
			return l
		}
	}
	return nil
}

func (s *chunkState) sync() {
	s.mode = chunkNone
	if n := len(s.lanes); n > 0 {
		s.mode = s.lanes[n-1].kind
	}
}

// transformChunks expands *_CHUNK events into START/CONTENT/END (or
// START/ARGS/END) exactly as the official transform does, closing an open
// chunk stream before any event that closes it, and hands every resulting
// canonical event to emit. The pending END is not emitted at end of input.
func (r *Reducer) transformChunks(c *Change, ev *Event, emit func(*Event)) {
	switch ev.Type {
	case TextMessageChunk:
		r.textChunk(c, ev, emit)
	case ToolCallChunk:
		r.toolChunk(c, ev, emit)
	case ReasoningMessageChunk:
		r.reasoningChunk(c, ev, emit)
	case Raw, ActivitySnapshot, ActivityDelta, ReasoningEncryptedValue, SubagentStarted,
		ThinkingStart, ThinkingEnd, ThinkingTextMessageStart, ThinkingTextMessageContent, ThinkingTextMessageEnd:
		emit(ev) // these pass through without closing
	default:
		if !isCanonical(ev.Type) || len(r.chunks.lanes) == 0 {
			emit(ev)
			return
		}
		// Run-scoped events close every lane; SUBAGENT_FINISHED/ERROR
		// close their own; any other event the lane its tag names.
		closeAll := false
		switch ev.Type {
		case RunStarted, RunFinished, RunError, MessagesSnapshot:
			closeAll = true
		}
		if !closeAll && r.chunks.lane(ev.SubagentRunID) == nil {
			emit(ev)
			return
		}
		// A refused event must leave the state as it was, open chunk
		// included: check what can be checked before closing it.
		if err := r.precheck(ev); err != nil {
			c.failErr(err)
			return
		}
		if ev.Type == StateDelta {
			// Whether a patch applies is known only by applying it; it
			// touches no streaming message, so it may go first.
			mark := len(c.Diagnostics)
			emit(ev)
			if !refusedSince(c, mark) {
				r.closeLane(ev.SubagentRunID, emit)
			}
			return
		}
		if closeAll {
			r.closeChunk(emit)
		} else {
			r.closeLane(ev.SubagentRunID, emit)
		}
		emit(ev)
	}
}

// precheck reports the refusal a canonical event would meet in its
// handler, for the refusals that do not depend on applying it.
func (r *Reducer) precheck(ev *Event) *Error {
	switch ev.Type {
	case TextMessageContent:
		if m := r.findMessage(ev.MessageID); m != nil && len(m.text)+len(ev.Delta) > r.opt.MaxFieldBytes {
			return errorf("too_large", "TEXT_MESSAGE_CONTENT: content of message '"+m.ID+"' would exceed the field limit")
		}
	case ReasoningMessageContent:
		if m := r.findMessage(ev.MessageID); m != nil && len(m.reasoning)+len(ev.Delta) > r.opt.MaxFieldBytes {
			return errorf("too_large", "REASONING_MESSAGE_CONTENT: reasoning of message '"+m.ID+"' would exceed the field limit")
		}
	case ToolCallArgs:
		if t := r.toolByID[ev.ToolCallID]; t != nil && len(t.args)+len(ev.Delta) > r.opt.MaxFieldBytes {
			return errorf("too_large", "TOOL_CALL_ARGS: arguments of tool call '"+t.ID+"' would exceed the field limit")
		}
	case MessagesSnapshot, RunStarted:
		var list *jsontree.Array
		if ev.Type == MessagesSnapshot {
			list = ev.Messages
		} else if ev.Input != nil {
			mv, _ := ev.Input.Get("messages")
			list, _ = mv.(*jsontree.Array)
		}
		if list == nil {
			return nil
		}
		for _, raw := range list.Elems {
			if _, err := r.importMessage(raw); err != nil {
				e := err.(*Error)
				return errorf(e.Code, string(ev.Type)+": "+e.Message)
			}
		}
	}
	return nil
}

// refusedSince reports whether an error-level diagnostic was added after
// the first mark diagnostics.
func refusedSince(c *Change, mark int) bool {
	for _, d := range c.Diagnostics[mark:] {
		if d.Level == LevelError {
			return true
		}
	}
	return false
}

// chunkTooLarge reports whether appending delta to the chunk's target (the
// message or tool call with that id, if it exists) would pass the field
// limit: checked before the chunk opens or closes anything.
func (r *Reducer) chunkTooLarge(kind int, id string, delta string) bool {
	cur := 0
	switch kind {
	case chunkText:
		if m := r.findMessage(id); m != nil && m.contentKind != contentValue {
			cur = len(m.text)
		}
	case chunkReasoning:
		if m := r.findMessage(id); m != nil {
			cur = len(m.reasoning)
		}
	case chunkTool:
		if t := r.toolByID[id]; t != nil {
			cur = len(t.args)
		}
	}
	return cur+len(delta) > r.opt.MaxFieldBytes
}

// closeChunk closes every lane, in the order they opened.
func (r *Reducer) closeChunk(emit func(*Event)) {
	for len(r.chunks.lanes) > 0 {
		r.closeLane(r.chunks.lanes[0].owner, emit)
	}
}

// closeLane emits the pending END of the owner's lane, if open.
func (r *Reducer) closeLane(owner string, emit func(*Event)) {
	for i, l := range r.chunks.lanes {
		if l.owner != owner {
			continue
		}
		r.chunks.lanes = append(r.chunks.lanes[:i], r.chunks.lanes[i+1:]...)
		r.chunks.sync()
		end := Event{SubagentRunID: l.owner, HasSubagentRunID: l.owner != ""}
		switch l.kind {
		case chunkText:
			end.Type, end.MessageID = TextMessageEnd, l.id
		case chunkTool:
			end.Type, end.ToolCallID = ToolCallEnd, l.id
		case chunkReasoning:
			end.Type, end.MessageID = ReasoningMessageEnd, l.id
		}
		emit(&end)
		return
	}
}

var chunkKindNames = [...]string{chunkText: "text message", chunkTool: "tool call", chunkReasoning: "reasoning message"}

// chunkLaneFor decides a chunk's lane (official 1.0 rules): the lane
// holding an open stream of this kind under the chunk's id; else, for an
// id-less chunk, the lane its tag names, the parent lane if it has one
// open, or the sole lane open of this kind. It returns the owner, or an
// error when the chunk's tag contradicts the lane or the lane is ambiguous.
func (r *Reducer) chunkLaneFor(kind int, typ string, idKey string, id string, hasID bool, ev *Event) (string, *Error) {
	name := chunkKindNames[kind]
	if hasID {
		for _, l := range r.chunks.lanes {
			if l.kind == kind && l.id == id {
				if ev.HasSubagentRunID && ev.SubagentRunID != l.owner {
					who := l.owner
					if who == "" {
						who = "(the parent agent)"
					}
					return "", errorf("bad_chunk", "Cannot continue "+name+" '"+id+"': chunk subagentRunId '"+ev.SubagentRunID+"' does not match the open stream's subagent '"+who+"'.")
				}
				return l.owner, nil
			}
		}
		return ev.SubagentRunID, nil
	}
	if ev.HasSubagentRunID {
		return ev.SubagentRunID, nil
	}
	if l := r.chunks.lane(""); l != nil && l.kind == kind {
		return "", nil
	}
	owner, n := "", 0
	for _, l := range r.chunks.lanes {
		if l.kind == kind {
			owner, n = l.owner, n+1
		}
	}
	if n > 1 {
		return "", errorf("bad_chunk", "Ambiguous "+typ+": it carries neither a "+idKey+" nor a subagentRunId, but "+strconv.Itoa(n)+" lanes have an open "+name+". Attribute the chunk to the subagent it belongs to.")
	}
	return owner, nil
}

// mismatch is the error of a continuation that disagrees with its opener.
func mismatch(name, id, field, value, established string, has bool) *Error {
	tail := "'" + established + "'"
	if !has {
		tail = "(absent)"
	}
	return errorf("bad_chunk", "Cannot continue "+name+" '"+id+"': chunk "+field+" '"+value+"' does not match the open stream's "+field+" "+tail+".")
}

// openLane makes the owner's lane hold a new stream, closing what it held.
func (r *Reducer) openLane(owner string, kind int, id string, emit func(*Event)) *chunkLane {
	r.closeLane(owner, emit)
	l := &chunkLane{owner: owner, kind: kind, id: id}
	r.chunks.lanes = append(r.chunks.lanes, l)
	r.chunks.sync()
	return l
}

// tagged copies a chunk's tag onto an event it synthesizes, a null one
// included (1.0 carries it on, for the verifier), else the lane's.
func tagged(e *Event, ev *Event, owner string) {
	if ev.nulls&nullTag != 0 {
		e.nulls |= nullTag
	} else if ev.HasSubagentRunID {
		e.SubagentRunID, e.HasSubagentRunID = ev.SubagentRunID, true
	} else if owner != "" {
		e.SubagentRunID, e.HasSubagentRunID = owner, true
	}
}

func (r *Reducer) textChunk(c *Change, ev *Event, emit func(*Event)) {
	owner, err := r.chunkLaneFor(chunkText, "TEXT_MESSAGE_CHUNK", "messageId", ev.MessageID, ev.HasMessageID, ev)
	if err != nil {
		c.failErr(err)
		return
	}
	l := r.chunks.lane(owner)
	opening := l == nil || l.kind != chunkText || ev.HasMessageID && ev.MessageID != l.id
	var target string
	if opening {
		if ev.MessageID == "" {
			c.fail("bad_chunk", "First TEXT_MESSAGE_CHUNK must have a messageId")
			return
		}
		target = ev.MessageID
	} else {
		target = l.id
		if ev.Role != "" && ev.Role != l.role {
			c.failErr(mismatch("text message", l.id, "role", ev.Role, l.role, true))
			return
		}
		if ev.HasName && (!l.hasName || ev.Name != l.name) {
			c.failErr(mismatch("text message", l.id, "name", ev.Name, l.name, l.hasName))
			return
		}
	}
	if ev.HasDelta && r.chunkTooLarge(chunkText, target, ev.Delta) {
		c.fail("too_large", "TEXT_MESSAGE_CHUNK: content of message '"+target+"' would exceed the field limit")
		return
	}
	emitted := false
	if opening {
		role := ev.Role
		if role == "" {
			role = "assistant"
		}
		l = r.openLane(owner, chunkText, ev.MessageID, emit)
		l.role, l.name, l.hasName = role, ev.Name, ev.HasName
		start := Event{Type: TextMessageStart, MessageID: ev.MessageID, Role: role, Name: ev.Name, HasName: ev.HasName, Metadata: ev.Metadata, SubagentRunID: ev.SubagentRunID, HasSubagentRunID: ev.HasSubagentRunID}
		start.nulls = ev.nulls & nullTag // an opener keeps a null tag
		emit(&start)
		emitted = true
	}
	if ev.HasDelta || ev.RawEvent != nil || !emitted && zeroDeltaCarrier(ev) {
		content := Event{Type: TextMessageContent, MessageID: l.id, Delta: ev.Delta, HasDelta: true, Metadata: ev.Metadata, RawEvent: ev.RawEvent}
		tagged(&content, ev, owner)
		emit(&content)
	}
}

func (r *Reducer) toolChunk(c *Change, ev *Event, emit func(*Event)) {
	owner, err := r.chunkLaneFor(chunkTool, "TOOL_CALL_CHUNK", "toolCallId", ev.ToolCallID, ev.ToolCallID != "", ev)
	if err != nil {
		c.failErr(err)
		return
	}
	l := r.chunks.lane(owner)
	opening := l == nil || l.kind != chunkTool || ev.ToolCallID != "" && ev.ToolCallID != l.id
	var target string
	if opening {
		if ev.ToolCallID == "" {
			c.fail("bad_chunk", "First TOOL_CALL_CHUNK must have a toolCallId")
			return
		}
		if ev.ToolCallName == "" {
			c.fail("bad_chunk", "First TOOL_CALL_CHUNK must have a toolCallName")
			return
		}
		target = ev.ToolCallID
	} else {
		target = l.id
		if ev.ToolCallName != "" && ev.ToolCallName != l.toolName {
			c.failErr(mismatch("tool call", l.id, "toolCallName", ev.ToolCallName, l.toolName, true))
			return
		}
		if ev.ParentMessageID != "" && ev.ParentMessageID != l.parent {
			c.failErr(mismatch("tool call", l.id, "parentMessageId", ev.ParentMessageID, l.parent, l.parent != ""))
			return
		}
	}
	if ev.HasDelta && r.chunkTooLarge(chunkTool, target, ev.Delta) {
		c.fail("too_large", "TOOL_CALL_CHUNK: arguments of tool call '"+target+"' would exceed the field limit")
		return
	}
	emitted := false
	if opening {
		l = r.openLane(owner, chunkTool, ev.ToolCallID, emit)
		l.toolName, l.parent = ev.ToolCallName, ev.ParentMessageID
		start := Event{Type: ToolCallStart, ToolCallID: ev.ToolCallID, ToolCallName: ev.ToolCallName, ParentMessageID: ev.ParentMessageID, Metadata: ev.Metadata, SubagentRunID: ev.SubagentRunID, HasSubagentRunID: ev.HasSubagentRunID}
		start.nulls = ev.nulls & nullTag // an opener keeps a null tag
		emit(&start)
		emitted = true
	}
	if ev.HasDelta || ev.RawEvent != nil || !emitted && zeroDeltaCarrier(ev) {
		args := Event{Type: ToolCallArgs, ToolCallID: l.id, Delta: ev.Delta, HasDelta: true, Metadata: ev.Metadata, RawEvent: ev.RawEvent}
		tagged(&args, ev, owner)
		emit(&args)
	}
}

func (r *Reducer) reasoningChunk(c *Change, ev *Event, emit func(*Event)) {
	// 1.0 tests the id by presence: "" is an id, and opens a new stream.
	owner, err := r.chunkLaneFor(chunkReasoning, "REASONING_MESSAGE_CHUNK", "messageId", ev.MessageID, ev.HasMessageID, ev)
	if err != nil {
		c.failErr(err)
		return
	}
	l := r.chunks.lane(owner)
	opening := l == nil || l.kind != chunkReasoning || ev.HasMessageID && ev.MessageID != l.id
	var target string
	if opening {
		if !ev.HasMessageID {
			c.fail("bad_chunk", "First REASONING_MESSAGE_CHUNK must have a messageId")
			return
		}
		target = ev.MessageID
	} else {
		target = l.id
	}
	if ev.HasDelta && r.chunkTooLarge(chunkReasoning, target, ev.Delta) {
		c.fail("too_large", "REASONING_MESSAGE_CHUNK: reasoning of message '"+target+"' would exceed the field limit")
		return
	}
	emitted := false
	if opening {
		l = r.openLane(owner, chunkReasoning, ev.MessageID, emit)
		start := Event{Type: ReasoningMessageStart, MessageID: ev.MessageID, Role: "reasoning", Metadata: ev.Metadata, Timestamp: ev.Timestamp, HasTimestamp: ev.HasTimestamp, SubagentRunID: ev.SubagentRunID, HasSubagentRunID: ev.HasSubagentRunID}
		start.nulls = ev.nulls & nullTag // an opener keeps a null tag
		emit(&start)
		emitted = true
	}
	if ev.HasDelta || ev.RawEvent != nil || !emitted && zeroDeltaCarrier(ev) {
		content := Event{Type: ReasoningMessageContent, MessageID: l.id, Delta: ev.Delta, HasDelta: true, Metadata: ev.Metadata, RawEvent: ev.RawEvent}
		tagged(&content, ev, owner)
		emit(&content)
	}
}

// zeroDeltaCarrier reports whether a continuation chunk that synthesized
// nothing still yields a delta:"" CONTENT/ARGS event, as 1.0 does: when it
// carries metadata or a null tag (which must reach the verifier). 1.0 also
// fires it for a rawEvent (emitted above whatever the delta) and for
// properties the chunk schema does not describe; runAgent's enforcement
// strips those before the transform, so it never fires for them there.
func zeroDeltaCarrier(ev *Event) bool {
	return ev.Metadata != nil || ev.nulls&nullTag != 0
}

// isCanonical reports whether t is a canonical AG-UI event type.
func isCanonical(t EventType) bool {
	switch t {
	case TextMessageStart, TextMessageContent, TextMessageEnd, TextMessageChunk,
		ToolCallStart, ToolCallArgs, ToolCallEnd, ToolCallChunk, ToolCallResult,
		ThinkingStart, ThinkingEnd, ThinkingTextMessageStart, ThinkingTextMessageContent, ThinkingTextMessageEnd,
		StateSnapshot, StateDelta, MessagesSnapshot, ActivitySnapshot, ActivityDelta,
		Raw, Custom, RunStarted, RunFinished, RunError, StepStarted, StepFinished,
		ReasoningStart, ReasoningMessageStart, ReasoningMessageContent, ReasoningMessageEnd,
		ReasoningMessageChunk, ReasoningEnd, ReasoningEncryptedValue,
		SubagentStarted, SubagentFinished, SubagentError:
		return true
	}
	return false
}
