package reducer

import (
	"strconv"

	"github.com/agui-reducer/agui/reducer/jsontree"
)

// OpKind is the kind of one change-record operation.
type OpKind uint8

// Change operations. Add, Replace and Remove have JSON Patch meaning (an add
// on an array index inserts); Append concatenates Text to the string at Path.
const (
	OpAdd OpKind = iota
	OpReplace
	OpRemove
	OpAppend
)

var opNames = [...]string{"add", "replace", "remove", "append"}

func (k OpKind) String() string { return opNames[k] }

// Op is one operation on the state document.
type Op struct {
	Kind  OpKind
	Path  string // JSON Pointer into the AgentState JSON
	Value []byte // add/replace: the new value as JSON
	Text  string // append: the text to append
}

// Level grades a diagnostic.
type Level uint8

// Diagnostic levels. An Error-level diagnostic means the event (or part of
// it) was rejected; a Warning means it was understood but could not fully
// apply (an unknown id, say), as the official client warns.
const (
	LevelWarning Level = iota
	LevelError
)

func (l Level) String() string {
	if l == LevelError {
		return "error"
	}
	return "warning"
}

// Diagnostic reports a problem with one event, without stopping the stream.
type Diagnostic struct {
	Code    string
	Level   Level
	Message string
}

// CustomEvent is an event a CUSTOM AG-UI event produced. Type is
// "state_update" (State holds the value) or "custom" (Name and Value).
type CustomEvent struct {
	Type  string
	Name  string
	Value jsontree.Value
}

// Change is what one Apply (or local action) did: the operations that turn
// the previous state JSON into the new one, the custom events produced, and
// the diagnostics. Its size is bounded by the event and the entity touched.
type Change struct {
	Ops         []Op
	Events      []CustomEvent
	Diagnostics []Diagnostic
}

// Reset empties c for reuse, keeping its capacity.
func (c *Change) Reset() {
	// Only what is set: a reused Change is reset once per event, and
	// clearing an empty list still calls the runtime.
	if len(c.Ops) != 0 {
		c.clearOps()
	}
	if len(c.Events) != 0 {
		clear(c.Events)
		c.Events = c.Events[:0]
	}
	c.Diagnostics = c.Diagnostics[:0]
}

// clearOps empties c.Ops field by field: clear() of a slice of pointerful
// values takes, while the collector marks, a bulk write barrier that walks
// the type's pointer map (every tool-argument token of a long stream).
//
//go:noinline
func (c *Change) clearOps() {
	for i := range c.Ops {
		op := &c.Ops[i]
		op.Text, op.Value, op.Path = "", nil, ""
	}
	c.Ops = c.Ops[:0]
}

// Empty reports whether the change did nothing at all.
func (c *Change) Empty() bool {
	return len(c.Ops) == 0 && len(c.Events) == 0 && len(c.Diagnostics) == 0
}

// HasError reports whether any diagnostic is error-level.
func (c *Change) HasError() bool {
	for _, d := range c.Diagnostics {
		if d.Level == LevelError {
			return true
		}
	}
	return false
}

// AppendJSON appends the change record's JSON form:
//
//	{"ops":[{"op":"append","path":"/messages/3/content","value":"Hi"}],
//	 "events":[{"type":"custom","name":"x","value":1}],
//	 "diagnostics":[{"code":"unknown_message","level":"warning","message":"…"}]}
//
// Empty lists are left out.
func (c *Change) AppendJSON(dst []byte) []byte {
	dst = append(dst, '{')
	sep := false
	if len(c.Ops) > 0 {
		dst = append(dst, `"ops":[`...)
		for i := range c.Ops {
			if i > 0 {
				dst = append(dst, ',')
			}
			op := &c.Ops[i]
			dst = append(dst, `{"op":"`...)
			dst = append(dst, opNames[op.Kind]...)
			dst = append(dst, `","path":`...)
			dst = jsontree.AppendString(dst, op.Path)
			switch op.Kind {
			case OpAdd, OpReplace:
				dst = append(dst, `,"value":`...)
				dst = append(dst, op.Value...)
			case OpAppend:
				dst = append(dst, `,"value":`...)
				dst = jsontree.AppendString(dst, op.Text)
			}
			dst = append(dst, '}')
		}
		dst = append(dst, ']')
		sep = true
	}
	if len(c.Events) > 0 {
		if sep {
			dst = append(dst, ',')
		}
		dst = append(dst, `"events":[`...)
		for i, e := range c.Events {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, `{"type":`...)
			dst = jsontree.AppendString(dst, e.Type)
			if e.Type == "state_update" {
				dst = append(dst, `,"state":`...)
			} else {
				dst = append(dst, `,"name":`...)
				dst = jsontree.AppendString(dst, e.Name)
				dst = append(dst, `,"value":`...)
			}
			dst = jsontree.AppendJSON(dst, e.Value)
			dst = append(dst, '}')
		}
		dst = append(dst, ']')
		sep = true
	}
	if len(c.Diagnostics) > 0 {
		if sep {
			dst = append(dst, ',')
		}
		dst = append(dst, `"diagnostics":[`...)
		for i, d := range c.Diagnostics {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = d.appendJSON(dst)
		}
		dst = append(dst, ']')
	}
	return append(dst, '}')
}

