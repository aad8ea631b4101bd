package dialect

import (
	"strconv"
	"strings"

	"github.com/agui-reducer/agui/reducer"
	"github.com/agui-reducer/agui/reducer/eventjson"
	"github.com/agui-reducer/agui/reducer/jsontree"
)

// Names of the dialects (Options.Dialect).
const (
	Auto        = "auto"
	AGUI        = "agui"
	SSEContract = "sse-contract"
	TanStack    = "tanstack"
	Streaming   = "streaming"
)

// Names returns the names Options.Dialect accepts besides "".
func Names() []string {
	return []string{Auto, AGUI, SSEContract, TanStack, Streaming}
}

// AmendEvent names the CUSTOM event that carries an amendment (what
// canonical AG-UI has no event for: an approval request, a client-side
// tool, a finish reason, a recoverable error, a text sent whole) when the
// host of Translate re-emits canonical AG-UI rather than folding it. It is
// an ordinary custom event for every reducer: amendments reach a reducer
// only through TranslateTo's amend function (reducer.Reducer.Amend), never
// from a stream, so a canonical stream cannot forge them.
// docs/dialects.md describes the amendments.
const AmendEvent = "agui.amend"

// Options configure a Translator. The zero value detects the dialect of
// each event.
type Options struct {
	// Dialect is "" or Auto to detect each event's dialect, or the one
	// dialect to accept (any other event is rejected with wrong_dialect).
	Dialect string

	// NewID names what a dialect leaves unnamed (kind "msg", "tool" or
	// "run"); nil or "" means deterministic ids "msg-1", "tool-1", "run-1"…
	// skipping the ids the stream has used.
	NewID func(kind string) string

	// The limits of the reducer the events go to (0 means its defaults):
	// an event the reducer would reject in part is rejected whole, before
	// anything is emitted.
	MaxEventBytes int
	MaxDepth      int
	MaxFieldBytes int
}

// Diagnostic is a problem with one input event. An error means nothing was
// emitted for it; a warning that it was understood in part.
type Diagnostic struct {
	Code    string
	Message string
	Warning bool
}

func (d *Diagnostic) Error() string { return d.Code + ": " + d.Message }

//go:noinline
func errorf(code, msg string) *Diagnostic { return &Diagnostic{Code: code, Message: msg} }

// dialect identifies one event shape.
type dialect uint8

const (
	dialectNone dialect = iota
	dialectAGUI
	dialectSSEContract
	dialectTanStack
	dialectStreaming
	dialectAuto
)

var dialectNames = [...]string{"", AGUI, SSEContract, TanStack, Streaming, Auto}

func (d dialect) String() string { return dialectNames[d] }

func parseDialect(s string) (dialect, bool) {
	switch s {
	case "", Auto:
		return dialectAuto, true
	case AGUI:
		return dialectAGUI, true
	case SSEContract:
		return dialectSSEContract, true
	case TanStack:
		return dialectTanStack, true
	case Streaming:
		return dialectStreaming, true
	}
	return dialectNone, false
}

// Kinds of the ids a translator assigns.
const (
	idMessage = iota
	idTool
	idRun
	idKinds
)

var idKindNames = [idKinds]string{"msg", "tool", "run"}

// Translator turns the events of one stream, in one dialect or several,
// into canonical AG-UI events. It remembers what it needs of the stream
// (the ids in use, the run going on, the open text segment, the text it
// streamed) from the events it translated and the canonical events it
// passed on; it never sees the reducer the events go to. It is not safe
// for concurrent use: give each stream (each conversation) its own.
type Translator struct {
	opt  Options
	pin  dialect
	last dialect      // dialect of the last non-canonical event (mixed-dialect warning)
	n    [idKinds]int // counters behind assigned ids

	parser jsontree.Parser // parses the events not passed on unparsed

	emitFn  func([]byte)
	amendFn func([]byte) // nil: amendments are emitted as AmendEvent
	// emitObjFn, when a Pipeline translates, takes an event passed on as
	// it came together with its parse, which it takes over.
	emitObjFn func([]byte, *jsontree.Object)
	wrap      []byte // an amendment wrapped as AmendEvent
	diags     []Diagnostic
	b         []byte  // the event being built
	bld       builder // and its builder

	// The conversation as the stream told it.
	msgs       map[string]bool     // message ids in use
	activities map[string]bool     // those of activity messages
	tools      map[string]*toolRec // tool calls by id
	live       []*toolRec          // those that may be running (the run's end stops them)
	texts      map[string]*textRec // text this translator streamed, per message, this run
	steps      map[string]bool     // steps running
	running    bool
	thread     string
	run        string
	done       map[string]bool // runs folded to their end
	replayed   string          // a run being replayed (skipped by the reducer): "" none
	cp         *runCheckpoint  // the run going on, as it started (rewind.go)

	// The assistant message that id-less text and thinking go to (a
	// "segment"): seg is its id, segText and segReasoning whether a text or
	// reasoning stream is open on it, segDone that a tool call took it over,
	// so that later text opens a new segment. segs lists the run's segments.
	seg                   string
	segText, segReasoning bool
	segDone               bool
	segs                  []string

	// indexed are the tool calls of TanStack tool_call chunks, found again
	// by index; pending are the seeds/003 tool_start calls awaiting tool_end.
	indexed []indexedTool
	pending []pendingTool

	// TanStack's AG-UI variant: the assistant message of the last
	// TEXT_MESSAGE_START (owner of tool calls without a parent), and the
	// reasoning message STEP_FINISHED thinking text streams into.
	active      string
	step        string // step whose thinking is streaming ("" none)
	stepMsg     string // its reasoning message
	stepStarted string // last STEP_STARTED step name, and its timestamp
	stepTS      jsontree.Number
	lastStep    string // last step finished by thinking text
}

