package dialect

import (
	"github.com/agui-reducer/agui/reducer"
	"github.com/agui-reducer/agui/reducer/jsontree"
	"github.com/agui-reducer/agui/reducer/sse"
)

// A Pipeline folds the frames of one conversation into a reducer through a
// translator, one way: bytes → SSE parser → the reducer's Frames (which
// skip what a reconnecting server resends) → Translator (a dialect →
// canonical AG-UI) → reducer.Reducer → change records, the reducer's
// Frames moving the cursor. It is the one place the three are composed;
// the web module's bridge and agui-fold use it. A Pipeline is not safe for
// concurrent use.
type Pipeline struct {
	r      *reducer.Reducer
	t      *Translator     // nil: canonical AG-UI only
	parser *sse.Parser     // the SSE body being fed; nil between bodies
	frames *reducer.Frames // its frames
	cur    *reducer.Change // the change Apply is filling

	// fold and amend fold a canonical event and an amendment into cur;
	// made once, so that a frame allocates no closure. foldObj folds an
	// event the translator passed on with its parse (nil unless the
	// translator parses as the reducer does).
	fold, amend func([]byte)
	foldObj     func([]byte, *jsontree.Object)
	// accept is the translator's Translator.acceptCanonical, for the
	// reducer's ApplyCanonical (nil when foldObj is).
	accept func(*reducer.Event) bool
}

// NewPipeline returns a Pipeline folding into r what t translates; a nil t
// folds canonical AG-UI as it comes. t and r should have the same limits
// and NewID.
func NewPipeline(r *reducer.Reducer, t *Translator) *Pipeline {
	p := &Pipeline{r: r, t: t}
	p.fold = func(ev []byte) { p.r.ApplyAppend(p.cur, ev) }
	p.amend = func(v []byte) { p.r.Amend(p.cur, v) }
	if t != nil && t.opt.MaxDepth == r.Options().MaxDepth {
		// One parse per event: the reducer decodes the translator's tree.
		p.foldObj = func(ev []byte, obj *jsontree.Object) { p.r.ApplyObject(p.cur, ev, obj) }
		p.accept = t.acceptCanonical
	}
	return p
}

// Apply folds one frame into c, which it resets first: name is the SSE
// event name ("" when there is none) and data the event. The canonical
// events the translator makes of it, and its amendments, make one change
// record, with the translator's diagnostics.
func (p *Pipeline) Apply(c *reducer.Change, name string, data []byte) {
	c.Reset()
	if p.t == nil {
		p.r.ApplyAppend(c, data)
		return
	}
	// Nearly every event (the streamed tokens): what the translator would
	// pass on untouched, folded without its call; a text token's layout
	// checked once, by the reducer. Only a token or an opaque event, its
	// type first, can be (one look at the type spares the others those
	// checks).
	if tokenOrOpaque(data) {
		if p.t.passesText(name, data) && p.r.ApplyTextToken(c, data) {
			return
		}
		if p.t.passes(name, data) {
			p.r.ApplyAppend(c, data)
			return
		}
	}
	// The dozen other events of a turn (run lifecycle, message and tool
	// call starts and ends, results, custom events): canonical, in their
	// common shape, the translator only takes note of them, from the
	// reducer's decoding (one scan, no tree).
	if p.accept != nil && p.t.mayAccept(name, data) && p.r.ApplyCanonical(c, data, p.accept) {
		return
	}
	p.translate(c, name, data)
}

var passedTypes = [...]string{"TEXT_MESSAGE_CONTENT", "REASONING_MESSAGE_CONTENT", "TOOL_CALL_ARGS",
	"STATE_SNAPSHOT", "STATE_DELTA", "ACTIVITY_DELTA", "RAW", "REASONING_ENCRYPTED_VALUE"}

// tokenOrOpaque reports whether data starts with the type of a streamed
// token or of an event opaqueCanonical lists: the events passesText and
// passes may take. A name's length and first letter rule out the others
// before a comparison.
func tokenOrOpaque(data []byte) bool {
	const p = `{"type":"`
	if !jsontree.HasPrefix(data, p) {
		return false
	}
	for _, n := range passedTypes {
		if end := len(p) + len(n); end < len(data) && data[end] == '"' && data[len(p)] == n[0] && string(data[len(p):end]) == n {
			return true
		}
	}
	return false
}

// translate folds a frame through the translator: what it emits is folded
// into c as it comes, and its diagnostics are added to c's.
func (p *Pipeline) translate(c *reducer.Change, name string, data []byte) {
	p.cur = c
	for _, d := range p.t.translateTo(name, data, p.fold, p.foldObj, p.amend) {
		level := reducer.LevelError
		if d.Warning {
			level = reducer.LevelWarning
		}
		c.Diagnostics = append(c.Diagnostics, reducer.Diagnostic{Code: d.Code, Level: level, Message: d.Message})
	}
	p.cur = nil
}

// ApplyToken is Apply of a streamed token given by its decoded fields
// (reducer.Reducer.ApplyToken describes them), as a frame without an
// event name: the reducer folds the fields when the translator would pass
// the event on untouched, else the event's JSON text goes through Apply.
func (p *Pipeline) ApplyToken(c *reducer.Change, typ reducer.EventType, id, delta []byte) {
	if p.t != nil && !p.t.passesToken(typ, id, len(delta)) {
		p.Apply(c, "", reducer.AppendToken(nil, typ, id, delta))
		return
	}
	c.Reset()
	p.r.ApplyToken(c, typ, id, delta)
}

// FoldToken is ApplyToken with reducer.Reducer.FoldToken's contract: id
// and delta are valid UTF-8, not checked again, and when the token only
// appends delta to a message's content or reasoning, c stays empty and the
// message's index is returned with appended true (the change is that
// append); else c holds the token's change. c is reset first.
func (p *Pipeline) FoldToken(c *reducer.Change, typ reducer.EventType, id, delta []byte) (index int, appended bool) {
	if p.t != nil && !p.t.passesToken(typ, id, len(delta)) {
		p.Apply(c, "", reducer.AppendToken(nil, typ, id, delta))
		return 0, false
	}
	c.Reset()
	return p.r.FoldToken(c, typ, id, delta)
}

// Feed parses a piece of an SSE body, split anywhere, and folds every frame
// it completes with Apply, calling each with every change record (valid
// only during the call), as reducer.Stream.Feed does. The first Feed after
// NewPipeline, Close or Drop starts a new body.
func (p *Pipeline) Feed(chunk []byte, each func(*reducer.Change)) {
	if p.parser == nil {
		p.parser = sse.NewParser(sse.Options{MaxEventSize: p.r.Options().MaxEventBytes})
		p.frames = p.r.NewFrames()
	}
	p.parser.FeedEach(chunk, func(e sse.Event) {
		if c := p.frames.Begin(e.ID, e.HasID, each); c != nil {
			p.Apply(c, e.Type, []byte(e.Data))
			p.frames.End(each)
		}
	}, func(err error) { p.frames.Refuse(err, each) })
	p.frames.Flush(each)
}

// Close ends the SSE body being fed (reducer.Stream.Close): an
// unterminated last event is discarded.
func (p *Pipeline) Close() {
	if p.parser != nil {
		p.parser.Close(nil)
		p.frames.Close()
		p.parser = nil
	}
}

// Drop forgets the SSE body being fed without ending it, when the reducer's
// state was replaced (reset, restored) or the parser's position is unknown.
func (p *Pipeline) Drop() { p.parser = nil }
