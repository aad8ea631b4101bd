package reducer

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Robustness (SPEC.md §7), beyond TestHostileInput: every event kind with
// unknown ids, out-of-order events in tolerant and strict mode, the three
// limits end to end (Apply and the SSE Stream), prototype-named keys, and
// the invariants of the fuzz targets checked on every hostile event in every
// fuzzed configuration. web/test/hostile.test.mjs runs the same cases
// through the wasm module.

// hostileEvents are small hostile events; they also seed the fuzz targets.
func hostileEvents() []string {
	return []string{
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","del`,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"x"`,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":{"a":1}}`,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":["m1"],"delta":"x"}`,
		`{"type":"TOOL_CALL_ARGS","toolCallId":7,"delta":"x"}`,
		`{"type":"RUN_STARTED","threadId":5,"runId":"r"}`,
		`{"type":"RUN_FINISHED","threadId":"t","runId":"r1","outcome":"weird"}`,
		`{"type":"TEXT_MESSAGE_START","messageId":"m9","role":"wizard"}`,
		`{"type":"TOOL_CALL_RESULT","messageId":"r9","toolCallId":"c1","content":{"a":1}}`,
		`{"type":"MESSAGES_SNAPSHOT","messages":[1]}`,
		`{"type":"STATE_DELTA","delta":{}}`,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"x","timestamp":"now"}`,
		"{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"a\xff\xfe\\u0000\\u001f\\ud800b\\u202e\"}",
		"{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"a\x01\"}",
		`{"type":"STATE_SNAPSHOT","snapshot":NaN}`,
		`{"type":"STATE_SNAPSHOT","snapshot":{"n":Infinity}}`,
		`{"type":"STATE_DELTA","delta":[{"op":"add","path":"/big","value":1e400},{"op":"add","path":"/neg","value":-1e-400},{"op":"add","path":"/long","value":123456789012345678901234567890}]}`,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"nope","delta":"x"}`,
		`{"type":"TEXT_MESSAGE_END","messageId":"nope"}`,
		`{"type":"REASONING_MESSAGE_CONTENT","messageId":"nope","delta":"x"}`,
		`{"type":"TOOL_CALL_ARGS","toolCallId":"nope","delta":"{}"}`,
		`{"type":"TOOL_CALL_END","toolCallId":"nope"}`,
		`{"type":"TOOL_CALL_RESULT","messageId":"r9","toolCallId":"nope","content":"x"}`,
		`{"type":"ACTIVITY_DELTA","messageId":"nope","activityType":"P","patch":[]}`,
		`{"type":"STEP_FINISHED","stepName":"nope"}`,
		`{"type":"RUN_FINISHED","threadId":"t","runId":"other"}`,
		`{"type":"STATE_DELTA","delta":[{"op":"replace","path":"/n","value":2},{"op":"add","path":"/a/b/-","value":4},{"op":"remove","path":"/a/b/7"}]}`,
		`{"type":"ACTIVITY_DELTA","messageId":"act","activityType":"P","patch":[{"op":"add","path":"/x","value":2},{"op":"remove","path":"/nope"}]}`,
		`{"type":"STATE_DELTA","delta":[{"op":"add","path":"/__proto__/polluted","value":true}]}`,
		`{"type":"STATE_SNAPSHOT","snapshot":{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":1}},"prototype":1}}`,
		`{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"{\"__proto__\":{\"polluted\":1},\"constructor\":{\"prototype\":{\"x\":1}}}","metadata":{"__proto__":{"polluted":2}}}`,
		`{"type":"ACTIVITY_SNAPSHOT","messageId":"act","activityType":"P","content":{"__proto__":{"polluted":3}}}`,
		`{"type":"CUSTOM","name":"__proto__","value":{"__proto__":{"polluted":4}}}`,
		`{"type":"TEXT_MESSAGE_CHUNK","delta":"x"}`,
		`{"type":"TOOL_CALL_CHUNK","toolCallId":"c7","delta":"x"}`,
		`{"type":"FROM_THE_FUTURE"}`,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"x","type":"CUSTOM"}`,
		`[]`, `null`, `""`, `{}`, ``, ` `, `{"type":null}`,
	}
}

// hostileCheck folds hostileBase, then ev, and checks the invariants; the
// reducer must then fold a valid event.
func hostileCheck(t *testing.T, opt Options, ev string) *Change {
	t.Helper()
	k := newChecker(t, opt)
	for _, l := range hostileBase {
		k.apply(t, "", []byte(l))
	}
	var c Change
	k.r.ApplyInto(&c, []byte(ev))
	k.check(t, &c, []byte(ev))
	got := c
	got.Diagnostics = append([]Diagnostic(nil), c.Diagnostics...)
	k.finish(t)
	c = Change{}
	k.r.ApplyInto(&c, []byte(`{"type":"CUSTOM","name":"next","value":1}`))
	require.False(t, refused(&c), "next valid event: %+v", c.Diagnostics)
	require.Len(t, c.Events, 1)
	k.check(t, &c, nil)
	return &got
}

func TestHostileInvariantsEveryOption(t *testing.T) {
	for _, ev := range hostileEvents() {
		for i, opt := range fuzzOptions() {
			hostileCheck(t, opt, ev)
			_ = i
		}
	}
}

// Every event kind that names something, naming something that does not
// exist: a warning and no change (or, where the official client creates
// what is missing, a change that keeps the invariants).
func TestHostileUnknownIDsEveryKind(t *testing.T) {
	cases := []struct {
		event string
		codes []string
		same  bool
	}{
		{`{"type":"TEXT_MESSAGE_CONTENT","messageId":"nope","delta":"x"}`, []string{"unknown_message"}, true},
		{`{"type":"TEXT_MESSAGE_END","messageId":"nope"}`, []string{"unknown_message"}, true},
		{`{"type":"REASONING_MESSAGE_CONTENT","messageId":"nope","delta":"x"}`, []string{"unknown_message"}, true},
		{`{"type":"REASONING_MESSAGE_END","messageId":"nope"}`, []string{"unknown_message"}, true},
		{`{"type":"TOOL_CALL_ARGS","toolCallId":"nope","delta":"{}"}`, []string{"unknown_tool_call"}, true},
		{`{"type":"TOOL_CALL_END","toolCallId":"nope"}`, []string{"unknown_tool_call"}, true},
		{`{"type":"ACTIVITY_DELTA","messageId":"nope","activityType":"P","patch":[]}`, []string{"unknown_message"}, true},
		{`{"type":"ACTIVITY_DELTA","messageId":"m1","activityType":"P","patch":[]}`, []string{"not_activity"}, true},
		{`{"type":"REASONING_ENCRYPTED_VALUE","subtype":"message","entityId":"nope","encryptedValue":"e"}`, []string{}, true},
		{`{"type":"REASONING_ENCRYPTED_VALUE","subtype":"tool-call","entityId":"nope","encryptedValue":"e"}`, []string{}, true},
		{`{"type":"STEP_FINISHED","stepName":"nope"}`, []string{"unknown_step"}, true},
		{`{"type":"THINKING_TEXT_MESSAGE_END"}`, []string{}, true},
		{`{"type":"TEXT_MESSAGE_CHUNK","delta":"x"}`, []string{"bad_chunk"}, true},
		{`{"type":"REASONING_MESSAGE_CHUNK","delta":"x"}`, []string{"bad_chunk"}, true},
		{`{"type":"TOOL_CALL_CHUNK","delta":"x"}`, []string{"bad_chunk"}, true},
		// The official client creates what is missing here.
		{`{"type":"TOOL_CALL_RESULT","messageId":"r9","toolCallId":"nope","content":"x"}`, []string{}, false},
		{`{"type":"TOOL_CALL_START","toolCallId":"c9","toolCallName":"f","parentMessageId":"nope"}`, []string{}, false},
		{`{"type":"THINKING_TEXT_MESSAGE_CONTENT","delta":"x"}`, []string{}, false},
		{`{"type":"RUN_FINISHED","threadId":"t","runId":"nope"}`, []string{}, false},
		{`{"type":"RUN_ERROR","message":"boom"}`, []string{}, false},
	}
	for _, tc := range cases {
		r := New(Options{})
		foldLines(t, r, hostileBase)
		before := r.Snapshot()
		cs := foldLines(t, r, []string{tc.event})
		got := []string{}
		for _, d := range cs[0].Diagnostics {
			got = append(got, d.Code)
		}
		assert.Equal(t, tc.codes, got, tc.event)
		if tc.same {
			assert.Equal(t, string(before), string(r.Snapshot()), tc.event)
		}
		hostileCheck(t, Options{}, tc.event)
		hostileCheck(t, Options{Strict: true}, tc.event)
	}
}

// CONTENT before START, END twice, RESULT for an unknown call, RUN_FINISHED
// without RUN_STARTED: tolerated by default, reported by strict mode, and
// never a crash or a half-applied event.
func TestHostileOrdering(t *testing.T) {
	events := []string{
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"early"}`,
		`{"type":"RUN_FINISHED","threadId":"t","runId":"r0"}`,
		`{"type":"TOOL_CALL_RESULT","messageId":"res","toolCallId":"ghost","content":"42"}`,
		`{"type":"TEXT_MESSAGE_START","messageId":"m","role":"assistant"}`,
		`{"type":"TEXT_MESSAGE_END","messageId":"m"}`,
		`{"type":"TEXT_MESSAGE_END","messageId":"m"}`,
		`{"type":"TOOL_CALL_END","toolCallId":"c"}`,
		`{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"f"}`,
		`{"type":"TOOL_CALL_END","toolCallId":"c"}`,
		`{"type":"TOOL_CALL_END","toolCallId":"c"}`,
		`{"type":"RUN_FINISHED","threadId":"t","runId":"r0"}`,
		`{"type":"RUN_STARTED","threadId":"t","runId":"r1"}`,
		`{"type":"RUN_STARTED","threadId":"t","runId":"r1"}`,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":" late"}`,
		`{"type":"RUN_FINISHED","threadId":"t","runId":"r1"}`,
	}
	tolerant := New(Options{})
	cs := foldLines(t, tolerant, events)
	for _, c := range cs {
		assert.False(t, c.HasError(), "tolerant mode: %+v", c.Diagnostics)
	}
	strict := New(Options{Strict: true})
	cs = foldLines(t, strict, events)
	orders := 0
	for _, c := range cs {
		for _, d := range c.Diagnostics {
			if d.Code == "order" {
				orders++
				assert.Equal(t, LevelError, d.Level)
			}
		}
	}
	assert.Greater(t, orders, 3, "strict mode reports the violations")
	// Strict mode reports, it does not refuse: both states are the same.
	assert.Equal(t, string(tolerant.Snapshot()), string(strict.Snapshot()))
	s := snapshotOf(t, strict)
	assert.Equal(t, " late", msg(s, 1)["content"], "CONTENT before START is dropped; later content applies")
	for _, opt := range fuzzOptions() {
		k := newChecker(t, opt)
		for _, e := range events {
			k.apply(t, "", []byte(e))
		}
		k.finish(t)
	}
}