type toolRec struct {
	name    string
	running bool
	args    int // bytes of arguments this translator sent
}

type textRec struct{ text, reasoning []byte }

type indexedTool struct {
	index int // -1 when the chunk had none
	id    string
	open  bool // not yet ended
}

type pendingTool struct{ name, id string }

// New returns a Translator for a new stream. An unknown Options.Dialect
// makes every event fail with bad_option.
func New(opt Options) *Translator {
	l := eventjson.Limits{MaxEventBytes: opt.MaxEventBytes, MaxDepth: opt.MaxDepth, MaxFieldBytes: opt.MaxFieldBytes}.Defaults()
	opt.MaxEventBytes, opt.MaxDepth, opt.MaxFieldBytes = l.MaxEventBytes, l.MaxDepth, l.MaxFieldBytes
	t := &Translator{opt: opt}
	t.pin, _ = parseDialect(opt.Dialect)
	t.Reset()
	return t
}

// Reset forgets the stream: the next event starts a new conversation.
func (t *Translator) Reset() {
	*t = Translator{opt: t.opt, pin: t.pin, b: t.b[:0], wrap: t.wrap[:0], parser: t.parser}
	t.msgs = map[string]bool{}
	t.activities = map[string]bool{}
	t.tools = map[string]*toolRec{}
	t.texts = map[string]*textRec{}
	t.steps = map[string]bool{}
	t.done = map[string]bool{}
}

// EndRun tells the translator that the host failed the run itself (a
// transport failure: the reducer's Fail): the next event that carries
// content starts a new run.
func (t *Translator) EndRun() {
	t.running = false
	t.endRun()
}

// Observe tells the translator about a canonical event the host folded
// itself, not from the stream (a local RUN_FINISHED when the user stops
// the run): it remembers what the event tells, as for one passed on.
func (t *Translator) Observe(event []byte) {
	v, _ := jsontree.Parse(event, jsontree.ParseOptions{MaxDepth: t.opt.MaxDepth})
	if obj, ok := v.(*jsontree.Object); ok {
		in := infoOf(obj)
		t.observe(&in)
	}
}

// Resume tells a new translator the conversation it continues, as a
// reducer's state snapshot (its JSON text): the ids in use, the thread,
// whether a run is going on. Assigned ids then skip those in use, and a
// new run is not taken for a replay of the last one. Text that is not a
// JSON object tells nothing: the translator starts afresh.
func (t *Translator) Resume(snapshot []byte) {
	c, _ := ReadConversation(snapshot)
	t.ResumeConversation(c)
}

// A Conversation is what a translator needs to know of the conversation it
// continues (see Resume). A host that holds the state already, such as a
// reducer that has just restored the snapshot, passes it to
// ResumeConversation instead of having the text read again.
type Conversation struct {
	ThreadID, RunID string
	Running         bool     // the state's status is "running"
	MessageIDs      []string // of every message, in any order
	ToolCalls       []ConversationToolCall
	RunningSteps    []string // the names of the steps whose status is "running"

	// Open is the conversation's last message when it is an assistant
	// message still streaming in the running run: the text a dialect
	// without message ids goes on streaming into after a restore.
	Open *ConversationMessage
}

// A ConversationMessage is the open message of a Conversation.
type ConversationMessage struct {
	ID              string
	Text, Reasoning string
	// Reasoning is what streams (the message holds reasoning and no
	// text yet), else text.
	ReasoningOpen bool
}

// A ConversationToolCall is a tool call of a Conversation.
type ConversationToolCall struct {
	ID, Name string
	Running  bool // its status is "running"
}

// ResumeConversation is Resume from the conversation itself. Empty ids are
// skipped; of two tool calls with one id, the later counts.
func (t *Translator) ResumeConversation(c *Conversation) {
	t.Reset()
	t.thread, t.run, t.running = c.ThreadID, c.RunID, c.Running
	if t.run != "" && !t.running {
		t.done[t.run] = true
	}
	// Sized once: a restored conversation can hold 100,000 messages.
	t.msgs = make(map[string]bool, len(c.MessageIDs))
	for _, id := range c.MessageIDs {
		if id != "" {
			t.msgs[id] = true
		}
	}
	for _, tc := range c.ToolCalls {
		if tc.ID != "" {
			rec := &toolRec{name: tc.Name, running: tc.Running}
			t.tools[tc.ID] = rec
			t.noteLive(rec)
		}
	}
	for _, name := range c.RunningSteps {
		t.steps[name] = true
	}
	if o := c.Open; o != nil && t.running && o.ID != "" && t.msgs[o.ID] {
		// The segment the text was streaming into goes on: a restore
		// does not start a second assistant message.
		t.seg, t.segs = o.ID, append(t.segs[:0], o.ID)
		t.segText, t.segReasoning = !o.ReasoningOpen, o.ReasoningOpen
		t.texts[o.ID] = &textRec{text: []byte(o.Text), reasoning: []byte(o.Reasoning)}
		t.active = o.ID
	}
}

