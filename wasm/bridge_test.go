package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/agui-reducer/agui/reducer"
	"github.com/stretchr/testify/require"
)

// result returns the output of a call that returned n, and whether it
// succeeded.
func result(n int32) (string, bool) {
	if n < 0 {
		return string(out[:-n]), false
	}
	return string(out[:n]), true
}

type record struct {
	Ops []struct {
		Op    string          `json:"op"`
		Path  string          `json:"path"`
		Value json.RawMessage `json:"value"`
	} `json:"ops"`
	Events      []map[string]any `json:"events"`
	Diagnostics []struct {
		Code, Level, Message string
	} `json:"diagnostics"`
}

func decode(t *testing.T, s string) record {
	t.Helper()
	var r record
	require.NoError(t, json.Unmarshal([]byte(s), &r), s)
	return r
}

func newHandle(t *testing.T, opts string) int32 {
	t.Helper()
	h := create([]byte(opts))
	require.Positive(t, h, "create(%s): %s", opts, out)
	t.Cleanup(func() { dispose(h) })
	return h
}

func streamLines(t *testing.T, name string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "testdata", "streams", name))
	require.NoError(t, err)
	return strings.Split(strings.TrimSpace(string(b)), "\n")
}

// A fixed clock keeps reasoning durations comparable with native folds.
func init() { clock = func() float64 { return 1000 } }

// native folds lines with the reducer directly: what the bridge must match.
func native(lines []string) string {
	r := reducer.New(reducer.Options{Clock: clock})
	for _, l := range lines {
		r.Apply([]byte(l))
	}
	return string(r.Snapshot())
}

func snap(t *testing.T, h int32) string {
	t.Helper()
	s, ok := result(snapshot(h))
	require.True(t, ok, s)
	return s
}

func TestApplyMatchesReducer(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "testdata", "streams", "*.jsonl"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			lines := streamLines(t, filepath.Base(f))
			h := newHandle(t, `{"deterministicIds":true}`)
			for _, l := range lines {
				s, ok := result(apply(h, nil, []byte(l)))
				require.True(t, ok, s)
				decode(t, s)
			}
			require.JSONEq(t, native(lines), snap(t, h))
		})
	}
}

func TestFeedSplitAnywhere(t *testing.T) {
	lines := streamLines(t, "02_tool_call.jsonl")
	var sse strings.Builder
	for _, l := range lines {
		sse.WriteString("data: " + l + "\n\n")
	}
	body := []byte(sse.String())
	want := native(lines)
	for _, size := range []int{1, 2, 3, 7, 64, len(body)} {
		h := newHandle(t, "")
		nrec := 0
		for i := 0; i < len(body); i += size {
			s, ok := result(feed(h, body[i:min(i+size, len(body))]))
			require.True(t, ok, s)
			var recs []json.RawMessage
			require.NoError(t, json.Unmarshal([]byte(s), &recs), s)
			nrec += len(recs)
		}
		require.Equal(t, len(lines), nrec, "one non-empty record per event (chunk size %d)", size)
		require.JSONEq(t, want, snap(t, h), "chunk size %d", size)
	}
}

func TestEndStreamDropsPartialEvent(t *testing.T) {
	h := newHandle(t, "")
	feed(h, []byte(`data: {"type":"RUN_STARTED","threadId":"t","runId":"r"}`+"\n"))
	endStream(h)
	s, _ := result(feed(h, []byte("\n")))
	require.Equal(t, "[]", s)
	require.Contains(t, snap(t, h), `"status":"idle"`)
}

func TestTwoInstancesAreIndependent(t *testing.T) {
	a, b := newHandle(t, `{"deterministicIds":true}`), newHandle(t, `{"deterministicIds":true}`)
	la, lb := streamLines(t, "01_text_basic.jsonl"), streamLines(t, "03_parallel_tools.jsonl")
	for i := 0; i < max(len(la), len(lb)); i++ {
		if i < len(la) {
			apply(a, nil, []byte(la[i]))
		}
		if i < len(lb) {
			apply(b, nil, []byte(lb[i]))
		}
	}
	require.JSONEq(t, native(la), snap(t, a))
	require.JSONEq(t, native(lb), snap(t, b))
}

func TestBadHandle(t *testing.T) {
	n := callGuarded(12345, func() int32 { return apply(12345, nil, []byte(`{}`)) })
	s, ok := result(n)
	require.False(t, ok)
	r := decode(t, s)
	require.Equal(t, "bad_handle", r.Diagnostics[0].Code)
}

