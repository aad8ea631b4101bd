package reducer

import "github.com/agui-reducer/agui/reducer/sse"

// Stream folds a raw text/event-stream body of canonical AG-UI, split
// anywhere, into a Reducer: an SSE parser and the reducer's Frames. A host
// that translates another dialect first composes the two itself
// (dialect.Pipeline).
type Stream struct {
	p *sse.Parser
	f Frames
}

// NewStream returns a Stream folding canonical AG-UI events into r. One
// SSE event is bounded by r's MaxEventBytes.
func (r *Reducer) NewStream() *Stream {
	return &Stream{p: sse.NewParser(sse.Options{MaxEventSize: r.opt.MaxEventBytes}), f: Frames{r: r}}
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
	s.p.FeedEach(chunk, func(e sse.Event) {
		if c := s.f.Begin(e.ID, e.HasID, each); c != nil {
			s.f.r.ApplyAppend(c, []byte(e.Data))
			s.f.End(each)
		}
	}, func(err error) { s.f.Refuse(err, each) })
	s.f.Flush(each)
}

// Close ends the stream; an unterminated last event is discarded, as the
// event-stream rules require (see Frames.Close).
func (s *Stream) Close() {
	s.p.Close(nil)
	s.f.Close()
}

// Frames is the reducer's side of the frames of one SSE body: which ones
// it folded already (a reconnecting server resends them) and where the
// cursor stands (see Stream.Feed). A host that parses the body itself
// calls Begin for every frame parsed, folds it unless skipped, calls End,
// and Flush at the end of every chunk fed; Refuse for a frame the parser
// rejected, Close at the end of the body. Every change goes to each,
// valid only during the call.
type Frames struct {
	r       *Reducer
	c       Change // the change of the frame being folded
	id      string // the SSE id of the frame being folded, when hasID
	hasID   bool
	last    string // the id of the last frame folded in the chunk, when moved
	moved   bool
	resends bool // a resent frame was skipped (and reported)
	begun   bool // a frame came
}

// NewFrames returns the Frames of a new SSE body folded into r.
func (r *Reducer) NewFrames() *Frames { return &Frames{r: r} }

// Begin starts a frame, with SSE id id when hasID (an id field of its own):
// it returns the change to fold its event into (empty), or nil when the
// reducer folded the frame already and it is skipped.
func (f *Frames) Begin(id string, hasID bool, each func(*Change)) *Change {
	r, c := f.r, &f.c
	first := !f.begun
	f.begun = true
	if cu := r.catching; first && cu != nil && cu.pending == nil && hasID && !r.folded.has(id) {
		// A response whose first frame is one the reducer has not
		// folded, while it catches up with a run: the server resumed
		// after the cursor the client sent, unless it starts the run
		// again (catchup.go).
		cu.resumed = true
	}
	if hasID && r.folded.has(id) {
		// Folded already: the server resent it (eventid.go).
		if cu := r.catching; cu != nil && id == cu.cursor {
			// The frames after it are new (catchup.go).
			c.Reset()
			r.caughtUp(c)
			if !c.Empty() {
				each(c)
			}
		}
		if !f.resends {
			f.resends = true
			c.Reset()
			c.warn("resent_frames", "SSE frame '"+id+"' was folded already; skipping the frames the server resends")
			each(c)
		}
		return nil
	}
	f.id, f.hasID = id, hasID
	c.Reset()
	return c
}

// End ends the frame Begin started, its event folded into the change Begin
// returned: the change, with what the frame moved of the cursor, goes to
// each.
func (f *Frames) End(each func(*Change)) {
	r, c := f.r, &f.c
	if f.hasID {
		r.passCursor(c, f.id)
		if r.catching == nil {
			// While catching up the state is ahead of the frames
			// resent: the cursor stays, and they are not folded
			// (catchup.go).
			f.last, f.moved = f.id, true
			r.folded.add(f.id)
		}
	}
	each(c)
}

// Refuse reports a frame the SSE parser rejected (err).
func (f *Frames) Refuse(err error, each func(*Change)) {
	f.c.Reset()
	f.c.fail("too_large", "SSE event skipped: "+err.Error())
	each(&f.c)
}

// Flush ends a chunk: when the frames folded moved the cursor, a change
// with only that op goes to each.
func (f *Frames) Flush(each func(*Change)) {
	if f.moved && f.last != f.r.st.LastEventID {
		f.c.Reset()
		f.r.setLastEventID(&f.c, f.last)
		each(&f.c)
	}
	f.moved = false
}

// Close ends the body. A replay being skipped ends with it; a resent open
// run being caught up with goes on into the next body, which may go on
// resending it (catchup.go).
func (f *Frames) Close() {
	if cu := f.r.catching; cu != nil && cu.pending != nil {
		f.r.endReplay()
	}
}
