package reducer

import (
	"maps"
	"strings"

	"github.com/agui-reducer/agui/reducer/jsontree"
)

// verifier reproduces the official 1.0 client's verifyEvents (client
// src/verify/verify.ts): run lifecycle, text, tool-call and reasoning
// start/end pairing, owner-keyed steps, the subagent lifecycle, and the
// attribution rule that a tagged continuation must not disagree with its
// entity's opener. In strict mode each violation becomes an error-level
// diagnostic with code "order" and the official message; unlike the
// official client the event is still applied, so one out-of-order event
// cannot end the conversation. The verifier's own memory is left as it was
// by a violating event, as the official one is by the event it throws on.
type verifier struct {
	started, finished, errored, seenFirst bool

	// seq orders the open sets as JavaScript's Set and Map iterate them
	// (insertion order), which the RUN_FINISHED messages list.
	seq                                int
	messages, tools, spans, reasonings map[string]int
	subagents                          map[string]int
	closedSubagents                    map[string]bool
	pastSubagents                      map[string]bool // ended before a restore (rebuild)
	spansUnknown                       bool            // restored: the open reasoning spans are not in the state
	steps                              map[stepKey]int
	stepOwners                         map[owner]int // when each owner's step map was made

	// Owners per entity kind, kept after the entity closes, until the
	// next run.
	owners [4]map[string]owner
}

// owner is who opened an entity: a subagent, or the parent agent.
type owner struct {
	id  string
	sub bool // false: the parent agent
}

func ownerOf(ev *Event) owner { return owner{ev.SubagentRunID, ev.HasSubagentRunID} }

// String is the owner as the official messages name it.
func (o owner) String() string {
	if !o.sub {
		return "(the parent agent)"
	}
	return o.id
}

type stepKey struct {
	owner owner
	name  string
}

// The owner buckets.
const (
	ownMessage = iota
	ownToolCall
	ownActivity
	ownReasoning
)

func (v *verifier) reset() {
	v.messages, v.tools, v.spans, v.reasonings = map[string]int{}, map[string]int{}, map[string]int{}, map[string]int{}
	v.subagents, v.closedSubagents, v.pastSubagents = map[string]int{}, map[string]bool{}, map[string]bool{}
	v.steps, v.stepOwners = map[stepKey]int{}, map[owner]int{}
	for i := range v.owners {
		v.owners[i] = map[string]owner{}
	}
}

// clone returns a copy that shares no memory with v.
func (v verifier) clone() verifier {
	v.messages, v.tools, v.spans, v.reasonings = maps.Clone(v.messages), maps.Clone(v.tools), maps.Clone(v.spans), maps.Clone(v.reasonings)
	v.subagents, v.closedSubagents, v.pastSubagents = maps.Clone(v.subagents), maps.Clone(v.closedSubagents), maps.Clone(v.pastSubagents)
	v.steps, v.stepOwners = maps.Clone(v.steps), maps.Clone(v.stepOwners)
	for i := range v.owners {
		v.owners[i] = maps.Clone(v.owners[i])
	}
	return v
}

func (v *verifier) add(set map[string]int, id string) {
	v.seq++
	set[id] = v.seq
}

// stepsFor notes the first time an owner's steps are looked up, which is
// where the official Map puts that owner in its iteration order.
func (v *verifier) stepsFor(o owner) {
	if _, ok := v.stepOwners[o]; !ok {
		v.seq++
		v.stepOwners[o] = v.seq
	}
}

// check reports the violation ev is, if any, and records what it opens and
// closes when it is none.
func (v *verifier) check(c *Change, ev *Event) {
	if v.messages == nil {
		v.reset()
	}
	if msg := v.verify(ev); msg != "" {
		c.fail("order", msg)
	}
}