// openMessage reads the open message of a snapshot's last message.
func openMessage(elem []byte, opt jsontree.ParseOptions) *ConversationMessage {
	var id, role, streaming, content, reasoning []byte
	if jsontree.ScanObject(elem, opt, func(k, v []byte) error {
		switch string(k) {
		case "id":
			id = v
		case "role":
			role = v
		case "streaming":
			streaming = v
		case "content":
			content = v
		case "reasoning":
			reasoning = v
		}
		return nil
	}) != nil || rawString(role) != "assistant" || string(streaming) != "true" {
		return nil
	}
	o := &ConversationMessage{ID: rawString(id), Text: rawString(content), Reasoning: rawString(reasoning)}
	o.ReasoningOpen = reasoning != nil && o.Text == ""
	return o
}

// ReadConversation reads the conversation of a snapshot's text, and reports
// whether the text is a JSON object (when it is not, the conversation is
// empty). Messages and tool calls that are not objects are skipped; a field
// of the wrong type counts as absent ("" for a string); a repeated key
// counts with its last value, as jsontree.Parse has it.
func ReadConversation(snapshot []byte) (*Conversation, bool) {
	// Scanned rather than parsed: a tree of 100,000 messages costs more
	// than the few fields read. Members are gathered during the scan and
	// used once all of the text has proved valid.
	c := new(Conversation)
	opt := jsontree.ParseOptions{MaxDepth: 1 << 24}
	const (
		thread = iota
		run
		status
		messages
		toolCalls
		steps
		nTop
	)
	var top [nTop][]byte
	err := jsontree.ScanObject(snapshot, opt, func(key, value []byte) error {
		switch string(key) {
		case "threadId":
			top[thread] = value
		case "runId":
			top[run] = value
		case "status":
			top[status] = value
		case "messages":
			top[messages] = value
		case "toolCalls":
			top[toolCalls] = value
		case "steps":
			top[steps] = value
		}
		return nil
	})
	if err != nil {
		return new(Conversation), false
	}
	c.ThreadID, c.RunID = rawString(top[thread]), rawString(top[run])
	c.Running = rawString(top[status]) == "running"
	var last []byte // the last message
	for key := messages; key < nTop; key++ {
		if jsontree.KindOf(top[key]) != jsontree.KindArray {
			continue
		}
		_ = jsontree.ScanArray(top[key], opt, func(elem []byte) error {
			if jsontree.KindOf(elem) != jsontree.KindObject {
				return nil
			}
			var id, name, status []byte
			_ = jsontree.ScanObject(elem, opt, func(k, v []byte) error {
				switch string(k) {
				case "id":
					id = v
				case "name":
					name = v
				case "status":
					status = v
				}
				return nil
			})
			switch key {
			case messages:
				c.MessageIDs = append(c.MessageIDs, rawString(id))
				last = elem
			case toolCalls:
				c.ToolCalls = append(c.ToolCalls, ConversationToolCall{ID: rawString(id), Name: rawString(name), Running: rawString(status) == "running"})
			case steps:
				if rawString(status) == "running" {
					c.RunningSteps = append(c.RunningSteps, rawString(name))
				}
			}
			return nil
		})
	}
	if c.Running && last != nil {
		c.Open = openMessage(last, opt)
	}
	return c, true
}

// rawString is objString for the raw text of a member (nil when absent): a
// string's value, or "".
func rawString(raw []byte) string {
	if jsontree.KindOf(raw) != jsontree.KindString {
		return ""
	}
	s, _ := jsontree.UnquoteString(raw)
	return s
}

// endRun forgets what was scoped to the run that just started or ended.
func (t *Translator) endRun() {
	t.seg, t.segText, t.segReasoning, t.segDone = "", false, false, false
	t.segs = t.segs[:0]
	t.indexed = t.indexed[:0]
	t.pending = t.pending[:0]
	t.active, t.step, t.stepMsg, t.stepStarted, t.lastStep = "", "", "", "", ""
	t.stepTS = ""
	clear(t.texts)
}

// errNotMine tells the caller an event is not in the dialect asked;
// errIgnored that it is, but unknown and ignored with a warning.
var (
	errNotMine = errorf("wrong_dialect", "")
	errIgnored = errorf("ignored", "")
)

// AmendFrame appends the SSE frame by which a host that re-emits a
// translation as canonical AG-UI (a translating proxy) passes an amendment
// on: the event name AmendEvent and the amendment as data. A translator
// that detects the dialect (Options.Dialect "" or Auto) takes it back as
// the amendment; one pinned to a dialect, canonical AG-UI included,
// refuses it (wrong_dialect). The amendment is one line of JSON.
func AmendFrame(dst, amendment []byte) []byte {
	return append(AppendAmendRecord(dst, amendment), "\n\n"...)
}

// amendRecordPrefix starts an amendment record: the fields of its SSE frame
// before the amendment's JSON.
const amendRecordPrefix = "event: " + AmendEvent + "\ndata: "

