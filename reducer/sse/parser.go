package sse

import "bytes"

// DefaultMaxEventSize is the MaxEventSize used when Options leaves it zero.
const DefaultMaxEventSize = 16 << 20

// Event is one dispatched server-sent event.
type Event struct {
	// Type is the value of the last "event" field of the event, or "" when
	// there was none or it was empty. The standard's default type in that
	// case is "message"; it is left to the caller so that "absent" stays
	// visible.
	Type string
	// Data is the values of the event's "data" fields joined with "\n".
	Data string
	// ID is the last event ID in force when the event was dispatched: the
	// value of the most recent valid "id" field of the stream, in this event
	// or an earlier one.
	ID string
	// HasID reports whether the event set ID with an id field of its own
	// (rather than keeping the one in force).
	HasID bool
	// Retry is the reconnection time in milliseconds set by a valid "retry"
	// field of this event, or 0 if it had none (or set it to 0).
	Retry int
}

// Options configures a Parser. The zero value is ready to use.
type Options struct {
	// MaxEventSize bounds, in bytes, the data buffer of an event plus the
	// line being read. An event that would exceed it is reported with
	// CodeTooLarge and skipped. Zero or negative means DefaultMaxEventSize.
	MaxEventSize int
}

// A Parser interprets one event stream fed to it in pieces. The zero value
// is a parser with the default Options. A Parser is not safe for concurrent
// use.
type Parser struct {
	max int

	// Position in the stream.
	off       int64 // stream offset of the next byte to be fed
	lineStart int64 // stream offset of the first byte of the current line
	started   bool  // past the leading byte order mark, or sure there is none
	bomN      int   // bytes of a leading byte order mark matched so far
	afterCR   bool  // the previous piece ended with a CR; a leading LF belongs to it
	skipping  bool  // skipping an oversized event up to the next blank line
	skipLine  bool  // while skipping: the current line is not empty

	line []byte // raw bytes of a line whose end has not been seen yet

	// The buffers of the standard.
	data  []byte // data buffer, already decoded
	typ   string // event type buffer
	id    string // last event ID buffer
	ownID bool   // the event being assembled has an id field
	retry int    // retry field of the event being assembled, 0 if none

	lastID    string // last event ID string: id as of the last blank line
	lastRetry int    // reconnection time of the most recent retry field

	typCache string // previous event type, to avoid re-allocating it
	errs     []error
	onErr    func(error) // FeedEach: report errors in stream order
}

// NewParser returns a parser positioned at the start of a stream.
func NewParser(opt Options) *Parser {
	p := &Parser{max: opt.MaxEventSize}
	if p.max <= 0 {
		p.max = DefaultMaxEventSize
	}
	return p
}

// Feed parses the next piece of the stream, calling emit (if not nil) for
// each event completed by it, in stream order. It returns the errors found
// in this piece, in stream order, or nil. Errors never stop parsing, and
// each is reported once, by the call that detects it; since they are
// returned rather than passed to emit, their place among the events of the
// same call is given only by Error.Offset.
//
// emit must not call methods of p. chunk is not retained after Feed
// returns.
func (p *Parser) Feed(chunk []byte, emit func(Event)) []error {
	if emit == nil {
		emit = func(Event) {}
	}
	if p.max <= 0 {
		p.max = DefaultMaxEventSize // zero Parser
	}
	base := p.off
	p.off += int64(len(chunk))

	pos := 0
	if !p.started {
		pos = p.skipBOM(chunk)
		if !p.started {
			return nil
		}
	}
	if p.afterCR && pos < len(chunk) {
		p.afterCR = false
		if chunk[pos] == '\n' {
			pos++
			p.lineStart++
		}
	}

	// lf and cr cache the positions of the next LF and CR at or after pos
	// (-1: none left in chunk), so that each byte is searched only once
	// whichever line ending the stream uses. A short rest is scanned byte
	// by byte instead, which is cheaper when the network delivers tiny
	// chunks.
	lf, cr := -2, -2
	for pos < len(chunk) {
		var end int
		if len(chunk)-pos <= 16 {
			end = indexEOL(chunk, pos)
		} else {
			if lf != -1 && lf < pos {
				lf = indexFrom(chunk, pos, '\n')
			}
			if cr != -1 && cr < pos {
				cr = indexFrom(chunk, pos, '\r')
			}
			end = lf
			if end < 0 || (cr >= 0 && cr < end) {
				end = cr
			}
		}
		if end < 0 {
			p.partialLine(chunk[pos:])
			break
		}
		p.endLine(chunk[pos:end], emit)
		pos = end + 1
		if chunk[end] == '\r' {
			if pos == len(chunk) {
				p.afterCR = true
			} else if chunk[pos] == '\n' {
				pos++
			}
		}
		p.lineStart = base + int64(pos)
	}

	errs := p.errs
	p.errs = nil
	return errs
}

// FeedEach is Feed reporting each error through onError at its place in
// the stream, between the events emitted before and after it.
func (p *Parser) FeedEach(chunk []byte, emit func(Event), onError func(error)) {
	p.onErr = onError
	defer func() { p.onErr = nil }()
	for _, err := range p.Feed(chunk, emit) {
		onError(err)
	}
}

