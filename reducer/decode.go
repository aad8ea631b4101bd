package reducer

import (
	"github.com/agui-reducer/agui/reducer/jsontree"
)

// Error is a problem with one event or call: a stable machine-readable code
// and a human-readable message. Diagnostics carry the same pair.
type Error struct {
	Code    string
	Message string
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

// errorf is not inlined: it is called from a hundred cold error paths;
// inlined there (with Change.warn and Change.fail) it cost the wasm module
// 10 KB of brotli.
//
//go:noinline
func errorf(code, msg string) *Error { return &Error{Code: code, Message: msg} }

// DecodeOptions bound what a decoder accepts.
type DecodeOptions struct {
	MaxDepth int // maximum JSON nesting depth; 0 means the default of 512
}

// DecodeEvent parses one canonical AG-UI event from its JSON text. It applies
// the official parse-time normalisations (TEXT_MESSAGE_START role defaults to
// "assistant", ACTIVITY_SNAPSHOT replace defaults to true, parentMessageId
// null or "" and outcome null count as absent). A malformed event yields an
// *Error with code "bad_json" or "bad_event".
func DecodeEvent(data []byte, opt DecodeOptions) (Event, error) {
	depth := opt.MaxDepth
	if depth <= 0 {
		depth = defaultMaxDepth
	}
	v, err := jsontree.Parse(data, jsontree.ParseOptions{MaxDepth: depth})
	if err != nil {
		return Event{}, errorf("bad_json", "event is not valid JSON: "+err.Error())
	}
	obj, ok := v.(*jsontree.Object)
	if !ok {
		return Event{}, errorf("bad_event", "event is not a JSON object")
	}
	return DecodeEventObject(obj)
}

// DecodeEventObject reads an event from an already parsed JSON object.
func DecodeEventObject(obj *jsontree.Object) (Event, error) {
	d := fields{obj: obj}
	var ev Event
	ev.Type = EventType(d.str("type", true))
	if d.err != nil {
		return Event{}, d.err
	}
	d.typ = string(ev.Type)
	if ts, ok := obj.Get("timestamp"); ok && ts != nil {
		n, isNum := ts.(jsontree.Number)
		if !isNum {
			return Event{}, errorf("bad_event", d.typ+": timestamp must be a number")
		}
		f, ok := parseTimestamp(string(n))
		if !ok {
			return Event{}, errorf("bad_event", d.typ+": timestamp must be an integer within ±(2^53-1)")
		}
		ev.Timestamp, ev.HasTimestamp = f, true
	}
	ev.RawEvent, _ = obj.Get("rawEvent")
	ev.Metadata = d.metadata()
	switch ev.Type {
	case RunStarted, RunFinished, RunError, MessagesSnapshot:
		// Run-scoped: attribution lives on the messages inside.
	case SubagentStarted, SubagentFinished, SubagentError:
		ev.SubagentRunID = d.str("subagentRunId", true)
		ev.HasSubagentRunID = true
	default:
		ev.SubagentRunID, ev.HasSubagentRunID = d.optStr("subagentRunId")
	}
	if isNull(obj, "subagentRunId") {
		ev.nulls |= nullTag
	}

	switch ev.Type {
	case TextMessageStart:
		ev.MessageID = d.str("messageId", true)
		ev.Role = "assistant" // absent: the reducer's default, not the schema's
		if v, ok := obj.Get("role"); ok {
			ev.Role, _ = v.(string) // null and "" are not roles
		}
		switch ev.Role {
		case "assistant", "user", "system", "developer":
		default:
			d.fail("role must be one of developer, system, assistant, user")
		}
		ev.Name, ev.HasName = d.optStr("name")
	case TextMessageContent, ReasoningMessageContent:
		ev.MessageID = d.str("messageId", true)
		ev.Delta = d.str("delta", true)
		ev.HasDelta = true
	case TextMessageEnd, ReasoningStart, ReasoningEnd, ReasoningMessageEnd:
		ev.MessageID = d.str("messageId", true)
	case ReasoningMessageStart:
		ev.MessageID = d.str("messageId", true)
		// The 1.0 schema's literal: the official client rejects an
		// absent, empty or other role (docs/dialects.md).
		if v, _ := obj.Get("role"); v != "reasoning" {
			d.fail(`role must be "reasoning"`)
		}
		ev.Role = "reasoning"
	case TextMessageChunk, ReasoningMessageChunk:
		ev.MessageID, ev.HasMessageID = d.optStr("messageId")
		// 1.0's transform no longer repairs a falsy role or delta: a
		// present null or "" reaches the schema, which rejects it.
		if v, ok := obj.Get("role"); ok && ev.Type == TextMessageChunk {
			ev.Role, _ = v.(string)
			switch ev.Role {
			case "assistant", "user", "system", "developer":
			default:
				d.fail("role must be one of developer, system, assistant, user")
			}
		}
		ev.Name, ev.HasName = d.optStr("name")
		ev.Delta, ev.HasDelta = d.presentStr("delta")
	case ToolCallStart:
		ev.ToolCallID = d.str("toolCallId", true)
		ev.ToolCallName = d.str("toolCallName", true)
		ev.ParentMessageID, _ = d.optStr("parentMessageId")
	case ToolCallArgs:
		ev.ToolCallID = d.str("toolCallId", true)
		ev.Delta = d.str("delta", true)
		ev.HasDelta = true
	case ToolCallEnd:
		ev.ToolCallID = d.str("toolCallId", true)
	case ToolCallChunk:
		ev.ToolCallID, _ = d.optStr("toolCallId")
		ev.ToolCallName, _ = d.optStr("toolCallName")
		ev.ParentMessageID, _ = d.optStr("parentMessageId")
		ev.Delta, ev.HasDelta = d.optStr("delta")
	case ToolCallResult:
		ev.MessageID = d.str("messageId", true)
		ev.ToolCallID = d.str("toolCallId", true)
		ev.Content = d.toolContent()
		if r, ok := d.optStr("role"); ok && r != "tool" {
			d.fail(`role must be "tool"`)
		}
	case ThinkingStart:
		ev.Title, _ = d.optStr("title")
	case ThinkingTextMessageContent:
		ev.Delta = d.str("delta", true)
		ev.HasDelta = true
	case ThinkingEnd, ThinkingTextMessageStart, ThinkingTextMessageEnd:
	case StateSnapshot:
		v, ok := obj.Get("snapshot")
		if !ok {
			d.fail("snapshot is required")
		}
		ev.Snapshot = v
	case StateDelta:
		ev.Patch = d.patchOps("delta", d.array("delta", true))
	case MessagesSnapshot:
		ev.Messages = d.array("messages", true)
	case ActivitySnapshot:
		ev.MessageID = d.str("messageId", true)
		ev.ActivityType = d.str("activityType", true)
		c, ok := obj.Get("content")
		if _, isObj := c.(*jsontree.Object); !ok || !isObj {
			d.fail("content must be an object")
		}
		ev.Content = c
		ev.Replace = true
		if r, ok := obj.Get("replace"); ok && r != nil {
			b, isBool := r.(bool)
			if !isBool {
				d.fail("replace must be a boolean")
			}
			ev.Replace = b
		}
	case ActivityDelta:
		ev.MessageID = d.str("messageId", true)
		ev.ActivityType = d.str("activityType", true)
		if p := d.patchOps("patch", d.array("patch", false)); p != nil {
			ev.Patch = p
		}
	case Raw:
		var ok bool
		if ev.RawBody, ok = obj.Get("event"); !ok {
			d.fail("event is required")
		}
		ev.Source, _ = d.optStr("source")
	case Custom:
		ev.CustomName = d.str("name", true)
		ev.Value, ev.HasValue = obj.Get("value")
		if !ev.HasValue {
			d.fail("value is required")
		}
	case RunStarted:
		ev.ThreadID = d.str("threadId", true)
		ev.RunID = d.str("runId", true)
		ev.ParentRunID, _ = d.optStr("parentRunId")
		ev.ProtocolVersion, _ = d.optStr("protocolVersion")
		ev.Input = d.object("input")
		if ev.Input != nil {
			if m, ok := ev.Input.Get("messages"); ok && m != nil {
				if _, isArr := m.(*jsontree.Array); !isArr {
					d.fail("input.messages must be an array")
				}
			}
		}
	case RunFinished:
		ev.ThreadID, _ = d.optStr("threadId")
		ev.RunID, _ = d.optStr("runId")
		ev.Result, ev.HasResult = obj.Get("result")
		ev.Outcome = d.object("outcome")
		if ev.Outcome != nil {
			t, _ := ev.Outcome.Get("type")
			switch t {
			case "success":
				if l, ok := ev.Outcome.Get("pendingToolCallIds"); ok && !isStringArray(l) {
					d.fail("outcome.pendingToolCallIds must be an array of strings")
				}
			case "interrupt":
				if l, ok := ev.Outcome.Get("interrupts"); !ok {
					d.fail("outcome.interrupts is required")
				} else if _, isArr := l.(*jsontree.Array); !isArr {
					d.fail("outcome.interrupts must be an array")
				}
			case "cancelled":
			default:
				// 1.0 deletes an optional union member of unknown type:
				// the run reads as a success.
				ev.Outcome = nil
			}
		}
		ev.Usage = d.array("usage", false)
	case RunError:
		ev.Message = d.str("message", true)
		ev.Code, ev.HasCode = d.optStr("code")
		ev.Usage = d.array("usage", false)
	case StepStarted, StepFinished:
		ev.StepName = d.str("stepName", true)
	case SubagentStarted:
		ev.Name = d.str("name", true)
		ev.HasName = true
		ev.Description, ev.HasDescription = d.optStr("description")
		ev.ParentSubagentRunID, ev.hasParentSubagent = d.optStr("parentSubagentRunId")
		ev.ParentToolCallID, _ = d.optStr("parentToolCallId")
		ev.ParentMessageID, _ = d.optStr("parentMessageId")
		ev.nulls |= nullIf(obj, "description", nullDescription) | nullIf(obj, "parentSubagentRunId", nullParentSubagent) |
			nullIf(obj, "parentToolCallId", nullParentToolCall) | nullIf(obj, "parentMessageId", nullParentMessage)
	case SubagentFinished:
		ev.Result, ev.HasResult = obj.Get("result")
		if ev.HasResult && ev.Result == nil {
			ev.HasResult = false // the compatibility boundary drops result: null
		}
		ev.Outcome = d.object("outcome")
		ev.nulls |= nullIf(obj, "outcome", nullOutcome)
		if ev.Outcome != nil {
			switch t, _ := ev.Outcome.Get("type"); t {
			case "success":
			case "suspended":
				if l, ok := ev.Outcome.Get("interruptIds"); ok && !isStringArray(l) {
					d.fail("outcome.interruptIds must be an array of strings")
				}
			default:
				// An unknown member: deleted, read as success (strict
				// mode reports it, as the official verifier does).
				ev.rare = &eventRare{unknownOutcome: jsText(t)}
				ev.Outcome = nil
			}
		}
	case SubagentError:
		ev.Message = d.str("message", true)
		ev.Code, ev.HasCode = d.optStr("code")
		ev.nulls |= nullIf(obj, "code", nullCode)
	case ReasoningEncryptedValue:
		ev.Subtype = d.str("subtype", true)
		if ev.Subtype != "tool-call" && ev.Subtype != "message" {
			d.fail(`subtype must be "tool-call" or "message"`)
		}
		ev.EntityID = d.str("entityId", true)
		ev.EncryptedValue = d.str("encryptedValue", true)
	}
	if d.err != nil {
		return Event{}, d.err
	}
	if d.removed != nil {
		ev.rare = &eventRare{removed: d.removed}
	}
	return ev, nil
}

// nullIf is bit when o spells key null.
func nullIf(o *jsontree.Object, key string, bit nullFields) nullFields {
	if isNull(o, key) {
		return bit
	}
	return 0
}

// isStringArray reports whether v is an array of strings.
func isStringArray(v jsontree.Value) bool {
	a, ok := v.(*jsontree.Array)
	if !ok {
		return false
	}
	for _, e := range a.Elems {
		if _, isStr := e.(string); !isStr {
			return false
		}
	}
	return true
}

// toolContent reads TOOL_CALL_RESULT's content: a string, or (1.0) an
// array of content parts, each an object with a string type.
func (d *fields) toolContent() jsontree.Value {
	v, ok := d.obj.Get("content")
	switch v := v.(type) {
	case string:
		return v
	case *jsontree.Array:
		return d.contentParts("content", v)
	}
	if !ok || v == nil {
		d.fail("content is required")
	} else {
		d.fail("content must be a string or an array of content parts")
	}
	return nil
}

// fields reads typed fields from an event object, remembering the first
// problem so that decoding code stays linear.
type fields struct {
	obj     *jsontree.Object
	typ     string
	err     *Error
	removed []string // unknown array members dropped (schema.go)
}

func (d *fields) fail(msg string) {
	if d.err == nil {
		t := d.typ
		if t == "" {
			t = "event"
		}
		d.err = errorf("bad_event", t+": "+msg)
	}
}

// str reads a string field. Absent or null is an error when required.
func (d *fields) str(key string, required bool) string {
	v, ok := d.obj.Get(key)
	if !ok || v == nil {
		if required {
			d.fail(key + " is required")
		}
		return ""
	}
	s, isStr := v.(string)
	if !isStr {
		d.fail(key + " must be a string")
	}
	return s
}

// presentStr reads an optional string that may not be null.
func (d *fields) presentStr(key string) (string, bool) {
	v, ok := d.obj.Get(key)
	if !ok {
		return "", false
	}
	s, isStr := v.(string)
	if !isStr {
		d.fail(key + " must be a string")
		return "", false
	}
	return s, true
}

// optStr reads an optional string; null counts as absent.
func (d *fields) optStr(key string) (string, bool) {
	v, ok := d.obj.Get(key)
	if !ok || v == nil {
		return "", false
	}
	s, isStr := v.(string)
	if !isStr {
		d.fail(key + " must be a string")
		return "", false
	}
	return s, true
}

func (d *fields) array(key string, required bool) *jsontree.Array {
	v, ok := d.obj.Get(key)
	if !ok || v == nil {
		if required {
			d.fail(key + " is required")
		}
		return nil
	}
	a, isArr := v.(*jsontree.Array)
	if !isArr {
		d.fail(key + " must be an array")
	}
	return a
}

// object reads an optional object; null counts as absent.
func (d *fields) object(key string) *jsontree.Object {
	v, ok := d.obj.Get(key)
	if !ok || v == nil {
		return nil
	}
	o, isObj := v.(*jsontree.Object)
	if !isObj {
		d.fail(key + " must be an object")
	}
	return o
}

// metadata reads the base metadata field. An explicit null is rejected, as
// the official schema does.
func (d *fields) metadata() *jsontree.Object {
	v, ok := d.obj.Get("metadata")
	if !ok {
		return nil
	}
	o, isObj := v.(*jsontree.Object)
	if !isObj {
		d.fail("metadata must be an object")
		return nil
	}
	return o
}