// The three limits, end to end: beyond each, a too_large (or bad_json for
// depth) error, the event skipped whole, and the next event folds.
func TestHostileLimits(t *testing.T) {
	start := []string{
		`{"type":"RUN_STARTED","threadId":"t","runId":"r"}`,
		`{"type":"TEXT_MESSAGE_START","messageId":"m","role":"assistant"}`,
		`{"type":"REASONING_MESSAGE_START","messageId":"m","role":"reasoning"}`,
		`{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"f","parentMessageId":"m"}`,
	}
	cases := []struct {
		name   string
		opt    Options
		events []string
		code   string
	}{
		{"event size", Options{MaxEventBytes: 100}, []string{`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"` + strings.Repeat("x", 100) + `"}`}, "too_large"},
		{"depth", Options{MaxDepth: 4}, []string{`{"type":"CUSTOM","name":"x","value":[[[[1]]]]}`}, "bad_json"},
		{"depth in a patch", Options{MaxDepth: 5}, []string{`{"type":"STATE_DELTA","delta":[{"op":"add","path":"/x","value":[[[1]]]}]}`}, "bad_json"},
		{"text field", Options{MaxFieldBytes: 8}, []string{`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"12345"}`, `{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"6789"}`}, "too_large"},
		{"reasoning field", Options{MaxFieldBytes: 8}, []string{`{"type":"REASONING_MESSAGE_CONTENT","messageId":"m","delta":"12345"}`, `{"type":"REASONING_MESSAGE_CONTENT","messageId":"m","delta":"6789"}`}, "too_large"},
		{"tool arguments", Options{MaxFieldBytes: 8}, []string{`{"type":"TOOL_CALL_ARGS","toolCallId":"c","delta":"{\"a\":"}`, `{"type":"TOOL_CALL_ARGS","toolCallId":"c","delta":"12345"}`}, "too_large"},
		{"open text chunk", Options{MaxFieldBytes: 8}, []string{`{"type":"TEXT_MESSAGE_CHUNK","messageId":"m2","delta":"12345"}`, `{"type":"TEXT_MESSAGE_CHUNK","delta":"6789"}`}, "too_large"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := New(tc.opt)
			foldLines(t, r, start)
			for i, ev := range tc.events {
				before := r.Snapshot()
				cs := foldLines(t, r, []string{ev})
				if i < len(tc.events)-1 {
					require.False(t, cs[0].HasError(), "%+v", cs[0].Diagnostics)
					continue
				}
				require.Len(t, cs[0].Diagnostics, 1)
				assert.Equal(t, tc.code, cs[0].Diagnostics[0].Code)
				assert.Equal(t, LevelError, cs[0].Diagnostics[0].Level)
				assert.Empty(t, cs[0].Ops)
				assert.Equal(t, string(before), string(r.Snapshot()), "skipped, not truncated")
			}
			cs := foldLines(t, r, []string{`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"ok"}`})
			require.False(t, cs[0].HasError())
		})
	}

	// Through the SSE stream: a frame over MaxEventBytes is skipped by the
	// parser with a too_large record; the next frame folds.
	r := New(Options{MaxEventBytes: 200})
	var got []string
	s := r.NewStream()
	body := "data: " + start[0] + "\n\ndata: {\"type\":\"CUSTOM\",\"name\":\"" + strings.Repeat("x", 300) + "\"}\n\ndata: " + start[1] + "\n\n"
	for i := 0; i < len(body); i += 7 {
		s.Feed([]byte(body[i:min(i+7, len(body))]), func(c *Change) {
			for _, d := range c.Diagnostics {
				got = append(got, d.Code)
			}
		})
	}
	assert.Equal(t, []string{"too_large"}, got)
	assert.Len(t, r.State().Messages, 1)
}