// callGuarded runs f as an export does.
func callGuarded(h int32, f func() int32) (n int32) {
	defer recoverCall(h, &n)
	return f()
}

func TestPanicBecomesDiagnostic(t *testing.T) {
	h := newHandle(t, "")
	apply(h, nil, []byte(`{"type":"RUN_STARTED","threadId":"t","runId":"r"}`))
	n := callGuarded(h, func() int32 { panic("boom") })
	s, ok := result(n)
	require.False(t, ok)
	r := decode(t, s)
	require.Equal(t, "panic", r.Diagnostics[0].Code)
	require.Equal(t, "error", r.Diagnostics[0].Level)
	require.Contains(t, r.Diagnostics[0].Message, "boom")
	// The record resynchronises a mirror with the whole state.
	require.Len(t, r.Ops, 1)
	require.Equal(t, "replace", r.Ops[0].Op)
	require.Equal(t, "", r.Ops[0].Path)
	require.JSONEq(t, snap(t, h), string(r.Ops[0].Value))

	// A nil-pointer panic inside an instance is recovered as well, and
	// the module goes on working.
	broken := create(nil)
	instances[broken] = &instance{}
	s, ok = result(callGuarded(broken, func() int32 { return apply(broken, nil, []byte(`{}`)) }))
	require.False(t, ok)
	require.Equal(t, "panic", decode(t, s).Diagnostics[0].Code)
	dispose(broken)
	s, ok = result(apply(h, nil, []byte(`{"type":"RUN_FINISHED","threadId":"t","runId":"r"}`)))
	require.True(t, ok, s)
}

func TestOptions(t *testing.T) {
	for _, bad := range []string{`[]`, `{`, `{"strict":1}`, `{"maxDepth":"x"}`, `{"maxEventBytes":1.5}`, `{"maxStateBytes":"1"}`} {
		n := create([]byte(bad))
		s, ok := result(n)
		require.False(t, ok, bad)
		require.Equal(t, "bad_options", decode(t, s).Diagnostics[0].Code, bad)
	}
	h := newHandle(t, `{"maxEventBytes":20}`)
	s, _ := result(apply(h, nil, []byte(`{"type":"RUN_STARTED","threadId":"thread","runId":"run"}`)))
	require.Equal(t, "too_large", decode(t, s).Diagnostics[0].Code)
	h = newHandle(t, `{"maxStateBytes":100}`)
	s, _ = result(apply(h, nil, []byte(`{"type":"STATE_SNAPSHOT","snapshot":{"a":"`+strings.Repeat("x", 100)+`"}}`)))
	require.Equal(t, "too_large", decode(t, s).Diagnostics[0].Code)
	h = newHandle(t, `{"strict":true}`)
	s, _ = result(apply(h, nil, []byte(`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"x"}`)))
	require.NotEmpty(t, decode(t, s).Diagnostics)
}

var uuidRE = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

func TestActions(t *testing.T) {
	h := newHandle(t, "")
	s, ok := result(addUserMessage(h, []byte(`["Hello"]`)))
	require.True(t, ok, s)
	r := decode(t, s)
	require.Equal(t, "add", r.Ops[0].Op)
	var m map[string]any
	require.NoError(t, json.Unmarshal(r.Ops[0].Value, &m))
	require.Regexp(t, uuidRE, m["id"], "injected NewID")
	require.Equal(t, "Hello", m["content"])

	s, _ = result(addUserMessage(h, []byte(`[[{"type":"text","text":"hi"}],"u2"]`)))
	require.Contains(t, s, `"u2"`)
	s, _ = result(addUserMessage(h, []byte(`[42]`)))
	require.Equal(t, "bad_argument", decode(t, s).Diagnostics[0].Code)

	s, ok = result(runInput(h, []byte(`{"tools":[{"name":"x"}],"forwardedProps":{"a":1}}`)))
	require.True(t, ok, s)
	var in map[string]any
	require.NoError(t, json.Unmarshal([]byte(s), &in))
	require.Regexp(t, uuidRE, in["runId"])
	require.Len(t, in["messages"], 2)
	require.Equal(t, []any{map[string]any{"name": "x"}}, in["tools"])
	s, _ = result(runInput(h, nil))
	require.Contains(t, s, `"tools":[]`)
	_, ok = result(runInput(h, []byte(`[1]`)))
	require.False(t, ok)

	s, _ = result(messages(h))
	require.True(t, strings.HasPrefix(s, `[{"id":`), s)

	// A run, a stop, a failure.
	apply(h, nil, []byte(`{"type":"RUN_STARTED","threadId":"t","runId":"r"}`))
	apply(h, nil, []byte(`{"type":"TEXT_MESSAGE_START","messageId":"a","role":"assistant"}`))
	require.Equal(t, int32(1), running(h))
	s, _ = result(stop(h))
	require.Contains(t, s, `"/status","value":"idle"`)
	require.Equal(t, int32(0), running(h))
	s, _ = result(stop(h))
	require.Equal(t, "{}", s, "stop when idle does nothing")
	s, _ = result(fail(h, []byte(`["HTTP 502: Bad Gateway","502"]`)))
	require.Contains(t, s, `"code":"502"`)
	require.Contains(t, snap(t, h), `"status":"error"`)

	s, _ = result(addToolResult(h, []byte(`["call-x","42"]`)))
	require.Equal(t, "unknown_tool_call", decode(t, s).Diagnostics[0].Code)

	// Snapshot / restore round trip, and a bad snapshot.
	saved := snap(t, h)
	s, _ = result(reset(h))
	require.Equal(t, "", decode(t, s).Ops[0].Path)
	require.Contains(t, snap(t, h), `"messages":[]`)
	s, ok = result(restore(h, []byte(saved)))
	require.True(t, ok, s)
	require.JSONEq(t, saved, snap(t, h))
	s, _ = result(restore(h, []byte(`{"messages":7`)))
	require.Equal(t, "bad_snapshot", decode(t, s).Diagnostics[0].Code)
	require.JSONEq(t, saved, snap(t, h), "a bad snapshot leaves the state")
}