func indexFrom(b []byte, from int, c byte) int {
	i := bytes.IndexByte(b[from:], c)
	if i >= 0 {
		i += from
	}
	return i
}

// indexEOL returns the index of the first CR or LF in b at or after from,
// or -1.
func indexEOL(b []byte, from int) int {
	for i := from; i < len(b); i++ {
		if c := b[i]; c == '\n' || c == '\r' {
			return i
		}
	}
	return -1
}

const bom = "\xEF\xBB\xBF"

// skipBOM matches chunk against the rest of a leading byte order mark and
// returns the number of bytes it consumed. Once it is clear whether there is
// a mark, it sets p.started; if there is none, the bytes held back while
// deciding become the start of the first line.
func (p *Parser) skipBOM(chunk []byte) int {
	i := 0
	for ; i < len(chunk) && p.bomN < len(bom); i++ {
		if chunk[i] != bom[p.bomN] {
			p.started = true
			p.line = append(p.line, bom[:p.bomN]...)
			p.bomN = 0
			return i
		}
		p.bomN++
	}
	if p.bomN == len(bom) {
		p.started = true
		p.bomN = 0
		p.lineStart = int64(len(bom))
	}
	return i
}

// partialLine takes the start, or another piece, of a line whose end is not
// in the current chunk.
func (p *Parser) partialLine(b []byte) {
	if p.skipping {
		p.skipLine = true
		return
	}
	if len(p.data)+len(p.line)+len(b) > p.max {
		p.tooLarge()
		p.skipLine = true
		return
	}
	p.line = append(p.line, b...)
}

// endLine takes the last piece of a line (b, possibly empty) and interprets
// the line.
func (p *Parser) endLine(b []byte, emit func(Event)) {
	if p.skipping {
		if len(b) == 0 && !p.skipLine {
			// The blank line that ends the oversized event. Its data is
			// gone, so this dispatches nothing but still commits the ID.
			p.skipping = false
			p.dispatch(emit)
		}
		p.skipLine = false
		return
	}
	line := b
	if len(p.line) > 0 {
		line = append(p.line, b...)
		p.line = line[:0]
	}
	// The same test as in partialLine, so the outcome does not depend on
	// whether the line arrived in one piece.
	if len(p.data)+len(line) > p.max {
		p.tooLarge()
		return
	}
	p.processLine(line, emit)
}

// tooLarge reports the current event as oversized and starts skipping it.
func (p *Parser) tooLarge() {
	err := &Error{Code: CodeTooLarge, Offset: p.lineStart, Limit: p.max}
	if p.onErr != nil {
		p.onErr(err)
	} else {
		p.errs = append(p.errs, err)
	}
	p.skipping = true
	p.skipLine = false
	// Drop the buffers rather than truncate them: they may be huge.
	p.data = nil
	p.line = nil
	p.typ = ""
	p.retry = 0
	p.ownID = false
}

// Close ends the stream. Following the standard, an event not yet
// terminated by a blank line, and an unterminated last line, are discarded,
// so emit is never called; it is accepted for symmetry with Feed.
//
// The parser is then ready for a new stream, as on an EventSource
// reconnection: a byte order mark is again recognised, offsets restart at
// 0, and the last event ID carries over (as browsers do), so that events of
// the new stream without an "id" field keep reporting it.
func (p *Parser) Close(emit func(Event)) {
	*p = Parser{
		max:       p.max,
		id:        p.lastID,
		lastID:    p.lastID,
		lastRetry: p.lastRetry,
		typCache:  p.typCache,
		data:      reuse(p.data),
		line:      reuse(p.line),
	}
}

// Reset returns p to the state NewParser left it in, forgetting the last
// event ID and reconnection time as well.
func (p *Parser) Reset() {
	*p = Parser{max: p.max, data: reuse(p.data), line: reuse(p.line)}
}

// reuse keeps a buffer for the next stream unless it has grown large.
func reuse(b []byte) []byte {
	if cap(b) > 64<<10 {
		return nil
	}
	return b[:0]
}

// LastEventID returns the last event ID string: the value of the most
// recent valid "id" field that has been followed by a blank line, "" if
// none. This is what an EventSource would send as Last-Event-ID when
// reconnecting.
func (p *Parser) LastEventID() string { return p.lastID }

// Retry returns the reconnection time in milliseconds set by the most
// recent valid "retry" field of the stream, or 0 if there was none. Unlike
// Event.Retry it also reflects retry fields in blocks that dispatched no
// event, such as a lone "retry: 5000" followed by a blank line.
func (p *Parser) Retry() int { return p.lastRetry }

// ParseAll parses a complete stream, as Feed followed by Close with the
// default Options.
func ParseAll(data []byte) ([]Event, []error) {
	var events []Event
	p := NewParser(Options{})
	errs := p.Feed(data, func(e Event) { events = append(events, e) })
	p.Close(nil)
	return events, errs
}
