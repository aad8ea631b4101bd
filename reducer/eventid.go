package reducer

import "strings"

// Event ids. A server that supports resuming gives each SSE frame an id
// (docs/resume.md); the state keeps the id of the last frame folded, so a
// client that reconnects, or a page restored from a snapshot, can send it
// back as Last-Event-ID. Ids are opaque: the reducer never parses or
// orders them, it only remembers which it has folded.
//
// A server that resumes exactly after the cursor sends only new frames. One
// that resends from an earlier point sends frames already folded again:
// Stream skips a frame whose own id field names a frame folded lately (the
// last maxFoldedIDs), so none applies twice. A run resent from its start
// beyond that window is the replay rules' case: its RUN_STARTED rewinds the
// run (replay.go), which forgets the ids, and the run folds again. The ids
// are forgotten too when the cursor is cleared (a new run without one), on
// reset and on restore (which keeps the restored cursor alone).

// maxFoldedIDs bounds the ids remembered: a resend from further back than
// this many frames is not recognised by id. An id longer than
// maxFoldedIDBytes is not remembered (ids are short: docs/resume.md), so the
// set holds at most 1 MiB of ids whatever a stream sends.
const (
	maxFoldedIDs     = 4096
	maxFoldedIDBytes = 256
)

// eventIDs is a set of the last maxFoldedIDs ids added.
type eventIDs struct {
	set  map[string]struct{}
	ring []string
	next int
}

func (e *eventIDs) add(id string) {
	if id == "" || len(id) > maxFoldedIDBytes {
		return
	}
	if e.set == nil {
		e.set = make(map[string]struct{})
	}
	if _, dup := e.set[id]; dup {
		return
	}
	if len(e.ring) < maxFoldedIDs {
		e.ring = append(e.ring, id)
	} else {
		delete(e.set, e.ring[e.next])
		e.ring[e.next] = id
		e.next = (e.next + 1) % maxFoldedIDs
	}
	e.set[id] = struct{}{}
}

func (e *eventIDs) has(id string) bool {
	_, ok := e.set[id]
	return ok
}

func (e *eventIDs) forget() { *e = eventIDs{} }

// SetLastEventID records id as the SSE id of the last frame folded, as
// Stream does for every frame it folds; a host that parses frames itself
// calls it after applying each one. "" clears it (a frame without an id).
// The change is empty when the id is the one already recorded. Clearing
// it forgets the ids folded so far. An id that no SSE frame can carry and
// no Last-Event-ID header can send (NUL, CR or LF), or one longer than
// Options.MaxFieldBytes, is refused with bad_event and changes nothing.
func (r *Reducer) SetLastEventID(id string) *Change {
	c := new(Change)
	if err := checkEventID(id, r.opt.MaxFieldBytes); err != nil {
		c.fail(err.Code, err.Message)
		return c
	}
	r.setLastEventID(c, id)
	return c
}

// CheckEventID reports what SetLastEventID would refuse id for, or nil: a
// host that folds a frame and then records its id checks the id first, so
// that a refused id refuses the frame before anything changes.
func (r *Reducer) CheckEventID(id string) *Error { return checkEventID(id, r.opt.MaxFieldBytes) }

func checkEventID(id string, limit int) *Error {
	if strings.ContainsAny(id, "\x00\r\n") {
		return &Error{Code: "bad_event", Message: "event id must not contain NUL, CR or LF"}
	}
	if len(id) > limit {
		return &Error{Code: "too_large", Message: "event id exceeds the field limit"}
	}
	return nil
}

func (r *Reducer) setLastEventID(c *Change, id string) {
	r.passCursor(c, id)
	if r.catching != nil {
		// The state is ahead of the frames resent: the cursor stays
		// (catchup.go).
		return
	}
	if id == "" {
		r.folded.forget()
	} else {
		r.folded.add(id)
	}
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
