package reducer

import (
	"strconv"
	"unsafe"

	"github.com/agui-reducer/agui/reducer/jsontree"
	"github.com/agui-reducer/agui/reducer/toolschema"
)

// Run status values.
const (
	StatusIdle    = "idle"
	StatusRunning = "running"
	StatusError   = "error"
)

// Tool call status values.
const (
	ToolRunning  = "running"
	ToolComplete = "complete"
	ToolError    = "error"
)

// Step status values.
const (
	StepRunning = "running"
	StepDone    = "finished"
)

// AgentState is the folded state of one agent conversation. Its JSON form
// (AppendJSON) is the contract with JavaScript: field names are fixed.
// Treat it as read-only; the Reducer owns it.
type AgentState struct {
	ThreadID   string
	RunID      string
	Status     string
	IsLoading  bool
	Error      *RunErr
	Messages   []*Message
	ToolCalls  []*ToolCall
	State      jsontree.Value
	Steps      []Step
	Interrupts *jsontree.Array // pending interrupts, as sent
	Usage      *jsontree.Array // TokenUsage[] of the last RUN_FINISHED / RUN_ERROR
	Result     jsontree.Value
	HasResult  bool

	// Outcome is the class of the last RUN_FINISHED: "success",
	// "interrupt" or "cancelled" ("" before any).
	Outcome string
	// PendingToolCallIDs are the tool calls the last successful run left
	// for the client to run: the outcome's list when it sent a non-empty
	// one, else the calls the run started and no result answered.
	PendingToolCallIDs []string
	// RunToolCalls is the tally behind the next pendingToolCallIds; it is
	// in the state (and so in a snapshot) for a reducer restored mid-run.
	RunToolCalls RunTally
	// RunPatches counts the events of the open run that change the state
	// in a way the state cannot be compared with (state and activity
	// snapshots and patches, messages snapshots, encrypted values, legacy
	// thinking text): a reducer restored mid-run skips that many of them
	// when the run is resent from its start (catchup.go). Cleared when a
	// run starts or ends; its JSON key runPatches is absent while it is 0.
	RunPatches int
	// Subagents are the subagent invocations seen, in start order.
	Subagents []*Subagent
	// LastEventID is the SSE id of the last frame folded ("" when the
	// frames carried none): the cursor a reconnecting client sends as
	// Last-Event-ID (SetLastEventID, Stream).
	LastEventID string
}

// RunTally is what the open run did with tool calls: the calls it started
// (TOOL_CALL_START, replays included), in order, and those a
// TOOL_CALL_RESULT answered, in order. A RUN_FINISHED with no pending list
// of its own reports the started calls not answered. RUN_STARTED,
// RUN_FINISHED and RUN_ERROR clear it; its JSON key runToolCalls is absent
// while it is empty, so a snapshot without it is a snapshot of no tally.
type RunTally struct {
	Started, Answered []string
}

func (t *RunTally) empty() bool { return len(t.Started) == 0 && len(t.Answered) == 0 }

func (t *RunTally) appendJSON(dst []byte) []byte {
	dst = append(dst, `{"started":`...)
	dst = appendStrings(dst, t.Started)
	dst = append(dst, `,"answered":`...)
	dst = appendStrings(dst, t.Answered)
	return append(dst, '}')
}

// RunErr is the error of a failed run.
type RunErr struct {
	Message string
	Code    string
	HasCode bool

	// Recoverable says whether the client may retry, when the agent said
	// (an amendment, Amend; the streaming dialect's error events do).
	Recoverable    bool
	HasRecoverable bool
}

// Step is one STEP_STARTED / STEP_FINISHED pair of the current run.
type Step struct {
	Name   string
	Status string
}

// Content kinds of a message.
const (
	contentNone  = iota // never set (an assistant slot created for a tool call)
	contentText         // a string, built by appends
	contentValue        // InputContent[] or an activity object
)

