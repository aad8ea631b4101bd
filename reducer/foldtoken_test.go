package reducer

import (
	"strconv"
	"strings"
	"testing"

	"github.com/agui-reducer/agui/reducer/jsontree"
	"github.com/stretchr/testify/require"
)

// foldStep is one step of a FoldToken scenario: an event's JSON text, a
// token by its fields, or a local action.
type foldStep struct {
	ev        string
	typ       EventType
	id, delta string
	do        func(r *Reducer, saved *[]byte)
}

func ev(s string) foldStep { return foldStep{ev: s} }

func text(id, delta string) foldStep {
	return foldStep{typ: TextMessageContent, id: id, delta: delta}
}

func thought(id, delta string) foldStep {
	return foldStep{typ: ReasoningMessageContent, id: id, delta: delta}
}

func args(id, delta string) foldStep { return foldStep{typ: ToolCallArgs, id: id, delta: delta} }

func act(do func(r *Reducer, saved *[]byte)) foldStep { return foldStep{do: do} }

var (
	runStarted = ev(`{"type":"RUN_STARTED","threadId":"t","runId":"r"}`)
	startM     = ev(`{"type":"TEXT_MESSAGE_START","messageId":"m","role":"assistant"}`)
	save       = act(func(r *Reducer, saved *[]byte) { *saved = r.Snapshot() })
	restore    = act(func(r *Reducer, saved *[]byte) {
		if _, err := r.Restore(*saved); err != nil {
			panic(err)
		}
	})
)