func TestNewIDUnique(t *testing.T) {
	seen := map[string]bool{}
	for range 1000 {
		id := newID("run")
		require.Regexp(t, uuidRE, id)
		require.False(t, seen[id])
		seen[id] = true
	}
}

func TestCreateDialectOption(t *testing.T) {
	h := create([]byte(`{"dialect":"tanstack"}`))
	if h <= 0 {
		t.Fatalf("create with a known dialect failed: %d", h)
	}
	defer dispose(h)
	if h := create([]byte(`{"dialect":"klingon"}`)); h > 0 {
		t.Fatalf("an unknown dialect was accepted")
	}
	if h := create([]byte(`{"dialect":5}`)); h > 0 {
		t.Fatalf("a non-string dialect was accepted")
	}
}

func TestBridgeThreadStateMessages(t *testing.T) {
	require.Negative(t, create([]byte(`{"threadId":5}`)), "a non-string threadId is a bad option")
	h := newHandle(t, `{"threadId":"t-1"}`)
	s, good := result(runInput(h, []byte(`{}`)))
	require.True(t, good)
	var in map[string]any
	require.NoError(t, json.Unmarshal([]byte(s), &in))
	require.Equal(t, "t-1", in["threadId"])
	s, _ = result(runInput(h, []byte(`{"threadId":"t-2","state":{"a":1},"messages":[]}`)))
	require.NoError(t, json.Unmarshal([]byte(s), &in))
	require.Equal(t, "t-2", in["threadId"])
	require.Equal(t, map[string]any{"a": 1.0}, in["state"])
	require.Equal(t, []any{}, in["messages"])

	s, good = result(setState(h, []byte(`[{"n":2}]`)))
	require.True(t, good)
	rec := decode(t, s)
	require.Len(t, rec.Ops, 1)
	require.Equal(t, "/state", rec.Ops[0].Path)
	require.JSONEq(t, `{"n":2}`, string(rec.Ops[0].Value))

	s, _ = result(setState(h, []byte(`[`+strings.Repeat("[", 600)+strings.Repeat("]", 600)+`]`)))
	require.Equal(t, "bad_argument", decode(t, s).Diagnostics[0].Code, "too deep")

	s, _ = result(setMessages(h, []byte(`[[{"id":"u","role":"user","content":"hi"}]]`)))
	rec = decode(t, s)
	require.Empty(t, rec.Diagnostics)
	require.Equal(t, "/messages", rec.Ops[0].Path)
	s, _ = result(setMessages(h, []byte(`[[{"id":"u","role":"robot","content":"hi"}]]`)))
	require.NotEmpty(t, decode(t, s).Diagnostics)
	s, _ = result(setMessages(h, []byte(`[{}]`)))
	require.Equal(t, "bad_argument", decode(t, s).Diagnostics[0].Code)
}

