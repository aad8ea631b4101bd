package sse

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// result is everything a parse produces, for comparisons.
type result struct {
	Events []Event
	Errs   []Error
	LastID string
	Retry  int
}

// feedChunks feeds chunks to a new parser, then closes it.
func feedChunks(opt Options, chunks [][]byte) result {
	var r result
	p := NewParser(opt)
	emit := func(e Event) { r.Events = append(r.Events, e) }
	for _, c := range chunks {
		for _, err := range p.Feed(c, emit) {
			var e *Error
			if !errors.As(err, &e) {
				panic("unexpected error type")
			}
			r.Errs = append(r.Errs, *e)
		}
	}
	p.Close(func(Event) { panic("Close emitted an event") })
	r.LastID, r.Retry = p.LastEventID(), p.Retry()
	return r
}

// bytesChunks splits b into pieces of n bytes.
func bytesChunks(b []byte, n int) [][]byte {
	var out [][]byte
	for len(b) > n {
		out = append(out, b[:n])
		b = b[n:]
	}
	return append(out, b)
}

func tooLarge(off int64, limit int) Error {
	return Error{Code: CodeTooLarge, Offset: off, Limit: limit}
}

var big = strings.Repeat("x", 40)

// parserTests covers the rules of WHATWG HTML 9.2.6 one by one.
var parserTests = []struct {
	name   string
	in     string
	max    int
	want   []Event
	errs   []Error
	lastID string
	retry  int
}{
	// Fields.
	{name: "data", in: "data: hello\n\n", want: []Event{{Data: "hello"}}},
	{name: "event type", in: "event: add\ndata: x\n\n", want: []Event{{Type: "add", Data: "x"}}},
	{name: "event type last wins", in: "event: a\nevent: b\ndata: x\n\n", want: []Event{{Type: "b", Data: "x"}}},
	{name: "event type reset after dispatch", in: "event: a\ndata: 1\n\ndata: 2\n\n",
		want: []Event{{Type: "a", Data: "1"}, {Data: "2"}}},
	{name: "empty event type", in: "event:\ndata: x\n\n", want: []Event{{Data: "x"}}},
	{name: "multi-line data", in: "data: a\ndata: b\ndata: c\n\n", want: []Event{{Data: "a\nb\nc"}}},
	{name: "only one trailing LF removed", in: "data: a\ndata\n\n", want: []Event{{Data: "a\n"}}},
	{name: "empty data value dispatches", in: "data:\n\n", want: []Event{{Data: ""}}},
	{name: "data with colons", in: "data: a:b: c\n\n", want: []Event{{Data: "a:b: c"}}},
	{name: "JSON data", in: `data: {"type":"RUN_STARTED","threadId":"t"}` + "\n\n",
		want: []Event{{Data: `{"type":"RUN_STARTED","threadId":"t"}`}}},
	{name: "NUL in data kept", in: "data: a\x00b\n\n", want: []Event{{Data: "a\x00b"}}},

	// Comments.
	{name: "comment only", in: ": ping\n\n"},
	{name: "empty comment", in: ":\n\n"},
	{name: "comments between fields", in: ":c1\ndata: x\n: c2\ndata: y\n\n", want: []Event{{Data: "x\ny"}}},
	{name: "comment looks like field", in: ":data: x\n\n"},

	// Line endings.
	{name: "LF", in: "data: a\ndata: b\n\n", want: []Event{{Data: "a\nb"}}},
	{name: "CR", in: "data: a\rdata: b\r\r", want: []Event{{Data: "a\nb"}}},
	{name: "CRLF", in: "data: a\r\ndata: b\r\n\r\n", want: []Event{{Data: "a\nb"}}},
	{name: "mixed", in: "data: a\rdata: b\r\n\ndata: c\n\r\n", want: []Event{{Data: "a\nb"}, {Data: "c"}}},
	{name: "LF CR is two line ends", in: "data: a\n\rdata: b\n\n", want: []Event{{Data: "a"}, {Data: "b"}}},
	{name: "CR CRLF", in: "data: a\r\r\n", want: []Event{{Data: "a"}}},
	{name: "CRLF then CR", in: "data: a\r\n\r", want: []Event{{Data: "a"}}},

	// Byte order mark.
	{name: "BOM stripped", in: "\xEF\xBB\xBFevent: t\ndata: a\n\n", want: []Event{{Type: "t", Data: "a"}}},
	{name: "only one BOM stripped", in: "\xEF\xBB\xBF\xEF\xBB\xBFdata: a\n\ndata: b\n\n", want: []Event{{Data: "b"}}},
	{name: "BOM later is a character", in: "data: \xEF\xBB\xBFa\n\n", want: []Event{{Data: "\uFEFFa"}}},
	{name: "BOM at line start later", in: "data: a\n\n\xEF\xBB\xBFdata: b\n\ndata: c\n\n",
		want: []Event{{Data: "a"}, {Data: "c"}}},
	{name: "BOM prefix not a BOM", in: "\xEF\xBB\ndata: a\n\n", want: []Event{{Data: "a"}}},
	{name: "BOM prefix starts field name", in: "\xEFdata: a\n\ndata: b\n\n", want: []Event{{Data: "b"}}},
	{name: "BOM then nothing", in: "\xEF\xBB\xBF"},

	// Field name and value splitting.
	{name: "field without colon", in: "data\n\n", want: []Event{{Data: ""}}},
	{name: "event without colon", in: "event: a\nevent\ndata: x\n\n", want: []Event{{Data: "x"}}},
	{name: "one space stripped", in: "data:  two\n\n", want: []Event{{Data: " two"}}},
	{name: "no space", in: "data:x\n\n", want: []Event{{Data: "x"}}},
	{name: "tab not stripped", in: "data:\tx\n\n", want: []Event{{Data: "\tx"}}},
	{name: "trailing space kept", in: "data: x \n\n", want: []Event{{Data: "x "}}},
	{name: "field name with space", in: "data : x\n\n"},
	{name: "field names case-sensitive", in: "Data: x\nDATA: y\n\n"},
	{name: "unknown field ignored", in: "foo: bar\ndata: x\nbaz\n\n", want: []Event{{Data: "x"}}},

	// id.
	{name: "id", in: "id: 1\ndata: a\n\n", want: []Event{{Data: "a", ID: "1"}}, lastID: "1"},
	{name: "id persists", in: "id: 1\ndata: a\n\ndata: b\n\nid: 2\ndata: c\n\n",
		want: []Event{{Data: "a", ID: "1"}, {Data: "b", ID: "1"}, {Data: "c", ID: "2"}}, lastID: "2"},
	{name: "id after data in same event", in: "data: a\nid: 9\n\n", want: []Event{{Data: "a", ID: "9"}}, lastID: "9"},
	{name: "id with NUL ignored", in: "id: 1\ndata: a\n\nid: 2\x003\ndata: b\n\n",
		want: []Event{{Data: "a", ID: "1"}, {Data: "b", ID: "1"}}, lastID: "1"},
	{name: "empty id clears", in: "id: 1\ndata: a\n\nid\ndata: b\n\n",
		want: []Event{{Data: "a", ID: "1"}, {Data: "b"}}},
	{name: "id-only block commits id", in: "id: 7\n\ndata: b\n\n", want: []Event{{Data: "b", ID: "7"}}, lastID: "7"},
	{name: "uncommitted id not last ID", in: "id: 1\ndata: a\n\nid: 2\n", want: []Event{{Data: "a", ID: "1"}}, lastID: "1"},
	{name: "id keeps spaces", in: "id:  x y \ndata: a\n\n", want: []Event{{Data: "a", ID: " x y "}}, lastID: " x y "},

	// retry.
	{name: "retry", in: "retry: 3000\ndata: a\n\ndata: b\n\n",
		want: []Event{{Data: "a", Retry: 3000}, {Data: "b"}}, retry: 3000},
	{name: "retry-only block", in: "retry: 500\n\ndata: a\n\n", want: []Event{{Data: "a"}}, retry: 500},
	{name: "retry max", in: "retry: 2147483647\ndata: a\n\n", want: []Event{{Data: "a", Retry: 2147483647}}, retry: 2147483647},
	{name: "retry leading zeros", in: "retry:007\ndata: a\n\n", want: []Event{{Data: "a", Retry: 7}}, retry: 7},
	{name: "retry overflow ignored", in: "retry: 10\nretry: 99999999999999999999999999\ndata: a\n\n",
		want: []Event{{Data: "a", Retry: 10}}, retry: 10},
	{name: "retry just over max ignored", in: "retry: 2147483648\ndata: a\n\n", want: []Event{{Data: "a"}}},
	{name: "retry non-digit ignored", in: "retry: 30s\ndata: a\n\n", want: []Event{{Data: "a"}}},
	{name: "retry negative ignored", in: "retry: -1\ndata: a\n\n", want: []Event{{Data: "a"}}},
	{name: "retry plus ignored", in: "retry: +1\ndata: a\n\n", want: []Event{{Data: "a"}}},
	{name: "retry decimal ignored", in: "retry: 1.5\ndata: a\n\n", want: []Event{{Data: "a"}}},
	{name: "retry two spaces ignored", in: "retry:  5\ndata: a\n\n", want: []Event{{Data: "a"}}},
	{name: "retry empty ignored", in: "retry\nretry:\ndata: a\n\n", want: []Event{{Data: "a"}}},
	{name: "retry non-ASCII digit ignored", in: "retry: \u0661\ndata: a\n\n", want: []Event{{Data: "a"}}},

	// Dispatch and end of stream.
	{name: "no data dispatches nothing", in: "event: x\n\ndata: y\n\n", want: []Event{{Data: "y"}}},
	{name: "blank lines alone", in: "\n\n\r\n\r"},
	{name: "unterminated event discarded", in: "data: a\n\ndata: b\n", want: []Event{{Data: "a"}}},
	{name: "unterminated line discarded", in: "data: a\n\ndata: b", want: []Event{{Data: "a"}}},
	{name: "unterminated CR-only block discarded", in: "data: a\r\rdata: b\r", want: []Event{{Data: "a"}}},
	{name: "empty stream", in: ""},

	// Encoding.
	{name: "UTF-8", in: "event: caf\xC3\xA9\ndata: h\xC3\xA9llo \xF0\x9F\x98\x80\n\n",
		want: []Event{{Type: "café", Data: "héllo 😀"}}},
	{name: "invalid UTF-8 replaced", in: "data: a\xE2\x82b\xFF\n\n", want: []Event{{Data: "a\uFFFDb\uFFFD"}}},
	{name: "truncated sequence at line end", in: "data: \xF0\x9F\x98\ndata: x\n\n", want: []Event{{Data: "\uFFFD\nx"}}},
	{name: "truncated sequence before colon", in: "id\xE2\x82: 1\ndata: x\n\n", want: []Event{{Data: "x"}}},
	{name: "invalid id", in: "id: \xC0\ndata: x\n\n", want: []Event{{Data: "x", ID: "\uFFFD"}}, lastID: "\uFFFD"},

	// Size limit. Offsets are those of the offending line.
	{name: "too large line", max: 20, in: "data: 0123456789\n\ndata: " + big + "\ndata: more\n\ndata: ok\n\n",
		want: []Event{{Data: "0123456789"}, {Data: "ok"}}, errs: []Error{tooLarge(18, 20)}},
	{name: "too large accumulated", max: 20, in: "data: 0123456789\ndata: 0123456789\n\ndata: ok\n\n",
		want: []Event{{Data: "ok"}}, errs: []Error{tooLarge(17, 20)}},
	{name: "too large exactly at limit", max: 20, in: "data: 01234567890123\n\n",
		want: []Event{{Data: "01234567890123"}}},
	{name: "too large comment", max: 20, in: ": " + big + "\ndata: ok\n\n",
		want: nil, errs: []Error{tooLarge(0, 20)}},
	{name: "too large comment then event", max: 20, in: ": " + big + "\n\ndata: ok\n\n",
		want: []Event{{Data: "ok"}}, errs: []Error{tooLarge(0, 20)}},
	{name: "too large keeps earlier id", max: 20, in: "id: 5\ndata: " + big + "\nid: 6\n\ndata: ok\n\n",
		want: []Event{{Data: "ok", ID: "5"}}, errs: []Error{tooLarge(6, 20)}, lastID: "5"},
	{name: "too large drops event type", max: 20, in: "event: t\ndata: " + big + "\n\ndata: ok\n\n",
		want: []Event{{Data: "ok"}}, errs: []Error{tooLarge(9, 20)}},
	{name: "too large twice", max: 20, in: "data: " + big + "\n\ndata: " + big + "\r\n\r\ndata: ok\r\n\r\n",
		want: []Event{{Data: "ok"}}, errs: []Error{tooLarge(0, 20), tooLarge(48, 20)}},
	{name: "too large by replacement", max: 20, in: "data: \xFF\xFF\xFF\xFF\xFF\xFF\xFF\n\ndata: ok\n\n",
		want: []Event{{Data: "ok"}}, errs: []Error{tooLarge(0, 20)}},
	{name: "too large after BOM", max: 20, in: "\xEF\xBB\xBFdata: " + big + "\n\ndata: ok\n\n",
		want: []Event{{Data: "ok"}}, errs: []Error{tooLarge(3, 20)}},
	{name: "too large unterminated", max: 20, in: "data: ok\n\ndata: " + big,
		want: []Event{{Data: "ok"}}, errs: []Error{tooLarge(10, 20)}},
}

