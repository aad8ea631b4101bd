package reducer

import (
	"errors"
	"unicode/utf8"

	"github.com/agui-reducer/agui/reducer/jsontree"
)

// The events around the streamed tokens (run lifecycle, message and tool
// call starts and ends, tool results, custom events) are a dozen a turn,
// each a handful of string members, and the tokens that applyHotText does
// not take a few members more. decodeFlat decodes them from the JSON text
// in one scan: no tree but the values that are trees (metadata, rawEvent,
// a custom value, a run's result), each parsed alone. It takes only what
// decodeEventObject accepts, and decodes it the same way; anything else
// (another type, a member it does not know for the type, a repeated key,
// a value of another kind or spelling, a value the general decoder
// refuses) reports false, and the caller decodes the event the general
// way, which handles it.
//
// It is table-driven rather than a switch per type and member: under
// js/wasm every case costs module size, and a loop over a few short
// strings costs next to nothing.

// flatKey indexes the members decodeFlat knows: flatKeyNames names them.
type flatKey uint8

const (
	flatType flatKey = iota
	flatTimestamp
	flatMetadata
	flatRawEvent
	flatValue
	flatResult
	flatContent
	flatOutcome
	flatUsage
	// The members that hold a string (flatString).
	flatSubagent
	flatMessageID
	flatToolCallID
	flatToolCallName
	flatParentMessageID
	flatRole
	flatName
	flatThreadID
	flatRunID
	flatParentRunID
	flatProtocolVersion
	flatMessage
	flatCode
	flatDelta
	flatKeys
)

var flatKeyNames = [flatKeys]string{"type", "timestamp", "metadata", "rawEvent", "value", "result", "content", "outcome", "usage",
	"subagentRunId", "messageId", "toolCallId", "toolCallName", "parentMessageId", "role", "name", "threadId",
	"runId", "parentRunId", "protocolVersion", "message", "code", "delta"}

// flatString is the string field of ev that member k fills.
func (ev *Event) flatString(k flatKey) *string {
	return [...]*string{&ev.SubagentRunID, &ev.MessageID, &ev.ToolCallID, &ev.ToolCallName, &ev.ParentMessageID,
		&ev.Role, &ev.Name, &ev.ThreadID, &ev.RunID, &ev.ParentRunID, &ev.ProtocolVersion, &ev.Message, &ev.Code, &ev.Delta}[k-flatSubagent]
}

// The members every flat event may have; subagentRunId is read on every
// type but the run's, which only note it null.
const flatBase = 1<<flatType | 1<<flatTimestamp | 1<<flatMetadata | 1<<flatRawEvent | 1<<flatSubagent

// A flatSpec is a type decodeFlat decodes: the members it requires (a
// string each, null not allowed) and may have (optional strings: null
// counts as absent; for value, result and content: any value).
type flatSpec struct {
	raw           string // the type member's JSON text
	typ           EventType
	required, opt uint32
	check         flatCheck
}

// flatCheck names what a type's event needs checked or done beyond its
// members' kinds (a switch on it is cheaper than on EventType's strings).
type flatCheck uint8

const (
	flatNoCheck flatCheck = iota
	flatRun               // RUN_*: subagentRunId is only noted null
	flatRunError
	flatText      // TEXT_MESSAGE_START: role and name
	flatReasoning // REASONING_MESSAGE_START: role "reasoning"
	flatTool      // TOOL_CALL_RESULT: role "tool"
	flatCustom    // CUSTOM: name is CustomName
	flatToken     // a streamed token: delta
)