// AppendAmendRecord appends an amendment as a host that logs a translation
// keeps it among the canonical events it logs (the JSON text of each): the
// fields of its frame (AmendFrame) without the blank line that ends it. A
// record never starts with '{', so it cannot be mistaken for an event; a
// writer puts an id line (or nothing) before either and "data: " before an
// event only, and a reader folds it with AmendRecord.
func AppendAmendRecord(dst, amendment []byte) []byte {
	dst = append(dst, amendRecordPrefix...)
	return append(dst, amendment...)
}

// AmendRecord reports whether a logged record is an amendment
// (AppendAmendRecord), and returns the amendment's JSON.
func AmendRecord(rec []byte) ([]byte, bool) {
	if len(rec) < len(amendRecordPrefix) || string(rec[:len(amendRecordPrefix)]) != amendRecordPrefix {
		return nil, false
	}
	return rec[len(amendRecordPrefix):], true
}

// Translate turns one event into the canonical events it stands for,
// calling emit with the JSON text of each (valid only during the call). name
// is the SSE event name when the event came in a frame ("" otherwise), data
// its JSON text. A canonical event is passed on as it came. It returns the
// diagnostics of the event, valid until the next call: when one is an error,
// nothing was emitted. Amendments are emitted as the custom event
// AmendEvent: Translate is for a host that re-emits canonical AG-UI; one
// that folds into a reducer uses TranslateTo.
func (t *Translator) Translate(name string, data []byte, emit func(event []byte)) []Diagnostic {
	return t.TranslateTo(name, data, emit, nil)
}

// TranslateTo is Translate for a host that folds the events into a
// reducer: canonical events go to emit, and the amendments (the object
// docs/dialects.md describes, as JSON text valid only during the call) to
// amend, in the order they come, for reducer.Reducer.Amend. A nil amend
// is Translate's behaviour.
func (t *Translator) TranslateTo(name string, data []byte, emit, amend func([]byte)) []Diagnostic {
	return t.translateTo(name, data, emit, nil, amend)
}

// translateTo is TranslateTo, with emitObj (nil: emit) for the canonical
// events passed on as they came, with their parse: a Pipeline's reducer
// decodes it instead of parsing the text again.
func (t *Translator) translateTo(name string, data []byte, emit func([]byte), emitObj func([]byte, *jsontree.Object), amend func([]byte)) []Diagnostic {
	t.emitFn, t.emitObjFn, t.amendFn, t.diags = emit, emitObj, amend, t.diags[:0]
	defer func() { t.emitFn, t.emitObjFn, t.amendFn = nil, nil, nil }()
	if err := t.translate(name, data); err != nil && err != errIgnored {
		t.diags = append(t.diags[:0], *err)
	}
	return t.diags
}

func (t *Translator) warn(code, msg string) {
	t.diags = append(t.diags, Diagnostic{Code: code, Message: msg, Warning: true})
}

func (t *Translator) translate(name string, data []byte) *Diagnostic {
	pin := t.pin
	if pin == dialectNone {
		return errorf("bad_option", "unknown dialect '"+t.opt.Dialect+"' (want one of "+strings.Join(Names(), ", ")+")")
	}
	if len(data) > t.opt.MaxEventBytes {
		return diagnosticOf(eventjson.TooLarge(len(data), t.opt.MaxEventBytes))
	}
	if name == "" && t.passesCanonical(data) {
		// Streamed tokens are nearly every event, and the large payloads
		// of state and activity events are the largest: canonical, they
		// tell the translator nothing it keeps, so they are passed on
		// untouched, unparsed (the reducer parses them once).
		t.emitFn(data)
		return nil
	}
	obj, err := eventjson.ParseObjectWith(&t.parser, data, t.opt.MaxDepth)
	if err != nil {
		return diagnosticOf(err)
	}
	if name == AmendEvent {
		// A translating proxy's amendment (AmendFrame): part of no
		// dialect a stream can be pinned to, canonical AG-UI least.
		if pin != dialectAuto {
			return errorf("wrong_dialect", "event is not in the "+pin.String()+" dialect (SSE event '"+AmendEvent+"': a translating proxy's amendment, taken when the dialect is detected)")
		}
		t.b = jsontree.AppendJSON(t.b[:0], obj) // one line
		t.passAmend(t.b)
		return nil
	}
	d := pin
	if pin == dialectAuto {
		d, name = detectDialect(name, obj)
	} else if pin == dialectAGUI {
		if other, _ := detectDialect(name, obj); other != dialectAGUI {
			d = dialectNone // another dialect's event: not canonical
		}
	} else if pin == dialectSSEContract && name == "" && objString(obj, "type") == "error" {
		name = "error" // an SSE-contract error sent without its event line
	}
	var e *Diagnostic
	switch d {
	case dialectAGUI:
		switch {
		case pin == dialectAGUI && t.emitObjFn != nil:
			// Pinned to canonical AG-UI, the translator translates
			// nothing: what passOn would remember is never read (it gives
			// no ids, closes no segment, streams no text).
			t.emitObjFn(data, obj)
		case pin == dialectAGUI:
			t.passOn(data, obj)
		default:
			e = t.applyAGUI(name, data, obj)
		}
	case dialectSSEContract:
		e = t.applySSEContract(name, obj)
	case dialectTanStack:
		e = t.applyTanStack(name, data, obj)
	case dialectStreaming:
		e = t.applyStreaming(obj)
	default:
		e = errNotMine
	}
	switch {
	case e == errIgnored:
	case e == errNotMine:
		return errorf("wrong_dialect", "event is not in the "+pin.String()+" dialect"+describe(name, obj))
	case e != nil:
		return e
	case pin == dialectAuto && d != dialectAGUI:
		t.noteDialect(d)
	}
	return e
}

