package reducer

import (
	"strconv"

	"github.com/agui-reducer/agui/reducer/jsontree"
	"github.com/agui-reducer/agui/reducer/toolschema"
)

// restoreMaxDepth bounds snapshot nesting; memory, not the stack, is what
// a deep snapshot costs.
const restoreMaxDepth = 1 << 24

// Snapshot returns the whole state as JSON.
func (r *Reducer) Snapshot() []byte { return r.st.AppendJSON(nil) }

// Restore replaces the state by one Snapshot produced. On error the state is
// unchanged. The change replaces the whole document.
func (r *Reducer) Restore(data []byte) (*Change, error) {
	if err := r.Load(data); err != nil {
		return nil, err
	}
	c := new(Change)
	// The document is about the snapshot's size: one allocation, not a
	// doubling series.
	c.replace("", r.st.AppendJSON(make([]byte, 0, len(data)+len(data)/8+1024)))
	return c, nil
}

// Load is Restore without the change record, for a host that reads State()
// and keeps no copy of the document: writing the document out again is
// about a fifth of a restore.
func (r *Reducer) Load(data []byte) error {
	next := New(r.opt)
	next.tools = r.tools // the known tools are not state: they stay
	if !next.loadFast(data) {
		// The fast decoder refuses what it does not fully understand,
		// errors included: the tree decoder then decides, and reports.
		next = New(r.opt)
		next.tools = r.tools
		if err := next.loadTree(data); err != nil {
			return err
		}
	}
	if err := checkEventID(next.st.LastEventID, r.opt.MaxFieldBytes); err != nil {
		// What SetLastEventID refuses, restore refuses: no request could
		// carry it back as Last-Event-ID.
		return errorf("bad_snapshot", "restore: lastEventId: "+err.Message)
	}
	next.stateBytes, next.activityBytes = jsontree.Size(next.st.State), sumCharges(next.st.Messages)
	if next.overBudget(next.stateBytes, next.activityBytes) {
		return errorf("too_large", "restore: "+r.budgetError("the snapshot", next.stateBytes+next.activityBytes))
	}
	r.forgetTokens()
	r.st, r.msgByID, r.toolByID, r.cited, r.subByID = next.st, next.msgByID, next.toolByID, next.cited, next.subByID
	r.open = openFrom{}
	r.runToolSeen, r.answered = next.runToolSeen, next.answered
	r.stateBytes, r.activityBytes = next.stateBytes, next.activityBytes
	r.chunks, r.verify = chunkState{}, verifier{}
	if r.opt.Strict {
		// The verifier's memory is derived from the events: rebuilt
		// from what the snapshot shows of them.
		r.verify.rebuild(&r.st)
	}
	r.doneRuns, r.doneKeys = next.doneRuns, next.doneKeys
	r.endReplay()
	r.restored = runKey{}
	r.dropCheckpoints()
	r.folded.forget()
	r.folded.add(r.st.LastEventID) // a resent cursor frame is known
	if r.st.RunID != "" && r.st.Status == StatusRunning {
		// Its start is not in the snapshot: a resend from its start
		// catches up (catchup.go).
		r.restored = runKey{r.st.ThreadID, r.st.RunID}
	}
	if r.st.RunID != "" && r.st.Status != StatusRunning {
		// The snapshot's last run is over: a replay of it is skipped.
		r.doneRuns[r.st.RunID] = true
		r.doneKeys[runKey{r.st.ThreadID, r.st.RunID}] = true
	}
	return nil
}

// loadTree loads a snapshot through a whole jsontree: the reference
// decoder, which loadFast must agree with.
func (r *Reducer) loadTree(data []byte) error {
	// A snapshot nests values deeper than the events that carried them,
	// and a state grown by patches has no depth bound: parsing is
	// iterative, so restore takes any depth its own snapshots reach.
	v, err := jsontree.Parse(data, restoreOptions)
	if err != nil {
		return errorf("bad_snapshot", "snapshot is not valid JSON: "+err.Error())
	}
	o, ok := v.(*jsontree.Object)
	if !ok {
		return errorf("bad_snapshot", "snapshot is not an object")
	}
	if err := r.load(o); err != nil {
		msg := err.Error()
		if e, ok := err.(*Error); ok {
			msg = e.Message
		}
		return errorf("bad_snapshot", msg)
	}
	return nil
}