// Message is one entry of the conversation.
type Message struct {
	ID   string
	Role string // user, assistant, system, developer, tool, activity
	Name string

	// SubagentRunID is the subagent the message is attributed to, copied
	// from the event that created it.
	SubagentRunID    string
	HasSubagentRunID bool

	contentKind  uint8
	text         []byte         // content while contentKind == contentText
	value        jsontree.Value // content while contentKind == contentValue
	hasName      bool
	hasReasoning bool
	reasoning    []byte

	ReasoningDurationMs  float64
	HasReasoningDuration bool
	Citations            *jsontree.Array // normalised citations, nil when none
	ToolCallIDs          []string        // assistant: owned tool calls, in order
	ToolCallID           string          // tool messages
	ErrorValue           jsontree.Value  // tool messages: error, if sent
	ActivityType         string
	EncryptedValue       string
	HasEncryptedValue    bool
	Metadata             *jsontree.Object
	Streaming            bool

	pos           int    // index in AgentState.Messages, kept in step
	charge        int64  // budget bytes: the size of activity content
	born          uint64 // epoch of creation (replay.go)
	paths         pathCache
	reasoningSlot bool // created as a reasoning message (exported as role "reasoning")
	rsTS, rsClock float64
	rsHasTS       bool
	rsHasClock    bool
}

// Content returns the message content: a string, or a jsontree value for
// structured user content and activity messages. A message that never had
// content returns "".
func (m *Message) Content() jsontree.Value {
	switch m.contentKind {
	case contentText:
		return string(m.text)
	case contentValue:
		return m.value
	}
	return ""
}

// Reasoning returns the reasoning text and whether the message has any.
func (m *Message) Reasoning() (string, bool) { return string(m.reasoning), m.hasReasoning }

// ToolCall is one tool invocation, tracked independently of messages.
type ToolCall struct {
	ID              string
	Name            string
	ParentMessageID string
	Status          string
	args            []byte // raw concatenated deltas
	Args            jsontree.Value
	Result          string // the result's text (text parts joined for content parts)
	HasResult       bool
	ResultContent   *jsontree.Array // the result's content parts, as sent; nil for a string
	ResultMessageID string
	// SubagentRunID is its assistant message's tag, shown on the call.
	SubagentRunID    string
	HasSubagentRunID bool
	ErrorValue       jsontree.Value
	EncryptedValue   string
	HasEncrypted     bool
	Metadata         *jsontree.Object

	// A call that waits for the user or the client shows it (an amendment, Amend;
	// the dialects send it): the approval request as sent ({id,
	// needsApproval}), and whether the client, not the agent, must run it.
	Approval   *jsontree.Object
	ClientSide bool

	// The validation of the arguments against the tool's parameters
	// schema (docs/tool-validation.md): ArgsStreaming, ArgsValid,
	// ArgsInvalid or ArgsUnchecked; the errors found (path, keyword,
	// message; at most 20); and, for a call with a schema, the arguments
	// that are valid so far (the top-level members of an object that are
	// complete and brought no error, and a string only its type constrains
	// as it streams), for a UI that renders from arguments while they
	// stream; nil for a call without a schema.
	ArgsStatus string
	ArgsErrors []toolschema.Error
	SafeArgs   jsontree.Value

	pos    int
	born   uint64 // epoch of creation (replay.go)
	paths  pathCache
	parser argsParser
	check  argsCheck
}

// ArgsText returns the raw concatenated argument deltas.
func (t *ToolCall) ArgsText() string { return string(t.args) }