// passesCanonical reports whether translate passes data, a frame without
// an event name within the size limit, on untouched and unparsed: a
// canonical streamed token or opaque event (see translate).
func (t *Translator) passesCanonical(data []byte) bool {
	pin := t.pin
	return (pin == dialectAuto || pin == dialectAGUI || pin == dialectTanStack) && (t.stepMsg == "" && t.hotCanonical(data) || opaqueCanonical(data))
}

// passesText reports whether translate passes the frame on untouched and
// unparsed when it is a text or reasoning token in hotCanonical's layout
// with no escape in its id. The layout is the folder's to check
// (reducer.Reducer.ApplyTextToken takes only that layout); what passesText
// checks is what the folder does not: that a text token's delta is not
// empty and, while this translator streams text of its own, that the
// token's id is not one of its messages.
func (t *Translator) passesText(name string, data []byte) bool {
	if name != "" || len(data) > t.opt.MaxEventBytes || t.stepMsg != "" {
		return false
	}
	switch t.pin {
	case dialectAuto, dialectAGUI, dialectTanStack:
	default:
		return false
	}
	if len(t.texts) == 0 {
		// No id to look up, so no need to find it: in the layout (the
		// delta its last member) only an empty delta makes data end so.
		return !hasSuffix(data, `:""}`)
	}
	id, _, ok := tokenHead(data, false, false)
	return ok && t.texts[string(id)] == nil
}

// passes reports whether translate passes the frame on untouched and
// unparsed, with no diagnostic: then Pipeline.Apply folds it itself.
func (t *Translator) passes(name string, data []byte) bool {
	return name == "" && len(data) <= t.opt.MaxEventBytes && t.passesCanonical(data)
}

// hotCanonical reports whether data is a streamed token of canonical
// AG-UI that no dialect reads otherwise: TEXT_MESSAGE_CONTENT with a
// non-empty delta, REASONING_MESSAGE_CONTENT or TOOL_CALL_ARGS with a
// delta, in the layout producers write ({"type", id, "delta"} and nothing
// else), into a message this translator did not stream into this run.
// Its validity is the reducer's business.
func (t *Translator) hotCanonical(data []byte) bool {
	id, ok := hotCanonical(data)
	return ok && (len(t.texts) == 0 || t.texts[string(id)] == nil)
}

// passesToken reports whether translate would pass on, untouched and
// unparsed, the token event of this type, id and delta length written in
// the layout hotCanonical checks (reducer.AppendToken's).
func (t *Translator) passesToken(typ reducer.EventType, id []byte, deltaLen int) bool {
	switch t.pin {
	case dialectAuto, dialectAGUI, dialectTanStack:
	default:
		return false
	}
	switch typ {
	case reducer.TextMessageContent:
		if deltaLen == 0 {
			return false
		}
	case reducer.ReasoningMessageContent, reducer.ToolCallArgs:
	default:
		return false
	}
	return t.stepMsg == "" && reducer.TokenFits(typ, len(id), deltaLen, t.opt.MaxEventBytes) &&
		(len(t.texts) == 0 || t.texts[string(id)] == nil)
}

// hotCanonical is the layout check of Translator.hotCanonical; it returns
// the id's JSON string content.
func hotCanonical(data []byte) ([]byte, bool) {
	id, i, ok := tokenHead(data, true, true)
	if !ok {
		return nil, false
	}
	end := stringEnd(data, i)
	return id, end >= 0 && end+2 == len(data) && data[end+1] == '}'
}

// tokenHead checks the head of a streamed token in the layout producers
// write, {"type":…,"<id key>":"<id>","delta":"…, and returns the id's JSON
// string content and where the delta's content starts. A text token's
// delta must not be empty; TOOL_CALL_ARGS counts only with args, an id
// holding an escape only with escapedIDs.
func tokenHead(data []byte, args, escapedIDs bool) (id []byte, delta int, ok bool) {
	const (
		text      = `{"type":"TEXT_MESSAGE_CONTENT","messageId":"`
		reasoning = `{"type":"REASONING_MESSAGE_CONTENT","messageId":"`
		toolArgs  = `{"type":"TOOL_CALL_ARGS","toolCallId":"`
	)
	var i int
	nonEmpty := false
	switch {
	case jsontree.HasPrefix(data, text):
		i, nonEmpty = len(text), true
	case jsontree.HasPrefix(data, reasoning):
		i = len(reasoning)
	case args && jsontree.HasPrefix(data, toolArgs):
		i = len(toolArgs)
	default:
		return nil, 0, false
	}
	idStart := i
	i, escaped, _ := jsontree.StringEnd(data, i)
	if i < 0 || escaped && !escapedIDs || !jsontree.HasPrefix(data[i+1:], `,"delta":"`) {
		return nil, 0, false
	}
	id = data[idStart:i]
	i += 1 + len(`,"delta":"`)
	if nonEmpty && (i >= len(data) || data[i] == '"') {
		return nil, 0, false
	}
	return id, i, true
}

