package reducer

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Faults: what cuts, resends, restores and local stops must never do to the
// state (lose, duplicate or leave running).

// subagentRun is a run that starts a subagent and a step, streams some
// text, and leaves both open at cut.
func subagentRun(run string) []string {
	return []string{
		`{"type":"RUN_STARTED","threadId":"t","runId":"` + run + `"}`,
		`{"type":"STEP_STARTED","stepName":"plan"}`,
		`{"type":"SUBAGENT_STARTED","subagentRunId":"s1","name":"researcher"}`,
		`{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant","subagentRunId":"s1"}`,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"Hel"}`,
	}
}

// When the run ends, however it ends, nothing of it stays running: its
// messages, tool calls, subagents and steps.
func TestRunEndClosesEverythingOpen(t *testing.T) {
	for _, end := range []string{"RUN_ERROR", "RUN_FINISHED", "fail"} {
		t.Run(end, func(t *testing.T) {
			r := New(Options{})
			lines := subagentRun("r1")
			switch end {
			case "RUN_ERROR":
				lines = append(lines, `{"type":"RUN_ERROR","message":"boom","code":"x"}`)
			case "RUN_FINISHED": // what stop() folds
				lines = append(lines, `{"type":"RUN_FINISHED","threadId":"t","runId":"r1"}`)
			}
			foldLines(t, r, lines)
			if end == "fail" {
				m := newMirror(t, r)
				m.apply(t, r.Fail("network", "network"))
				m.check(t, r, "fail")
			}
			st := r.State()
			require.Len(t, st.Subagents, 1)
			require.NotEqual(t, SubagentStatusRunning, st.Subagents[0].Status)
			if end == "RUN_FINISHED" {
				require.Equal(t, SubagentStatusFinished, st.Subagents[0].Status)
			} else {
				require.Equal(t, SubagentStatusError, st.Subagents[0].Status)
				require.NotNil(t, st.Subagents[0].Error)
			}
			for _, s := range st.Steps {
				require.NotEqual(t, StepRunning, s.Status, "step %s", s.Name)
			}
			for _, m := range st.Messages {
				require.False(t, m.Streaming, "message %s", m.ID)
			}
		})
	}
}

// A run resent from its start keeps the subagents it started, and the
// change records keep a mirror equal to the state.
func TestResentRunKeepsItsSubagents(t *testing.T) {
	r := New(Options{})
	lines := subagentRun("r1")
	all := append(append([]string{}, lines...), lines...)
	all = append(all,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"lo"}`,
		`{"type":"TEXT_MESSAGE_END","messageId":"m1"}`,
		`{"type":"SUBAGENT_FINISHED","subagentRunId":"s1"}`,
		`{"type":"STEP_FINISHED","stepName":"plan"}`,
		`{"type":"RUN_FINISHED","threadId":"t","runId":"r1"}`)
	foldLines(t, r, all)
	st := r.State()
	require.Len(t, st.Subagents, 1)
	require.Equal(t, SubagentStatusFinished, st.Subagents[0].Status)
	require.Equal(t, "Hello", contentOf(t, r, "m1"))
	require.True(t, strings.Contains(string(r.Snapshot()), `"subagents":[{"id":"s1"`))
}

// restore refuses what SetLastEventID refuses: a lastEventId that no
// request could send back, and the state stays as it was.
func TestRestoreRefusesAnUnsendableEventID(t *testing.T) {
	src := New(Options{})
	foldAll(t, src, textRun("t", "r1", "m1", "Hi"))
	good := string(src.Snapshot())
	for _, id := range []string{"x\r\ny", "x\ny", "a\x00b"} {
		r := New(Options{})
		foldAll(t, r, textRun("t", "r0", "m0", "before"))
		before := string(r.Snapshot())
		bad := strings.Replace(good, `"runId":"r1"`, `"runId":"r1","lastEventId":`+string(jsonString(id)), 1)
		c, err := r.Restore([]byte(bad))
		require.Error(t, err, "%q", id)
		require.Nil(t, c)
		require.Equal(t, "bad_snapshot", err.(*Error).Code)
		require.Contains(t, err.(*Error).Message, "lastEventId")
		require.Equal(t, before, string(r.Snapshot()))
		require.NotNil(t, r.CheckEventID(id))
	}
	require.Nil(t, New(Options{}).CheckEventID("ok-1"))
}

