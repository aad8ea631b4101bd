package reducer

import (
	"errors"
	"unicode/utf8"

	"github.com/agui-reducer/agui/reducer/jsontree"
)

// errNotHot stops a scan that met a member the hot path does not handle.
var errNotHot = errors.New("not a hot event")

// decodeHot decodes the per-token events (TEXT_MESSAGE_CONTENT,
// REASONING_MESSAGE_CONTENT, TOOL_CALL_ARGS) straight from the JSON text,
// without building a tree: they are nearly every event of a stream, and a
// provider's rawEvent payload is only validated, never materialised. It
// reports ok=false, and the caller takes the general path, for anything
// else (another type, an unexpected member, a malformed event). The
// subagentRunId is decoded only when needTag: the reducer's fold of a token
// never reads it, only an open chunk lane and strict mode do.
func decodeHot(data []byte, maxDepth int, needTag bool) (ev Event, ok bool) {
	var id, delta, meta, ts, tag []byte
	hasID, hasDelta := false, false
	err := jsontree.ScanObject(data, jsontree.ParseOptions{MaxDepth: maxDepth}, func(key, value []byte) error {
		switch string(key) {
		case "type":
			if jsontree.KindOf(value) != jsontree.KindString {
				return errNotHot
			}
			switch string(value) {
			case `"TEXT_MESSAGE_CONTENT"`:
				ev.Type = TextMessageContent
			case `"REASONING_MESSAGE_CONTENT"`:
				ev.Type = ReasoningMessageContent
			case `"TOOL_CALL_ARGS"`:
				ev.Type = ToolCallArgs
			default:
				return errNotHot
			}
		case "messageId", "toolCallId":
			if jsontree.KindOf(value) != jsontree.KindString || hasID {
				return errNotHot
			}
			id, hasID = value, true
			if key[0] == 't' {
				ev.ToolCallID = "\x00" // marks which key was present
			} else {
				ev.MessageID = "\x00"
			}
		case "delta":
			if jsontree.KindOf(value) != jsontree.KindString {
				return errNotHot
			}
			delta, hasDelta = value, true
		case "timestamp":
			ts = value
		case "metadata":
			meta = value
		case "rawEvent":
			// Validated by the scan; not needed by the reducer.
		case "subagentRunId":
			// Content never touches a message's tag, but the tag names the
			// chunk lane it closes and strict mode checks it; a bad value
			// takes the general path, which reports it.
			switch jsontree.KindOf(value) {
			case jsontree.KindString:
				tag = value
			case jsontree.KindNull:
				ev.nulls |= nullTag
			default:
				return errNotHot
			}
		default:
			return errNotHot
		}
		return nil
	})
	if err != nil || ev.Type == "" || !hasID || !hasDelta {
		return Event{}, false
	}
	// The id key must match the type.
	if (ev.Type == ToolCallArgs) != (ev.ToolCallID != "") {
		return Event{}, false
	}
	sid, err := jsontree.UnquoteString(id)
	if err != nil {
		return Event{}, false
	}
	if ev.Type == ToolCallArgs {
		ev.ToolCallID = sid
	} else {
		ev.MessageID = sid
	}
	if ev.Delta, err = jsontree.UnquoteString(delta); err != nil {
		return Event{}, false
	}
	if tag != nil && needTag {
		if ev.SubagentRunID, err = jsontree.UnquoteString(tag); err != nil {
			return Event{}, false
		}
		ev.HasSubagentRunID = true
	}
	ev.HasDelta = true
	if ts != nil && jsontree.KindOf(ts) != jsontree.KindNull {
		if jsontree.KindOf(ts) != jsontree.KindNumber {
			return Event{}, false
		}
		f, ok := parseTimestamp(string(ts))
		if !ok {
			return Event{}, false // the general path refuses it
		}
		ev.Timestamp, ev.HasTimestamp = f, true
	}
	if meta != nil {
		if jsontree.KindOf(meta) != jsontree.KindObject {
			return Event{}, false // the general path reports it
		}
		v, err := jsontree.Parse(meta, jsontree.ParseOptions{MaxDepth: maxDepth})
		if err != nil {
			return Event{}, false
		}
		ev.Metadata = v.(*jsontree.Object)
	}
	return ev, true
}

