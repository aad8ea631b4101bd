package reducer

import "github.com/agui-reducer/agui/reducer/jsontree"

// activitySnapshot creates or updates an activity message (official §6):
// replace (default true) swaps the content but keeps position and metadata;
// replace=false leaves existing content alone.
func (r *Reducer) activitySnapshot(c *Change, ev *Event) {
	m := r.findMessage(ev.MessageID)
	if m == nil {
		m = &Message{ID: ev.MessageID, Role: "activity", ActivityType: ev.ActivityType, contentKind: contentValue, value: ev.Content}
		m.SubagentRunID, m.HasSubagentRunID = ev.SubagentRunID, ev.HasSubagentRunID
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
		fresh := &Message{ID: m.ID, Role: "activity", ActivityType: ev.ActivityType, contentKind: contentValue, value: ev.Content, pos: m.pos}
		fresh.SubagentRunID, fresh.HasSubagentRunID = ev.SubagentRunID, ev.HasSubagentRunID
		fresh.Metadata = cloneObject(ev.Metadata)
		r.st.Messages[m.pos] = fresh
		if r.msgByID[m.ID] == m {
			r.msgByID[m.ID] = fresh
		}
		delete(r.cited, m)
		c.replace(path, fresh.AppendJSON(nil))
		return
	}
	if ev.Replace {
		m.value, m.contentKind = ev.Content, contentValue
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

// activityDelta patches an activity message's content atomically. Metadata
// merges first, so a failing patch still keeps it (official behaviour).
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
	mergeMetadata(c, &m.Metadata, ev.Metadata, path)
	if m.contentKind != contentValue || m.value == nil {
		m.contentKind, m.value = contentValue, jsontree.NewObject(0)
		c.replace(path+"/content", []byte("{}"))
	}
	patch := ev.Patch
	if patch == nil {
		patch = &jsontree.Array{}
	}
	if _, ok := r.applyPatch(c, &m.value, patch, path+"/content", "activity '"+m.ID+"'"); !ok {
		return
	}
	if m.ActivityType != ev.ActivityType {
		m.ActivityType = ev.ActivityType
		c.replace(path+"/activityType", jsonString(ev.ActivityType))
	}
}
