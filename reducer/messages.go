package reducer

import (
	"slices"
	"strconv"

	"github.com/agui-reducer/agui/reducer/jsontree"
)

// Message index. msgByID maps an id to the FIRST message holding it (the
// official client looks messages up with Array.find, so later duplicates are
// unreachable); every Message knows its own position, so an id resolves to a
// JSON Pointer in O(1).

// findMessage returns the message a handler is about to change (see touch).
func (r *Reducer) findMessage(id string) *Message {
	m := r.msgByID[id]
	r.touch(m)
	return m
}

// appendMessage adds m at the end of the conversation.
func (r *Reducer) appendMessage(c *Change, m *Message) {
	m.pos, m.born = len(r.st.Messages), r.epoch
	r.st.Messages = append(r.st.Messages, m)
	r.activityBytes += m.charge
	if _, ok := r.msgByID[m.ID]; !ok {
		r.forgetTokens()
		r.msgByID[m.ID] = m
		r.citeNew(m)
	}
	c.add(messagePath(m), m.AppendJSON(m.jsonBuffer()))
}

// jsonBuffer is a buffer sized for m's JSON form in the common case (text
// and reasoning, a few members): appending to nil grows it several times.
func (m *Message) jsonBuffer() []byte {
	return make([]byte, 0, 192+len(m.ID)+len(m.text)+len(m.reasoning))
}

// insertMessage puts m at index pos, shifting the later messages.
func (r *Reducer) insertMessage(c *Change, pos int, m *Message) {
	if pos >= len(r.st.Messages) {
		r.appendMessage(c, m)
		return
	}
	r.ownMessages()
	if m.Streaming {
		r.reopened(pos)
	}
	msgs := append(r.st.Messages, nil)
	copy(msgs[pos+1:], msgs[pos:])
	msgs[pos], m.born = m, r.epoch
	r.st.Messages = msgs
	r.activityBytes += m.charge
	for i := pos; i < len(msgs); i++ {
		msgs[i].pos = i
	}
	old, ok := r.msgByID[m.ID]
	if !ok || old.pos > pos {
		r.forgetTokens()
		r.msgByID[m.ID] = m
		r.citeNew(m)
	}
	c.add(messagePath(m), m.AppendJSON(m.jsonBuffer()))
	if ok && old.pos > pos {
		r.uncite(c, old) // after the add, which moved it
	}
}

// setMessages replaces the whole list (snapshots, restore) and rebuilds the
// index.
func (r *Reducer) setMessages(msgs []*Message) {
	r.st.Messages = msgs
	r.open.msgs = 0
	r.activityBytes = sumCharges(msgs)
	r.forgetTokens()
	clear(r.msgByID)
	for i, m := range msgs {
		m.pos = i
		if _, ok := r.msgByID[m.ID]; !ok {
			r.msgByID[m.ID] = m
		}
	}
}

// mergeMetadata merges incoming into the entity's metadata the way the
// official mergeMetadata does: shallow, per key, last write wins; absent
// incoming changes nothing, and empty incoming changes nothing but gives an
// entity without metadata an empty one (the official spreads it into {}).
// It emits the op on path+"/metadata".
func mergeMetadata(c *Change, dst **jsontree.Object, incoming *jsontree.Object, path string) {
	if incoming == nil || (incoming.Len() == 0 && *dst != nil) {
		return
	}
	cur := *dst
	if cur == nil {
		cur = jsontree.NewObject(incoming.Len())
	}
	for i := 0; i < incoming.Len(); i++ {
		cur.Set(incoming.KeyAt(i), incoming.ValueAt(i))
	}
	*dst = cur
	c.add(path+"/metadata", jsonValue(cur))
}

func (r *Reducer) textStart(c *Change, ev *Event) {
	m := r.findMessage(ev.MessageID)
	if m == nil {
		m = &Message{ID: ev.MessageID, Role: ev.Role, contentKind: contentText, Streaming: true}
		if ev.HasName {
			m.Name, m.hasName = ev.Name, true
		}
		m.SubagentRunID, m.HasSubagentRunID = ev.SubagentRunID, ev.HasSubagentRunID
		m.Metadata = cloneObject(ev.Metadata)
		r.appendMessage(c, m)
		return
	}
	if r.activityGuard(c, m, "TEXT_MESSAGE_START", "text") {
		return
	}
	// An existing message (any role, e.g. an assistant slot a tool call
	// created) is reused unchanged, as the official client does.
	path := messagePath(m)
	if !m.Streaming {
		m.Streaming = true
		r.reopened(m.pos)
		c.replace(path+"/streaming", jsonBool(true))
	}
	mergeMetadata(c, &m.Metadata, ev.Metadata, path)
}