// opaqueCanonical reports whether data is a canonical event, its type
// written first, that no dialect reads and that interrupts nothing a
// translator streams: STATE_SNAPSHOT, STATE_DELTA, ACTIVITY_DELTA, RAW,
// REASONING_ENCRYPTED_VALUE (not ACTIVITY_SNAPSHOT: it names a message).
func opaqueCanonical(data []byte) bool {
	const p = `{"type":"`
	if !jsontree.HasPrefix(data, p) {
		return false
	}
	i := stringEnd(data, len(p))
	if i < 0 || i+1 >= len(data) || data[i+1] != ',' && data[i+1] != '}' {
		return false
	}
	switch string(data[len(p):i]) {
	case "STATE_SNAPSHOT", "STATE_DELTA", "ACTIVITY_DELTA", "RAW", "REASONING_ENCRYPTED_VALUE":
		return true
	}
	return false
}

// stringEnd returns the index of the quote closing the JSON string whose
// content starts at i, or -1 (also at a control byte: not valid JSON, so
// the general path takes the event and reports it).
func stringEnd(data []byte, i int) int {
	end, _, _ := jsontree.StringEnd(data, i)
	return end
}

func hasSuffix(b []byte, s string) bool { return len(b) >= len(s) && string(b[len(b)-len(s):]) == s }