func (r *Reducer) load(o *jsontree.Object) error {
	d := fieldsOf(o, "snapshot")
	st := &r.st
	st.ThreadID = d.Str("threadId", false)
	st.RunID = d.Str("runId", false)
	st.Status = d.Str("status", false)
	switch st.Status {
	case StatusIdle, StatusRunning, StatusError:
	case "":
		st.Status = StatusIdle
	default:
		d.Fail("unknown status '" + st.Status + "'")
	}
	if b, ok := o.Get("isLoading"); ok {
		st.IsLoading, _ = b.(bool)
	}
	if e := d.Object("error"); e != nil {
		ed := fieldsOf(e, "snapshot error")
		st.Error = &RunErr{Message: ed.Str("message", false)}
		st.Error.Code, st.Error.HasCode = ed.OptStr("code")
		if b, ok := e.Get("recoverable"); ok {
			st.Error.Recoverable, st.Error.HasRecoverable = b.(bool)
		}
		if ed.Err != nil {
			return ed.Err
		}
	}
	st.State, _ = o.Get("state")
	if steps := d.Array("steps", false); steps != nil {
		for _, e := range steps.Elems {
			so, _ := e.(*jsontree.Object)
			if so == nil {
				d.Fail("steps entries must be objects")
				break
			}
			sd := fieldsOf(so, "step")
			st.Steps = append(st.Steps, Step{Name: sd.Str("name", true), Status: sd.Str("status", true)})
			if sd.Err != nil {
				return sd.Err
			}
		}
	}
	st.Interrupts = d.Array("interrupts", false)
	if st.Interrupts != nil && st.Interrupts.Len() == 0 {
		st.Interrupts = nil
	}
	st.Usage = d.Array("usage", false)
	if st.Usage != nil && st.Usage.Len() == 0 {
		st.Usage = nil
	}
	st.Result, st.HasResult = o.Get("result")
	st.Outcome, _ = d.OptStr("outcome")
	st.LastEventID, _ = d.OptStr("lastEventId")
	if n, ok := loadNumber(&d, o, "runPatches"); ok {
		if n < 0 || n != float64(int(n)) {
			d.Fail("runPatches must be a count")
		}
		st.RunPatches = int(n)
	}
	st.PendingToolCallIDs = []string{}
	if ids := d.Array("pendingToolCallIds", false); ids != nil {
		if !isStringArray(ids) {
			d.Fail("pendingToolCallIds must hold strings")
		} else {
			for _, e := range ids.Elems {
				st.PendingToolCallIDs = append(st.PendingToolCallIDs, e.(string))
			}
		}
	}
	if t := d.Object("runToolCalls"); t != nil {
		// Absent in snapshots of no tally, and in those made before it was
		// kept.
		td := fieldsOf(t, "runToolCalls")
		for _, key := range [...]string{"started", "answered"} {
			ids := td.Array(key, false)
			if ids != nil && !isStringArray(ids) {
				td.Fail(key + " must hold strings")
				break
			}
			var list []string
			for _, e := range elems(ids) {
				list = append(list, e.(string))
			}
			if key == "started" {
				st.RunToolCalls.Started = list
			} else {
				st.RunToolCalls.Answered = list
			}
		}
		if td.Err != nil {
			return td.Err
		}
		r.indexTally()
	}
	if d.Err != nil {
		return d.Err
	}
	for _, e := range elems(d.Array("subagents", false)) {
		s, err := loadSubagent(e)
		if err != nil {
			return err
		}
		s.pos = len(st.Subagents)
		st.Subagents = append(st.Subagents, s)
		r.subByID[s.ID] = s
	}
	msgs := elems(d.Array("messages", false))
	if len(msgs) > 0 {
		// Sized once: growing a slice and a map of 100,000 entries step by
		// step costs more than the messages themselves in wasm.
		st.Messages = make([]*Message, 0, len(msgs))
		r.forgetTokens()
		r.msgByID = make(map[string]*Message, len(msgs))
	}
	for _, e := range msgs {
		m, err := loadMessage(e)
		if err != nil {
			return err
		}
		r.addLoaded(m)
	}
	for _, e := range elems(d.Array("toolCalls", false)) {
		t, err := r.loadToolCall(e)
		if err != nil {
			return err
		}
		t.pos = len(st.ToolCalls)
		st.ToolCalls = append(st.ToolCalls, t)
		r.toolByID[t.ID] = t
	}
	if d.Err != nil {
		return d.Err
	}
	return nil
}

