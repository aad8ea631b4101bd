package reducer

import (
	"strconv"

	"github.com/agui-reducer/agui/reducer/eventjson"
	"github.com/agui-reducer/agui/reducer/jsonpatch"
	"github.com/agui-reducer/agui/reducer/jsontree"
)

// DefaultMaxDepth is the nesting limit of events and local actions when
// Options.MaxDepth is unset.
const DefaultMaxDepth = eventjson.DefaultMaxDepth

// Options configure a Reducer. The zero value is ready to use.
type Options struct {
	// Strict additionally reports, as error-level diagnostics (code
	// "order", the official message), what the official 1.0 client's
	// verifyEvents rejects: ordering, pairing, subagent lifecycle and
	// attribution. The events are still applied.
	Strict bool

	// Clock returns the current time in milliseconds. It times reasoning
	// when the events carry no timestamps; nil means no clock, and such
	// durations are left out. The reducer never reads the system clock.
	Clock func() float64

	// NewID returns a fresh id for what the reducer must name itself
	// (runInput's runId, a user message added without an id). Nil means
	// deterministic ids derived from the state.
	NewID func(kind string) string

	// MaxEventBytes rejects larger events (default 16 MiB).
	MaxEventBytes int
	// MaxDepth rejects events nested deeper (default 512).
	MaxDepth int
	// MaxFieldBytes bounds one streamed field (message content, reasoning,
	// tool arguments): a delta that would grow it past this is rejected
	// (default 32 MiB).
	MaxFieldBytes int

	// ThreadID is the conversation's thread id from the start (state.threadId
	// and every RunInput), until a RUN_STARTED names another; "" lets
	// RunInput choose one.
	ThreadID string
	// MaxStateBytes bounds the shared state and the content of activity
	// messages together, as their JSON size about (default 64 MiB): an
	// event that would grow them past it is refused with too_large before
	// the memory is spent.
	MaxStateBytes int

	// Tools are tools known to the application (an AG-UI Tool[]), whose
	// parameters schemas validate the arguments of their calls beside
	// the tools of each RunAgentInput (see SetTools).
	Tools jsontree.Value
}

// Reducer folds AG-UI events into an AgentState. It is not safe for
// concurrent use; give each conversation its own Reducer.
type Reducer struct {
	opt      Options
	st       AgentState
	msgByID  map[string]*Message    // first message with each id
	toolByID map[string]*ToolCall   // tool calls by id
	tools    map[string]*toolSchema // known tools' schemas by name (SetTools)
	cited    map[*Message]struct{}
	subByID  map[string]*Subagent

	// The sets of AgentState.RunToolCalls (tally.go).
	runToolSeen map[string]bool
	answered    map[string]bool
	chunks      chunkState
	verify      verifier
	hot         Event           // the event being folded (applyHot)
	tok         tokenTargets    // where the latest tokens went (token.go)
	parser      jsontree.Parser // parses the events the hot paths do not take
	flatParser  jsontree.Parser // parses the values of those decodeFlat takes (a custom event's)

	// inputThread is the thread id RunInput chose while the state has
	// none, so that every request before the first run names one thread.
	inputThread string

	// The citations a state patch touched (sharedstate.go).
	citeIDs []string
	citeAll bool

	// Budget use (see budget.go).
	stateBytes, activityBytes int64

	// Replays (see replay.go): the runs folded to their end, by key and
	// by run id (ids the reducer must not give a new run); the resend
	// being caught up with; the checkpoints of open runs, the undo records of their
	// patches, and the epochs entities are born in.
	doneKeys      map[runKey]bool
	doneRuns      map[string]bool
	catching      *catchup // a resend being caught up with (catchup.go)
	restored      runKey   // the run open in the snapshot restored, until another starts
	checkpoints   []*checkpoint
	msgsShared    bool // a checkpoint shares st.Messages's array (ownMessages)
	open          openFrom
	journal       jsonpatch.Journal
	epoch, newest uint64

	// The SSE ids of the frames folded lately (eventid.go).
	folded eventIDs
}

