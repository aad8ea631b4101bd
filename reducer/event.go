package reducer

import "github.com/agui-reducer/agui/reducer/jsontree"

// EventType names an AG-UI event, as the "type" field spells it.
type EventType string

// The canonical AG-UI event types: the 31 of protocol 1.0, and the five
// THINKING_* types 1.0 removed, which runAgent's compatibility boundary still
// turns into reasoning messages.
const (
	TextMessageStart           EventType = "TEXT_MESSAGE_START"
	TextMessageContent         EventType = "TEXT_MESSAGE_CONTENT"
	TextMessageEnd             EventType = "TEXT_MESSAGE_END"
	TextMessageChunk           EventType = "TEXT_MESSAGE_CHUNK"
	ToolCallStart              EventType = "TOOL_CALL_START"
	ToolCallArgs               EventType = "TOOL_CALL_ARGS"
	ToolCallEnd                EventType = "TOOL_CALL_END"
	ToolCallChunk              EventType = "TOOL_CALL_CHUNK"
	ToolCallResult             EventType = "TOOL_CALL_RESULT"
	ThinkingStart              EventType = "THINKING_START"
	ThinkingEnd                EventType = "THINKING_END"
	ThinkingTextMessageStart   EventType = "THINKING_TEXT_MESSAGE_START"
	ThinkingTextMessageContent EventType = "THINKING_TEXT_MESSAGE_CONTENT"
	ThinkingTextMessageEnd     EventType = "THINKING_TEXT_MESSAGE_END"
	StateSnapshot              EventType = "STATE_SNAPSHOT"
	StateDelta                 EventType = "STATE_DELTA"
	MessagesSnapshot           EventType = "MESSAGES_SNAPSHOT"
	ActivitySnapshot           EventType = "ACTIVITY_SNAPSHOT"
	ActivityDelta              EventType = "ACTIVITY_DELTA"
	Raw                        EventType = "RAW"
	Custom                     EventType = "CUSTOM"
	RunStarted                 EventType = "RUN_STARTED"
	RunFinished                EventType = "RUN_FINISHED"
	RunError                   EventType = "RUN_ERROR"
	StepStarted                EventType = "STEP_STARTED"
	StepFinished               EventType = "STEP_FINISHED"
	ReasoningStart             EventType = "REASONING_START"
	ReasoningMessageStart      EventType = "REASONING_MESSAGE_START"
	ReasoningMessageContent    EventType = "REASONING_MESSAGE_CONTENT"
	ReasoningMessageEnd        EventType = "REASONING_MESSAGE_END"
	ReasoningMessageChunk      EventType = "REASONING_MESSAGE_CHUNK"
	ReasoningEnd               EventType = "REASONING_END"
	ReasoningEncryptedValue    EventType = "REASONING_ENCRYPTED_VALUE"
	SubagentStarted            EventType = "SUBAGENT_STARTED"
	SubagentFinished           EventType = "SUBAGENT_FINISHED"
	SubagentError              EventType = "SUBAGENT_ERROR"
)

// Event is one decoded AG-UI event. It is a flat union: only the fields of
// its Type are meaningful. Optional fields that may be absent carry a Has*
// flag where absence and the zero value differ.
type Event struct {
	// Events are not compared with ==: the comparison function the
	// compiler would write for so large a struct costs the WebAssembly
	// module 6 KB.
	_ [0]func()

	Type EventType

	// Base fields.
	Timestamp    float64 // milliseconds since the epoch
	HasTimestamp bool
	RawEvent     jsontree.Value
	Metadata     *jsontree.Object // nil when absent

	// SubagentRunID attributes the event to a subagent invocation (on the
	// SUBAGENT_* events it identifies the invocation). null counts as
	// absent, as the official reducer treats it.
	SubagentRunID    string
	HasSubagentRunID bool

	// Messages, reasoning, activity.
	MessageID    string
	HasMessageID bool // chunks: absent and "" differ
	Role         string
	Name         string
	HasName      bool
	Delta        string
	HasDelta     bool
	ActivityType string
	Replace      bool           // ACTIVITY_SNAPSHOT; defaults to true
	Content      jsontree.Value // TOOL_CALL_RESULT (string or content parts) or ACTIVITY_SNAPSHOT (object)
	Patch        jsontree.Value // STATE_DELTA delta / ACTIVITY_DELTA patch: an array of ops
	Messages     *jsontree.Array

	// Tool calls.
	ToolCallID      string
	ToolCallName    string
	ParentMessageID string // "" when absent, null or empty (official normalisation)

	// State.
	Snapshot jsontree.Value

	// Run lifecycle.
	ThreadID    string
	RunID       string
	ParentRunID string
	// ProtocolVersion is RUN_STARTED's producer protocol version.
	ProtocolVersion string
	Input           *jsontree.Object
	Result          jsontree.Value
	HasResult       bool
	Outcome         *jsontree.Object // nil when absent or null
	Usage           *jsontree.Array
	Message         string // RUN_ERROR
	Code            string // RUN_ERROR
	HasCode         bool

	// Steps, custom, raw.
	StepName   string
	CustomName string
	Value      jsontree.Value
	HasValue   bool
	RawBody    jsontree.Value // RAW "event"
	Source     string

	// REASONING_ENCRYPTED_VALUE.
	Subtype        string
	EntityID       string
	EncryptedValue string

	// THINKING_START.
	Title string

	// SUBAGENT_STARTED (Name holds its name, ParentMessageID its parent
	// message) and SUBAGENT_FINISHED (Result, Outcome).
	Description         string
	HasDescription      bool
	ParentSubagentRunID string
	ParentToolCallID    string

	// What the decoder saw that the fields above do not say.
	nulls             nullFields // optional fields spelled null, which strict mode reports
	hasParentSubagent bool       // SUBAGENT_STARTED: parentSubagentRunId present ("" is an id)
	rare              *eventRare // nil on nearly every event
}

// eventRare is what few events carry, kept out of Event so that every
// event does not grow by it.
type eventRare struct {
	removed        []string // unknown array members removed (schema.go), for warnings
	unknownOutcome string   // SUBAGENT_FINISHED: the type of an outcome deleted as unknown
}

// nullFields records which optional fields an event spelled null: the
// reducer reads them as absent, the official verifier rejects them.
type nullFields uint8

const (
	nullTag nullFields = 1 << iota // subagentRunId
	nullDescription
	nullParentSubagent
	nullParentToolCall
	nullParentMessage
	nullOutcome
	nullCode
)