// TestDialectComposition: apply, feed, stop, fail, reset and restore go
// through the instance's translator, as the reducer did before dialects
// had their own package.
func TestDialectComposition(t *testing.T) {
	h := newHandle(t, `{"deterministicIds":true}`)
	defer dispose(h)
	out, _ := result(apply(h, nil, []byte(`{"event":"token","thread_id":"t","token":"Hi"}`)))
	require.Empty(t, decode(t, out).Diagnostics)
	out, _ = result(feed(h, []byte("event: message\ndata: {\"content\":\" there\"}\n\n")))
	require.Contains(t, out, `"diagnostics":[{"code":"mixed_dialects"`)
	s := snap(t, h)
	require.Contains(t, s, `"content":"Hi there"`)
	require.Contains(t, s, `"status":"running"`)
	result(stop(h))
	// The run the user stopped is over: the next token starts another.
	result(apply(h, nil, []byte(`{"event":"token","token":"again"}`)))
	require.Contains(t, snap(t, h), `"runId":"run-2"`)
	result(fail(h, []byte(`["lost","network"]`)))
	result(apply(h, nil, []byte(`{"event":"token","token":"retry"}`)))
	require.Contains(t, snap(t, h), `"runId":"run-3"`)
	saved := snap(t, h)
	result(reset(h))
	result(restore(h, []byte(saved)))
	result(apply(h, nil, []byte(`{"event":"message_complete","message":{"role":"assistant","content":"retry"}}`)))
	require.Contains(t, snap(t, h), `"status":"idle"`)

	p := newHandle(t, `{"dialect":"sse-contract"}`)
	defer dispose(p)
	out, _ = result(apply(p, nil, []byte(`{"type":"RUN_STARTED","threadId":"t","runId":"r"}`)))
	require.Equal(t, "wrong_dialect", decode(t, out).Diagnostics[0].Code)
}

// The SSE ids of fed frames and the ids apply's callers pass become the
// state's lastEventId, one record per feed call when it moved.
func TestLastEventID(t *testing.T) {
	h := newHandle(t, "")
	body := "id: r.x:1\ndata: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n" +
		"id: r.x:2\ndata: {\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m\",\"role\":\"assistant\"}\n\n"
	text, ok := result(feed(h, []byte(body)))
	require.True(t, ok)
	var recs []record
	require.NoError(t, json.Unmarshal([]byte(text), &recs))
	last := recs[len(recs)-1]
	require.Len(t, last.Ops, 1)
	require.Equal(t, "/lastEventId", last.Ops[0].Path)
	require.JSONEq(t, `"r.x:2"`, string(last.Ops[0].Value))

	text, _ = result(snapshot(h))
	require.Contains(t, text, `"lastEventId":"r.x:2"`)

	text, _ = result(lastEventID(h))
	require.Equal(t, "r.x:2", text)
	text, ok = result(setLastEventID(h, []byte("r.x:3")))
	require.True(t, ok)
	require.Equal(t, "add", decode(t, text).Ops[0].Op)
	text, _ = result(setLastEventID(h, nil))
	require.Equal(t, "remove", decode(t, text).Ops[0].Op)
}

// checkEventId says what setLastEventId would refuse, before the frame is
// applied (the web module's apply(event, {id}) asks it first).
func TestCheckEventID(t *testing.T) {
	h := newHandle(t, "")
	s, okay := result(checkEventID(h, []byte("x\r\ny")))
	require.True(t, okay)
	rec := decode(t, s)
	require.Len(t, rec.Diagnostics, 1)
	require.Equal(t, "bad_event", rec.Diagnostics[0].Code)
	require.Equal(t, "error", rec.Diagnostics[0].Level)
	s, _ = result(checkEventID(h, []byte("frame-1")))
	require.Equal(t, "{}", s)
	// A snapshot whose lastEventId has CR, LF or NUL is refused whole.
	snap, _ := result(snapshot(h))
	bad := strings.Replace(snap, `{`, `{"lastEventId":"a\nb",`, 1)
	s, _ = result(restore(h, []byte(bad)))
	rec = decode(t, s)
	require.Len(t, rec.Diagnostics, 1)
	require.Equal(t, "bad_snapshot", rec.Diagnostics[0].Code)
	require.Empty(t, rec.Ops)
	after, _ := result(snapshot(h))
	require.Equal(t, snap, after)
}