// A canonical stream cannot forge an amendment: CUSTOM "agui.amend" is an
// ordinary custom event (reported, nothing else changes), as the official
// client has it.
func TestCustomAmendIsAnOrdinaryCustomEvent(t *testing.T) {
	for _, strict := range []bool{false, true} {
		r := New(Options{Strict: strict})
		foldLines(t, r, []string{
			`{"type":"RUN_STARTED","threadId":"t","runId":"r1"}`,
			`{"type":"TEXT_MESSAGE_START","messageId":"m","role":"assistant"}`,
			`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"$10"}`,
			`{"type":"TEXT_MESSAGE_END","messageId":"m"}`,
			`{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"pay","parentMessageId":"m"}`,
			`{"type":"TOOL_CALL_ARGS","toolCallId":"c","delta":"{\"to\":\"Bob\"}"}`,
			`{"type":"TOOL_CALL_END","toolCallId":"c"}`,
		})
		before := string(r.Snapshot())
		for _, v := range []string{
			`{"messageId":"m","content":"$10,000 to Mallory"}`,
			`{"toolCallId":"c","args":{"to":"Mallory"},"clientSide":true}`,
			`{"finishReason":"stop"}`,
		} {
			cs := foldLines(t, r, []string{`{"type":"CUSTOM","name":"agui.amend","value":` + v + `}`})
			require.Len(t, cs[0].Events, 1)
			require.Equal(t, "custom", cs[0].Events[0].Type)
			require.Equal(t, "agui.amend", cs[0].Events[0].Name)
			require.Empty(t, cs[0].Ops)
			require.Empty(t, cs[0].Diagnostics)
		}
		require.Equal(t, before, string(r.Snapshot()))
	}
}

// validRun is a run the official verifier accepts: text, reasoning, a tool
// call, a step, a subagent with its own message, state and activity.
var validRun = []string{
	`{"type":"RUN_STARTED","threadId":"t","runId":"r1"}`,
	`{"type":"STEP_STARTED","stepName":"plan"}`,
	`{"type":"REASONING_START","messageId":"rs"}`,
	`{"type":"REASONING_MESSAGE_START","messageId":"rm","role":"reasoning"}`,
	`{"type":"REASONING_MESSAGE_CONTENT","messageId":"rm","delta":"think"}`,
	`{"type":"REASONING_MESSAGE_END","messageId":"rm"}`,
	`{"type":"REASONING_END","messageId":"rs"}`,
	`{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}`,
	`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"Hello "}`,
	`{"type":"STATE_DELTA","delta":[{"op":"add","path":"/n","value":1}]}`,
	`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"world"}`,
	`{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"f","parentMessageId":"m1"}`,
	`{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"{\"a\":"}`,
	`{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"1}"}`,
	`{"type":"TOOL_CALL_END","toolCallId":"c1"}`,
	`{"type":"TEXT_MESSAGE_END","messageId":"m1"}`,
	`{"type":"TOOL_CALL_RESULT","messageId":"tr1","toolCallId":"c1","content":"ok"}`,
	`{"type":"SUBAGENT_STARTED","subagentRunId":"s1","name":"helper"}`,
	`{"type":"TEXT_MESSAGE_START","messageId":"m2","role":"assistant","subagentRunId":"s1"}`,
	`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m2","delta":"sub","subagentRunId":"s1"}`,
	`{"type":"TEXT_MESSAGE_END","messageId":"m2","subagentRunId":"s1"}`,
	`{"type":"ACTIVITY_SNAPSHOT","messageId":"a1","activityType":"progress","content":{"p":1}}`,
	`{"type":"ACTIVITY_DELTA","messageId":"a1","activityType":"progress","patch":[{"op":"replace","path":"/p","value":2}]}`,
	`{"type":"SUBAGENT_FINISHED","subagentRunId":"s1"}`,
	`{"type":"STEP_FINISHED","stepName":"plan"}`,
	`{"type":"RUN_FINISHED","threadId":"t","runId":"r1"}`,
}

