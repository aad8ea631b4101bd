package reducer

import (
	"errors"
	"strconv"

	"github.com/agui-reducer/agui/reducer/jsontree"
)

// errNotHot stops a scan that met a member the hot path does not handle.
var errNotHot = errors.New("not a hot event")

// decodeHot decodes the per-token events (TEXT_MESSAGE_CONTENT,
// REASONING_MESSAGE_CONTENT, TOOL_CALL_ARGS) straight from the JSON text,
// without building a tree: they are nearly every event of a stream, and a
// provider's rawEvent payload is only validated, never materialised. It
// reports ok=false, and the caller takes the general path, for anything
// else (another type, an unexpected member, a malformed event).
func decodeHot(data []byte, maxDepth int) (ev Event, ok bool) {
	var id, delta, meta, ts []byte
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
	ev.HasDelta = true
	if ts != nil && jsontree.KindOf(ts) != jsontree.KindNull {
		if jsontree.KindOf(ts) != jsontree.KindNumber {
			return Event{}, false
		}
		if f, err := strconv.ParseFloat(string(ts), 64); err == nil {
			ev.Timestamp, ev.HasTimestamp = f, true
		}
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