var flatSpecs = [...]flatSpec{
	{`"RUN_STARTED"`, RunStarted, 1<<flatThreadID | 1<<flatRunID, 1<<flatParentRunID | 1<<flatProtocolVersion, flatRun},
	{`"RUN_FINISHED"`, RunFinished, 0, 1<<flatThreadID | 1<<flatRunID | 1<<flatResult | 1<<flatOutcome | 1<<flatUsage, flatRun},
	{`"RUN_ERROR"`, RunError, 1 << flatMessage, 1<<flatCode | 1<<flatUsage, flatRunError},
	{`"TEXT_MESSAGE_START"`, TextMessageStart, 1 << flatMessageID, 1<<flatRole | 1<<flatName, flatText},
	{`"TEXT_MESSAGE_END"`, TextMessageEnd, 1 << flatMessageID, 0, flatNoCheck},
	{`"REASONING_START"`, ReasoningStart, 1 << flatMessageID, 0, flatNoCheck},
	{`"REASONING_END"`, ReasoningEnd, 1 << flatMessageID, 0, flatNoCheck},
	{`"REASONING_MESSAGE_START"`, ReasoningMessageStart, 1<<flatMessageID | 1<<flatRole, 0, flatReasoning},
	{`"REASONING_MESSAGE_END"`, ReasoningMessageEnd, 1 << flatMessageID, 0, flatNoCheck},
	{`"TOOL_CALL_START"`, ToolCallStart, 1<<flatToolCallID | 1<<flatToolCallName, 1 << flatParentMessageID, flatNoCheck},
	{`"TOOL_CALL_END"`, ToolCallEnd, 1 << flatToolCallID, 0, flatNoCheck},
	{`"TOOL_CALL_RESULT"`, ToolCallResult, 1<<flatMessageID | 1<<flatToolCallID | 1<<flatContent, 1 << flatRole, flatTool},
	{`"CUSTOM"`, Custom, 1<<flatName | 1<<flatValue, 0, flatCustom},
	// The streamed tokens not in the layout applyHotText takes.
	{`"TEXT_MESSAGE_CONTENT"`, TextMessageContent, 1<<flatMessageID | 1<<flatDelta, 0, flatToken},
	{`"REASONING_MESSAGE_CONTENT"`, ReasoningMessageContent, 1<<flatMessageID | 1<<flatDelta, 0, flatToken},
	{`"TOOL_CALL_ARGS"`, ToolCallArgs, 1<<flatToolCallID | 1<<flatDelta, 0, flatToken},
}

var errNotFlat = errors.New("not a flat event")

// flatMembers are the raw values of an event's members, by flatKey.
type flatMembers struct {
	raw  [flatKeys][]byte
	kind [flatKeys]jsontree.Kind // KindInvalid: absent
	seen uint32
	spec *flatSpec
}

// scan gathers data's members; it fails on a type decodeFlat does not
// decode, a member it does not know, or a repeated one.
func (m *flatMembers) scan(data []byte, maxDepth int) bool {
	err := jsontree.ScanObject(data, jsontree.ParseOptions{MaxDepth: maxDepth}, func(key, value []byte) error {
		// A name's length and first byte rule out nearly every other
		// name before a comparison (a call under js/wasm).
		k := flatKey(0)
		for ; k < flatKeys; k++ {
			if n := flatKeyNames[k]; len(n) == len(key) && n[0] == key[0] && n == string(key) {
				break
			}
		}
		if k == flatKeys || m.seen&(1<<k) != 0 {
			return errNotFlat
		}
		if k == flatType {
			for i := range flatSpecs {
				if r := flatSpecs[i].raw; len(r) == len(value) && r[1] == value[1] && r == string(value) {
					m.spec = &flatSpecs[i]
					break
				}
			}
			if m.spec == nil {
				return errNotFlat // stop early: the general path takes it
			}
		}
		m.seen |= 1 << k
		m.raw[k], m.kind[k] = value, jsontree.KindOf(value)
		return nil
	})
	return err == nil && m.spec != nil
}

