package reducer

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
		if isCanonical(ev.Type) {
			r.closeChunk(emit)
		}
		emit(ev)
	}
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
	if r.chunks.mode != chunkText || ev.HasMessageID && ev.MessageID != r.chunks.id {
		r.closeChunk(emit)
	}
	emitted := false
	if r.chunks.mode != chunkText {
		if ev.MessageID == "" {
			c.fail("bad_chunk", "First TEXT_MESSAGE_CHUNK must have a messageId")
			return
		}
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
	if r.chunks.mode != chunkTool || ev.ToolCallID != "" && ev.ToolCallID != r.chunks.id {
		r.closeChunk(emit)
	}
	emitted := false
	if r.chunks.mode != chunkTool {
		if ev.ToolCallID == "" {
			c.fail("bad_chunk", "First TOOL_CALL_CHUNK must have a toolCallId")
			return
		}
		if ev.ToolCallName == "" {
			c.fail("bad_chunk", "First TOOL_CALL_CHUNK must have a toolCallName")
			return
		}
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
	if r.chunks.mode != chunkReasoning || ev.MessageID != "" && ev.MessageID != r.chunks.id {
		r.closeChunk(emit)
	}
	emitted := false
	if r.chunks.mode != chunkReasoning {
		if ev.MessageID == "" {
			c.fail("bad_chunk", "First REASONING_MESSAGE_CHUNK must have a messageId")
			return
		}
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