// New returns a Reducer with an empty state.
func New(opt Options) *Reducer {
	l := eventjson.Limits{MaxEventBytes: opt.MaxEventBytes, MaxDepth: opt.MaxDepth, MaxFieldBytes: opt.MaxFieldBytes}.Defaults()
	opt.MaxEventBytes, opt.MaxDepth, opt.MaxFieldBytes = l.MaxEventBytes, l.MaxDepth, l.MaxFieldBytes
	if opt.MaxStateBytes <= 0 {
		opt.MaxStateBytes = defaultMaxStateBytes
	}
	r := &Reducer{opt: opt}
	r.clear()
	r.SetTools(opt.Tools)
	return r
}

// Options returns the options r was made with, its limits' defaults
// filled in.
func (r *Reducer) Options() Options { return r.opt }

func (r *Reducer) clear() {
	r.st = AgentState{ThreadID: r.opt.ThreadID, Status: StatusIdle, Messages: []*Message{}, ToolCalls: []*ToolCall{}, Steps: []Step{}, State: jsontree.NewObject(0), PendingToolCallIDs: []string{}, Subagents: []*Subagent{}}
	r.subByID = make(map[string]*Subagent)
	r.runToolSeen, r.answered = make(map[string]bool), make(map[string]bool)
	r.stateBytes, r.activityBytes = jsontree.Size(r.st.State), 0
	r.msgByID = make(map[string]*Message)
	r.toolByID = make(map[string]*ToolCall)
	r.forgetTokens()
	r.cited = make(map[*Message]struct{})
	r.chunks = chunkState{}
	r.verify = verifier{}
	r.doneKeys = make(map[runKey]bool)
	r.doneRuns = make(map[string]bool)
	r.inputThread = ""
	r.restored = runKey{}
	r.open = openFrom{}
	r.endReplay()
	r.dropCheckpoints()
	r.folded.forget()
}

// State returns the current state. It must not be modified, and it changes
// with the next Apply.
func (r *Reducer) State() *AgentState { return &r.st }

// Apply decodes one event from its JSON text and folds it into the state.
func (r *Reducer) Apply(data []byte) *Change {
	c := new(Change)
	r.ApplyInto(c, data)
	return c
}

// ApplyInto is Apply writing into a caller-owned Change, which it resets
// first; hosts reuse one Change to avoid allocating per event.
func (r *Reducer) ApplyInto(c *Change, data []byte) {
	c.Reset()
	if len(data) > r.opt.MaxEventBytes {
		c.failErr(eventjson.TooLarge(len(data), r.opt.MaxEventBytes))
		return
	}
	r.applyData(c, data)
}

// ApplyAppend is ApplyInto without the reset: the event's operations, custom
// events and diagnostics are added to c. A host that translates one event
// of another dialect into several canonical events (package dialect) folds
// them with it, so that they make one change record.
func (r *Reducer) ApplyAppend(c *Change, data []byte) {
	if len(data) > r.opt.MaxEventBytes {
		c.failErr(eventjson.TooLarge(len(data), r.opt.MaxEventBytes))
		return
	}
	r.applyData(c, data)
}

// ApplyObject is ApplyAppend of an event that the caller parsed already:
// obj is data parsed by eventjson.ParseObject with the reducer's MaxDepth
// (a translator that read the event before passing it on, package
// dialect). The reducer takes obj over, and may keep and change parts of
// it: the caller must not use it afterwards.
func (r *Reducer) ApplyObject(c *Change, data []byte, obj *jsontree.Object) {
	if len(data) > r.opt.MaxEventBytes {
		c.failErr(eventjson.TooLarge(len(data), r.opt.MaxEventBytes))
		return
	}
	if err := decodeEventObject(&r.hot, obj); err != nil {
		r.hot = Event{}
		c.failErr(err)
		return
	}
	r.applyHot(c)
}

