package sse

import "bytes"

// processLine interprets one complete line (without its line ending).
func (p *Parser) processLine(line []byte, emit func(Event)) {
	if len(line) == 0 {
		p.dispatch(emit)
		return
	}
	if line[0] == ':' {
		return // comment
	}
	field, value := line, line[len(line):]
	if i := bytes.IndexByte(line, ':'); i >= 0 {
		field, value = line[:i], line[i+1:]
		if len(value) > 0 && value[0] == ' ' {
			value = value[1:]
		}
	}
	// Field names are compared undecoded: a name with invalid UTF-8 cannot
	// equal any of these once decoded either.
	switch string(field) {
	case "event":
		p.typ = decodeString(p.typCache, value)
		p.typCache = p.typ
	case "data":
		p.data = appendUTF8(p.data, value)
		p.data = append(p.data, '\n')
		// Replacement characters can make the data longer than the raw
		// line that was checked against the limit.
		if len(p.data) > p.max {
			p.tooLarge()
		}
	case "id":
		// A NUL byte is U+0000 after decoding, and vice versa.
		if bytes.IndexByte(value, 0) < 0 {
			p.id = decodeString(p.id, value)
			p.ownID = true
		}
	case "retry":
		if ms, ok := parseRetry(value); ok {
			p.retry = ms
			p.lastRetry = ms
		}
	}
}

// maxRetry caps the retry field: larger values are ignored. It is the same
// on every platform, exact as a JavaScript number, and the longest delay
// JavaScript's setTimeout accepts.
const maxRetry = 1<<31 - 1

// parseRetry parses a retry value, which must be a non-empty string of
// ASCII digits no greater than maxRetry.
func parseRetry(b []byte) (int, bool) {
	if len(b) == 0 {
		return 0, false
	}
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
		if n > maxRetry { // checked every digit, so n never overflows
			return 0, false
		}
	}
	return n, true
}

// dispatch handles a blank line: it commits the last event ID and emits the
// assembled event, if it has any data, then starts a new one.
func (p *Parser) dispatch(emit func(Event)) {
	p.lastID = p.id
	typ, retry, own := p.typ, p.retry, p.ownID
	p.typ, p.retry, p.ownID = "", 0, false
	if len(p.data) == 0 {
		return
	}
	// Every data line appended an LF; the last one is a terminator, not data.
	data := string(p.data[:len(p.data)-1])
	p.data = p.data[:0]
	emit(Event{Type: typ, Data: data, ID: p.lastID, HasID: own, Retry: retry})
}
