package reducer

import "github.com/agui-reducer/agui/reducer/jsontree"

// activitySnapshot creates or updates an activity message (official §6):
// replace (default true) swaps the content but keeps position and metadata;
// replace=false leaves existing content alone.
func (r *Reducer) activitySnapshot(c *Change, ev *Event) {
	if o, ok := ev.Content.(*jsontree.Object); !ok || o == nil {
		c.fail("bad_event", "ACTIVITY_SNAPSHOT: content must be an object")
		return
	}
	m := r.findMessage(ev.MessageID)
	if m == nil || ev.Replace {
		// The content is set: it must fit the budget.
		var old int64
		if m != nil {
			old = m.charge
		}
		n := jsontree.Size(ev.Content)
		if r.overBudget(r.stateBytes, r.activityBytes-old+n) {
			c.fail("too_large", "ACTIVITY_SNAPSHOT: "+r.budgetError("the content", r.stateBytes+r.activityBytes-old+n))
			return
		}
	}
	if m == nil {
		m = &Message{ID: ev.MessageID, Role: "activity", ActivityType: ev.ActivityType, contentKind: contentValue, value: ev.Content}
		m.SubagentRunID, m.HasSubagentRunID = ev.SubagentRunID, ev.HasSubagentRunID
		m.charge = activityCharge(m)
		m.Metadata = cloneObject(ev.Metadata)
		r.appendMessage(c, m)
		return
	}
	path := messagePath(m)
	if m.Role != "activity" {
		if !ev.Replace {
			return
		}
		// Overwritten in place by a fresh activity message; the old
		// message's metadata is lost, as in the official client.
		fresh := &Message{ID: m.ID, Role: "activity", ActivityType: ev.ActivityType, contentKind: contentValue, value: ev.Content, pos: m.pos, born: r.epoch}
		fresh.SubagentRunID, fresh.HasSubagentRunID = ev.SubagentRunID, ev.HasSubagentRunID
		fresh.Metadata = cloneObject(ev.Metadata)
		r.ownMessages()
		r.st.Messages[m.pos] = fresh
		r.setCharge(m, 0)
		r.activityBytes += activityCharge(fresh)
		fresh.charge = activityCharge(fresh)
		delete(r.cited, m)
		if r.msgByID[m.ID] == m {
			r.forgetTokens()
			r.msgByID[m.ID] = fresh
			r.citeNew(fresh)
		}
		c.replace(path, fresh.AppendJSON(nil))
		return
	}
	if ev.Replace {
		m.value, m.contentKind = ev.Content, contentValue
		r.setCharge(m, activityCharge(m))
		c.replace(path+"/content", jsonValue(ev.Content))
		if m.ActivityType != ev.ActivityType {
			m.ActivityType = ev.ActivityType
			c.replace(path+"/activityType", jsonString(ev.ActivityType))
		}
		// A replacing snapshot re-attributes the activity.
		if m.HasSubagentRunID != ev.HasSubagentRunID || m.SubagentRunID != ev.SubagentRunID {
			had := m.HasSubagentRunID
			m.SubagentRunID, m.HasSubagentRunID = ev.SubagentRunID, ev.HasSubagentRunID
			switch {
			case m.HasSubagentRunID:
				c.add(path+"/subagentRunId", jsonString(m.SubagentRunID))
			case had:
				c.remove(path + "/subagentRunId")
			}
		}
	}
	mergeMetadata(c, &m.Metadata, ev.Metadata, path)
}

// activityDelta patches an activity message's content atomically; the
// result must be an object and fit the budget. Content that is not an
// object (text a TEXT_MESSAGE_CONTENT wrote) is patched as {}. A patch that
// fails still merges the metadata (official behaviour); one refused as too
// large changes nothing.
func (r *Reducer) activityDelta(c *Change, ev *Event) {
	m := r.findMessage(ev.MessageID)
	if m == nil {
		c.warn("unknown_message", "ACTIVITY_DELTA: No message found with ID '"+ev.MessageID+"'")
		return
	}
	if m.Role != "activity" {
		c.warn("not_activity", "ACTIVITY_DELTA: Message '"+m.ID+"' is not an activity message")
		return
	}
	path := messagePath(m)
	patch := ev.Patch
	if patch == nil {
		patch = &jsontree.Array{}
	}
	mark := len(c.Ops)
	doc, cur := m.value, m.charge
	if o, ok := doc.(*jsontree.Object); m.contentKind != contentValue || !ok || o == nil {
		doc = jsontree.NewObject(0)
		cur = jsontree.Size(doc)
		c.replace(path+"/content", []byte("{}"))
	}
	b := r.patchBounds(cur, r.stateBytes+r.activityBytes-m.charge, true)
	b.Journal = r.journalFor()
	_, ok := r.applyPatch(c, &doc, patch, path+"/content", "activity '"+m.ID+"'", b)
	if !ok {
		clear(c.Ops[mark:])
		c.Ops = c.Ops[:mark]
		if !refusedAsWhole(c) {
			mergeMetadata(c, &m.Metadata, ev.Metadata, path)
		}
		return
	}
	m.contentKind, m.value = contentValue, doc
	r.setCharge(m, b.Size)
	mergeMetadata(c, &m.Metadata, ev.Metadata, path)
	if m.ActivityType != ev.ActivityType {
		m.ActivityType = ev.ActivityType
		c.replace(path+"/activityType", jsonString(ev.ActivityType))
	}
}

// refusedAsWhole reports whether c holds a too_large diagnostic.
func refusedAsWhole(c *Change) bool {
	for _, d := range c.Diagnostics {
		if d.Code == "too_large" {
			return true
		}
	}
	return false
}