// __proto__, constructor and prototype keys are data wherever they appear:
// state, metadata, tool arguments (streamed), activity content, citations.
func TestHostileProtoKeys(t *testing.T) {
	r := New(Options{})
	foldLines(t, r, []string{
		`{"type":"RUN_STARTED","threadId":"t","runId":"r"}`,
		`{"type":"TEXT_MESSAGE_START","messageId":"m","role":"assistant","metadata":{"__proto__":{"polluted":1}}}`,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"hi","metadata":{"constructor":{"prototype":{"polluted":1}}}}`,
		`{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"f","parentMessageId":"m"}`,
		`{"type":"TOOL_CALL_ARGS","toolCallId":"c","delta":"{\"__pro"}`,
		`{"type":"TOOL_CALL_ARGS","toolCallId":"c","delta":"to__\":{\"polluted\":"}`,
		`{"type":"TOOL_CALL_ARGS","toolCallId":"c","delta":"1},\"prototype\":[1]}"}`,
		`{"type":"TOOL_CALL_END","toolCallId":"c"}`,
		`{"type":"STATE_SNAPSHOT","snapshot":{"__proto__":{"polluted":1},"citations":{"m":[{"url":"https://e.x","__proto__":{"polluted":1}}]}}}`,
		`{"type":"STATE_DELTA","delta":[{"op":"add","path":"/constructor","value":{"prototype":{"polluted":1}}}]}`,
		`{"type":"ACTIVITY_SNAPSHOT","messageId":"a","activityType":"P","content":{"__proto__":{"polluted":1}}}`,
	})
	// Patches through a __proto__ path are refused whole, as fast-json-patch
	// (the official client's) refuses them.
	for _, ev := range []string{
		`{"type":"STATE_DELTA","delta":[{"op":"add","path":"/ok","value":1},{"op":"add","path":"/__proto__/more","value":2}]}`,
		`{"type":"ACTIVITY_DELTA","messageId":"a","activityType":"P","patch":[{"op":"add","path":"/__proto__/x","value":1}]}`,
	} {
		cs := foldLines(t, r, []string{ev})
		assert.Equal(t, []string{"patch_failed"}, codes(cs), ev)
	}
	snap := string(r.Snapshot())
	assert.Contains(t, snap, `"metadata":{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}}}`)
	assert.Contains(t, snap, `"args":{"__proto__":{"polluted":1},"prototype":[1]}`)
	assert.Contains(t, snap, `"state":{"__proto__":{"polluted":1},"citations":{"m":[{"url":"https://e.x","__proto__":{"polluted":1}}]},"constructor":{"prototype":{"polluted":1}}}`)
	assert.Contains(t, snap, `"citations":[{"url":"https://e.x","extra":{"__proto__":{"polluted":1}}}]`)
	assert.Contains(t, snap, `"content":{"__proto__":{"polluted":1}}`)
	r2 := New(Options{})
	_, err := r2.Restore(r.Snapshot())
	require.NoError(t, err)
	assert.Equal(t, snap, string(r2.Snapshot()))
}

// A duplicated stream (a reconnect replaying history) converges to the
// state of one copy, through Apply and through the SSE Stream.
func TestHostileReplaySSE(t *testing.T) {
	for _, name := range []string{"01_text_basic", "03_parallel_tools", "07_shared_state_citations", "09_activity"} {
		lines := readLines(t, "../testdata/streams/"+name+".jsonl")
		once := New(Options{})
		foldLines(t, once, lines)
		body := []byte{}
		for _, l := range lines {
			body = append(body, "data: "+l+"\n\n"...)
		}
		twice := New(Options{})
		s := twice.NewStream()
		s.Feed(append(append([]byte{}, body...), body...), func(*Change) {})
		assert.Equal(t, string(once.Snapshot()), string(twice.Snapshot()), name)
	}
}

// BUG: a *_CHUNK event is expanded into START + CONTENT (or ARGS); when
// the CONTENT part is refused (too_large beyond MaxFieldBytes), the START
// part has already been applied, so an event reported as refused with an
// error diagnostic changed the state (a new empty message or tool call).
// Likewise any refused event (a TOOL_CALL_CHUNK without toolCallName, a
// failing STATE_DELTA) while a chunk stream is open first closes it (its
// END applied: the message stops streaming). SPEC.md §7: the state stays
// as it was before the event.
func TestBugChunkPartiallyApplied(t *testing.T) {

	for _, ev := range []string{
		`{"type":"TEXT_MESSAGE_CHUNK","messageId":"n1","delta":"0123456789"}`,
		`{"type":"TOOL_CALL_CHUNK","toolCallId":"n1","toolCallName":"f","delta":"0123456789"}`,
		`{"type":"REASONING_MESSAGE_CHUNK","messageId":"n1","delta":"0123456789"}`,
	} {
		r := New(Options{MaxFieldBytes: 4})
		foldLines(t, r, hostileBase[:2])
		before := r.Snapshot()
		c := r.Apply([]byte(ev))
		assert.True(t, refused(c), ev)
		assert.Empty(t, c.Ops, ev)
		assert.Equal(t, string(before), string(r.Snapshot()), ev)
	}
	// A refused event while a text chunk is open: the open chunk's END is
	// applied first.
	for _, ev := range []string{
		`{"type":"TOOL_CALL_CHUNK","toolCallId":"c"}`,
		`{"type":"STATE_DELTA","delta":[{"op":"remove","path":"/nope"}]}`,
	} {
		r := New(Options{})
		foldLines(t, r, []string{`{"type":"TEXT_MESSAGE_CHUNK","messageId":"n1","delta":"01"}`})
		before := r.Snapshot()
		c := r.Apply([]byte(ev))
		assert.True(t, c.HasError(), ev)
		assert.Equal(t, string(before), string(r.Snapshot()), ev)
	}
}

// BUG: TEXT_MESSAGE_CHUNK's role is not validated as TEXT_MESSAGE_START's
// is (developer, system, assistant, user): a chunk creates messages with
// role "bad", "tool" (without toolCallId) or "activity" (string content).
func TestBugChunkRoleNotValidated(t *testing.T) {

	for _, role := range []string{"bad", "tool", "activity"} {
		r := New(Options{})
		c := r.Apply([]byte(`{"type":"TEXT_MESSAGE_CHUNK","messageId":"n","role":"` + role + `","delta":"x"}`))
		assert.Equal(t, []string{"bad_event"}, codes([]*Change{c}), role)
		assert.Empty(t, r.State().Messages, role)
	}
}

// BUG: Restore parses a snapshot with the reducer's MaxDepth, but the
// snapshot nests values deeper than the events that carried them
// (activity content +2, tool arguments +2 — they arrive as a string — and
// a state grown by successive STATE_DELTA adds is not bounded at all), so a
// reducer cannot restore its own snapshot: restore(snapshot()) fails with
// bad_snapshot.
func TestBugRestoreDeepValues(t *testing.T) {

	nest := func(n int) string { return strings.Repeat(`{"a":`, n) + `1` + strings.Repeat(`}`, n) }
	cases := map[string][]string{
		"activity content": {`{"type":"ACTIVITY_SNAPSHOT","messageId":"a","activityType":"x","content":` + nest(511) + `}`},
		"tool arguments": {
			`{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"f"}`,
			`{"type":"TOOL_CALL_ARGS","toolCallId":"c","delta":"` + strings.Repeat(`[`, 511) + strings.Repeat(`]`, 511) + `"}`,
			`{"type":"TOOL_CALL_END","toolCallId":"c"}`,
		},
	}
	var deep []string
	path := ""
	for range 600 {
		deep = append(deep, `{"type":"STATE_DELTA","delta":[{"op":"add","path":"`+path+`/a","value":{}}]}`)
		path += "/a"
	}
	cases["state grown by patches"] = deep
	for name, events := range cases {
		r := New(Options{})
		for _, ev := range events {
			r.Apply([]byte(ev))
		}
		_, err := r.Restore(r.Snapshot())
		assert.NoError(t, err, name)
	}
}

// Limits given through Options are those the reducer enforces, also for
// the SSE frame size of a Stream.
func TestHostileHugeAndDeepStayBounded(t *testing.T) {
	r := New(Options{})
	foldLines(t, r, hostileBase)
	before := r.Snapshot()
	deep := strings.Repeat(`{"a":`, 100000) + `1` + strings.Repeat(`}`, 100000)
	for _, ev := range []string{
		`{"type":"STATE_SNAPSHOT","snapshot":` + deep + `}`,
		`{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"` + strings.Repeat(`[`, 100000) + `"}`,
	} {
		c := r.Apply([]byte(ev))
		if strings.Contains(ev, "STATE_SNAPSHOT") {
			assert.Equal(t, "bad_json", c.Diagnostics[0].Code)
			assert.True(t, bytes.Equal(before, r.Snapshot()))
		} else {
			// Streamed arguments are text: accepted as argsText, their
			// parse stops at MaxDepth (bad_args at END, args {}).
			assert.False(t, c.HasError(), "%+v", c.Diagnostics)
		}
	}
	c := r.Apply([]byte(`{"type":"TOOL_CALL_END","toolCallId":"c1"}`))
	assert.False(t, c.HasError())
	s := snapshotOf(t, r)
	assert.Equal(t, map[string]any{}, tool(s, 0)["args"])
	r2 := New(Options{})
	_, err := r2.Restore(r.Snapshot())
	require.NoError(t, err)
}

// BUG: Stream.Feed reports a frame the SSE parser skipped (too_large) after
// the changes of every frame completed by the same Feed call, so the
// diagnostics do not come in stream order: a too-large frame followed by a
// valid one in one chunk yields [ok, too_large].
func TestBugStreamErrorOrder(t *testing.T) {

	r := New(Options{MaxEventBytes: 64})
	var got []string
	s := r.NewStream()
	s.Feed([]byte("data: {\"type\":\"CUSTOM\",\"name\":\""+strings.Repeat("n", 100)+"\"}\n\ndata: {\"type\":\"CUSTOM\",\"name\":\"ok\",\"value\":1}\n\n"), func(c *Change) {
		for _, d := range c.Diagnostics {
			got = append(got, d.Code)
		}
		for _, e := range c.Events {
			got = append(got, e.Name)
		}
	})
	assert.Equal(t, []string{"too_large", "ok"}, got)
}

// BUG: RUN_STARTED whose input.messages holds a bad message (no id, not an
// object, unknown role) reports it with an error-level diagnostic
// (bad_event / bad_message, "message: id is required"), yet the event is
// applied: the run starts, runId changes, the good input messages are
// appended. README and SPEC.md §7 say an error-level diagnostic means the
// event was refused and the state is as before. Either refuse the whole
// event (validate every input message first) or report the skipped message
// as a warning. Found by FuzzApply (testdata/fuzz/FuzzApply/found-run-started-bad-input).
func TestBugRunStartedBadInputMessage(t *testing.T) {

	for _, ev := range []string{
		`{"type":"RUN_STARTED","threadId":"t","runId":"r2","input":{"messages":[{"id":"x","role":"user","content":"hi"},{}]}}`,
		`{"type":"RUN_STARTED","threadId":"t","runId":"r2","input":{"messages":[1]}}`,
		`{"type":"RUN_STARTED","threadId":"t","runId":"r2","input":{"messages":[{"id":"y","role":"wizard","content":"x"}]}}`,
	} {
		r := New(Options{})
		foldLines(t, r, hostileBase)
		before := r.Snapshot()
		c := r.Apply([]byte(ev))
		if c.HasError() {
			assert.Empty(t, c.Ops, ev)
			assert.Equal(t, string(before), string(r.Snapshot()), ev)
		}
	}
}