func (d Diagnostic) appendJSON(dst []byte) []byte {
	dst = append(dst, `{"code":`...)
	dst = jsontree.AppendString(dst, d.Code)
	dst = append(dst, `,"level":"`...)
	dst = append(dst, d.Level.String()...)
	dst = append(dst, `","message":`...)
	dst = jsontree.AppendString(dst, d.Message)
	return append(dst, '}')
}

// Builders used by the handlers. Paths are built by hand: they are on the
// per-token path and fmt would dominate.

func (c *Change) add(path string, value []byte) {
	c.Ops = append(c.Ops, Op{Kind: OpAdd, Path: path, Value: value})
}

func (c *Change) replace(path string, value []byte) {
	c.Ops = append(c.Ops, Op{Kind: OpReplace, Path: path, Value: value})
}

func (c *Change) remove(path string) {
	c.Ops = append(c.Ops, Op{Kind: OpRemove, Path: path})
}

func (c *Change) appendText(path, text string) {
	c.Ops = append(c.Ops, Op{Kind: OpAppend, Path: path, Text: text})
}

// appendToken is appendText on a token's path: it sets the new op's
// fields one by one, as appending an Op value copies it whole, which while
// the collector marks costs a bulk write barrier that reads the type's
// pointer map. (Not appendText itself: inlined at every handler, the
// module would carry its longer body at each.)
func (c *Change) appendToken(path, text string) {
	n := len(c.Ops)
	if n == cap(c.Ops) {
		c.Ops = append(c.Ops, Op{})
	} else {
		c.Ops = c.Ops[:n+1]
	}
	op := &c.Ops[n]
	op.Kind, op.Path, op.Value, op.Text = OpAppend, path, nil, text
}

// warn and fail are not inlined: they sit on cold paths all over the
// handlers (see errorf).
//
//go:noinline
func (c *Change) warn(code, msg string) {
	c.Diagnostics = append(c.Diagnostics, Diagnostic{Code: code, Level: LevelWarning, Message: msg})
}

//go:noinline
func (c *Change) fail(code, msg string) {
	c.Diagnostics = append(c.Diagnostics, Diagnostic{Code: code, Level: LevelError, Message: msg})
}

func (c *Change) failErr(err error) {
	if e, ok := err.(*Error); ok {
		c.fail(e.Code, e.Message)
		return
	}
	c.fail("error", err.Error())
}

// jsonString sized for a string without escapes: one allocation, not the
// three that appending to nil makes (the quote, the text, the quote).
func jsonString(s string) []byte { return jsontree.AppendString(make([]byte, 0, len(s)+2), s) }

func jsonBool(b bool) []byte { return strconv.AppendBool(nil, b) }

func jsonValue(v jsontree.Value) []byte { return jsontree.AppendJSON(nil, v) }

// Paths are cached on the entity until its position changes: the streamed
// text of one message builds the same path thousands of times.

func messagePath(m *Message) string {
	if m.paths.pos != m.pos+1 {
		m.paths = pathCache{pos: m.pos + 1, base: "/messages/" + strconv.Itoa(m.pos)}
	}
	return m.paths.base
}

func contentPath(m *Message) string {
	base := messagePath(m)
	if m.paths.a == "" {
		m.paths.a = base + "/content"
	}
	return m.paths.a
}

func reasoningPath(m *Message) string {
	base := messagePath(m)
	if m.paths.b == "" {
		m.paths.b = base + "/reasoning"
	}
	return m.paths.b
}

func toolCallPath(t *ToolCall) string {
	if t.paths.pos != t.pos+1 {
		t.paths = pathCache{pos: t.pos + 1, base: "/toolCalls/" + strconv.Itoa(t.pos)}
	}
	return t.paths.base
}

func argsTextPath(t *ToolCall) string {
	base := toolCallPath(t)
	if t.paths.a == "" {
		t.paths.a = base + "/argsText"
	}
	return t.paths.a
}

func argsPath(t *ToolCall) string {
	base := toolCallPath(t)
	if t.paths.b == "" {
		t.paths.b = base + "/args"
	}
	return t.paths.b
}

// pathCache holds an entity's JSON Pointer and two sub-paths, valid while
// pos (position+1; 0 = unset) matches.
type pathCache struct {
	_ [0]func() // not compared: the compiler would write a == function for it (module size)

	pos  int
	base string
	a, b string
}
