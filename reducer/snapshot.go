package reducer

import (
	"github.com/agui-reducer/agui/reducer/jsontree"
)

// importMessage converts a message in the official AG-UI Message shape (from
// MESSAGES_SNAPSHOT or RUN_STARTED input) into a state message. A
// "reasoning" message becomes an assistant slot carrying reasoning.
func (r *Reducer) importMessage(raw jsontree.Value) (*Message, error) {
	o, ok := raw.(*jsontree.Object)
	if !ok {
		return nil, errorf("bad_message", "message is not an object")
	}
	d := fieldsOf(o, "message")
	m := &Message{ID: d.Str("id", true), Role: d.Str("role", true)}
	if d.Err != nil {
		return nil, d.Err
	}
	content, _ := o.Get("content")
	switch m.Role {
	case "user", "assistant", "system", "developer", "tool":
		switch v := content.(type) {
		case string:
			m.contentKind, m.text = contentText, []byte(v)
		case *jsontree.Array:
			if m.Role != "user" && m.Role != "tool" {
				d.Fail("content of a " + m.Role + " message must be a string")
			}
			m.contentKind, m.value = contentValue, v
		case nil:
			if m.Role != "assistant" {
				d.Fail("content is required")
			}
		default:
			d.Fail("content must be a string")
		}
		if m.Role != "tool" {
			m.Name, m.hasName = d.OptStr("name")
		}
	case "reasoning":
		s, _ := content.(string)
		if _, isStr := content.(string); !isStr {
			d.Fail("content of a reasoning message must be a string")
		}
		m.Role, m.reasoningSlot, m.hasReasoning, m.reasoning = "assistant", true, true, []byte(s)
	case "activity":
		obj, isObj := content.(*jsontree.Object)
		if !isObj {
			d.Fail("content of an activity message must be an object")
		}
		m.contentKind, m.value = contentValue, obj
		m.ActivityType = d.Str("activityType", true)
	default:
		d.Fail("unknown role '" + m.Role + "'")
	}
	if m.Role == "tool" {
		m.ToolCallID = d.Str("toolCallId", true)
		if e, ok := o.Get("error"); ok && e != nil {
			m.ErrorValue = e
		}
	}
	if m.Role == "assistant" && !m.reasoningSlot {
		if tv, ok := o.Get("toolCalls"); ok && tv != nil {
			list, isArr := tv.(*jsontree.Array)
			if !isArr {
				d.Fail("toolCalls must be an array")
			} else {
				m.ToolCallIDs = make([]string, 0, len(list.Elems))
				for _, e := range list.Elems {
					tc, _ := e.(*jsontree.Object)
					if tc == nil {
						d.Fail("toolCalls entries must be objects")
						break
					}
					id, _ := tc.Get("id")
					s, isStr := id.(string)
					if !isStr {
						d.Fail("toolCalls entries need a string id")
						break
					}
					m.ToolCallIDs = append(m.ToolCallIDs, s)
				}
			}
		}
	}
	// A null tag counts as absent (the official merge deletes it).
	m.SubagentRunID, m.HasSubagentRunID = d.OptStr("subagentRunId")
	if ev, ok := d.OptStr("encryptedValue"); ok && m.Role != "activity" {
		m.EncryptedValue, m.HasEncryptedValue = ev, true
	}
	m.Metadata = d.Metadata()
	if d.Err != nil {
		return nil, d.Err
	}
	m.charge = activityCharge(m)
	return m, nil
}

