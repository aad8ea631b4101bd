package reducer

import (
	"unicode/utf8"

	"github.com/agui-reducer/agui/reducer/jsontree"
)

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