// ApplyCanonical is ApplyAppend of an event in the common shape of the
// events around the streamed tokens (run lifecycle, message and tool call
// starts and ends, tool results, custom events: a type decodeFlat takes,
// with the members its type has and valid values), decoded without a tree:
// when data is one and accept, given the decoded event, reports true, it
// folds it and reports true; else it changes nothing and reports false,
// and the caller folds data the general way. accept (a translator that
// follows the events, package dialect) must not keep or change the event.
func (r *Reducer) ApplyCanonical(c *Change, data []byte, accept func(*Event) bool) bool {
	if len(data) > r.opt.MaxEventBytes || !decodeFlat(&r.hot, &r.flatParser, data, r.opt.MaxDepth) || !accept(&r.hot) {
		r.hot = Event{}
		return false
	}
	r.applyHot(c)
	return true
}

// applyHot folds the event decoded into r.hot, then clears it. The event
// lives in the Reducer so that it does not escape per call (an Event is
// some 700 bytes).
func (r *Reducer) applyHot(c *Change) {
	r.applyEvent(c, &r.hot)
	r.hot = Event{}
}

// applyData decodes one canonical event from its JSON text and folds it.
func (r *Reducer) applyData(c *Change, data []byte) {
	// Streamed tokens are nearly every event: decode them without a tree.
	// The event lives in the Reducer so it does not escape per call.
	if r.applyHotText(c, data) {
		return
	}
	// The other events of a turn, and tokens in another layout: decoded
	// without a tree when they have the members of their type only.
	if decodeFlat(&r.hot, &r.flatParser, data, r.opt.MaxDepth) {
		r.applyHot(c)
		return
	}
	r.hot = Event{}
	if err := decodeEventInto(&r.hot, &r.parser, data, r.opt.MaxDepth); err != nil {
		r.hot = Event{}
		c.failErr(err)
		return
	}
	r.applyHot(c)
}

// ApplyEvent folds an already decoded event into the state.
func (r *Reducer) ApplyEvent(ev Event) *Change {
	c := new(Change)
	r.applyChecked(c, &ev)
	return c
}

// ApplyEventInto is ApplyEvent writing into a caller-owned Change.
func (r *Reducer) ApplyEventInto(c *Change, ev Event) {
	c.Reset()
	r.applyChecked(c, &ev)
}

// applyChecked applies an event a caller built, once checkEvent accepts it.
func (r *Reducer) applyChecked(c *Change, ev *Event) {
	if err := r.checkEvent(ev); err != nil {
		c.fail(err.Code, err.Message)
		return
	}
	// The state keeps parts of the event and patches them in place: a
	// caller's tree must not be shared with it.
	for _, v := range [...]*jsontree.Value{&ev.RawEvent, &ev.Content, &ev.Patch, &ev.Snapshot, &ev.Result, &ev.Value, &ev.RawBody} {
		*v = jsontree.Clone(plainNil(*v))
	}
	ev.Metadata, ev.Input, ev.Outcome = cloneObj(ev.Metadata), cloneObj(ev.Input), cloneObj(ev.Outcome)
	ev.Messages, ev.Usage = cloneArr(ev.Messages), cloneArr(ev.Usage)
	r.applyEvent(c, ev)
}

func cloneObj(o *jsontree.Object) *jsontree.Object {
	if o == nil {
		return nil
	}
	return jsontree.Clone(o).(*jsontree.Object)
}

func cloneArr(a *jsontree.Array) *jsontree.Array {
	if a == nil {
		return nil
	}
	return jsontree.Clone(a).(*jsontree.Array)
}