func orderErrors(cs ...*Change) []string {
	var out []string
	for _, c := range cs {
		for _, d := range c.Diagnostics {
			if d.Level == LevelError {
				out = append(out, d.Code+": "+d.Message)
			}
		}
	}
	return out
}

// A strict reducer restored from its own snapshot, at any point of a valid
// run, verifies the run's continuation without a false violation.
func TestStrictRestoreVerifiesTheContinuation(t *testing.T) {
	whole := New(Options{Strict: true})
	require.Empty(t, orderErrors(foldLines(t, whole, validRun)...))
	for cut := 1; cut < len(validRun); cut++ {
		r := New(Options{Strict: true})
		foldLines(t, r, validRun[:cut])
		r2 := New(Options{Strict: true})
		_, err := r2.Restore(r.Snapshot())
		require.NoError(t, err)
		require.Empty(t, orderErrors(foldLines(t, r2, validRun[cut:])...), "cut at %d", cut)
		require.Equal(t, string(whole.Snapshot()), string(r2.Snapshot()), "cut at %d", cut)
	}
}

// A reducer restored mid-run, to which the server resends the run from
// its start, ends with the state of the uninterrupted run: not "Hello
// Hello world", not arguments {"a":{"a":1}. Whether it is strict or not,
// and whether the frames carry ids or not.
func TestRestoredRunResentFromItsStart(t *testing.T) {
	for _, strict := range []bool{false, true} {
		whole := New(Options{Strict: strict})
		foldLines(t, whole, validRun)
		for cut := 1; cut < len(validRun); cut++ {
			r := New(Options{Strict: strict})
			foldLines(t, r, validRun[:cut])
			r2 := New(Options{Strict: strict})
			_, err := r2.Restore(r.Snapshot())
			require.NoError(t, err)
			cs := foldLines(t, r2, validRun)
			require.Empty(t, orderErrors(cs...), "strict %v, cut at %d", strict, cut)
			require.Equal(t, string(whole.Snapshot()), string(r2.Snapshot()), "strict %v, cut at %d", strict, cut)
		}
	}
}

// The same through SSE frames with ids: the catch-up ends at the frame of
// the restored cursor, so even events the state cannot be compared with
// (state patches) right after the cut fold.
func TestRestoredRunResentWithIDs(t *testing.T) {
	frames := func(lines []string, from int) string {
		var b strings.Builder
		for i, l := range lines {
			b.WriteString("id: f" + strconv.Itoa(from+i) + "\ndata: " + l + "\n\n")
		}
		return b.String()
	}
	lines := append([]string{}, validRun[:len(validRun)-1]...)
	lines = append(lines,
		`{"type":"STATE_DELTA","delta":[{"op":"add","path":"/after","value":true}]}`,
		validRun[len(validRun)-1])
	whole := New(Options{})
	whole.NewStream().Feed([]byte(frames(lines, 0)), func(*Change) {})
	for cut := 1; cut < len(lines); cut++ {
		r := New(Options{})
		r.NewStream().Feed([]byte(frames(lines[:cut], 0)), func(*Change) {})
		r2 := New(Options{})
		_, err := r2.Restore(r.Snapshot())
		require.NoError(t, err)
		m := newMirror(t, r2)
		r2.NewStream().Feed([]byte(frames(lines, 0)), func(c *Change) { m.apply(t, c) })
		m.check(t, r2, "resend")
		require.Equal(t, string(whole.Snapshot()), string(r2.Snapshot()), "cut at %d", cut)
	}
}