// verify is verifyEvents for one event: the official message of the
// violation, or "".
func (v *verifier) verify(ev *Event) string {
	t := string(ev.Type)
	first := !v.seenFirst
	v.seenFirst = true
	if v.errored && ev.Type != RunStarted {
		return "Cannot send event type '" + t + "': The run has already errored with 'RUN_ERROR'. No further events can be sent."
	}
	if v.finished && ev.Type != RunError && ev.Type != RunStarted {
		return "Cannot send event type '" + t + "': The run has already finished with 'RUN_FINISHED'. Start a new run with 'RUN_STARTED'."
	}
	if first {
		if ev.Type != RunStarted && ev.Type != RunError {
			return "First event must be 'RUN_STARTED'"
		}
	} else if ev.Type == RunStarted {
		if v.started && !v.finished && !v.errored {
			return "Cannot send 'RUN_STARTED' while a run is still active. The previous run must be finished with 'RUN_FINISHED' before starting a new run."
		}
		if v.finished || v.errored {
			v.reset()
			v.started, v.finished, v.errored = true, false, false
		}
	}
	if msg := nullChecks(ev); msg != "" {
		return msg
	}

	tag := ownerOf(ev)
	switch ev.Type {
	case TextMessageStart:
		id := ev.MessageID
		if _, open := v.messages[id]; open {
			return "Cannot send 'TEXT_MESSAGE_START' event: A text message with ID '" + id + "' is already in progress. Complete it with 'TEXT_MESSAGE_END' first."
		}
		if msg := v.agree(ev, ownMessage, "message", id); msg != "" {
			return msg
		}
		v.add(v.messages, id)
		v.claim(ownMessage, id, tag)
	case TextMessageContent, TextMessageEnd:
		id := ev.MessageID
		if _, open := v.messages[id]; !open {
			if ev.Type == TextMessageContent {
				return "Cannot send 'TEXT_MESSAGE_CONTENT' event: No active text message found with ID '" + id + "'. Start a text message with 'TEXT_MESSAGE_START' first."
			}
			return "Cannot send 'TEXT_MESSAGE_END' event: No active text message found with ID '" + id + "'. A 'TEXT_MESSAGE_START' event must be sent first."
		}
		if msg := v.agree(ev, ownMessage, "message", id); msg != "" {
			return msg
		}
		if ev.Type == TextMessageEnd {
			delete(v.messages, id)
		}
	case ToolCallStart:
		return v.toolStart(ev)
	case ToolCallArgs, ToolCallEnd:
		id := ev.ToolCallID
		if _, open := v.tools[id]; !open {
			if ev.Type == ToolCallArgs {
				return "Cannot send 'TOOL_CALL_ARGS' event: No active tool call found with ID '" + id + "'. Start a tool call with 'TOOL_CALL_START' first."
			}
			return "Cannot send 'TOOL_CALL_END' event: No active tool call found with ID '" + id + "'. A 'TOOL_CALL_START' event must be sent first."
		}
		if msg := v.agree(ev, ownToolCall, "tool call", id); msg != "" {
			return msg
		}
		if ev.Type == ToolCallEnd {
			delete(v.tools, id)
		}
	case StepStarted:
		k := stepKey{tag, ev.StepName}
		v.stepsFor(tag)
		if _, open := v.steps[k]; open {
			in := ""
			if tag.sub {
				in = " in subagent '" + tag.id + "'"
			}
			return "Step \"" + ev.StepName + "\" is already active for 'STEP_STARTED'" + in
		}
		v.seq++
		v.steps[k] = v.seq
	case StepFinished:
		k := stepKey{tag, ev.StepName}
		v.stepsFor(tag)
		if _, open := v.steps[k]; !open {
			// The first other owner, in the official Map's order, with
			// that step open.
			var other owner
			found, at := false, 0
			for o, when := range v.stepOwners {
				if _, open := v.steps[stepKey{o, ev.StepName}]; open && o != tag && (!found || when < at) {
					other, found, at = o, true, when
				}
			}
			if found {
				return "Cannot send 'STEP_FINISHED' for step \"" + ev.StepName + "\" attributed to " + agentName(tag) + ": that step is open under " + agentName(other) + ". A step must be finished by whoever started it."
			}
			return "Cannot send 'STEP_FINISHED' for step \"" + ev.StepName + "\" that was not started"
		}
		delete(v.steps, k)
	case ActivitySnapshot:
		if _, known := v.owners[ownActivity][ev.MessageID]; !known || ev.Replace {
			v.owners[ownActivity][ev.MessageID] = tag
		}
	case ActivityDelta:
		return v.agree(ev, ownActivity, "activity", ev.MessageID)
	case ToolCallResult:
		v.owners[ownMessage][ev.MessageID] = tag
	case ReasoningStart, ReasoningMessageStart:
		id := ev.MessageID
		open := v.reasonings
		if ev.Type == ReasoningStart {
			open = v.spans
		}
		if _, isOpen := open[id]; isOpen {
			if ev.Type == ReasoningStart {
				return "Cannot send 'REASONING_START' event: A reasoning span with ID '" + id + "' is already in progress. Complete it with 'REASONING_END' first."
			}
			return "Cannot send 'REASONING_MESSAGE_START' event: A reasoning message with ID '" + id + "' is already in progress. Complete it with 'REASONING_MESSAGE_END' first."
		}
		if msg := v.agree(ev, ownReasoning, "reasoning message", id); msg != "" {
			return msg
		}
		v.add(open, id)
		v.claim(ownReasoning, id, tag)
	case ReasoningMessageContent, ReasoningMessageEnd, ReasoningEnd:
		id := ev.MessageID
		open := v.reasonings
		if ev.Type == ReasoningEnd {
			open = v.spans
		}
		if _, isOpen := open[id]; !isOpen && !(ev.Type == ReasoningEnd && v.spansUnknown) {
			if ev.Type == ReasoningEnd {
				return "Cannot send 'REASONING_END' event: No active reasoning span found with ID '" + id + "'. A 'REASONING_START' event must be sent first."
			}
			return "Cannot send '" + t + "' event: No active reasoning message found with ID '" + id + "'. Start a reasoning message with 'REASONING_MESSAGE_START' first."
		}
		if msg := v.agree(ev, ownReasoning, "reasoning message", id); msg != "" {
			return msg
		}
		if ev.Type != ReasoningMessageContent {
			delete(open, id)
		}
	case ReasoningEncryptedValue:
		id := ev.EntityID
		switch ev.Subtype {
		case "tool-call":
			return v.agree(ev, ownToolCall, "tool call", id)
		case "message":
			if _, ok := v.owners[ownMessage][id]; ok {
				return v.agree(ev, ownMessage, "message", id)
			}
			return v.agree(ev, ownReasoning, "message", id)
		}
		return v.agree(ev, ownReasoning, "reasoning message", id)
	case SubagentStarted:
		id := ev.SubagentRunID
		if _, active := v.subagents[id]; active {
			return "Cannot send 'SUBAGENT_STARTED': subagent '" + id + "' is already active. Finish it with 'SUBAGENT_FINISHED' first."
		}
		if v.closedSubagents[id] {
			return "Cannot send 'SUBAGENT_STARTED': subagent '" + id + "' has already finished in this run. Subagent IDs are per-invocation and cannot be reused."
		}
		if p := ev.ParentSubagentRunID; ev.hasParentSubagent {
			if _, active := v.subagents[p]; !active && !v.closedSubagents[p] && !v.pastSubagents[p] {
				return "Cannot send 'SUBAGENT_STARTED': parentSubagentRunId '" + p + "' has not been started in this run."
			}
		}
		v.add(v.subagents, id)
	case SubagentFinished, SubagentError:
		id := ev.SubagentRunID
		if _, active := v.subagents[id]; !active {
			return "Cannot send '" + t + "': no active subagent found with ID '" + id + "'. A 'SUBAGENT_STARTED' event must be sent first."
		}
		delete(v.subagents, id)
		v.closedSubagents[id] = true
	case MessagesSnapshot:
		v.seed(ev.Messages, true)
	case RunStarted:
		v.started = true
		if ev.Input != nil {
			mv, _ := ev.Input.Get("messages")
			list, _ := mv.(*jsontree.Array)
			v.seed(list, false)
		}
	case RunFinished:
		// The run is over whatever is left open: the reducer applies the
		// event, and later events meet the finished run's rules.
		v.finished = true
		if len(v.steps) > 0 {
			return "Cannot send 'RUN_FINISHED' while steps are still active: " + v.openSteps()
		}
		for _, open := range [...]struct {
			set  map[string]int
			what string
		}{{v.messages, "text messages"}, {v.reasonings, "reasoning messages"}, {v.spans, "reasoning spans"}, {v.tools, "tool calls"}, {v.subagents, "subagents"}} {
			if len(open.set) > 0 {
				return "Cannot send 'RUN_FINISHED' while " + open.what + " are still active: " + inOrder(open.set)
			}
		}
	case RunError:
		v.errored = true
	}
	return ""
}

