package main

import (
	"strings"
	"testing"

	"github.com/agui-reducer/agui/reducer/jsontree"
	"github.com/stretchr/testify/require"
)

// reorderedToken is the JSON text of a token with its members in the
// reverse order: no fast path takes it.
func reorderedToken(kind int32, id, delta string) []byte {
	b := jsontree.AppendString([]byte(`{"delta":`), delta)
	if kind == 3 {
		b = append(b, `,"toolCallId":`...)
	} else {
		b = append(b, `,"messageId":`...)
	}
	b = jsontree.AppendString(b, id)
	typ := tokenTypes[kind-1]
	return append(jsontree.AppendString(append(b, `,"type":`...), string(typ)), '}')
}

// TestApplyTokenAfterActions: tokens through applyToken make the records
// and the state that their JSON text makes through apply, before and after
// every export that changes which message or tool call an id names (reset,
// restore, setMessages, a handle disposed and another created), the
// reference's JSON text in a layout no fast path takes.
func TestApplyTokenAfterActions(t *testing.T) {
	steps := []string{
		`{"type":"RUN_STARTED","threadId":"t","runId":"r"}`,
		`{"type":"TEXT_MESSAGE_START","messageId":"m","role":"assistant"}`,
		"1 m Hel", "1 m lo", "1 x nope", "2 m no reasoning",
		`{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"f","parentMessageId":"m"}`,
		`3 c {"a":`, `3 c "b"`, "1 m more", "save",
		"1 m after save", `3 c ,"n":1`, "restore", "1 m after restore", `3 c }`,
		"reset", "1 m after reset", `3 c {}`,
		`{"type":"RUN_STARTED","threadId":"t","runId":"r2"}`,
		`{"type":"TEXT_MESSAGE_START","messageId":"m","role":"assistant"}`, "1 m new",
		`setMessages [{"id":"u","role":"user","content":"q"},{"id":"m","role":"assistant","content":"set"}]`,
		"1 m after set", "dispose", "1 m after dispose",
		`{"type":"RUN_STARTED","threadId":"t","runId":"r3"}`,
		`{"type":"TEXT_MESSAGE_START","messageId":"m","role":"assistant"}`, "1 m fresh", "1 m !",
	}
	for _, opts := range []string{`{"deterministicIds":true}`, `{"deterministicIds":true,"dialect":"agui"}`} {
		ref, h := create([]byte(opts)), create([]byte(opts))
		var saved []byte
		for i, st := range steps {
			switch {
			case st[0] == '{':
				want, _ := result(apply(ref, nil, []byte(st)))
				got, _ := result(apply(h, nil, []byte(st)))
				require.Equal(t, want, got, "%s step %d", opts, i+1)
			case st == "save":
				saved = []byte(snap(t, h))
			case st == "restore":
				result(restore(ref, saved))
				result(restore(h, saved))
			case st == "reset":
				result(reset(ref))
				result(reset(h))
			case strings.HasPrefix(st, "setMessages "):
				arg := []byte("[" + st[len("setMessages "):] + "]")
				result(setMessages(ref, arg))
				result(setMessages(h, arg))
			case st == "dispose":
				dispose(ref)
				dispose(h)
				// A token to the disposed handle is refused.
				n := callGuarded(h, func() int32 { return applyToken(h, 1, []byte("m"), []byte("x")) })
				require.Negative(t, n)
				require.Contains(t, string(out[:-n]), `"bad_handle"`)
				ref, h = create([]byte(opts)), create([]byte(opts))
			default:
				f := strings.SplitN(st, " ", 3)
				kind := int32(f[0][0] - '0')
				want, _ := result(apply(ref, nil, reorderedToken(kind, f[1], f[2])))
				n := applyToken(h, kind, []byte(f[1]), []byte(f[2]))
				got := expand(t, out[:max(n, -n)], f[2])
				require.JSONEq(t, want, got, "%s step %d", opts, i+1)
			}
			require.Equal(t, snap(t, ref), snap(t, h), "%s step %d", opts, i+1)
		}
		dispose(ref)
		dispose(h)
	}
}