func noHasID(events []Event) {
	for i := range events {
		events[i].HasID = false
	}
}

// HasID tells an event's own id field from the id in force it keeps.
func TestHasID(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []bool
	}{
		{"own ids", "id: 1\ndata: a\n\nid: 2\ndata: b\n\n", []bool{true, true}},
		{"kept id", "id: 1\ndata: a\n\ndata: b\n\n", []bool{true, false}},
		{"empty id field is its own", "id: 1\ndata: a\n\nid\ndata: b\n\n", []bool{true, true}},
		{"id-only frame then data", "id: 1\n\ndata: a\n\n", []bool{false}},
		{"id with NUL ignored", "id: 1\ndata: a\n\nid: x\x00\ndata: b\n\n", []bool{true, false}},
		{"skipped too-large event's id", "id: 5\ndata: " + strings.Repeat("x", 40) + "\n\ndata: ok\n\n", []bool{false}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []bool
			p := NewParser(Options{MaxEventSize: 20})
			p.Feed([]byte(tt.in), func(e Event) { got = append(got, e.HasID) })
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("HasID %v, want %v", got, tt.want)
			}
		})
	}
}

func TestParser(t *testing.T) {
	for _, tt := range parserTests {
		t.Run(tt.name, func(t *testing.T) {
			want := result{Events: tt.want, Errs: tt.errs, LastID: tt.lastID, Retry: tt.retry}
			opt := Options{MaxEventSize: tt.max}
			in := []byte(tt.in)
			for _, n := range []int{len(in) + 1, 1, 2, 3} {
				got := feedChunks(opt, bytesChunks(in, n))
				noHasID(got.Events) // the table leaves it out; TestHasID checks it
				if !reflect.DeepEqual(got, want) {
					t.Errorf("chunks of %d:\ngot  %+v\nwant %+v", n, got, want)
				}
			}
			if tt.max == 0 {
				events, lastID, retry := refParse(in)
				noHasID(events)
				if ref := (result{Events: events, LastID: lastID, Retry: retry}); !reflect.DeepEqual(ref, want) {
					t.Errorf("reference implementation disagrees with the test:\nref  %+v\nwant %+v", ref, want)
				}
			}
		})
	}
}