func (r *Reducer) textContent(c *Change, ev *Event) {
	m := r.findMessage(ev.MessageID)
	if m == nil {
		c.warn("unknown_message", "TEXT_MESSAGE_CONTENT: No message found with ID '"+ev.MessageID+"'")
		return
	}
	if r.activityGuard(c, m, "TEXT_MESSAGE_CONTENT", "text") {
		return
	}
	path := messagePath(m)
	if m.contentKind == contentValue {
		// The official client overwrites non-string content.
		if len(ev.Delta) > r.opt.MaxFieldBytes {
			c.fail("too_large", "TEXT_MESSAGE_CONTENT: delta exceeds the field limit")
			return
		}
		r.setTextContent(m)
		m.text = append(m.text[:0], ev.Delta...)
		c.replace(contentPath(m), jsonString(ev.Delta))
	} else {
		if len(m.text)+len(ev.Delta) > r.opt.MaxFieldBytes {
			c.fail("too_large", "TEXT_MESSAGE_CONTENT: content of message '"+m.ID+"' would exceed the field limit")
			return
		}
		m.contentKind = contentText
		m.text = appendJS(m.text, ev.Delta)
		if ev.Delta != "" {
			c.appendText(contentPath(m), ev.Delta)
		}
	}
	mergeMetadata(c, &m.Metadata, ev.Metadata, path)
}

func (r *Reducer) textEnd(c *Change, ev *Event) {
	m := r.findMessage(ev.MessageID)
	if m == nil {
		c.warn("unknown_message", "TEXT_MESSAGE_END: No message found with ID '"+ev.MessageID+"'")
		return
	}
	if r.activityGuard(c, m, "TEXT_MESSAGE_END", "text") {
		return
	}
	path := messagePath(m)
	r.stopStreaming(c, m)
	mergeMetadata(c, &m.Metadata, ev.Metadata, path)
}

// activityGuard refuses a text or reasoning event naming an activity
// message: ids are unique across activity and text/reasoning messages
// (official 1.0).
func (r *Reducer) activityGuard(c *Change, m *Message, typ, kind string) bool {
	if m.Role != "activity" {
		return false
	}
	c.warn("activity_message", typ+": Message '"+m.ID+"' is an activity message — message ids must be unique across activity and "+kind+" messages")
	return true
}

func (r *Reducer) stopStreaming(c *Change, m *Message) {
	if m.Streaming {
		r.touch(m)
		m.Streaming = false
		c.replace(messagePath(m)+"/streaming", jsonBool(false))
	}
}

func (r *Reducer) reasoningStart(c *Change, ev *Event) {
	m := r.findMessage(ev.MessageID)
	if m == nil {
		m = &Message{ID: ev.MessageID, Role: "assistant", hasReasoning: true, reasoning: []byte{}, reasoningSlot: true, Streaming: true}
		m.SubagentRunID, m.HasSubagentRunID = ev.SubagentRunID, ev.HasSubagentRunID
		m.Metadata = cloneObject(ev.Metadata)
		r.markReasoningStart(m, ev)
		r.appendMessage(c, m)
		return
	}
	if r.activityGuard(c, m, "REASONING_MESSAGE_START", "reasoning") {
		return
	}
	path := messagePath(m)
	if !m.hasReasoning {
		m.hasReasoning = true
		m.reasoning = []byte{}
		c.add(path+"/reasoning", []byte(`""`))
	}
	if !m.Streaming {
		m.Streaming = true
		r.reopened(m.pos)
		c.replace(path+"/streaming", jsonBool(true))
	}
	r.markReasoningStart(m, ev)
	mergeMetadata(c, &m.Metadata, ev.Metadata, path)
}

func (r *Reducer) markReasoningStart(m *Message, ev *Event) {
	m.rsTS, m.rsHasTS = ev.Timestamp, ev.HasTimestamp
	m.rsHasClock = false
	if r.opt.Clock != nil {
		m.rsClock, m.rsHasClock = r.opt.Clock(), true
	}
}

func (r *Reducer) reasoningContent(c *Change, ev *Event) {
	m := r.findMessage(ev.MessageID)
	if m == nil {
		c.warn("unknown_message", "REASONING_MESSAGE_CONTENT: No message found with ID '"+ev.MessageID+"'")
		return
	}
	if r.activityGuard(c, m, "REASONING_MESSAGE_CONTENT", "reasoning") {
		return
	}
	if len(m.reasoning)+len(ev.Delta) > r.opt.MaxFieldBytes {
		c.fail("too_large", "REASONING_MESSAGE_CONTENT: reasoning of message '"+m.ID+"' would exceed the field limit")
		return
	}
	path := messagePath(m)
	if !m.hasReasoning {
		m.hasReasoning = true
		m.reasoning = append([]byte{}, ev.Delta...)
		c.add(path+"/reasoning", jsonString(ev.Delta))
	} else {
		m.reasoning = appendJS(m.reasoning, ev.Delta)
		if ev.Delta != "" {
			c.appendText(reasoningPath(m), ev.Delta)
		}
	}
	mergeMetadata(c, &m.Metadata, ev.Metadata, path)
}