// toolStart checks a TOOL_CALL_START: not open, its tag agreeing with its
// parent message's owner and with the call's own, and an untagged reopen
// not moving the call to another owner's message.
func (v *verifier) toolStart(ev *Event) string {
	id := ev.ToolCallID
	if _, open := v.tools[id]; open {
		return "Cannot send 'TOOL_CALL_START' event: A tool call with ID '" + id + "' is already in progress. Complete it with 'TOOL_CALL_END' first."
	}
	tag := ownerOf(ev)
	p := ev.ParentMessageID
	var inherited owner
	hasParent := false
	if p != "" {
		if po, ok := v.owners[ownMessage][p]; ok {
			if tag.sub && tag != po {
				return "Cannot send 'TOOL_CALL_START': subagentRunId '" + tag.id + "' does not match its parent message '" + p + "' owner '" + po.String() + "'. A tool call belongs to the message that carries it."
			}
			inherited, hasParent = po, true
		}
	}
	existing, known := v.owners[ownToolCall][id]
	if known {
		if msg := v.agree(ev, ownToolCall, "tool call", id); msg != "" {
			return msg
		}
		if !tag.sub && hasParent && inherited != existing {
			return "Cannot send 'TOOL_CALL_START': tool call '" + id + "' is owned by '" + existing.String() + "' but its parent message '" + p + "' is owned by '" + inherited.String() + "'. A tool call belongs to the message that carries it."
		}
	}
	v.add(v.tools, id)
	if !known {
		if !tag.sub && hasParent {
			tag = inherited
		}
		v.owners[ownToolCall][id] = tag
	}
	return ""
}

