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
	if !utf8.Valid(id) || !utf8.Valid(delta) {
		r.ApplyAppend(c, AppendToken(nil, typ, id, delta))
		return
	}
	r.applyToken(c, typ, id, delta)
}

// FoldToken is ApplyToken for a host that holds id and delta as valid
// UTF-8 by construction (a JavaScript host's TextEncoder output, where a
// lone surrogate is already U+FFFD), which FoldToken does not check again,
// and that can take the commonest change without a change record: when all
// the token does is append delta, not empty, to the content (a
// TextMessageContent token) or the reasoning (ReasoningMessageContent) of
// a message, FoldToken appends it, leaves c untouched and returns that
// message's index in State().Messages and appended true. The change
// ApplyToken would have recorded is then exactly one op: the append of
// delta to /messages/<index>/content (or /reasoning). Otherwise FoldToken
// folds the token into c as ApplyToken does (c not reset first) and
// returns appended false.
//
// Text that is not valid UTF-8 breaks the contract: it is kept as given.
func (r *Reducer) FoldToken(c *Change, typ EventType, id, delta []byte) (index int, appended bool) {
	// The conditions of applyToken's hot path and foldHotText's, with
	// nothing to record: no op, no string of delta (append copies it).
	// A valid delta cannot start with the low half of a surrogate pair,
	// so appendJS's join is a plain append here.
	if len(delta) != 0 && (typ == TextMessageContent || typ == ReasoningMessageContent) &&
		r.catching == nil && r.chunks.mode == chunkNone && !r.opt.Strict &&
		TokenFits(typ, len(id), len(delta), r.opt.MaxEventBytes) {
		if m := r.tokenMessage(id); m != nil {
			if typ == ReasoningMessageContent {
				if m.hasReasoning && len(m.reasoning)+len(delta) <= r.opt.MaxFieldBytes {
					r.touch(m)
					m.reasoning = append(m.reasoning, delta...)
					return m.pos, true
				}
			} else if m.contentKind == contentText && len(m.text)+len(delta) <= r.opt.MaxFieldBytes {
				r.touch(m)
				m.text = append(m.text, delta...)
				return m.pos, true
			}
		}
	}
	r.applyToken(c, typ, id, delta)
	return 0, false
}

// applyToken is ApplyToken once id and delta are known to be valid UTF-8.
func (r *Reducer) applyToken(c *Change, typ EventType, id, delta []byte) {
	if !TokenFits(typ, len(id), len(delta), r.opt.MaxEventBytes) {
		r.ApplyAppend(c, AppendToken(nil, typ, id, delta))
		return
	}
	hot := r.catching == nil && r.chunks.mode == chunkNone && !r.opt.Strict
	if hot && typ != ToolCallArgs {
		if m := r.tokenMessage(id); m != nil && r.foldHotText(c, m, typ == ReasoningMessageContent, string(delta)) {
			return
		}
	}
	if hot && typ == ToolCallArgs {
		// No catch-up, chunk stream or strict check to pass: what
		// applyEvent would do is toolArgs, without metadata.
		if t := r.tokenTool(id); t != nil {
			r.touchTool(t)
			// delta is the caller's: argsDelta keeps no reference to
			// it (the op's text is a view of the call's argsText).
			r.argsDelta(c, t, bytesString(delta))
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

// tokenTargets remembers the message and the tool call the latest streamed
// tokens went to, by id: nearly every token goes where the one before it
// went, and comparing the id costs less than the map lookup, which hashes
// it (in wasm, in Go code). The entries are forgotten (forgetTokens)
// wherever msgByID or toolByID change, and an entry is used only while its
// entity is still in the state at its position.
//
// Tool calls stream their arguments interleaved (parallel calls, each
// token to the next): the targets keep the last few calls.
type tokenTargets struct {
	msgID   []byte
	msg     *Message
	toolIDs [tokenTools][]byte
	tools   [tokenTools]*ToolCall
	next    int // the entry of tools the next call found takes
}

const tokenTools = 4

// forgetTokens forgets the token targets: every function that writes to
// msgByID or toolByID (or replaces them) calls it. Not inlined: it is on
// no hot path, and the module would carry a copy at each of them.
//
//go:noinline
func (r *Reducer) forgetTokens() { r.tok.msg, r.tok.tools = nil, [tokenTools]*ToolCall{} }

// tokenMessage is msgByID[string(id)], remembered for the next token.
func (r *Reducer) tokenMessage(id []byte) *Message {
	if m := r.tok.msg; m != nil && string(id) == string(r.tok.msgID) && m.pos < len(r.st.Messages) && r.st.Messages[m.pos] == m {
		return m
	}
	return r.findTokenMessage(id)
}

// findTokenMessage is tokenMessage's lookup (not inlined: the module
// would carry a copy of it at every token path).
//
//go:noinline
func (r *Reducer) findTokenMessage(id []byte) *Message {
	m := r.msgByID[string(id)]
	if m != nil {
		r.tok.msgID, r.tok.msg = append(r.tok.msgID[:0], id...), m
	}
	return m
}

// tokenTool is toolByID[string(id)], remembered for the next token.
func (r *Reducer) tokenTool(id []byte) *ToolCall {
	for i := range r.tok.tools {
		if t := r.tok.tools[i]; t != nil && string(id) == string(r.tok.toolIDs[i]) && t.pos < len(r.st.ToolCalls) && r.st.ToolCalls[t.pos] == t {
			return t
		}
	}
	return r.findTokenTool(id)
}

// findTokenTool is tokenTool's lookup.
//
//go:noinline
func (r *Reducer) findTokenTool(id []byte) *ToolCall {
	t := r.toolByID[string(id)]
	if t != nil {
		i := r.tok.next
		r.tok.next = (i + 1) % tokenTools
		r.tok.toolIDs[i], r.tok.tools[i] = append(r.tok.toolIDs[i][:0], id...), t
	}
	return t
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