// applyEvent runs the chunk transform, then reduces every canonical event it
// yields.
func (r *Reducer) applyEvent(c *Change, ev *Event) {
	if r.skipReplay(c, ev) {
		return
	}
	if ev.rare != nil {
		for _, p := range ev.rare.removed {
			c.warn("unknown_member", string(ev.Type)+": removed the unknown member at '"+p+"'")
		}
	}
	r.transformChunks(c, ev, func(e *Event) {
		if r.catching != nil && r.catchUp(c, e) {
			return
		}
		if r.opt.Strict {
			r.verify.check(c, e)
		}
		mark, ops := len(c.Diagnostics), len(c.Ops)
		r.reduce(c, e)
		if isPatch(e.Type) {
			r.countPatch(c, e, mark, ops)
		}
	})
}

// reduce folds one canonical (non-chunk) event.
func (r *Reducer) reduce(c *Change, ev *Event) {
	switch ev.Type {
	case RunStarted:
		r.runStarted(c, ev)
	case RunFinished:
		r.runFinished(c, ev)
	case RunError:
		r.runError(c, ev.Message, ev.Code, ev.HasCode, ev.Usage)
	case TextMessageStart:
		r.textStart(c, ev)
	case TextMessageContent:
		r.textContent(c, ev)
	case TextMessageEnd:
		r.textEnd(c, ev)
	case ReasoningMessageStart:
		r.reasoningStart(c, ev)
	case ReasoningMessageContent:
		r.reasoningContent(c, ev)
	case ReasoningMessageEnd:
		r.reasoningEnd(c, ev)
	case ReasoningStart, ReasoningEnd, Raw, ThinkingStart, ThinkingEnd:
		// Phase markers and raw provider payloads change no state.
	case ReasoningEncryptedValue:
		r.encryptedValue(c, ev)
	case ThinkingTextMessageStart, ThinkingTextMessageContent, ThinkingTextMessageEnd:
		r.thinking(c, ev)
	case ToolCallStart:
		r.toolStart(c, ev)
	case ToolCallArgs:
		r.toolArgs(c, ev)
	case ToolCallEnd:
		r.toolEnd(c, ev)
	case ToolCallResult:
		r.toolResultEvent(c, ev)
	case StateSnapshot:
		r.stateSnapshot(c, ev)
	case StateDelta:
		r.stateDelta(c, ev)
	case MessagesSnapshot:
		r.messagesSnapshot(c, ev)
	case ActivitySnapshot:
		r.activitySnapshot(c, ev)
	case ActivityDelta:
		r.activityDelta(c, ev)
	case StepStarted:
		r.stepStarted(c, ev)
	case StepFinished:
		r.stepFinished(c, ev)
	case Custom:
		r.custom(c, ev)
	case SubagentStarted:
		r.subagentStarted(c, ev)
	case SubagentFinished, SubagentError:
		r.subagentEnded(c, ev)
	default:
		c.warn("unknown_type", "unknown event type '"+string(ev.Type)+"' ignored")
	}
}

// custom turns a CUSTOM event into a custom event for the host.
func (r *Reducer) custom(c *Change, ev *Event) {
	if ev.CustomName == "state_update" {
		if o, ok := ev.Value.(*jsontree.Object); ok {
			c.Events = append(c.Events, CustomEvent{Type: "state_update", Value: o})
			return
		}
	}
	var v jsontree.Value
	if ev.HasValue {
		v = ev.Value
	}
	c.Events = append(c.Events, CustomEvent{Type: "custom", Name: ev.CustomName, Value: v})
}

// nextID returns a deterministic id "<prefix>-<n>" not used by any message.
func (r *Reducer) nextID(kind string) string {
	if r.opt.NewID != nil {
		if id := r.opt.NewID(kind); id != "" {
			return id
		}
	}
	// Derived from the state alone (the first free number from the
	// message count up), so that a reducer restored from a snapshot names
	// things as the original would.
	for n := len(r.st.Messages) + 1; ; n++ {
		id := kind + "-" + strconv.Itoa(n)
		if r.msgByID[id] == nil && r.toolByID[id] == nil && (kind != "run" || !r.doneRuns[id] && r.findRunID(id) < 0) {
			return id
		}
	}
}
