package reducer

import (
	"unicode/utf8"

	"github.com/agui-reducer/agui/reducer/jsontree"
)

// ApplyToken folds a streamed token given by its decoded fields: the event
// {"type": typ, "messageId": id, "delta": delta} (for ToolCallArgs,
// "toolCallId": id) with no other member, into c (not reset first, as
// ApplyAppend). typ is TextMessageContent, ReasoningMessageContent or
// ToolCallArgs; id and delta are UTF-8 text. The change is the one
// ApplyAppend makes of the event's JSON text: a host that holds the event
// decoded (the web module's drop-in agent) hands its fields over instead of
// writing JSON for the reducer to scan again. Anything that is not plain
// valid text, and an event whose JSON text could exceed MaxEventBytes, is
// folded from that JSON text (AppendToken).
func (r *Reducer) ApplyToken(c *Change, typ EventType, id, delta []byte) {
	if !TokenFits(typ, len(id), len(delta), r.opt.MaxEventBytes) || !utf8.Valid(id) || !utf8.Valid(delta) {
		r.ApplyAppend(c, AppendToken(nil, typ, id, delta))
		return
	}
	hot := r.catching == nil && r.chunks.mode == chunkNone && !r.opt.Strict
	// The lookups by string(id) do not allocate: only the delta is copied.
	if hot && typ != ToolCallArgs {
		if m := r.msgByID[string(id)]; m != nil && r.foldHotText(c, m, typ == ReasoningMessageContent, string(delta)) {
			return
		}
	}
	if hot && typ == ToolCallArgs {
		// No catch-up, chunk stream or strict check to pass: what
		// applyEvent would do is toolArgs, without metadata.
		if t := r.toolByID[string(id)]; t != nil {
			r.touchTool(t)
			r.argsDelta(c, t, string(delta))
			return
		}
	}
	// r.hot is zero between folds: only the token's fields are set, then
	// cleared (no handler writes the others; assigning the whole Event
	// costs a write barrier per pointer field while the collector runs).
	ev := &r.hot
	ev.Type, ev.Delta, ev.HasDelta = typ, string(delta), true
	if typ == ToolCallArgs {
		ev.ToolCallID = string(id)
	} else {
		ev.MessageID = string(id)
	}
	if hot && typ == ToolCallArgs {
		r.toolArgs(c, ev) // an unknown call: its diagnostic
	} else {
		r.applyEvent(c, ev)
	}
	ev.Type, ev.Delta, ev.HasDelta, ev.ToolCallID, ev.MessageID = "", "", false, "", ""
}

// TokenFits reports whether the JSON text of a token (AppendToken) whose
// id and delta have these lengths in bytes is at most limit bytes long,
// whatever they hold: escaping writes at most 6 bytes for one.
func TokenFits(typ EventType, idLen, deltaLen, limit int) bool {
	return len(`{"type":"","toolCallId":"","delta":""}`)+len(typ)+6*(idLen+deltaLen) <= limit
}

// AppendToken appends the JSON text of the token event ApplyToken folds.
func AppendToken(dst []byte, typ EventType, id, delta []byte) []byte {
	dst = append(dst, `{"type":"`...)
	dst = append(dst, typ...)
	if typ == ToolCallArgs {
		dst = append(dst, `","toolCallId":`...)
	} else {
		dst = append(dst, `","messageId":`...)
	}
	dst = jsontree.AppendString(dst, string(id))
	dst = append(dst, `,"delta":`...)
	dst = jsontree.AppendString(dst, string(delta))
	return append(dst, '}')
}