// addLoaded appends m, a message of the snapshot, to the conversation.
func (r *Reducer) addLoaded(m *Message) {
	st := &r.st
	m.pos = len(st.Messages)
	st.Messages = append(st.Messages, m)
	if _, ok := r.msgByID[m.ID]; !ok {
		r.forgetTokens()
		r.msgByID[m.ID] = m
	}
	if m.Citations != nil {
		r.cited[m] = struct{}{}
	}
}

func loadMessage(v jsontree.Value) (*Message, error) {
	o, _ := v.(*jsontree.Object)
	if o == nil {
		return nil, errorf("bad_snapshot", "messages entries must be objects")
	}
	d := fieldsOf(o, "snapshot message")
	m := &Message{ID: d.Str("id", true), Role: d.Str("role", true)}
	switch c, _ := o.Get("content"); c := c.(type) {
	case string:
		m.contentKind, m.text = contentText, []byte(c)
		if c == "" && m.Role == "assistant" {
			m.contentKind = contentNone
		}
	case *jsontree.Array, *jsontree.Object:
		m.contentKind, m.value = contentValue, c
	default:
		d.Fail("content must be a string, an array or an object")
	}
	m.Name, m.hasName = d.OptStr("name")
	m.SubagentRunID, m.HasSubagentRunID = d.OptStr("subagentRunId")
	if s, ok := d.OptStr("reasoning"); ok {
		m.hasReasoning, m.reasoning = true, []byte(s)
		m.reasoningSlot = m.contentKind == contentNone
	}
	if n, ok := o.Get("reasoningDurationMs"); ok {
		num, _ := n.(jsontree.Number)
		f, err := strconv.ParseFloat(string(num), 64)
		if err != nil {
			d.Fail("reasoningDurationMs must be a number")
		}
		m.ReasoningDurationMs, m.HasReasoningDuration = f, true
	}
	m.Citations = d.Array("citations", false)
	if ids := d.Array("toolCallIds", false); ids != nil {
		m.ToolCallIDs = make([]string, 0, ids.Len())
		for _, e := range ids.Elems {
			s, ok := e.(string)
			if !ok {
				d.Fail("toolCallIds must hold strings")
				break
			}
			m.ToolCallIDs = append(m.ToolCallIDs, s)
		}
	}
	if m.Role == "tool" {
		m.ToolCallID = d.Str("toolCallId", true)
	}
	if e, ok := o.Get("error"); ok && e != nil {
		m.ErrorValue = e
	}
	if m.Role == "activity" {
		m.ActivityType = d.Str("activityType", true)
	}
	m.EncryptedValue, m.HasEncryptedValue = d.OptStr("encryptedValue")
	m.Metadata = d.Metadata()
	if m.Role == "activity" && m.contentKind == contentValue {
		if o, ok := m.value.(*jsontree.Object); !ok || o == nil {
			d.Fail("content of an activity message must be an object or a string")
		}
	}
	m.charge = activityCharge(m)
	if b, ok := o.Get("streaming"); ok {
		m.Streaming, _ = b.(bool)
	}
	if d.Err != nil {
		return nil, d.Err
	}
	return m, nil
}