// The per-token events exactly as producers write them:
// {"type":"TEXT_MESSAGE_CONTENT","messageId":"…","delta":"…"} (or
// REASONING_MESSAGE_CONTENT), members in that order, no whitespace.
var (
	hotTextPrefix      = `{"type":"TEXT_MESSAGE_CONTENT","messageId":"`
	hotReasoningPrefix = `{"type":"REASONING_MESSAGE_CONTENT","messageId":"`
	hotDeltaKey        = `,"delta":`
)

// applyHotText folds a streamed text or reasoning token written in the
// exact layout above, into a message whose content (or reasoning) is
// already a string, without the general decoder: no tree, no Event, and no
// allocation but the delta's string. It is the same fold as textContent /
// reasoningContent; anything else (another layout, escapes in the id,
// invalid UTF-8, an unknown id, metadata, a size limit, an open chunk
// stream, a catch-up, strict mode) reports false and the caller takes
// the general path, which handles it.
func (r *Reducer) applyHotText(c *Change, data []byte) bool {
	if r.catching != nil || r.chunks.mode != chunkNone || r.opt.Strict {
		return false
	}
	var i int
	reasoning := false
	switch {
	case jsontree.HasPrefix(data, hotTextPrefix):
		i = len(hotTextPrefix)
	case jsontree.HasPrefix(data, hotReasoningPrefix):
		i, reasoning = len(hotReasoningPrefix), true
	default:
		return false
	}
	idEnd, idEsc, idHigh := jsontree.StringEnd(data, i)
	if idEnd < 0 || idEsc {
		return false
	}
	id := data[i:idEnd]
	if idHigh && !utf8.Valid(id) {
		return false
	}
	i = idEnd + 1
	if !jsontree.HasPrefix(data[i:], hotDeltaKey) || i+len(hotDeltaKey) >= len(data) || data[i+len(hotDeltaKey)] != '"' {
		return false
	}
	i += len(hotDeltaKey) + 1
	dEnd, dEsc, dHigh := jsontree.StringEnd(data, i)
	if dEnd < 0 || dEnd+2 != len(data) || data[dEnd+1] != '}' {
		return false
	}
	m := r.tokenMessage(id)
	if m == nil {
		return false
	}
	var delta string
	switch {
	case dEsc:
		var err error
		if delta, err = jsontree.UnquoteString(data[i-1 : dEnd+1]); err != nil {
			return false
		}
	case dHigh && !utf8.Valid(data[i:dEnd]):
		return false
	default:
		delta = string(data[i:dEnd])
	}
	return r.foldHotText(c, m, reasoning, delta)
}

// ApplyTextToken folds data as ApplyAppend does when it is a streamed
// text or reasoning token ({"type":"TEXT_MESSAGE_CONTENT" or
// "REASONING_MESSAGE_CONTENT","messageId":"…","delta":"…"}, members in that
// order, no whitespace, no escape in the id) that appends to a message's
// text, and reports true; else it changes nothing and reports false, and
// the caller folds data as usual. It is the fold nearly every event of a
// stream takes, for a host that checked the layout's start itself (the
// dialect Pipeline).
func (r *Reducer) ApplyTextToken(c *Change, data []byte) bool {
	return len(data) <= r.opt.MaxEventBytes && r.applyHotText(c, data)
}

// foldHotText appends delta to m's content (or reasoning) when it is
// already a string and stays within the field limit, as textContent /
// reasoningContent do; else it reports false and changes nothing.
func (r *Reducer) foldHotText(c *Change, m *Message, reasoning bool, delta string) bool {
	if reasoning {
		if !m.hasReasoning || len(m.reasoning)+len(delta) > r.opt.MaxFieldBytes {
			return false
		}
		r.touch(m)
		m.reasoning = appendJS(m.reasoning, delta)
		if delta != "" {
			c.appendText(reasoningPath(m), delta)
		}
		return true
	}
	if m.contentKind != contentText || len(m.text)+len(delta) > r.opt.MaxFieldBytes {
		return false
	}
	r.touch(m)
	m.text = appendJS(m.text, delta)
	if delta != "" {
		c.appendText(contentPath(m), delta)
	}
	return true
}