// reflectToolCalls mirrors the tool calls an imported assistant message
// names (and the result an imported tool message carries) into toolCalls.
func (r *Reducer) reflectToolCalls(c *Change, m *Message, raw jsontree.Value) {
	o, _ := raw.(*jsontree.Object)
	if o == nil {
		return
	}
	if m.Role == "tool" {
		if t := r.tool(m.ToolCallID); t != nil {
			content, _ := o.Get("content")
			s, _ := content.(string)
			parts, _ := content.(*jsontree.Array)
			if parts != nil {
				s = partsText(parts)
			}
			if !t.HasResult || t.Result != s || t.ResultMessageID != m.ID || (t.ResultContent == nil) != (parts == nil) || parts != nil && !jsontree.Equal(t.ResultContent, parts) {
				path := toolCallPath(t)
				t.Result, t.HasResult, t.ResultMessageID = s, true, m.ID
				c.add(path+"/result", jsonString(s))
				c.add(path+"/resultMessageId", jsonString(m.ID))
				if parts != nil {
					t.ResultContent = parts
					c.add(path+"/resultContent", jsonValue(parts))
				} else if t.ResultContent != nil {
					t.ResultContent = nil
					c.remove(path + "/resultContent")
				}
			}
		}
		return
	}
	if m.Role != "assistant" || len(m.ToolCallIDs) == 0 {
		return
	}
	tv, _ := o.Get("toolCalls")
	list, _ := tv.(*jsontree.Array)
	if list == nil {
		return
	}
	for _, e := range list.Elems {
		tc, _ := e.(*jsontree.Object)
		id, _ := tc.Get("id")
		sid, _ := id.(string)
		var name, args string
		if fn, ok := tc.Get("function"); ok {
			if fo, ok := fn.(*jsontree.Object); ok {
				n, _ := fo.Get("name")
				name, _ = n.(string)
				a, _ := fo.Get("arguments")
				args, _ = a.(string)
			}
		}
		meta, _ := tc.Get("metadata")
		metaObj, _ := meta.(*jsontree.Object)
		enc, hasEnc := tc.Get("encryptedValue")
		encStr, _ := enc.(string)
		t := r.tool(sid)
		if t == nil {
			t = &ToolCall{ID: sid, Name: name, ParentMessageID: m.ID, Status: ToolComplete, args: []byte(args)}
			t.Metadata = metaObj
			t.EncryptedValue, t.HasEncrypted = encStr, hasEnc
			t.parser.final = true
			t.Args = parseArgsOrEmpty(t.args, r.opt.MaxDepth)
			r.appendToolCall(c, t)
			continue
		}
		path := toolCallPath(t)
		if t.Name != name {
			t.Name = name
			c.replace(path+"/name", jsonString(name))
		}
		if t.ParentMessageID != m.ID {
			t.ParentMessageID = m.ID
			c.replace(path+"/parentMessageId", jsonString(m.ID))
		}
		if string(t.args) != args {
			t.args = []byte(args)
			c.replace(path+"/argsText", jsonString(args))
			t.parser = argsParser{final: true}
			t.Args = parseArgsOrEmpty(t.args, r.opt.MaxDepth)
			c.replace(path+"/args", jsonValue(t.Args))
		}
		if t.Status == ToolRunning {
			r.finishArgs(c, t)
			t.Status = ToolComplete
			c.replace(path+"/status", jsonString(ToolComplete))
		}
		if hasEnc && (!t.HasEncrypted || t.EncryptedValue != encStr) {
			t.EncryptedValue, t.HasEncrypted = encStr, true
			c.add(path+"/encryptedValue", jsonString(encStr))
		}
		if metaObj != nil {
			t.Metadata = metaObj
			c.add(path+"/metadata", jsonValue(metaObj))
		}
	}
}

func parseArgsOrEmpty(text []byte, depth int) jsontree.Value {
	if len(text) == 0 {
		return jsontree.NewObject(0)
	}
	v, err := jsontree.Parse(text, jsontree.ParseOptions{MaxDepth: depth})
	if err != nil {
		return jsontree.NewObject(0)
	}
	return v
}

// isReasoningOnly reports whether m is a pure reasoning slot: what the
// official client holds as a role "reasoning" message.
func (m *Message) isReasoningOnly() bool {
	// Read from what the snapshot shows (an assistant message with
	// reasoning, no text, no tool calls), so that a restored reducer,
	// which cannot tell how the message was made, agrees.
	return m.Role == "assistant" && m.hasReasoning && len(m.ToolCallIDs) == 0 &&
		(m.contentKind == contentNone || m.contentKind == contentText && len(m.text) == 0)
}

// messagesSnapshot merges a server snapshot the way the official 1.0 client
// does: local order wins, an id the snapshot holds is replaced wholesale by
// the snapshot's version (whatever the local role), unknown local messages
// are dropped unless client-only, new ids are appended. Client-only are
// reasoning messages when the snapshot carries none, and activity messages
// of a type the snapshot does not own: the types its metadata declares
// (authoritativeActivityTypes), else every type when it carries activity.
func authoritativeActivityTypes(meta *jsontree.Object) (types []string, all, declared bool) {
	if meta == nil {
		return nil, false, false
	}
	v, ok := meta.Get("@ag-ui/client")
	if !ok {
		return nil, false, false
	}
	o, isObj := v.(*jsontree.Object)
	if !isObj {
		return nil, false, true // invalid declaration: owns nothing
	}
	a, ok := o.Get("authoritativeActivityTypes")
	switch a := a.(type) {
	case nil:
		if !ok {
			return nil, false, false
		}
		return nil, true, true
	case *jsontree.Array:
		if !isStringArray(a) {
			return nil, false, true
		}
		for _, e := range a.Elems {
			types = append(types, e.(string))
		}
		return types, false, true
	}
	return nil, false, true
}