func (r *Reducer) reasoningEnd(c *Change, ev *Event) {
	m := r.findMessage(ev.MessageID)
	if m == nil {
		c.warn("unknown_message", "REASONING_MESSAGE_END: No message found with ID '"+ev.MessageID+"'")
		return
	}
	if r.activityGuard(c, m, "REASONING_MESSAGE_END", "reasoning") {
		return
	}
	path := messagePath(m)
	var d float64
	ok := false
	switch {
	case m.rsHasTS && ev.HasTimestamp:
		d, ok = ev.Timestamp-m.rsTS, true
	case m.rsHasClock && r.opt.Clock != nil:
		d, ok = r.opt.Clock()-m.rsClock, true
	}
	if ok {
		if d < 0 {
			d = 0
		}
		m.ReasoningDurationMs, m.HasReasoningDuration = d, true
		c.add(path+"/reasoningDurationMs", []byte(strconv.FormatFloat(d, 'f', -1, 64)))
	}
	m.rsHasTS, m.rsHasClock = false, false
	r.stopStreaming(c, m)
	mergeMetadata(c, &m.Metadata, ev.Metadata, path)
}

// thinking maps the deprecated THINKING_TEXT_MESSAGE_* events to reasoning.
// They carry no id, so the reducer names the message itself, deterministically.
func (r *Reducer) thinking(c *Change, ev *Event) {
	re := *ev
	switch ev.Type {
	case ThinkingTextMessageStart:
		r.chunks.thinkingID = r.nextID("thinking")
		re.Type, re.MessageID = ReasoningMessageStart, r.chunks.thinkingID
		r.reasoningStart(c, &re)
	case ThinkingTextMessageContent:
		if r.chunks.thinkingID == "" {
			r.chunks.thinkingID = r.nextID("thinking")
			start := Event{Type: ReasoningMessageStart, MessageID: r.chunks.thinkingID}
			r.reasoningStart(c, &start)
		}
		re.Type, re.MessageID = ReasoningMessageContent, r.chunks.thinkingID
		r.reasoningContent(c, &re)
	case ThinkingTextMessageEnd:
		if r.chunks.thinkingID == "" {
			return
		}
		re.Type, re.MessageID = ReasoningMessageEnd, r.chunks.thinkingID
		r.chunks.thinkingID = ""
		r.reasoningEnd(c, &re)
	}
}

func (r *Reducer) encryptedValue(c *Change, ev *Event) {
	switch ev.Subtype {
	case "tool-call":
		t := r.tool(ev.EntityID)
		if t == nil {
			return
		}
		t.EncryptedValue, t.HasEncrypted = ev.EncryptedValue, true
		c.add(toolCallPath(t)+"/encryptedValue", jsonString(ev.EncryptedValue))
	case "message":
		m := r.findMessage(ev.EntityID)
		if m == nil || m.Role == "activity" {
			return
		}
		m.EncryptedValue, m.HasEncryptedValue = ev.EncryptedValue, true
		c.add(messagePath(m)+"/encryptedValue", jsonString(ev.EncryptedValue))
	}
}

// cloneMessage is a deep copy of m, sharing nothing it changes in place.
func cloneMessage(m *Message) *Message {
	c := *m
	c.text = slices.Clone(m.text)
	c.reasoning = slices.Clone(m.reasoning)
	c.value = jsontree.Clone(m.value)
	c.ToolCallIDs = slices.Clone(m.ToolCallIDs)
	c.Metadata = cloneObject(m.Metadata)
	if m.Metadata != nil && c.Metadata == nil {
		c.Metadata = jsontree.NewObject(0)
	}
	if m.Citations != nil {
		c.Citations = jsontree.Clone(m.Citations).(*jsontree.Array)
	}
	c.ErrorValue = jsontree.Clone(m.ErrorValue)
	c.paths = pathCache{}
	return &c
}

func cloneObject(o *jsontree.Object) *jsontree.Object {
	if o == nil {
		return nil
	}
	if o.Len() == 0 {
		return jsontree.NewObject(0) // metadata: {} is kept, as the official client keeps it
	}
	return jsontree.Clone(o).(*jsontree.Object)
}
