package reducer

// Event ids. A server that supports resuming gives each SSE frame an id
// (docs/resume.md); the state keeps the id of the last frame folded, so a
// client that reconnects, or a page restored from a snapshot, can send it
// back as Last-Event-ID. The reducer only keeps the id: it never parses or
// orders ids, and it does not skip frames by them (the transport does).

// SetLastEventID records id as the SSE id of the last frame folded, as
// Stream does for every frame it folds; a host that parses frames itself
// calls it after applying each one. "" clears it (a frame without an id).
// The change is empty when the id is the one already recorded.
func (r *Reducer) SetLastEventID(id string) *Change {
	c := new(Change)
	r.setLastEventID(c, id)
	return c
}

func (r *Reducer) setLastEventID(c *Change, id string) {
	if id == r.st.LastEventID {
		return
	}
	r.st.LastEventID = id
	if id == "" {
		c.remove("/lastEventId")
		return
	}
	c.add("/lastEventId", jsonString(id))
}