// describe names an event for a diagnostic by its SSE name, its type or
// its event field.
func describe(name string, obj *jsontree.Object) string {
	var parts []string
	if name != "" {
		parts = append(parts, "SSE event '"+name+"'")
	}
	if t := objString(obj, "type"); t != "" {
		parts = append(parts, "type '"+t+"'")
	} else if e := objString(obj, "event"); e != "" {
		parts = append(parts, "event '"+e+"'")
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

// noteDialect warns when a stream switches from one non-canonical dialect to
// another: each event is still translated on its own terms.
func (t *Translator) noteDialect(d dialect) {
	if last := t.last; last != dialectNone && last != d {
		t.warn("mixed_dialects", "a "+d.String()+" event follows "+last.String()+" events; each event is folded on its own terms")
	}
	t.last = d
}

// detectDialect tells an event's dialect from its shape. It returns the
// event name to use: an SSE-contract error sent without its SSE event line
// is named "error".
func detectDialect(name string, obj *jsontree.Object) (dialect, string) {
	tv, hasType := obj.Get("type")
	typ, isStr := tv.(string)
	if isStr && isCanonical(typ) {
		return dialectAGUI, name
	}
	if sseContractEvent(name) {
		switch {
		case !hasType, name == "status":
			return dialectSSEContract, name
		case name == "error" && typ == "error" && !hasObject(obj, "error"):
			return dialectSSEContract, name
		}
	}
	if isStr && tanstackChunk(typ) {
		if typ == "error" && !hasObject(obj, "error") && objString(obj, "message") != "" {
			return dialectSSEContract, "error"
		}
		return dialectTanStack, name
	}
	if !hasType {
		if e, ok := obj.Get("event"); ok {
			if _, isStr := e.(string); isStr {
				return dialectStreaming, name
			}
		}
	}
	// The reducer's canonical decoding reports whatever is wrong with it.
	return dialectAGUI, name
}

func hasObject(obj *jsontree.Object, key string) bool {
	v, _ := obj.Get(key)
	_, ok := v.(*jsontree.Object)
	return ok
}

//go:noinline
func objString(obj *jsontree.Object, key string) string {
	v, _ := obj.Get(key)
	s, _ := v.(string)
	return s
}

// Ids.

// newID returns a fresh id of the given kind for an entity the dialect did
// not name: the host's NewID when set, else "<kind>-<n>" from a counter,
// skipping ids in use, so the same input always yields the same ids.
func (t *Translator) newID(kind int) string {
	name := idKindNames[kind]
	if t.opt.NewID != nil {
		if id := t.opt.NewID(name); id != "" {
			return id
		}
	}
	for {
		t.n[kind]++
		id := name + "-" + strconv.Itoa(t.n[kind])
		if !t.idTaken(kind, id) {
			return id
		}
	}
}

// derivedID returns base, or base-2, base-3… when base is in use: the id of
// an entity named after another (a tool result after its call).
func (t *Translator) derivedID(kind int, base string) string {
	if !t.idTaken(kind, base) {
		return base
	}
	for k := 2; ; k++ {
		id := base + "-" + strconv.Itoa(k)
		if !t.idTaken(kind, id) {
			return id
		}
	}
}

func (t *Translator) idTaken(kind int, id string) bool {
	switch kind {
	case idRun:
		// A run id already folded would make the new run look like a replay.
		return id == t.run || t.done[id]
	case idTool:
		return t.tools[id] != nil
	}
	return t.msgs[id] || t.tools[id] != nil
}

// Runs.

// ensureRun starts a run, as RUN_STARTED, when none is running: dialects
// without run lifecycle events still show a loading conversation while
// they stream. threadID "" keeps the current thread. It reports whether it
// started one: what the translator remembered of the last run is then gone.
func (t *Translator) ensureRun(threadID string) bool {
	if t.running {
		return false
	}
	if threadID == "" {
		threadID = t.thread
	}
	t.start("RUN_STARTED").str("threadId", threadID).str("runId", t.newID(idRun)).put()
	return true
}

// finishRun ends the run as RUN_FINISHED does, with TokenUsage[] usage when
// given.
func (t *Translator) finishRun(usage *jsontree.Array, ts jsontree.Number) {
	t.closeSegment(ts)
	b := t.start("RUN_FINISHED").str("threadId", t.thread).str("runId", t.run)
	if usage != nil {
		b.val("usage", usage)
	}
	b.num("timestamp", ts).put()
}

// failRun ends the run as RUN_ERROR does.
func (t *Translator) failRun(message, code string, hasCode bool) {
	b := t.start("RUN_ERROR").str("message", message)
	if hasCode {
		b.str("code", code)
	}
	b.put()
}

// Segments: the assistant message id-less text and thinking stream into.

// segmentOpen reports whether a segment is open for more text.
func (t *Translator) segmentOpen() bool {
	return t.seg != "" && !t.segDone && t.msgs[t.seg]
}

// segmentRec is what this translator streamed into the open segment.
func (t *Translator) segmentRec() *textRec {
	if !t.segmentOpen() {
		return &textRec{}
	}
	return t.text(t.seg)
}

// text is what this translator streamed into message id this run.
func (t *Translator) text(id string) *textRec {
	r := t.texts[id]
	if r == nil {
		r = &textRec{}
		t.texts[id] = r
	}
	return r
}

// openSegment makes a new segment current, named after base when given.
func (t *Translator) openSegment(base string) string {
	var id string
	if base != "" {
		id = t.derivedID(idMessage, base)
	} else {
		id = t.newID(idMessage)
	}
	t.seg, t.segText, t.segReasoning, t.segDone = id, false, false, false
	t.segs = append(t.segs, id)
	return id
}

// checkGrowth rejects, before anything is emitted, text that would push
// the segment's content (or reasoning) past the field limit.
func (t *Translator) checkGrowth(reasoning bool, delta string) *Diagnostic {
	rec := t.segmentRec()
	n := len(rec.text)
	if reasoning {
		n = len(rec.reasoning)
	}
	if n+len(delta) > t.opt.MaxFieldBytes {
		return errorf("too_large", "message text would exceed the field limit")
	}
	return nil
}

// segmentText appends delta to the current segment's text, opening the
// segment (named after base, or counted) and its text stream as needed.
// name is the author name a new message gets ("" for none).
func (t *Translator) segmentText(base, name, delta string, ts jsontree.Number) *Diagnostic {
	if err := t.checkGrowth(false, delta); err != nil {
		return err
	}
	if !t.segmentOpen() {
		t.openSegment(base)
	}
	id := t.seg
	if t.segReasoning {
		t.segReasoning = false
		t.start("REASONING_MESSAGE_END").str("messageId", id).num("timestamp", ts).put()
	}
	if !t.segText {
		t.segText = true
		b := t.start("TEXT_MESSAGE_START").str("messageId", id).str("role", "assistant")
		if name != "" {
			b.str("name", name)
		}
		b.put()
	}
	if delta != "" {
		t.textContent(id, delta)
	}
	return nil
}

// textContent streams delta into message id's text.
func (t *Translator) textContent(id, delta string) {
	r := t.text(id)
	r.text = append(r.text, delta...)
	t.start("TEXT_MESSAGE_CONTENT").str("messageId", id).str("delta", delta).put()
}

// reasoningContent streams delta into message id's reasoning.
func (t *Translator) reasoningContent(id, delta string) {
	r := t.text(id)
	r.reasoning = append(r.reasoning, delta...)
	t.start("REASONING_MESSAGE_CONTENT").str("messageId", id).str("delta", delta).put()
}

// amendText says that text is the whole text (or reasoning) of message id.
func (t *Translator) amendText(id string, reasoning bool, text string) {
	r := t.text(id)
	key := "content"
	if reasoning {
		key = "reasoning"
		r.reasoning = append(r.reasoning[:0], text...)
	} else {
		r.text = append(r.text[:0], text...)
	}
	t.startAmend().str("messageId", id).str(key, text).putAmend()
}

// segmentThinking appends delta to the current segment's reasoning, opening
// what is needed, as segmentText does.
func (t *Translator) segmentThinking(base, delta string, ts jsontree.Number) *Diagnostic {
	if err := t.checkGrowth(true, delta); err != nil {
		return err
	}
	if !t.segmentOpen() {
		t.openSegment(base)
	}
	id := t.seg
	if !t.segReasoning {
		t.segReasoning = true
		t.start("REASONING_MESSAGE_START").str("messageId", id).str("role", "reasoning").num("timestamp", ts).put()
	}
	if delta != "" {
		t.reasoningContent(id, delta)
	}
	return nil
}

// closeSegment ends the text and reasoning streams open on the segment.
func (t *Translator) closeSegment(ts jsontree.Number) {
	if t.segReasoning {
		t.segReasoning = false
		t.start("REASONING_MESSAGE_END").str("messageId", t.seg).num("timestamp", ts).put()
	}
	if t.segText {
		t.segText = false
		t.start("TEXT_MESSAGE_END").str("messageId", t.seg).put()
	}
}

// toolParent returns the assistant message a dialect tool call without a
// parent belongs to: the current segment, whose text ends there (later text
// opens a new segment). With create, a segment (named after base) is
// opened when there is none; otherwise "" lets TOOL_CALL_START key a new
// assistant message by the tool call id, as for canonical events.
func (t *Translator) toolParent(base string, create bool, ts jsontree.Number) string {
	if t.seg == "" || !t.msgs[t.seg] {
		if !create {
			return ""
		}
		t.openSegment(base)
	}
	t.closeSegment(ts)
	t.segDone = true
	return t.seg
}

// Tool calls.

// argsJSON is the argument text of a tool call whose input a dialect sends
// parsed.
func argsJSON(input jsontree.Value) string {
	return string(jsontree.AppendJSON(nil, input))
}

// upsertTool makes sure tool call id exists, starting it (under parent) when
// new, and that its arguments are input when the event carries them: the
// arguments of a new call, or a replacement of different ones.
func (t *Translator) upsertTool(id, name, parent string, input jsontree.Value, hasInput bool) *toolRec {
	rec := t.tools[id]
	if rec == nil {
		b := t.start("TOOL_CALL_START").str("toolCallId", id).str("toolCallName", name)
		if parent != "" {
			b.str("parentMessageId", parent)
		}
		b.put()
		rec = t.tools[id]
		if hasInput {
			t.toolArgs(id, argsJSON(input))
		}
		return rec
	}
	if name != "" && rec.name == "" {
		t.touchTool(id)
		rec.name = name
		t.startAmend().str("toolCallId", id).str("name", name).putAmend()
	}
	if hasInput {
		t.startAmend().str("toolCallId", id).val("args", input).putAmend()
	}
	return rec
}

// toolArgs streams delta into the arguments of tool call id.
func (t *Translator) toolArgs(id, delta string) {
	if rec := t.touchTool(id); rec != nil {
		rec.args += len(delta)
	}
	t.start("TOOL_CALL_ARGS").str("toolCallId", id).str("delta", delta).put()
}

// endTool ends a running tool call as TOOL_CALL_END does.
func (t *Translator) endTool(id string, meta *jsontree.Object) {
	b := t.start("TOOL_CALL_END").str("toolCallId", id)
	if meta != nil {
		b.val("metadata", meta)
	}
	b.put()
}

// toolResult emits a tool's result as TOOL_CALL_RESULT, naming the tool
// message "result-<toolCallId>" as the reducer's AddToolResult does.
func (t *Translator) toolResult(toolCallID, content string) {
	t.start("TOOL_CALL_RESULT").str("messageId", t.derivedID(idMessage, "result-"+toolCallID)).
		str("toolCallId", toolCallID).str("content", content).put()
}

// requestTool shows on tool call id the approval it waits for, or that the
// client must run it.
func (t *Translator) requestTool(id string, approval *jsontree.Object, clientSide bool) {
	b := t.startAmend().str("toolCallId", id)
	if approval != nil {
		b.val("approval", approval)
	}
	if clientSide {
		b.raw("clientSide", "true")
	}
	b.putAmend()
}

// usageArray turns a usage object ({promptTokens, completionTokens,
// totalTokens}, or canonical TokenUsage keys) into the canonical TokenUsage[]
// form; model, when not "", fills a missing model. Counts must be numbers.
func usageArray(u *jsontree.Object, model, typ string) (*jsontree.Array, *Diagnostic) {
	out := jsontree.NewObject(u.Len())
	for i := 0; i < u.Len(); i++ {
		key, val := u.KeyAt(i), u.ValueAt(i)
		switch key {
		case "promptTokens":
			key = "inputTokens"
		case "completionTokens":
			key = "outputTokens"
		case "inputTokens", "outputTokens", "totalTokens", "reasoningTokens", "cachedInputTokens":
		case "provider", "model":
			if _, ok := val.(string); !ok && val != nil {
				return nil, errorf("bad_event", typ+": usage."+key+" must be a string")
			}
			if val != nil {
				out.Set(key, val)
			}
			continue
		default:
			continue // unknown keys are stripped, as the official schema does
		}
		if val == nil {
			continue
		}
		if _, ok := val.(jsontree.Number); !ok {
			return nil, errorf("bad_event", typ+": usage."+u.KeyAt(i)+" must be a number")
		}
		out.Set(key, val)
	}
	if _, ok := out.Get("model"); !ok && model != "" {
		withModel := jsontree.NewObject(out.Len() + 1)
		withModel.Set("model", model)
		for i := 0; i < out.Len(); i++ {
			withModel.Set(out.KeyAt(i), out.ValueAt(i))
		}
		out = withModel
	}
	return jsontree.NewArray(out), nil
}

// toolContent is the text of a tool result a dialect may send as any JSON
// value: a string as is, anything else as its JSON text.
func toolContent(v jsontree.Value) string {
	if s, ok := v.(string); ok {
		return s
	}
	return string(jsontree.AppendJSON(nil, v))
}

// timestampOf reads a numeric timestamp (milliseconds); other types count
// as absent (""), and so does a number AG-UI 1.0 does not take (a
// fraction, or past ±(2^53-1)): the canonical decoder would refuse the
// translated event for it, and the foreign dialect never promised one.
func timestampOf(obj *jsontree.Object) jsontree.Number {
	v, _ := obj.Get("timestamp")
	n, ok := v.(jsontree.Number)
	if !ok {
		return ""
	}
	const max = 1<<53 - 1
	if f, err := strconv.ParseFloat(string(n), 64); err != nil || f < -max || f > max || f != float64(int64(f)) {
		return ""
	}
	return n
}