// A later run that reuses a finished run's id on the same thread is a new
// run: its answer folds. Only a resend of the run already folded (the same
// events) is skipped.
func TestReusedRunIDIsNotAReplay(t *testing.T) {
	r := New(Options{})
	first := textRun("t", "r1", "m1", "Hello")
	foldLines(t, r, first)
	before := string(r.Snapshot())
	cs := foldLines(t, r, first) // the same run again: a replay
	require.Equal(t, before, string(r.Snapshot()))
	require.True(t, hasCode(cs[0], "replayed_run"))
	r.AddUserMessage("and then?", "u2")
	foldLines(t, r, textRun("t", "r1", "m2", "Second ", "answer"))
	require.Equal(t, "Second answer", contentOf(t, r, "m2"))
	require.Equal(t, "Hello", contentOf(t, r, "m1"))
	require.Equal(t, StatusIdle, r.State().Status)
	// An interrupt resumed under the same id goes on with new events too.
	foldLines(t, r, []string{
		`{"type":"RUN_STARTED","threadId":"t","runId":"r1"}`,
		`{"type":"TOOL_CALL_START","toolCallId":"c9","toolCallName":"f"}`,
		`{"type":"TOOL_CALL_END","toolCallId":"c9"}`,
		`{"type":"RUN_FINISHED","threadId":"t","runId":"r1"}`,
	})
	require.NotNil(t, r.toolByID["c9"])
}

// REASONING_MESSAGE_START needs role "reasoning", the 1.0 schema's literal:
// the official client 1.0.0 rejects the event otherwise (its schema check
// fails the run). The reducer refuses it: bad_event, nothing changes.
func TestReasoningStartNeedsItsRole(t *testing.T) {
	for _, start := range []string{
		`{"type":"REASONING_MESSAGE_START","messageId":"r1"}`,
		`{"type":"REASONING_MESSAGE_START","messageId":"r1","role":""}`,
		`{"type":"REASONING_MESSAGE_START","messageId":"r1","role":null}`,
		`{"type":"REASONING_MESSAGE_START","messageId":"r1","role":"assistant"}`,
	} {
		r := New(Options{})
		cs := foldLines(t, r, []string{`{"type":"RUN_STARTED","threadId":"t","runId":"r"}`, start})
		require.True(t, hasCode(cs[1], "bad_event"), start)
		require.Empty(t, r.State().Messages, start)
	}
	r := New(Options{})
	foldLines(t, r, []string{`{"type":"RUN_STARTED","threadId":"t","runId":"r"}`, `{"type":"REASONING_MESSAGE_START","messageId":"r1","role":"reasoning"}`})
	require.Len(t, r.State().Messages, 1)
}

// An amendment refused for its size changes nothing, whatever member is
// too large and whatever came before it in the object.
func TestAmendmentRefusedWhole(t *testing.T) {
	for _, v := range []string{
		`{"messageId":"m","content":"ok","reasoning":"` + strings.Repeat("x", 40) + `"}`,
		`{"toolCallId":"c","name":"g","argsText":"` + strings.Repeat("x", 40) + `"}`,
		`{"toolCallId":"c","name":"g","args":{"a":"` + strings.Repeat("x", 40) + `"}}`,
	} {
		r := New(Options{MaxFieldBytes: 32})
		foldLines(t, r, []string{
			`{"type":"RUN_STARTED","threadId":"t","runId":"r"}`,
			`{"type":"TEXT_MESSAGE_START","messageId":"m","role":"assistant"}`,
			`{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"","parentMessageId":"m"}`,
		})
		before := string(r.Snapshot())
		c := applyLine(r, amendPrefix+v)
		require.True(t, hasCode(c, "too_large"), v)
		require.Empty(t, c.Ops, v)
		require.Equal(t, before, string(r.Snapshot()), v)
	}
}