// agree is the attribution rule: a tagged event must name the owner
// recorded for its entity; an untagged one, or an entity with no recorded
// owner, always agrees.
func (v *verifier) agree(ev *Event, bucket int, kind, id string) string {
	if !ev.HasSubagentRunID {
		return ""
	}
	o, ok := v.owners[bucket][id]
	if !ok || o == ownerOf(ev) {
		return ""
	}
	return "Cannot send '" + string(ev.Type) + "': subagentRunId '" + ev.SubagentRunID + "' does not match the " + kind + " '" + id + "' opener's subagent '" + o.String() + "'."
}

// claim records the first writer of an id as its owner.
func (v *verifier) claim(bucket int, id string, o owner) {
	if _, ok := v.owners[bucket][id]; !ok {
		v.owners[bucket][id] = o
	}
}

// seed records the owners of replayed messages (a MESSAGES_SNAPSHOT,
// authoritatively; RUN_STARTED's input, only for ids nobody claimed), and
// each message's tool calls under the message's owner.
func (v *verifier) seed(list *jsontree.Array, authoritative bool) {
	if list == nil {
		return
	}
	for _, e := range list.Elems {
		m, _ := e.(*jsontree.Object)
		if m == nil {
			continue
		}
		id, ok := stringField(m, "id")
		if !ok {
			continue
		}
		var o owner
		o.id, o.sub = stringField(m, "subagentRunId")
		bucket := ownMessage
		switch role, _ := stringField(m, "role"); role {
		case "reasoning":
			bucket = ownReasoning
		case "activity":
			bucket = ownActivity
		}
		if _, known := v.owners[bucket][id]; authoritative || !known {
			v.owners[bucket][id] = o
		}
		tcs, _ := m.Get("toolCalls")
		arr, _ := tcs.(*jsontree.Array)
		if arr == nil {
			continue
		}
		for _, tc := range arr.Elems {
			to, _ := tc.(*jsontree.Object)
			if to == nil {
				continue
			}
			if tid, ok := stringField(to, "id"); ok {
				if _, known := v.owners[ownToolCall][tid]; authoritative || !known {
					v.owners[ownToolCall][tid] = o
				}
			}
		}
	}
}

// nullChecks are the checks the official verifier makes before its type
// switch: no null subagentRunId (on the event, on a replayed message, on an
// interrupt), no null optional field on the SUBAGENT_* events, and a
// SUBAGENT_FINISHED outcome of a known type.
func nullChecks(ev *Event) string {
	t := string(ev.Type)
	omit := "'. The field is optional — omit it entirely."
	if ev.nulls&nullTag != 0 {
		return "Cannot send '" + t + "' with 'subagentRunId: null" + omit
	}
	for _, f := range [...]struct {
		bit  nullFields
		name string
	}{{nullDescription, "description"}, {nullParentSubagent, "parentSubagentRunId"}, {nullParentToolCall, "parentToolCallId"}, {nullParentMessage, "parentMessageId"}, {nullOutcome, "outcome"}, {nullCode, "code"}} {
		if ev.nulls&f.bit != 0 {
			return "Cannot send '" + t + "' with '" + f.name + ": null" + omit
		}
	}
	if ev.Type == SubagentFinished && ev.rare != nil && ev.rare.unknownOutcome != "" {
		return "Cannot send '" + t + "' with outcome type '" + ev.rare.unknownOutcome + "'. The outcome is either { type: \"success\" } or { type: \"suspended\" }."
	}
	var list *jsontree.Array
	switch ev.Type {
	case RunFinished:
		if ev.Outcome == nil {
			return ""
		}
		if ty, _ := stringField(ev.Outcome, "type"); ty != "interrupt" {
			return ""
		}
		is, _ := ev.Outcome.Get("interrupts")
		arr, _ := is.(*jsontree.Array)
		for _, e := range elems(arr) {
			if o, _ := e.(*jsontree.Object); o != nil && isNull(o, "subagentRunId") {
				id, _ := o.Get("id")
				return "Cannot send 'RUN_FINISHED' with an interrupt (id '" + jsText(id) + "') carrying 'subagentRunId: null" + omit
			}
		}
		return ""
	case MessagesSnapshot:
		list = ev.Messages
	case RunStarted:
		if ev.Input != nil {
			mv, _ := ev.Input.Get("messages")
			list, _ = mv.(*jsontree.Array)
		}
	}
	for _, e := range elems(list) {
		if o, _ := e.(*jsontree.Object); o != nil && isNull(o, "subagentRunId") {
			if id, ok := stringField(o, "id"); ok {
				return "Cannot send a message (id '" + id + "') with 'subagentRunId: null" + omit
			}
		}
	}
	return ""
}