// messagesSnapshot folds MESSAGES_SNAPSHOT (see authoritativeActivityTypes).
func (r *Reducer) messagesSnapshot(c *Change, ev *Event) {
	snap, raws, ok := r.importMessages(c, ev.Messages, "MESSAGES_SNAPSHOT")
	if !ok {
		return
	}
	hasActivity, hasReasoning := false, false
	last := make(map[string]int, len(snap)) // last snapshot copy of each id wins
	for i, m := range snap {
		if m.Role == "activity" {
			hasActivity = true
		}
		if m.isReasoningOnly() {
			hasReasoning = true
		}
		last[m.ID] = i
	}
	owned, ownsAll, declared := authoritativeActivityTypes(ev.Metadata)
	out := make([]*Message, 0, len(r.st.Messages)+len(snap))
	kept := make(map[string]bool, len(r.st.Messages))
	for _, m := range r.st.Messages {
		// An id the snapshot holds always wins, whatever the local role.
		if i, ok := last[m.ID]; ok {
			if kept[m.ID] {
				// Local duplicates of the id each get the snapshot's
				// version, as their own message: one Message in two
				// slots would change both while change records name one.
				out = append(out, cloneMessage(snap[i]))
				continue
			}
			out = append(out, snap[i])
			kept[m.ID] = true
			continue
		}
		clientOnly := false
		switch {
		case m.Role == "activity" && declared:
			clientOnly = !ownsAll && !containsString(owned, m.ActivityType)
		case m.Role == "activity":
			clientOnly = !hasActivity
		case m.isReasoningOnly():
			clientOnly = !hasReasoning
		}
		if clientOnly {
			out = append(out, m)
		}
	}
	used := make([]bool, len(snap))
	for i, m := range snap {
		if kept[m.ID] {
			if last[m.ID] == i {
				used[i] = true
			}
			continue
		}
		out = append(out, m)
		used[i] = true
	}
	if !r.installMessages(c, "MESSAGES_SNAPSHOT", out, snap, raws, used) {
		return
	}
}

// importMessages converts a Message[] list, all or nothing: a bad message
// rejects the list with a diagnostic naming what.
func (r *Reducer) importMessages(c *Change, list *jsontree.Array, what string) ([]*Message, []jsontree.Value, bool) {
	snap := make([]*Message, 0, len(list.Elems))
	raws := make([]jsontree.Value, 0, len(list.Elems))
	for _, raw := range list.Elems {
		m, err := r.importMessage(raw)
		if err != nil {
			c.fail(err.(*Error).Code, what+": "+err.(*Error).Message)
			return nil, nil, false
		}
		snap = append(snap, m)
		raws = append(raws, raw)
	}
	return snap, raws, true
}

// installMessages makes out the conversation and records it, then mirrors
// the tool calls of the imported messages marked used and the citations.
// A conversation whose activity content is over the budget is refused
// (false) before anything changes.
func (r *Reducer) installMessages(c *Change, what string, out, snap []*Message, raws []jsontree.Value, used []bool) bool {
	if n := sumCharges(out); r.overBudget(r.stateBytes, n) {
		c.fail("too_large", what+": "+r.budgetError("the activity content", r.stateBytes+n))
		return false
	}
	r.setMessages(out)
	// Citations on replaced messages are stale; the bridge below restores
	// the current ones.
	clear(r.cited)
	for _, m := range out {
		if m.Citations != nil {
			r.cited[m] = struct{}{}
		}
	}
	buf := []byte{'['}
	for i, m := range out {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = m.AppendJSON(buf)
	}
	buf = append(buf, ']')
	c.replace("/messages", buf)
	for i, m := range snap {
		if used[i] {
			r.reflectToolCalls(c, m, raws[i])
		}
	}
	r.bridgeCitations(c)
	return true
}