func bytesString(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

func appendKey(dst []byte, first *bool, key string) []byte {
	if !*first {
		dst = append(dst, ',')
	}
	*first = false
	dst = append(dst, '"')
	dst = append(dst, key...)
	return append(dst, '"', ':')
}

// AppendJSON appends the state's JSON form.
func (s *AgentState) AppendJSON(dst []byte) []byte {
	dst = append(dst, `{"threadId":`...)
	dst = jsontree.AppendString(dst, s.ThreadID)
	dst = append(dst, `,"runId":`...)
	dst = jsontree.AppendString(dst, s.RunID)
	dst = append(dst, `,"status":`...)
	dst = jsontree.AppendString(dst, s.Status)
	dst = append(dst, `,"isLoading":`...)
	dst = strconv.AppendBool(dst, s.IsLoading)
	dst = append(dst, `,"error":`...)
	dst = s.Error.appendJSON(dst)
	dst = append(dst, `,"messages":[`...)
	for i, m := range s.Messages {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = m.AppendJSON(dst)
	}
	dst = append(dst, `],"toolCalls":[`...)
	for i, t := range s.ToolCalls {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = t.AppendJSON(dst)
	}
	dst = append(dst, `],"state":`...)
	dst = jsontree.AppendJSON(dst, s.State)
	dst = append(dst, `,"steps":`...)
	dst = appendSteps(dst, s.Steps)
	dst = append(dst, `,"interrupts":`...)
	dst = appendArrayOrEmpty(dst, s.Interrupts)
	dst = append(dst, `,"usage":`...)
	dst = appendArrayOrEmpty(dst, s.Usage)
	if s.HasResult {
		dst = append(dst, `,"result":`...)
		dst = jsontree.AppendJSON(dst, s.Result)
	}
	if s.Outcome != "" {
		dst = append(dst, `,"outcome":`...)
		dst = jsontree.AppendString(dst, s.Outcome)
	}
	dst = append(dst, `,"pendingToolCallIds":`...)
	dst = appendStrings(dst, s.PendingToolCallIDs)
	if !s.RunToolCalls.empty() {
		dst = append(dst, `,"runToolCalls":`...)
		dst = s.RunToolCalls.appendJSON(dst)
	}
	if s.RunPatches > 0 {
		dst = append(dst, `,"runPatches":`...)
		dst = strconv.AppendInt(dst, int64(s.RunPatches), 10)
	}
	dst = append(dst, `,"subagents":[`...)
	for i, sa := range s.Subagents {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = sa.appendJSON(dst)
	}
	dst = append(dst, ']')
	if s.LastEventID != "" {
		dst = append(dst, `,"lastEventId":`...)
		dst = jsontree.AppendString(dst, s.LastEventID)
	}
	return append(dst, '}')
}

func appendArrayOrEmpty(dst []byte, a *jsontree.Array) []byte {
	if a == nil {
		return append(dst, "[]"...)
	}
	return jsontree.AppendJSON(dst, a)
}

func (e *RunErr) appendJSON(dst []byte) []byte {
	if e == nil {
		return append(dst, "null"...)
	}
	dst = append(dst, `{"message":`...)
	dst = jsontree.AppendString(dst, e.Message)
	if e.HasCode {
		dst = append(dst, `,"code":`...)
		dst = jsontree.AppendString(dst, e.Code)
	}
	if e.HasRecoverable {
		dst = append(dst, `,"recoverable":`...)
		dst = strconv.AppendBool(dst, e.Recoverable)
	}
	return append(dst, '}')
}

func appendSteps(dst []byte, steps []Step) []byte {
	dst = append(dst, '[')
	for i, st := range steps {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = st.appendJSON(dst)
	}
	return append(dst, ']')
}

func (st Step) appendJSON(dst []byte) []byte {
	dst = append(dst, `{"name":`...)
	dst = jsontree.AppendString(dst, st.Name)
	dst = append(dst, `,"status":`...)
	dst = jsontree.AppendString(dst, st.Status)
	return append(dst, '}')
}

// AppendJSON appends the message's JSON form.
func (m *Message) AppendJSON(dst []byte) []byte {
	first := true
	dst = append(dst, '{')
	dst = appendKey(dst, &first, "id")
	dst = jsontree.AppendString(dst, m.ID)
	dst = appendKey(dst, &first, "role")
	dst = jsontree.AppendString(dst, m.Role)
	dst = appendKey(dst, &first, "content")
	dst = m.appendContent(dst)
	if m.hasName {
		dst = appendKey(dst, &first, "name")
		dst = jsontree.AppendString(dst, m.Name)
	}
	if m.HasSubagentRunID {
		dst = appendKey(dst, &first, "subagentRunId")
		dst = jsontree.AppendString(dst, m.SubagentRunID)
	}
	if m.hasReasoning {
		dst = appendKey(dst, &first, "reasoning")
		dst = jsontree.AppendString(dst, bytesString(m.reasoning))
	}
	if m.HasReasoningDuration {
		dst = appendKey(dst, &first, "reasoningDurationMs")
		dst = strconv.AppendFloat(dst, m.ReasoningDurationMs, 'f', -1, 64)
	}
	if m.Citations != nil {
		dst = appendKey(dst, &first, "citations")
		dst = jsontree.AppendJSON(dst, m.Citations)
	}
	if m.ToolCallIDs != nil {
		dst = appendKey(dst, &first, "toolCallIds")
		dst = appendStrings(dst, m.ToolCallIDs)
	}
	if m.Role == "tool" {
		dst = appendKey(dst, &first, "toolCallId")
		dst = jsontree.AppendString(dst, m.ToolCallID)
	}
	if m.ErrorValue != nil {
		dst = appendKey(dst, &first, "error")
		dst = jsontree.AppendJSON(dst, m.ErrorValue)
	}
	if m.Role == "activity" {
		dst = appendKey(dst, &first, "activityType")
		dst = jsontree.AppendString(dst, m.ActivityType)
	}
	if m.HasEncryptedValue {
		dst = appendKey(dst, &first, "encryptedValue")
		dst = jsontree.AppendString(dst, m.EncryptedValue)
	}
	if m.Metadata != nil {
		dst = appendKey(dst, &first, "metadata")
		dst = jsontree.AppendJSON(dst, m.Metadata)
	}
	dst = appendKey(dst, &first, "streaming")
	dst = strconv.AppendBool(dst, m.Streaming)
	return append(dst, '}')
}

func (m *Message) appendContent(dst []byte) []byte {
	switch m.contentKind {
	case contentText:
		return jsontree.AppendString(dst, bytesString(m.text))
	case contentValue:
		return jsontree.AppendJSON(dst, m.value)
	}
	return append(dst, `""`...)
}

func appendStrings(dst []byte, ss []string) []byte {
	dst = append(dst, '[')
	for i, s := range ss {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = jsontree.AppendString(dst, s)
	}
	return append(dst, ']')
}

// AppendJSON appends the tool call's JSON form.
func (t *ToolCall) AppendJSON(dst []byte) []byte {
	first := true
	dst = append(dst, '{')
	dst = appendKey(dst, &first, "id")
	dst = jsontree.AppendString(dst, t.ID)
	dst = appendKey(dst, &first, "name")
	dst = jsontree.AppendString(dst, t.Name)
	dst = appendKey(dst, &first, "parentMessageId")
	dst = jsontree.AppendString(dst, t.ParentMessageID)
	dst = appendKey(dst, &first, "status")
	dst = jsontree.AppendString(dst, t.Status)
	dst = appendKey(dst, &first, "argsText")
	dst = jsontree.AppendString(dst, bytesString(t.args))
	dst = appendKey(dst, &first, "args")
	dst = jsontree.AppendJSON(dst, t.liveArgs())
	if t.ArgsStatus != "" {
		dst = appendKey(dst, &first, "argsStatus")
		dst = jsontree.AppendString(dst, t.ArgsStatus)
	}
	if t.ArgsErrors != nil {
		dst = appendKey(dst, &first, "argsErrors")
		dst = appendArgsErrors(dst, t.ArgsErrors)
	}
	if t.SafeArgs != nil {
		dst = appendKey(dst, &first, "safeArgs")
		dst = jsontree.AppendJSON(dst, t.SafeArgs)
	}
	if t.HasResult {
		dst = appendKey(dst, &first, "result")
		dst = jsontree.AppendString(dst, t.Result)
		dst = appendKey(dst, &first, "resultMessageId")
		dst = jsontree.AppendString(dst, t.ResultMessageID)
	}
	if t.ResultContent != nil {
		dst = appendKey(dst, &first, "resultContent")
		dst = jsontree.AppendJSON(dst, t.ResultContent)
	}
	if t.HasSubagentRunID {
		dst = appendKey(dst, &first, "subagentRunId")
		dst = jsontree.AppendString(dst, t.SubagentRunID)
	}
	if t.ErrorValue != nil {
		dst = appendKey(dst, &first, "error")
		dst = jsontree.AppendJSON(dst, t.ErrorValue)
	}
	if t.HasEncrypted {
		dst = appendKey(dst, &first, "encryptedValue")
		dst = jsontree.AppendString(dst, t.EncryptedValue)
	}
	if t.Metadata != nil {
		dst = appendKey(dst, &first, "metadata")
		dst = jsontree.AppendJSON(dst, t.Metadata)
	}
	if t.Approval != nil {
		dst = appendKey(dst, &first, "approval")
		dst = jsontree.AppendJSON(dst, t.Approval)
	}
	if t.ClientSide {
		dst = appendKey(dst, &first, "clientSide")
		dst = append(dst, "true"...)
	}
	return append(dst, '}')
}
