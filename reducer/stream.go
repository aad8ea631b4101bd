package reducer

import (
	"strconv"

	"github.com/agui-reducer/agui/reducer/sse"
)

// ApplyFrameInto folds one server-sent event: eventName is the SSE "event"
// field ("" when absent) and data its data. Canonical AG-UI frames carry
// the event in data alone; the name matters for dialects that put the
// event type in the SSE event line (see Options.Dialect).
func (r *Reducer) ApplyFrameInto(c *Change, eventName string, data []byte) {
	if eventName == "" {
		r.ApplyInto(c, data)
		return
	}
	c.Reset()
	if len(data) > r.opt.MaxEventBytes {
		c.fail("too_large", "event of "+strconv.Itoa(len(data))+" bytes exceeds the limit of "+strconv.Itoa(r.opt.MaxEventBytes))
		return
	}
	r.applyFrame(c, eventName, data)
}

// Stream folds a raw text/event-stream body, split anywhere, into a
// Reducer. It is what the web module's feed() and agui-fold's .sse input
// use.
type Stream struct {
	r *Reducer
	p *sse.Parser
}

// NewStream returns a Stream feeding r. maxEventBytes bounds one SSE event
// (0 means the reducer's MaxEventBytes).
func (r *Reducer) NewStream() *Stream {
	return &Stream{r: r, p: sse.NewParser(sse.Options{MaxEventSize: r.opt.MaxEventBytes})}
}

// Feed parses chunk and applies every complete event, calling each with the
// event's change (valid only during the call). A frame the SSE parser
// rejects (too large) yields a change with only its diagnostic.
func (s *Stream) Feed(chunk []byte, each func(*Change)) {
	var c Change
	s.p.FeedEach(chunk, func(e sse.Event) {
		s.r.ApplyFrameInto(&c, e.Type, []byte(e.Data))
		each(&c)
	}, func(err error) {
		c.Reset()
		c.fail("too_large", "SSE event skipped: "+err.Error())
		each(&c)
	})
}

// Close ends the stream; an unterminated last event is discarded, as the
// event-stream rules require.
func (s *Stream) Close() {
	s.p.Close(nil)
	s.r.endReplay()
}