func (r *Reducer) loadToolCall(v jsontree.Value) (*ToolCall, error) {
	o, _ := v.(*jsontree.Object)
	if o == nil {
		return nil, errorf("bad_snapshot", "toolCalls entries must be objects")
	}
	d := fieldsOf(o, "snapshot tool call")
	t := &ToolCall{ID: d.Str("id", true), Name: d.Str("name", false), ParentMessageID: d.Str("parentMessageId", false), Status: d.Str("status", true)}
	t.args = []byte(d.Str("argsText", false))
	t.Args, _ = o.Get("args")
	if s, ok := d.OptStr("result"); ok {
		t.Result, t.HasResult = s, true
		t.ResultMessageID = d.Str("resultMessageId", false)
	}
	t.ResultContent = d.Array("resultContent", false)
	t.SubagentRunID, t.HasSubagentRunID = d.OptStr("subagentRunId")
	if e, ok := o.Get("error"); ok && e != nil {
		t.ErrorValue = e
	}
	t.EncryptedValue, t.HasEncrypted = d.OptStr("encryptedValue")
	t.Metadata = d.Metadata()
	t.Approval = d.Object("approval")
	if b, ok := o.Get("clientSide"); ok {
		t.ClientSide, _ = b.(bool)
	}
	t.ArgsStatus, _ = d.OptStr("argsStatus")
	if a := d.Array("argsErrors", false); a != nil {
		t.ArgsErrors = []toolschema.Error{}
		for _, e := range a.Elems {
			eo, _ := e.(*jsontree.Object)
			if eo == nil {
				continue
			}
			ed := fieldsOf(eo, "snapshot argsErrors entry")
			t.ArgsErrors = append(t.ArgsErrors, toolschema.Error{Path: ed.Str("path", false), Keyword: ed.Str("keyword", false), Message: ed.Str("message", false)})
		}
	}
	t.SafeArgs, _ = o.Get("safeArgs")
	if d.Err != nil {
		return nil, d.Err
	}
	switch t.Status {
	case ToolRunning:
		// Rebuild the incremental parser, and the validation, from the
		// text so far (for the tools known now).
		// Rebuild the incremental parser, and the validation, from the
		// text so far.
		r.rebuildArgsCheck(t)
	case ToolComplete, ToolError:
		t.parser.final = true
	default:
		return nil, errorf("bad_snapshot", "unknown tool call status '"+t.Status+"'")
	}
	return t, nil
}

// elems tolerates a nil array.
func elems(a *jsontree.Array) []jsontree.Value {
	if a == nil {
		return nil
	}
	return a.Elems
}

// RunInputOptions are the caller's parts of the next RunAgentInput.
type RunInputOptions struct {
	ThreadID       string         // "" → the state's thread id
	RunID          string         // "" → a fresh id
	State          jsontree.Value // nil → the shared state
	Messages       jsontree.Value // nil → the conversation (Message[])
	Tools          jsontree.Value // default []
	Context        jsontree.Value // default []
	ForwardedProps jsontree.Value // default {}
	Resume         jsontree.Value // sent only when non-nil
}

// RunInput returns the RunAgentInput JSON for the next request in the
// protocol 1.0 shape: threadId, a fresh runId, protocolVersion "1.0", the
// state (left out when null), and the messages in the official AG-UI Message[]
// shape (assistant messages carry toolCalls; reasoning becomes "reasoning"
// messages; activity messages are left out), plus the caller's tools,
// context and forwardedProps. A field set in opt replaces the reducer's. Before any thread id is known, the first call
// chooses one and later calls reuse it.
func (r *Reducer) RunInput(opt RunInputOptions) []byte {
	// The tools the client sends are the run's: their schemas validate
	// its calls' arguments.
	r.SetTools(opt.Tools)
	threadID := opt.ThreadID
	if threadID == "" {
		threadID = r.st.ThreadID
	}
	if threadID == "" {
		if r.inputThread == "" {
			r.inputThread = r.nextID("thread")
		}
		threadID = r.inputThread
	}
	runID := opt.RunID
	if runID == "" {
		runID = r.nextID("run")
	}
	b := []byte(`{"threadId":`)
	b = jsontree.AppendString(b, threadID)
	b = append(b, `,"runId":`...)
	b = jsontree.AppendString(b, runID)
	b = append(b, `,"protocolVersion":"1.0"`...)
	switch {
	case opt.State != nil:
		b = append(b, `,"state":`...)
		b = jsontree.AppendJSON(b, opt.State)
	case r.st.State != nil:
		// A null state is an optional null: never sent (1.0).
		b = append(b, `,"state":`...)
		b = jsontree.AppendJSON(b, r.st.State)
	}
	b = append(b, `,"messages":`...)
	if opt.Messages != nil {
		b = jsontree.AppendJSON(b, opt.Messages)
	} else {
		b = r.AppendMessages(b)
	}
	b = append(b, `,"tools":`...)
	b = appendOr(b, opt.Tools, "[]")
	b = append(b, `,"context":`...)
	b = appendOr(b, opt.Context, "[]")
	b = append(b, `,"forwardedProps":`...)
	b = appendOr(b, opt.ForwardedProps, "{}")
	if opt.Resume != nil {
		b = append(b, `,"resume":`...)
		b = jsontree.AppendJSON(b, opt.Resume)
	}
	return append(b, '}')
}