func TestParseAll(t *testing.T) {
	events, errs := ParseAll([]byte("id: 1\ndata: a\n\ndata: b\n"))
	if want := []Event{{Data: "a", ID: "1", HasID: true}}; !reflect.DeepEqual(events, want) || errs != nil {
		t.Errorf("ParseAll = %+v, %v; want %+v, nil", events, errs, want)
	}
}

func TestErrorMessage(t *testing.T) {
	_, errs := feedChunksErrs(Options{MaxEventSize: 4}, "data: xx\n\n")
	if len(errs) != 1 {
		t.Fatalf("got %d errors, want 1", len(errs))
	}
	const want = "sse: too_large: event exceeds 4 bytes at line starting at offset 0"
	if got := errs[0].Error(); got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}

func feedChunksErrs(opt Options, in string) (*Parser, []error) {
	p := NewParser(opt)
	return p, p.Feed([]byte(in), nil)
}

// TestFeedState checks state carried between Feed calls, Close and Reset.
func TestFeedState(t *testing.T) {
	var got []Event
	emit := func(e Event) { got = append(got, e) }
	check := func(step string, want ...Event) {
		t.Helper()
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: got %+v, want %+v", step, got, want)
		}
		got = nil
	}
	p := NewParser(Options{})

	// An empty chunk between CR and LF must not forget the CR.
	p.Feed([]byte("id: 1\ndata: a\r"), emit)
	p.Feed(nil, emit)
	p.Feed([]byte("\ndata: b\r"), emit)
	p.Feed([]byte("\r"), emit)
	check("CR state", Event{Data: "a\nb", ID: "1", HasID: true})

	// Close discards the pending event; the next stream may start with a
	// BOM again and keeps the last event ID.
	p.Feed([]byte("id: 2\ndata: lost\n"), emit)
	p.Close(emit)
	check("Close")
	if id := p.LastEventID(); id != "1" {
		t.Errorf("LastEventID after Close = %q, want 1", id)
	}
	p.Feed([]byte("\xEF\xBB"), emit)
	p.Feed([]byte("\xBFdata: c\n\n"), emit)
	check("after Close", Event{Data: "c", ID: "1"})

	// Reset forgets everything.
	p.Feed([]byte("retry: 9\ndata: pending\n"), emit)
	p.Reset()
	if id, r := p.LastEventID(), p.Retry(); id != "" || r != 0 {
		t.Errorf("after Reset: LastEventID = %q, Retry = %d; want empty", id, r)
	}
	p.Feed([]byte("\xEF\xBB\xBFdata: d\n\n"), emit)
	check("after Reset", Event{Data: "d"})

	// The zero Parser uses the default Options.
	var zero Parser
	zero.Feed([]byte("data: z\n\n"), emit)
	check("zero Parser", Event{Data: "z"})

	// A nil emit is allowed.
	if errs := p.Feed([]byte("data: e\n\n"), nil); errs != nil {
		t.Errorf("Feed with nil emit: %v", errs)
	}
}

// TestChunkNotRetained checks that the parser copies what it keeps.
func TestChunkNotRetained(t *testing.T) {
	var got []Event
	p := NewParser(Options{})
	buf := []byte("event: t\nid: i\ndata: x")
	p.Feed(buf, func(e Event) { got = append(got, e) })
	for i := range buf {
		buf[i] = '#'
	}
	p.Feed([]byte("y\n\n"), func(e Event) { got = append(got, e) })
	if want := []Event{{Type: "t", Data: "xy", ID: "i", HasID: true}}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
}