// decodeFlat decodes data into *ev, which must be zero, when it is an event
// of a type flatSpecs lists with only its members, and decodeEventObject
// would decode it to the same Event without a problem; else it reports
// false, *ev holding part of the event. The values that are trees are
// parsed with p's memory (nil: none).
func decodeFlat(ev *Event, p *jsontree.Parser, data []byte, maxDepth int) bool {
	var m flatMembers
	if !m.scan(data, maxDepth) {
		return false
	}
	spec := m.spec
	run := spec.check == flatRun || spec.check == flatRunError
	opt := spec.opt
	if !run {
		opt |= 1 << flatSubagent
	}
	if m.seen&^(flatBase|spec.required|opt) != 0 || m.seen&spec.required != spec.required {
		return false
	}
	ev.Type = spec.typ
	switch m.kind[flatTimestamp] {
	case jsontree.KindInvalid, jsontree.KindNull:
	case jsontree.KindNumber:
		if ev.Timestamp, ev.HasTimestamp = parseTimestamp(string(m.raw[flatTimestamp])); !ev.HasTimestamp {
			return false
		}
	default:
		return false
	}
	if m.kind[flatSubagent] == jsontree.KindNull {
		ev.nulls |= nullTag
	}
	if k := m.kind[flatMetadata]; k != jsontree.KindInvalid && k != jsontree.KindObject {
		return false // null too: the general decoder refuses it
	}
	// Strings: required ones must be strings, optional ones strings or
	// null (absent).
	for k := flatSubagent; k < flatKeys; k++ {
		if spec.required&(1<<k) == 0 && (opt&(1<<k) == 0 || m.kind[k] <= jsontree.KindNull) {
			continue
		}
		s, ok := flatUnquote(m.raw[k], m.kind[k])
		if !ok {
			return false
		}
		*ev.flatString(k) = s
	}
	// Trees and values, parsed alone.
	for _, k := range [...]flatKey{flatRawEvent, flatMetadata, flatValue, flatResult, flatContent, flatOutcome, flatUsage} {
		if m.kind[k] == jsontree.KindInvalid {
			continue
		}
		v, ok := flatValueOf(p, m.raw[k], m.kind[k], maxDepth)
		if !ok {
			return false
		}
		switch k {
		case flatRawEvent:
			ev.RawEvent = v
		case flatMetadata:
			ev.Metadata = v.(*jsontree.Object)
		case flatValue:
			ev.Value, ev.HasValue = v, true
		case flatResult:
			ev.Result, ev.HasResult = v, true
		case flatContent:
			if m.kind[k] != jsontree.KindString {
				return false // content parts: the general path
			}
			ev.Content = v
		case flatOutcome:
			if v != nil && !flatOutcomeOf(ev, v) {
				return false
			}
		default: // usage
			a, isArr := v.(*jsontree.Array)
			if v != nil && !isArr {
				return false
			}
			ev.Usage = a
		}
	}
	ev.HasSubagentRunID = !run && m.kind[flatSubagent] > jsontree.KindNull
	switch spec.check {
	case flatRunError:
		ev.HasCode = m.kind[flatCode] > jsontree.KindNull
	case flatText:
		ev.HasName = m.kind[flatName] > jsontree.KindNull
		if m.kind[flatRole] == jsontree.KindInvalid {
			ev.Role = "assistant"
		}
		return messageRole(ev.Role) // null and "" are not roles
	case flatReasoning:
		return string(m.raw[flatRole]) == `"reasoning"`
	case flatTool:
		ev.Role = "" // checked, not kept
		return m.kind[flatRole] <= jsontree.KindNull || string(m.raw[flatRole]) == `"tool"`
	case flatCustom:
		ev.CustomName, ev.Name = ev.Name, ""
	case flatToken:
		ev.HasDelta = true
	}
	return true
}

// flatOutcomeOf sets RUN_FINISHED's outcome v, a success or an interrupt,
// when the general decoder takes it as it is.
func flatOutcomeOf(ev *Event, v jsontree.Value) bool {
	o, _ := v.(*jsontree.Object)
	if o == nil {
		return false
	}
	t, _ := objGet(o, "type")
	switch typ, _ := t.(string); typ {
	case "success":
		if l, has := objGet(o, "pendingToolCallIds"); has && !isStringArray(l) {
			return false
		}
	case "interrupt":
		l, _ := objGet(o, "interrupts")
		if _, isArr := l.(*jsontree.Array); !isArr {
			return false
		}
	default:
		// A cancelled run, which the translator does not note, and an
		// outcome the general decoder deletes: the general path.
		return false
	}
	ev.Outcome = o
	return true
}

// objGet is o.Get, not inlined: the decoders call it in some thirty places,
// where inlined it cost the WebAssembly module some 10 KB.
//
//go:noinline
func objGet(o *jsontree.Object, key string) (jsontree.Value, bool) { return o.Get(key) }

// messageRole reports whether role is one a text message may have.
//
//go:noinline
func messageRole(role string) bool {
	switch role {
	case "assistant", "user", "system", "developer":
		return true
	}
	return false
}

// flatUnquote decodes a string member's raw text, of kind k.
//
//go:noinline
func flatUnquote(raw []byte, k jsontree.Kind) (string, bool) {
	if k != jsontree.KindString {
		return "", false
	}
	// raw is a string the scan validated: most need no decoding, and one
	// pass tells (UnquoteString would validate it again).
	end, escaped, high := jsontree.StringEnd(raw, 1)
	if end == len(raw)-1 && !escaped && (!high || utf8.Valid(raw[1:end])) {
		return string(raw[1:end]), true
	}
	s, err := jsontree.UnquoteString(raw)
	return s, err == nil
}

// flatValueOf decodes a member holding any JSON value, of kind k (nil for
// null).
func flatValueOf(p *jsontree.Parser, raw []byte, k jsontree.Kind, maxDepth int) (jsontree.Value, bool) {
	switch k {
	case jsontree.KindNull:
		return nil, true
	case jsontree.KindString:
		return flatUnquote(raw, k)
	}
	opt := jsontree.ParseOptions{MaxDepth: maxDepth}
	var v jsontree.Value
	var err error
	if p != nil {
		v, err = p.Parse(raw, opt)
	} else {
		v, err = jsontree.Parse(raw, opt)
	}
	return v, err == nil
}