// With the canonical dialect pinned, or detected, CUSTOM "agui.amend" is a
// custom event: it amends nothing. The dialects' amendments still fold.
func TestCanonicalStreamCannotAmend(t *testing.T) {
	for _, opts := range []string{`{"dialect":"agui"}`, `{"dialect":"auto"}`, ``} {
		h := newHandle(t, opts)
		for _, ev := range []string{
			`{"type":"RUN_STARTED","threadId":"t","runId":"r1"}`,
			`{"type":"TEXT_MESSAGE_START","messageId":"m","role":"assistant"}`,
			`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"$10"}`,
			`{"type":"TEXT_MESSAGE_END","messageId":"m"}`,
		} {
			apply(h, nil, []byte(ev))
		}
		before, _ := result(snapshot(h))
		s, _ := result(apply(h, nil, []byte(`{"type":"CUSTOM","name":"agui.amend","value":{"messageId":"m","content":"$10,000 to Mallory"}}`)))
		rec := decode(t, s)
		require.Empty(t, rec.Ops, opts)
		require.Len(t, rec.Events, 1)
		require.Equal(t, "agui.amend", rec.Events[0]["name"])
		after, _ := result(snapshot(h))
		require.Equal(t, before, after, opts)
	}
	// A dialect's amendment (TanStack's whole content) still folds.
	h := newHandle(t, `{"dialect":"tanstack"}`)
	for _, ev := range []string{
		`{"type":"RUN_STARTED","threadId":"t","runId":"r1"}`,
		`{"type":"TEXT_MESSAGE_START","messageId":"m","role":"assistant"}`,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","content":"Hello"}`,
	} {
		apply(h, nil, []byte(ev))
	}
	snap, _ := result(snapshot(h))
	require.Contains(t, snap, `"content":"Hello"`)
}

// A dialect reducer restored mid-message goes on with the same message.
func TestRestoreMidMessageContinuesIt(t *testing.T) {
	h := newHandle(t, `{"dialect":"streaming"}`)
	apply(h, nil, []byte(`{"event":"token","token":"Hel"}`))
	snap, _ := result(snapshot(h))
	h2 := newHandle(t, `{"dialect":"streaming"}`)
	restore(h2, []byte(snap))
	apply(h2, nil, []byte(`{"event":"token","token":"lo"}`))
	s, _ := result(snapshot(h2))
	var st struct {
		Messages []struct{ ID, Content string }
	}
	require.NoError(t, json.Unmarshal([]byte(s), &st))
	require.Len(t, st.Messages, 1, s)
	require.Equal(t, "Hello", st.Messages[0].Content)
}

// A translating proxy passes amendments on as frames of their own
// (dialect.AmendFrame): a page that detects the dialect takes them back,
// one pinned to agui refuses them.
func TestProxiedAmendment(t *testing.T) {
	for _, opts := range []string{``, `{"dialect":"agui"}`} {
		h := newHandle(t, opts)
		for _, ev := range []string{
			`{"type":"RUN_STARTED","threadId":"t","runId":"r1"}`,
			`{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"pay"}`,
			`{"type":"TOOL_CALL_END","toolCallId":"c"}`,
		} {
			apply(h, nil, []byte(ev))
		}
		s, _ := result(apply(h, []byte("agui.amend"), []byte(`{"toolCallId":"c","clientSide":true}`)))
		rec := decode(t, s)
		snap, _ := result(snapshot(h))
		if opts == "" {
			require.Empty(t, rec.Diagnostics)
			require.Contains(t, snap, `"clientSide":true`)
		} else {
			require.Len(t, rec.Diagnostics, 1)
			require.Equal(t, "wrong_dialect", rec.Diagnostics[0].Code)
			require.NotContains(t, snap, `clientSide`)
		}
	}
}

// TestToolSchemas: tools given at create or by setTools validate their
// calls' arguments; the state says so.
func TestToolSchemas(t *testing.T) {
	const tools = `[{"name":"get_weather","parameters":{"type":"object","properties":{"unit":{"enum":["celsius","fahrenheit"]}},"additionalProperties":false}}]`
	lines := []string{
		`{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"get_weather"}`,
		`{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"{\"unit\":\"kelvin\"}"}`,
	}
	for _, how := range []string{"create", "setTools"} {
		opts := `{}`
		if how == "create" {
			opts = `{"tools":` + tools + `}`
		}
		h := newHandle(t, opts)
		if how == "setTools" {
			s, ok := result(setTools(h, []byte(tools)))
			require.True(t, ok, s)
			_, ok = result(setTools(h, []byte(`{"name":"x"}`)))
			require.False(t, ok, "setTools takes an array")
		}
		var last string
		for _, l := range lines {
			last, _ = result(apply(h, nil, []byte(l)))
		}
		require.Contains(t, last, `"keyword":"enum"`, how)
		require.Contains(t, snap(t, h), `"argsStatus":"invalid"`, how)
	}
	_, ok := result(create([]byte(`{"tools":{}}`)))
	require.False(t, ok)
}