func isNull(o *jsontree.Object, key string) bool {
	v, ok := o.Get(key)
	return ok && v == nil
}

func stringField(o *jsontree.Object, key string) (string, bool) {
	v, _ := o.Get(key)
	s, ok := v.(string)
	return s, ok
}

// jsText is how a template literal prints a JSON value the messages name.
func jsText(v jsontree.Value) string {
	switch x := v.(type) {
	case string:
		return x
	case nil:
		return "undefined"
	}
	return string(jsontree.AppendJSON(nil, v))
}

func agentName(o owner) string {
	if o.sub {
		return "subagent '" + o.id + "'"
	}
	return "the parent agent"
}

// openSteps lists the open steps in the official Map's order: by owner,
// then by name, each as first added.
func (v *verifier) openSteps() string {
	type entry struct {
		name  string
		order [2]int
	}
	out := make([]entry, 0, len(v.steps))
	for k, at := range v.steps {
		name := k.name
		if k.owner.sub {
			name += " (subagent '" + k.owner.id + "')"
		}
		out = append(out, entry{name, [2]int{v.stepOwners[k.owner], at}})
	}
	// An insertion sort: the lists are short, and sort.Slice would bring
	// its reflection into the wasm module.
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && (out[j].order[0] < out[j-1].order[0] || out[j].order[0] == out[j-1].order[0] && out[j].order[1] < out[j-1].order[1]); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	names := make([]string, len(out))
	for i, e := range out {
		names[i] = e.name
	}
	return strings.Join(names, ", ")
}

// inOrder lists an open set's ids in insertion order.
func inOrder(set map[string]int) string {
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && set[out[j]] < set[out[j-1]]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return strings.Join(out, ", ")
}

// rebuild makes the verifier's memory what the official one would hold
// after the events that made st: a restored reducer verifies the valid
// continuation of the run its snapshot was taken in without false
// violations. The state tells what is open (streaming messages, running
// tool calls, steps and subagents) and who owns what (subagentRunId tags);
// it does not tell which subagents already finished in the run, so their
// reuse is not reported, and a finished one may still be named as a parent;
// nor which reasoning spans are open, so REASONING_END is taken on trust.
func (v *verifier) rebuild(st *AgentState) {
	*v = verifier{}
	v.reset()
	if st.RunID == "" && st.Status == StatusIdle {
		return // no run yet: the first event must be RUN_STARTED
	}
	v.seenFirst = true
	switch st.Status {
	case StatusRunning:
		v.started = true
		// REASONING_START/END mark a span the state does not keep: an end
		// of one opened before the snapshot is taken on trust.
		v.spansUnknown = true
	case StatusError:
		v.errored = true
		return
	default:
		v.finished = true
		return
	}
	for _, m := range st.Messages {
		o := owner{m.SubagentRunID, m.HasSubagentRunID}
		switch {
		case m.Role == "activity":
			v.owners[ownActivity][m.ID] = o
		case m.isReasoningOnly():
			v.owners[ownReasoning][m.ID] = o
			if m.Streaming {
				v.add(v.reasonings, m.ID)
			}
		default:
			v.owners[ownMessage][m.ID] = o
			if m.Streaming {
				v.add(v.messages, m.ID)
			}
		}
	}
	for _, t := range st.ToolCalls {
		v.owners[ownToolCall][t.ID] = owner{t.SubagentRunID, t.HasSubagentRunID}
		if t.Status == ToolRunning {
			v.add(v.tools, t.ID)
		}
	}
	v.stepsFor(owner{})
	for _, s := range st.Steps {
		if s.Status == StepRunning {
			v.seq++
			v.steps[stepKey{owner{}, s.Name}] = v.seq
		}
	}
	for _, s := range st.Subagents {
		if s.Status == SubagentStatusRunning {
			v.add(v.subagents, s.ID)
		} else {
			v.pastSubagents[s.ID] = true
		}
	}
}