// TestFoldToken: a token folded by FoldToken makes the change and the
// state that its JSON text makes through ApplyAppend (the general path),
// whether FoldToken appends it itself (its change then being the one
// append it stands for) or folds it into the change record, after every
// action that changes which message or tool call an id names (reset,
// restore, setMessages, a snapshot removing the message, an activity
// replacing it, a message with the same id inserted before it, another
// id), for a message that is not text, over the field and event limits,
// in strict mode, in a chunk stream and while a resent run is caught up.
func TestFoldToken(t *testing.T) {
	long := strings.Repeat("long text ", 5)
	scenarios := []struct {
		name  string
		steps []foldStep
	}{
		{"text and reasoning", []foldStep{
			runStarted, startM, text("m", "Hel"), text("m", "lo"), text("m", " wörld 😀"),
			ev(`{"type":"REASONING_MESSAGE_START","messageId":"rm","role":"reasoning"}`),
			thought("rm", "think"), thought("rm", ""), thought("rm", "ing"), text("m", ""), text("m", long),
			text("nope", "x"), thought("m", "x"), text("rm", "x"), text("m", "quote \" nl \n"),
		}},
		{"id changes", []foldStep{
			runStarted, startM, ev(`{"type":"TEXT_MESSAGE_START","messageId":"m2","role":"assistant"}`),
			text("m", "a"), text("m2", "b"), text("m", "c"), text("m", "d"), text("m2", "e"), text("m22", "f"), text("m2", "g"),
		}},
		{"reset", []foldStep{
			runStarted, startM, text("m", "a"), act(func(r *Reducer, _ *[]byte) { r.Reset() }), text("m", "b"),
			runStarted, startM, text("m", "c"), text("m", "d"),
		}},
		{"restore", []foldStep{
			runStarted, ev(`{"type":"TEXT_MESSAGE_START","messageId":"x","role":"assistant"}`), startM, text("m", "a"), save,
			text("m", "b"), restore, text("m", "c"), act(func(r *Reducer, saved *[]byte) {
				if _, err := r.Restore([]byte(`{"messages":[{"id":"m","role":"assistant","content":"z"}]}`)); err != nil {
					panic(err)
				}
			}), text("m", "d"), restore, text("m", "e"),
		}},
		{"setMessages", []foldStep{
			runStarted, startM, text("m", "a"), act(func(r *Reducer, _ *[]byte) {
				v, err := jsontree.Parse([]byte(`[{"id":"u","role":"user","content":"hi"},{"id":"m","role":"assistant","content":"x"}]`), jsontree.ParseOptions{})
				if err != nil {
					panic(err)
				}
				r.SetMessages(v)
			}), text("m", "b"), text("m", "c"),
		}},
		{"removed message", []foldStep{
			runStarted, startM, text("m", "a"),
			ev(`{"type":"MESSAGES_SNAPSHOT","messages":[{"id":"u","role":"user","content":"q"}]}`), text("m", "b"),
			startM, text("m", "c"),
		}},
		{"not text", []foldStep{
			runStarted, startM, text("m", "a"),
			ev(`{"type":"ACTIVITY_SNAPSHOT","messageId":"m","activityType":"plan","content":{"step":1}}`), text("m", "b"), thought("m", "c"),
		}},
		{"same id inserted before", []foldStep{
			runStarted, ev(`{"type":"TEXT_MESSAGE_START","messageId":"a","role":"assistant"}`),
			ev(`{"type":"TOOL_CALL_START","toolCallId":"tc","toolCallName":"f","parentMessageId":"a"}`),
			args("tc", `{"q":`), args("tc", `"v"}`), ev(`{"type":"TOOL_CALL_END","toolCallId":"tc"}`),
			startM, text("m", "a"), text("m", "b"),
			ev(`{"type":"TOOL_CALL_RESULT","messageId":"m","toolCallId":"tc","content":"r","role":"tool"}`),
			text("m", "c"), text("m", "d"), args("tc", "x"),
		}},
		{"tool calls", []foldStep{
			runStarted, startM,
			ev(`{"type":"TOOL_CALL_START","toolCallId":"t1","toolCallName":"f","parentMessageId":"m"}`),
			ev(`{"type":"TOOL_CALL_START","toolCallId":"t2","toolCallName":"f","parentMessageId":"m"}`),
			args("t1", `{"a":`), args("t2", `{"b"`), args("t1", `"x`), args("t1", `y"}`), args("t2", `:1}`), args("t3", `{}`),
			act(func(r *Reducer, _ *[]byte) { r.Reset() }), args("t2", "x"), args("t1", "x"), runStarted,
			ev(`{"type":"TOOL_CALL_START","toolCallId":"t1","toolCallName":"f"}`), args("t1", `[1`),
		}},
		{"interleaved tool calls", interleavedCalls()},
		{"chunk stream", []foldStep{
			runStarted, ev(`{"type":"TEXT_MESSAGE_CHUNK","messageId":"m","role":"assistant","delta":"a"}`),
			text("m", "b"), text("m", "c"), ev(`{"type":"TEXT_MESSAGE_END","messageId":"m"}`), text("m", "d"),
		}},
		{"resent run", []foldStep{
			runStarted, startM, text("m", "a"), text("m", "b"), runStarted, startM, text("m", "a"), text("m", "b"), text("m", "c"),
			ev(`{"type":"TEXT_MESSAGE_END","messageId":"m"}`), ev(`{"type":"RUN_FINISHED","threadId":"t","runId":"r"}`), text("m", "d"),
		}},
	}
	appended := 0
	for _, opt := range []struct {
		name string
		opt  Options
	}{
		{"default", Options{}},
		{"maxFieldBytes", Options{MaxFieldBytes: 40}},
		{"maxEventBytes", Options{MaxEventBytes: 150}},
		{"strict", Options{Strict: true}},
	} {
		for _, sc := range scenarios {
			t.Run(opt.name+"/"+sc.name, func(t *testing.T) {
				// general folds the token's JSON text with its members
				// reordered, which no fast path takes (no remembered
				// target); hot folds it in the layout ApplyTextToken takes.
				general, hot, fold := New(opt.opt), New(opt.opt), New(opt.opt)
				var savedG, savedH, savedF []byte
				var cg, ch, cf Change
				for i, st := range sc.steps {
					where := "step " + strconv.Itoa(i+1)
					switch {
					case st.do != nil:
						st.do(general, &savedG)
						st.do(hot, &savedH)
						st.do(fold, &savedF)
					case st.ev != "":
						cg.Reset()
						general.ApplyAppend(&cg, []byte(st.ev))
						for _, r := range []*Reducer{hot, fold} {
							cf.Reset()
							r.ApplyAppend(&cf, []byte(st.ev))
							require.Equal(t, string(cg.AppendJSON(nil)), string(cf.AppendJSON(nil)), where)
						}
					default:
						cg.Reset()
						general.ApplyAppend(&cg, reorderedToken(st.typ, st.id, st.delta))
						want := string(cg.AppendJSON(nil))
						ch.Reset()
						if !hot.ApplyTextToken(&ch, AppendToken(nil, st.typ, []byte(st.id), []byte(st.delta))) {
							hot.ApplyAppend(&ch, AppendToken(nil, st.typ, []byte(st.id), []byte(st.delta)))
						}
						require.Equal(t, want, string(ch.AppendJSON(nil)), where)
						cf.Reset()
						index, ok := fold.FoldToken(&cf, st.typ, []byte(st.id), []byte(st.delta))
						if ok {
							appended++
							require.True(t, cf.Empty(), where)
							field := "/content"
							if st.typ == ReasoningMessageContent {
								field = "/reasoning"
							}
							cf.appendText("/messages/"+strconv.Itoa(index)+field, st.delta)
						}
						require.Equal(t, want, string(cf.AppendJSON(nil)), where)
					}
					require.Equal(t, string(general.Snapshot()), string(hot.Snapshot()), where)
					require.Equal(t, string(general.Snapshot()), string(fold.Snapshot()), where)
				}
			})
		}
	}
	require.Positive(t, appended)
}

