package reducer

import "github.com/agui-reducer/agui/reducer/jsontree"

// Chunk modes: at most one chunk stream is open at a time, as in the
// official transformChunks.
const (
	chunkNone = iota
	chunkText
	chunkTool
	chunkReasoning
)

// chunkState is the chunk transform's memory between events.
type chunkState struct {
	mode       int
	id         string // open message or tool call id
	thinkingID string // reasoning message the THINKING_* events write to
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
	case Raw, ActivitySnapshot, ActivityDelta, ReasoningEncryptedValue:
		emit(ev) // these pass through without closing
	default:
		if !isCanonical(ev.Type) || r.chunks.mode == chunkNone {
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
				r.closeChunk(emit)
			}
			return
		}
		r.closeChunk(emit)
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

func (r *Reducer) closeChunk(emit func(*Event)) {
	if r.chunks.mode == chunkNone {
		return
	}
	var end Event
	switch r.chunks.mode {
	case chunkText:
		end = Event{Type: TextMessageEnd, MessageID: r.chunks.id}
	case chunkTool:
		end = Event{Type: ToolCallEnd, ToolCallID: r.chunks.id}
	case chunkReasoning:
		end = Event{Type: ReasoningMessageEnd, MessageID: r.chunks.id}
	default:
		return
	}
	r.chunks.mode, r.chunks.id = chunkNone, ""
	emit(&end)
}

func (r *Reducer) textChunk(c *Change, ev *Event, emit func(*Event)) {
	opening := r.chunks.mode != chunkText || ev.HasMessageID && ev.MessageID != r.chunks.id
	target := r.chunks.id
	if opening {
		if ev.MessageID == "" {
			c.fail("bad_chunk", "First TEXT_MESSAGE_CHUNK must have a messageId")
			return
		}
		target = ev.MessageID
	}
	if ev.HasDelta && r.chunkTooLarge(chunkText, target, ev.Delta) {
		c.fail("too_large", "TEXT_MESSAGE_CHUNK: content of message '"+target+"' would exceed the field limit")
		return
	}
	if opening {
		r.closeChunk(emit)
	}
	emitted := false
	if r.chunks.mode != chunkText {
		role := ev.Role
		if role == "" {
			role = "assistant"
		}
		start := Event{Type: TextMessageStart, MessageID: ev.MessageID, Role: role, Name: ev.Name, HasName: ev.HasName, Metadata: ev.Metadata}
		r.chunks.mode, r.chunks.id = chunkText, ev.MessageID
		emit(&start)
		emitted = true
	}
	if ev.HasDelta || !emitted && ev.Metadata != nil {
		content := Event{Type: TextMessageContent, MessageID: r.chunks.id, Delta: ev.Delta, HasDelta: true, Metadata: ev.Metadata}
		emit(&content)
	}
}

func (r *Reducer) toolChunk(c *Change, ev *Event, emit func(*Event)) {
	opening := r.chunks.mode != chunkTool || ev.ToolCallID != "" && ev.ToolCallID != r.chunks.id
	target := r.chunks.id
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
	}
	if ev.HasDelta && r.chunkTooLarge(chunkTool, target, ev.Delta) {
		c.fail("too_large", "TOOL_CALL_CHUNK: arguments of tool call '"+target+"' would exceed the field limit")
		return
	}
	if opening {
		r.closeChunk(emit)
	}
	emitted := false
	if r.chunks.mode != chunkTool {
		start := Event{Type: ToolCallStart, ToolCallID: ev.ToolCallID, ToolCallName: ev.ToolCallName, ParentMessageID: ev.ParentMessageID, Metadata: ev.Metadata}
		r.chunks.mode, r.chunks.id = chunkTool, ev.ToolCallID
		emit(&start)
		emitted = true
	}
	if ev.HasDelta || !emitted && ev.Metadata != nil {
		args := Event{Type: ToolCallArgs, ToolCallID: r.chunks.id, Delta: ev.Delta, HasDelta: true, Metadata: ev.Metadata}
		emit(&args)
	}
}

func (r *Reducer) reasoningChunk(c *Change, ev *Event, emit func(*Event)) {
	// The official transform tests the id by truthiness here, unlike text.
	opening := r.chunks.mode != chunkReasoning || ev.MessageID != "" && ev.MessageID != r.chunks.id
	target := r.chunks.id
	if opening {
		if ev.MessageID == "" {
			c.fail("bad_chunk", "First REASONING_MESSAGE_CHUNK must have a messageId")
			return
		}
		target = ev.MessageID
	}
	if ev.HasDelta && r.chunkTooLarge(chunkReasoning, target, ev.Delta) {
		c.fail("too_large", "REASONING_MESSAGE_CHUNK: reasoning of message '"+target+"' would exceed the field limit")
		return
	}
	if opening {
		r.closeChunk(emit)
	}
	emitted := false
	if r.chunks.mode != chunkReasoning {
		start := Event{Type: ReasoningMessageStart, MessageID: ev.MessageID, Metadata: ev.Metadata, Timestamp: ev.Timestamp, HasTimestamp: ev.HasTimestamp}
		r.chunks.mode, r.chunks.id = chunkReasoning, ev.MessageID
		emit(&start)
		emitted = true
	}
	if ev.HasDelta || !emitted && ev.Metadata != nil {
		content := Event{Type: ReasoningMessageContent, MessageID: r.chunks.id, Delta: ev.Delta, HasDelta: true, Metadata: ev.Metadata}
		emit(&content)
	}
}

// isCanonical reports whether t is one of the 33 AG-UI event types.
func isCanonical(t EventType) bool {
	switch t {
	case TextMessageStart, TextMessageContent, TextMessageEnd, TextMessageChunk,
		ToolCallStart, ToolCallArgs, ToolCallEnd, ToolCallChunk, ToolCallResult,
		ThinkingStart, ThinkingEnd, ThinkingTextMessageStart, ThinkingTextMessageContent, ThinkingTextMessageEnd,
		StateSnapshot, StateDelta, MessagesSnapshot, ActivitySnapshot, ActivityDelta,
		Raw, Custom, RunStarted, RunFinished, RunError, StepStarted, StepFinished,
		ReasoningStart, ReasoningMessageStart, ReasoningMessageContent, ReasoningMessageEnd,
		ReasoningMessageChunk, ReasoningEnd, ReasoningEncryptedValue:
		return true
	}
	return false
}
