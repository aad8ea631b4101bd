package reducer

import (
	"github.com/agui-reducer/agui/reducer/jsontree"
)

// Local actions: what a chat UI does besides folding the agent's events.

// AddUserMessage appends a user message (the UI's submit). content is a
// string or an InputContent[] array; id "" lets the reducer name it.
func (r *Reducer) AddUserMessage(content jsontree.Value, id string) *Change {
	c := new(Change)
	m := &Message{Role: "user"}
	switch v := content.(type) {
	case string:
		m.contentKind, m.text = contentText, []byte(v)
	case *jsontree.Array:
		m.contentKind, m.value = contentValue, v
	default:
		c.fail("bad_argument", "addUserMessage: content must be a string or an array of input content")
		return c
	}
	if id == "" {
		id = r.nextID("user")
	}
	r.newTurn()
	m.ID = id
	r.appendMessage(c, m)
	return c
}

// Fail records a transport failure as a run error (what RUN_ERROR does).
func (r *Reducer) Fail(message, code string) *Change {
	c := new(Change)
	// The run may be resent after a transport failure: its checkpoint
	// stays.
	r.endReplay()
	r.closeChunk(func(e *Event) { r.reduce(c, e) })
	r.runError(c, message, code, code != "", nil)
	return c
}

// AddToolResult records the result of a tool the client ran itself, as a
// TOOL_CALL_RESULT would.
func (r *Reducer) AddToolResult(toolCallID, content string) *Change {
	c := new(Change)
	if toolCallID == "" {
		c.fail("bad_argument", "addToolResult: toolCallId is required")
		return c
	}
	r.newTurn()
	if r.toolByID[toolCallID] == nil {
		c.warn("unknown_tool_call", "addToolResult: no tool call with ID '"+toolCallID+"'")
	}
	id := "result-" + toolCallID
	if r.findMessage(id) != nil {
		id = r.nextID("result-" + toolCallID)
	}
	r.toolResult(c, id, toolCallID, content, nil, nil, nil)
	return c
}

// Reset empties the state, as for a new conversation.
func (r *Reducer) Reset() *Change {
	r.clear()
	c := new(Change)
	c.replace("", r.st.AppendJSON(nil))
	return c
}

// SetState replaces the shared state, as a STATE_SNAPSHOT from the agent
// would (citations bridged onto their messages likewise).
func (r *Reducer) SetState(state jsontree.Value) *Change {
	c := new(Change)
	r.stateSnapshot(c, &Event{Type: StateSnapshot, Snapshot: state})
	return c
}

// SetMessages replaces the conversation by messages, a Message[] in the
// official AG-UI shape. Unlike MESSAGES_SNAPSHOT, which merges into the
// local order, the list is taken as it is. It is validated as a snapshot
// is: one bad message rejects the whole list and changes nothing. Tool
// calls named by assistant messages are mirrored into toolCalls.
func (r *Reducer) SetMessages(messages jsontree.Value) *Change {
	c := new(Change)
	list, ok := messages.(*jsontree.Array)
	if !ok {
		c.fail("bad_argument", "setMessages: messages must be an array")
		return c
	}
	snap, raws, ok := r.importMessages(c, list, "setMessages")
	if !ok {
		return c
	}
	used := make([]bool, len(snap))
	for i := range used {
		used[i] = true
	}
	r.installMessages(c, "setMessages", snap, snap, raws, used)
	return c
}