// reorderedToken is the JSON text of a token with its members in the
// reverse order.
func reorderedToken(typ EventType, id, delta string) []byte {
	b := jsontree.AppendString([]byte(`{"delta":`), delta)
	if typ == ToolCallArgs {
		b = append(b, `,"toolCallId":`...)
	} else {
		b = append(b, `,"messageId":`...)
	}
	b = jsontree.AppendString(b, id)
	return append(jsontree.AppendString(append(b, `,"type":`...), string(typ)), '}')
}

// TestFoldTokenAllocs: a text token FoldToken appends allocates nothing
// but the growth of the message's text.
func TestFoldTokenAllocs(t *testing.T) {
	r := New(Options{})
	var c Change
	for _, e := range []string{`{"type":"RUN_STARTED","threadId":"t","runId":"r"}`, `{"type":"TEXT_MESSAGE_START","messageId":"0b9f3c2e-8d41-4e7a-a5c6-2f1d9e7b4a03","role":"assistant"}`} {
		r.ApplyAppend(&c, []byte(e))
	}
	id, delta := []byte("0b9f3c2e-8d41-4e7a-a5c6-2f1d9e7b4a03"), []byte("token ")
	r.FoldToken(&c, TextMessageContent, id, delta)
	r.st.Messages[0].text = make([]byte, 0, 1<<20) // no growth during the count
	allocs := testing.AllocsPerRun(1000, func() {
		if _, ok := r.FoldToken(&c, TextMessageContent, id, delta); !ok {
			t.Fatal("not appended")
		}
	})
	require.Zero(t, allocs)
}

// interleavedCalls: six calls (more than the token targets keep) stream
// their arguments a token each in turn, with escapes split across tokens,
// while a snapshot drops two of them and restarts one, a restore goes back
// and the state is reset.
func interleavedCalls() []foldStep {
	steps := []foldStep{runStarted, startM}
	for c := range 6 {
		steps = append(steps, ev(`{"type":"TOOL_CALL_START","toolCallId":"c`+strconv.Itoa(c)+`","toolCallName":"f","parentMessageId":"m"}`))
	}
	pieces := []string{`{"a":"x`, `\n`, `y\`, `"z`, `",`, `"b":[1`, `,{"c":`, `true}`, `],"d":"`, `é\u00e9`, `"}`}
	for i, d := range pieces {
		for c := range 6 {
			steps = append(steps, args("c"+strconv.Itoa(c), d))
		}
		switch i {
		case 3:
			steps = append(steps, save, ev(`{"type":"MESSAGES_SNAPSHOT","messages":[{"id":"m","role":"assistant","content":"","toolCalls":[`+
				`{"id":"c1","type":"function","function":{"name":"f","arguments":"{\"a\":\"x"}},`+
				`{"id":"c3","type":"function","function":{"name":"f","arguments":""}},`+
				`{"id":"c4","type":"function","function":{"name":"f","arguments":"{\"a\":\"x\\n"}}]}]}`))
		case 6:
			steps = append(steps, restore)
		case 9:
			steps = append(steps, act(func(r *Reducer, _ *[]byte) { r.Reset() }), runStarted, startM,
				ev(`{"type":"TOOL_CALL_START","toolCallId":"c5","toolCallName":"f","parentMessageId":"m"}`))
		}
	}
	return steps
}
