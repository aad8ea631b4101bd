package reducer

import (
	"github.com/agui-reducer/agui/reducer/sse"
)

// Stream folds a raw text/event-stream body, split anywhere, into a
// Reducer. It is what the web module's feed() and agui-fold's .sse input
// use.
type Stream struct {
	r       *Reducer
	p       *sse.Parser
	apply   FrameFunc
	resends bool // a resent frame was skipped (and reported)
	begun   bool // a frame came
}

// FrameFunc folds one server-sent event into c, which it resets first:
// eventName is the SSE "event" field ("" when absent) and data its data.
// Canonical AG-UI carries the event in data alone; a host that accepts
// another dialect, some of which name the event in the SSE event line,
// passes one that translates the frame first (package dialect).
type FrameFunc func(c *Change, eventName string, data []byte)

// NewStream returns a Stream folding canonical AG-UI events into r. One
// SSE event is bounded by r's MaxEventBytes.
func (r *Reducer) NewStream() *Stream {
	return r.NewStreamFunc(func(c *Change, _ string, data []byte) { r.ApplyInto(c, data) })
}

// NewStreamFunc returns a Stream that folds each SSE event with apply.
func (r *Reducer) NewStreamFunc(apply FrameFunc) *Stream {
	return &Stream{r: r, p: sse.NewParser(sse.Options{MaxEventSize: r.opt.MaxEventBytes}), apply: apply}
}

// Feed parses chunk and applies every complete event, calling each with the
// event's change (valid only during the call). A frame the SSE parser
// rejects (too large) yields a change with only its diagnostic.
//
// The id field of the last event folded that has one becomes the state's
// LastEventID once per chunk, not per event: when it changed, one more
// change, with only that op, follows the chunk's events (an id on every
// frame would otherwise double the records of a token stream). Only an id
// field changes it, as the SSE rules have it: a frame without one keeps the
// cursor in force, also when it opens the next response of the run (a new
// Stream, whose parser starts with no last event ID), so a reconnect never
// forgets where it was. A frame whose own id was folded lately is skipped
// (eventid.go); the first one skipped yields a "resent_frames" warning.
func (s *Stream) Feed(chunk []byte, each func(*Change)) {
	var c Change
	id, hasID := "", false
	s.p.FeedEach(chunk, func(e sse.Event) {
		first := !s.begun
		s.begun = true
		if cu := s.r.catching; first && cu != nil && cu.pending == nil && e.HasID && !s.r.folded.has(e.ID) {
			// A response whose first frame is one the reducer has not
			// folded, while it catches up with a run: the server resumed
			// after the cursor the client sent, unless it starts the run
			// again (catchup.go).
			cu.resumed = true
		}
		if e.HasID && s.r.folded.has(e.ID) {
			// Folded already: the server resent it (eventid.go).
			if cu := s.r.catching; cu != nil && e.ID == cu.cursor {
				// The frames after it are new (catchup.go).
				c.Reset()
				s.r.caughtUp(&c)
				if !c.Empty() {
					each(&c)
				}
			}
			if !s.resends {
				s.resends = true
				c.Reset()
				c.warn("resent_frames", "SSE frame '"+e.ID+"' was folded already; skipping the frames the server resends")
				each(&c)
			}
			return
		}
		s.apply(&c, e.Type, []byte(e.Data))
		if e.HasID {
			s.r.passCursor(&c, e.ID)
		}
		if s.r.catching == nil && e.HasID {
			// While catching up the state is ahead of the frames
			// resent: the cursor stays, and they are not folded
			// (catchup.go).
			id, hasID = e.ID, true
			s.r.folded.add(e.ID)
		}
		each(&c)
	}, func(err error) {
		c.Reset()
		c.fail("too_large", "SSE event skipped: "+err.Error())
		each(&c)
	})
	if hasID && id != s.r.st.LastEventID {
		c.Reset()
		s.r.setLastEventID(&c, id)
		each(&c)
	}
}

// Close ends the stream; an unterminated last event is discarded, as the
// event-stream rules require. A replay being skipped ends with it; a
// resent open run being caught up with goes on into the next stream, which
// may go on resending it (catchup.go).
func (s *Stream) Close() {
	s.p.Close(nil)
	if cu := s.r.catching; cu != nil && cu.pending != nil {
		s.r.endReplay()
	}
}
