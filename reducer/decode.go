package reducer

import (
	"github.com/agui-reducer/agui/reducer/eventjson"
	"github.com/agui-reducer/agui/reducer/jsontree"
)

// Error is a problem with one event or call: a stable machine-readable code
// and a human-readable message. Diagnostics carry the same pair. It is the
// event decoder's (package eventjson), so that a problem the decoder finds
// needs no copy.
type Error = eventjson.Error

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
	obj, err := eventjson.ParseObject(data, opt.MaxDepth)
	if err != nil {
		return Event{}, err
	}
	return DecodeEventObject(obj)
}

// decodeEventInto is DecodeEvent into *ev, which must be zero, parsing
// with p (see decodeEventObject).
func decodeEventInto(ev *Event, p *jsontree.Parser, data []byte, maxDepth int) error {
	obj, err := eventjson.ParseObjectWith(p, data, maxDepth)
	if err != nil {
		return err
	}
	return decodeEventObject(ev, obj)
}

// DecodeEventObject reads an event from an already parsed JSON object.
func DecodeEventObject(obj *jsontree.Object) (Event, error) {
	var ev Event
	if err := decodeEventObject(&ev, obj); err != nil {
		return Event{}, err
	}
	return ev, nil
}

// decodeEventObject is DecodeEventObject into *ev, which must be zero: a
// Reducer decodes into the Event it keeps (an Event is some 700 bytes). On
// failure *ev holds part of the event.
func decodeEventObject(ev *Event, obj *jsontree.Object) error {
	d := fieldsOf(obj, "")
	ev.Type = EventType(d.Str("type", true))
	if d.Err != nil {
		return d.Err
	}
	d.Type = string(ev.Type)
	if ts, ok := objGet(obj, "timestamp"); ok && ts != nil {
		n, isNum := ts.(jsontree.Number)
		if !isNum {
			return errorf("bad_event", d.Type+": timestamp must be a number")
		}
		f, ok := parseTimestamp(string(n))
		if !ok {
			return errorf("bad_event", d.Type+": timestamp must be an integer within ±(2^53-1)")
		}
		ev.Timestamp, ev.HasTimestamp = f, true
	}
	ev.RawEvent, _ = objGet(obj, "rawEvent")
	ev.Metadata = d.Metadata()
	switch ev.Type {
	case RunStarted, RunFinished, RunError, MessagesSnapshot:
		// Run-scoped: attribution lives on the messages inside.
	case SubagentStarted, SubagentFinished, SubagentError:
		ev.SubagentRunID = d.Str("subagentRunId", true)
		ev.HasSubagentRunID = true
	default:
		ev.SubagentRunID, ev.HasSubagentRunID = d.OptStr("subagentRunId")
	}
	if isNull(obj, "subagentRunId") {
		ev.nulls |= nullTag
	}

	switch ev.Type {
	case TextMessageStart:
		ev.MessageID = d.Str("messageId", true)
		ev.Role = "assistant" // absent: the reducer's default, not the schema's
		if v, ok := objGet(obj, "role"); ok {
			ev.Role, _ = v.(string) // null and "" are not roles
		}
		if !messageRole(ev.Role) {
			d.Fail("role must be one of developer, system, assistant, user")
		}
		ev.Name, ev.HasName = d.OptStr("name")
	case TextMessageContent, ReasoningMessageContent:
		ev.MessageID = d.Str("messageId", true)
		ev.Delta = d.Str("delta", true)
		ev.HasDelta = true
	case TextMessageEnd, ReasoningStart, ReasoningEnd, ReasoningMessageEnd:
		ev.MessageID = d.Str("messageId", true)
	case ReasoningMessageStart:
		ev.MessageID = d.Str("messageId", true)
		// The 1.0 schema's literal: the official client rejects an
		// absent, empty or other role (docs/dialects.md).
		if v, _ := objGet(obj, "role"); v != "reasoning" {
			d.Fail(`role must be "reasoning"`)
		}
		ev.Role = "reasoning"
	case TextMessageChunk, ReasoningMessageChunk:
		ev.MessageID, ev.HasMessageID = d.OptStr("messageId")
		// 1.0's transform no longer repairs a falsy role or delta: a
		// present null or "" reaches the schema, which rejects it.
		if v, ok := objGet(obj, "role"); ok && ev.Type == TextMessageChunk {
			ev.Role, _ = v.(string)
			if !messageRole(ev.Role) {
				d.Fail("role must be one of developer, system, assistant, user")
			}
		}
		ev.Name, ev.HasName = d.OptStr("name")
		ev.Delta, ev.HasDelta = d.PresentStr("delta")
	case ToolCallStart:
		ev.ToolCallID = d.Str("toolCallId", true)
		ev.ToolCallName = d.Str("toolCallName", true)
		ev.ParentMessageID, _ = d.OptStr("parentMessageId")
	case ToolCallArgs:
		ev.ToolCallID = d.Str("toolCallId", true)
		ev.Delta = d.Str("delta", true)
		ev.HasDelta = true
	case ToolCallEnd:
		ev.ToolCallID = d.Str("toolCallId", true)
	case ToolCallChunk:
		ev.ToolCallID, _ = d.OptStr("toolCallId")
		ev.ToolCallName, _ = d.OptStr("toolCallName")
		ev.ParentMessageID, _ = d.OptStr("parentMessageId")
		ev.Delta, ev.HasDelta = d.OptStr("delta")
	case ToolCallResult:
		ev.MessageID = d.Str("messageId", true)
		ev.ToolCallID = d.Str("toolCallId", true)
		ev.Content = d.toolContent()
		if r, ok := d.OptStr("role"); ok && r != "tool" {
			d.Fail(`role must be "tool"`)
		}
	case ThinkingStart:
		ev.Title, _ = d.OptStr("title")
	case ThinkingTextMessageContent:
		ev.Delta = d.Str("delta", true)
		ev.HasDelta = true
	case ThinkingEnd, ThinkingTextMessageStart, ThinkingTextMessageEnd:
	case StateSnapshot:
		v, ok := objGet(obj, "snapshot")
		if !ok {
			d.Fail("snapshot is required")
		}
		ev.Snapshot = v
	case StateDelta:
		ev.Patch = d.patchOps("delta", d.Array("delta", true))
	case MessagesSnapshot:
		ev.Messages = d.Array("messages", true)
	case ActivitySnapshot:
		ev.MessageID = d.Str("messageId", true)
		ev.ActivityType = d.Str("activityType", true)
		c, ok := objGet(obj, "content")
		if _, isObj := c.(*jsontree.Object); !ok || !isObj {
			d.Fail("content must be an object")
		}
		ev.Content = c
		ev.Replace = true
		if r, ok := objGet(obj, "replace"); ok && r != nil {
			b, isBool := r.(bool)
			if !isBool {
				d.Fail("replace must be a boolean")
			}
			ev.Replace = b
		}
	case ActivityDelta:
		ev.MessageID = d.Str("messageId", true)
		ev.ActivityType = d.Str("activityType", true)
		if p := d.patchOps("patch", d.Array("patch", false)); p != nil {
			ev.Patch = p
		}
	case Raw:
		var ok bool
		if ev.RawBody, ok = objGet(obj, "event"); !ok {
			d.Fail("event is required")
		}
		ev.Source, _ = d.OptStr("source")
	case Custom:
		ev.CustomName = d.Str("name", true)
		ev.Value, ev.HasValue = objGet(obj, "value")
		if !ev.HasValue {
			d.Fail("value is required")
		}
	case RunStarted:
		ev.ThreadID = d.Str("threadId", true)
		ev.RunID = d.Str("runId", true)
		ev.ParentRunID, _ = d.OptStr("parentRunId")
		ev.ProtocolVersion, _ = d.OptStr("protocolVersion")
		ev.Input = d.Object("input")
		if ev.Input != nil {
			if m, ok := objGet(ev.Input, "messages"); ok && m != nil {
				if _, isArr := m.(*jsontree.Array); !isArr {
					d.Fail("input.messages must be an array")
				}
			}
		}
	case RunFinished:
		ev.ThreadID, _ = d.OptStr("threadId")
		ev.RunID, _ = d.OptStr("runId")
		ev.Result, ev.HasResult = objGet(obj, "result")
		ev.Outcome = d.Object("outcome")
		if ev.Outcome != nil {
			t, _ := objGet(ev.Outcome, "type")
			switch t {
			case "success":
				if l, ok := objGet(ev.Outcome, "pendingToolCallIds"); ok && !isStringArray(l) {
					d.Fail("outcome.pendingToolCallIds must be an array of strings")
				}
			case "interrupt":
				if l, ok := objGet(ev.Outcome, "interrupts"); !ok {
					d.Fail("outcome.interrupts is required")
				} else if _, isArr := l.(*jsontree.Array); !isArr {
					d.Fail("outcome.interrupts must be an array")
				}
			case "cancelled":
			default:
				// 1.0 deletes an optional union member of unknown type:
				// the run reads as a success.
				ev.Outcome = nil
			}
		}
		ev.Usage = d.Array("usage", false)
	case RunError:
		ev.Message = d.Str("message", true)
		ev.Code, ev.HasCode = d.OptStr("code")
		ev.Usage = d.Array("usage", false)
	case StepStarted, StepFinished:
		ev.StepName = d.Str("stepName", true)
	case SubagentStarted:
		ev.Name = d.Str("name", true)
		ev.HasName = true
		ev.Description, ev.HasDescription = d.OptStr("description")
		ev.ParentSubagentRunID, ev.hasParentSubagent = d.OptStr("parentSubagentRunId")
		ev.ParentToolCallID, _ = d.OptStr("parentToolCallId")
		ev.ParentMessageID, _ = d.OptStr("parentMessageId")
		ev.nulls |= nullIf(obj, "description", nullDescription) | nullIf(obj, "parentSubagentRunId", nullParentSubagent) |
			nullIf(obj, "parentToolCallId", nullParentToolCall) | nullIf(obj, "parentMessageId", nullParentMessage)
	case SubagentFinished:
		ev.Result, ev.HasResult = objGet(obj, "result")
		if ev.HasResult && ev.Result == nil {
			ev.HasResult = false // the compatibility boundary drops result: null
		}
		ev.Outcome = d.Object("outcome")
		ev.nulls |= nullIf(obj, "outcome", nullOutcome)
		if ev.Outcome != nil {
			switch t, _ := objGet(ev.Outcome, "type"); t {
			case "success":
			case "suspended":
				if l, ok := objGet(ev.Outcome, "interruptIds"); ok && !isStringArray(l) {
					d.Fail("outcome.interruptIds must be an array of strings")
				}
			default:
				// An unknown member: deleted, read as success (strict
				// mode reports it, as the official verifier does).
				ev.rare = &eventRare{unknownOutcome: jsText(t)}
				ev.Outcome = nil
			}
		}
	case SubagentError:
		ev.Message = d.Str("message", true)
		ev.Code, ev.HasCode = d.OptStr("code")
		ev.nulls |= nullIf(obj, "code", nullCode)
	case ReasoningEncryptedValue:
		ev.Subtype = d.Str("subtype", true)
		if ev.Subtype != "tool-call" && ev.Subtype != "message" {
			d.Fail(`subtype must be "tool-call" or "message"`)
		}
		ev.EntityID = d.Str("entityId", true)
		ev.EncryptedValue = d.Str("encryptedValue", true)
	}
	if d.Err != nil {
		return d.Err
	}
	if d.removed != nil {
		ev.rare = &eventRare{removed: d.removed}
	}
	return nil
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
	v, ok := objGet(d.Obj, "content")
	switch v := v.(type) {
	case string:
		return v
	case *jsontree.Array:
		return d.contentParts("content", v)
	}
	if !ok || v == nil {
		d.Fail("content is required")
	} else {
		d.Fail("content must be a string or an array of content parts")
	}
	return nil
}

// fields reads an event object's members (eventjson.Fields), with what
// decoding dropped from it.
type fields struct {
	eventjson.Fields
	removed []string // unknown array members dropped (schema.go)
}

// fieldsOf reads the members of obj, what is named typ in messages.
func fieldsOf(obj *jsontree.Object, typ string) fields {
	return fields{Fields: eventjson.Fields{Obj: obj, Type: typ}}
}