func appendOr(b []byte, v jsontree.Value, def string) []byte {
	if v == nil {
		return append(b, def...)
	}
	return jsontree.AppendJSON(b, v)
}

// AppendMessages appends the conversation in the official AG-UI Message[]
// shape, as the official client would hold it.
func (r *Reducer) AppendMessages(b []byte) []byte {
	b = append(b, '[')
	n := 0
	sep := func() {
		if n > 0 {
			b = append(b, ',')
		}
		n++
	}
	for _, m := range r.st.Messages {
		switch m.Role {
		case "activity":
			continue
		case "assistant":
			if m.hasReasoning {
				sep()
				id := m.ID
				if !m.isReasoningOnly() {
					id += "-reasoning"
				}
				b = append(b, `{"id":`...)
				b = jsontree.AppendString(b, id)
				b = append(b, `,"role":"reasoning","content":`...)
				b = jsontree.AppendString(b, bytesString(m.reasoning))
				if m.isReasoningOnly() {
					b = appendCommon(b, m)
				}
				b = append(b, '}')
				if m.isReasoningOnly() {
					continue
				}
			}
			sep()
			b = append(b, `{"id":`...)
			b = jsontree.AppendString(b, m.ID)
			b = append(b, `,"role":"assistant"`...)
			if m.contentKind != contentNone {
				b = append(b, `,"content":`...)
				b = m.appendContent(b)
			}
			if m.hasName {
				b = append(b, `,"name":`...)
				b = jsontree.AppendString(b, m.Name)
			}
			if len(m.ToolCallIDs) > 0 {
				b = append(b, `,"toolCalls":[`...)
				for i, id := range m.ToolCallIDs {
					if i > 0 {
						b = append(b, ',')
					}
					b = r.appendOfficialToolCall(b, id)
				}
				b = append(b, ']')
			}
			b = appendCommon(b, m)
			b = append(b, '}')
		default:
			sep()
			b = append(b, `{"id":`...)
			b = jsontree.AppendString(b, m.ID)
			b = append(b, `,"role":`...)
			b = jsontree.AppendString(b, m.Role)
			b = append(b, `,"content":`...)
			b = m.appendContent(b)
			if m.hasName && m.Role != "tool" {
				b = append(b, `,"name":`...)
				b = jsontree.AppendString(b, m.Name)
			}
			if m.Role == "tool" {
				b = append(b, `,"toolCallId":`...)
				b = jsontree.AppendString(b, m.ToolCallID)
				if m.ErrorValue != nil {
					b = append(b, `,"error":`...)
					b = jsontree.AppendJSON(b, m.ErrorValue)
				}
			}
			b = appendCommon(b, m)
			b = append(b, '}')
		}
	}
	return append(b, ']')
}

func appendCommon(b []byte, m *Message) []byte {
	if m.HasSubagentRunID {
		b = append(b, `,"subagentRunId":`...)
		b = jsontree.AppendString(b, m.SubagentRunID)
	}
	if m.HasEncryptedValue {
		b = append(b, `,"encryptedValue":`...)
		b = jsontree.AppendString(b, m.EncryptedValue)
	}
	if m.Metadata != nil {
		b = append(b, `,"metadata":`...)
		b = jsontree.AppendJSON(b, m.Metadata)
	}
	return b
}

func (r *Reducer) appendOfficialToolCall(b []byte, id string) []byte {
	t := r.toolByID[id]
	b = append(b, `{"id":`...)
	b = jsontree.AppendString(b, id)
	b = append(b, `,"type":"function","function":{"name":`...)
	if t == nil {
		b = append(b, `"","arguments":""}}`...)
		return b
	}
	b = jsontree.AppendString(b, t.Name)
	b = append(b, `,"arguments":`...)
	b = jsontree.AppendString(b, bytesString(t.args))
	b = append(b, '}')
	if t.HasEncrypted {
		b = append(b, `,"encryptedValue":`...)
		b = jsontree.AppendString(b, t.EncryptedValue)
	}
	if t.Metadata != nil {
		b = append(b, `,"metadata":`...)
		b = jsontree.AppendJSON(b, t.Metadata)
	}
	return append(b, '}')
}
