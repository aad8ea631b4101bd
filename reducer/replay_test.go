package reducer

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func foldAll(t testing.TB, r *Reducer, lines []string) {
	t.Helper()
	for _, l := range lines {
		applyLine(r, l)
	}
}

func contentOf(t testing.TB, r *Reducer, id string) string {
	t.Helper()
	m := r.msgByID[id]
	require.NotNil(t, m, "message %s", id)
	s, _ := m.Content().(string)
	return s
}

func textRun(thread, run, msg string, words ...string) []string {
	out := []string{
		`{"type":"RUN_STARTED","threadId":"` + thread + `","runId":"` + run + `"}`,
		`{"type":"TEXT_MESSAGE_START","messageId":"` + msg + `","role":"assistant"}`,
	}
	for _, w := range words {
		out = append(out, `{"type":"TEXT_MESSAGE_CONTENT","messageId":"`+msg+`","delta":"`+w+`"}`)
	}
	return append(out,
		`{"type":"TEXT_MESSAGE_END","messageId":"`+msg+`"}`,
		`{"type":"RUN_FINISHED","threadId":"`+thread+`","runId":"`+run+`"}`)
}

// A replay cut short never wedges the reducer: the next run folds, whether
// it follows directly or after a local action or the end of the stream.
func TestReplayCutShortDoesNotWedge(t *testing.T) {
	r1 := textRun("t", "r1", "m1", "Hello")
	r2 := textRun("t", "r2", "m2", "Bye")
	for _, between := range []string{"nothing", "endStream", "fail", "addUserMessage"} {
		t.Run(between, func(t *testing.T) {
			r := New(Options{})
			foldAll(t, r, r1)
			// A reconnect resends r1, and drops before its end.
			foldAll(t, r, r1[:3])
			switch between {
			case "endStream":
				s := r.NewStream()
				s.Close()
			case "fail":
				r.Fail("connection lost", "")
			case "addUserMessage":
				r.AddUserMessage("again", "u1")
			}
			foldAll(t, r, r2)
			require.Equal(t, "Hello", contentOf(t, r, "m1"))
			require.Equal(t, "Bye", contentOf(t, r, "m2"))
			require.Equal(t, StatusIdle, r.State().Status)
			require.Equal(t, "r2", r.State().RunID)
		})
	}
}

// Runs are told apart by thread and run id.
func TestReplaySameRunIDOtherThread(t *testing.T) {
	r := New(Options{})
	foldAll(t, r, textRun("A", "run_1", "a1", "on A"))
	foldAll(t, r, textRun("B", "run_1", "b1", "on B"))
	require.Equal(t, "on B", contentOf(t, r, "b1"))
	require.Equal(t, "B", r.State().ThreadID)
}

// A's RUN_FINISHED does not mark B as done when runs interleave.
func TestReplayInterleavedRuns(t *testing.T) {
	r := New(Options{})
	foldAll(t, r, []string{
		`{"type":"RUN_STARTED","threadId":"t","runId":"A"}`,
		`{"type":"RUN_STARTED","threadId":"t","runId":"B"}`,
		`{"type":"TEXT_MESSAGE_START","messageId":"b","role":"assistant"}`,
		`{"type":"RUN_FINISHED","threadId":"t","runId":"A"}`,
	})
	require.True(t, r.doneKeys[runKey{"t", "A"}])
	require.False(t, r.doneKeys[runKey{"t", "B"}])
	// B is resent from its start: it is folded again, not skipped.
	foldAll(t, r, textRun("t", "B", "b", "one", " two"))
	require.Equal(t, "one two", contentOf(t, r, "b"))
}

// A mid-run reconnect that resends the unfinished run from its start
// converges: no doubled text.
func TestReplayUnfinishedRunResent(t *testing.T) {
	full := textRun("t", "r", "m", "Hello", " world")
	r := New(Options{})
	foldAll(t, r, full[:3]) // RUN_STARTED, START, "Hello"
	c := r.Apply([]byte(full[0]))
	require.True(t, hasCode(c, "resent_run"), "%+v", c.Diagnostics)
	foldAll(t, r, full[1:])
	require.Equal(t, "Hello world", contentOf(t, r, "m"))
	want := New(Options{})
	foldAll(t, want, full)
	require.Equal(t, string(want.Snapshot()), string(r.Snapshot()))
}

// Deterministic run ids never name a new run like a finished one, even
// after a MESSAGES_SNAPSHOT trimmed the history they count.
func TestReplayDeterministicRunIDs(t *testing.T) {
	r := New(Options{})
	seen := map[string]bool{}
	for turn := range 16 {
		// The agent's history alternates between long and trimmed.
		n := 1
		if turn%2 == 0 {
			n = 12
		}
		var msgs []string
		for i := range n {
			msgs = append(msgs, `{"id":"h`+strconv.Itoa(i)+`","role":"user","content":"x"}`)
		}
		r.Apply([]byte(`{"type":"MESSAGES_SNAPSHOT","messages":[` + strings.Join(msgs, ",") + `]}`))
		in := string(r.RunInput(RunInputOptions{}))
		i := strings.Index(in, `"runId":"`) + len(`"runId":"`)
		run := in[i : i+strings.IndexByte(in[i:], '"')]
		require.False(t, seen[run], "turn %d: run id %s reused", turn, run)
		seen[run] = true
		msg := "a" + strconv.Itoa(turn)
		foldAll(t, r, textRun("t", run, msg, "answer"))
		require.Equal(t, "answer", contentOf(t, r, msg), "turn %d", turn)
	}
}

// canonicalStreams are the recorded streams whose every event lies inside
// a run (RUN_STARTED … RUN_FINISHED/RUN_ERROR), which a replay resends.
func canonicalStreams(t *testing.T) map[string][]string {
	files, _ := filepath.Glob("../testdata/streams/*.jsonl")
	out := map[string][]string{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		var lines []string
		for _, l := range strings.Split(string(data), "\n") {
			if strings.TrimSpace(l) != "" {
				lines = append(lines, l)
			}
		}
		inRun := false
		ok := len(lines) > 0
		for _, l := range lines {
			ev, err := DecodeEvent([]byte(l), DecodeOptions{})
			if err != nil {
				ok = false
				break
			}
			switch ev.Type {
			case RunStarted:
				inRun = true
			case RunFinished, RunError:
				inRun = false
			default:
				if !inRun {
					ok = false
				}
			}
		}
		if ok {
			out[filepath.Base(f)] = lines
		}
	}
	return out
}

// Property: a stream cut at any point and resent from its start or from
// any earlier RUN_STARTED folds to the state of the uncut stream, whether
// the two parts are applied back to back or fed as two SSE bodies.
func TestReplayCutAndResendConverges(t *testing.T) {
	streams := canonicalStreams(t)
	require.NotEmpty(t, streams)
	// Two runs back to back, the second with a tool call and state.
	streams["two-runs"] = append(textRun("t", "r1", "m1", "a", "b"),
		`{"type":"RUN_STARTED","threadId":"t","runId":"r2"}`,
		`{"type":"STATE_DELTA","delta":[{"op":"add","path":"/n","value":[1]}]}`,
		`{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"f","parentMessageId":"m1"}`,
		`{"type":"TOOL_CALL_ARGS","toolCallId":"c","delta":"{\"q\":"}`,
		`{"type":"STATE_DELTA","delta":[{"op":"add","path":"/n/-","value":2},{"op":"copy","from":"/n","path":"/m"}]}`,
		`{"type":"TOOL_CALL_ARGS","toolCallId":"c","delta":"1}"}`,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"c"}`,
		`{"type":"TOOL_CALL_END","toolCallId":"c"}`,
		`{"type":"TOOL_CALL_RESULT","messageId":"res","toolCallId":"c","content":"ok"}`,
		`{"type":"RUN_FINISHED","threadId":"t","runId":"r2"}`)
	checked := 0
	for name, lines := range streams {
		want := New(Options{})
		foldAll(t, want, lines)
		wantSnap := want.Snapshot()
		var starts []int
		for i, l := range lines {
			if strings.Contains(l, `"RUN_STARTED"`) {
				starts = append(starts, i)
			}
		}
		for cut := 0; cut <= len(lines); cut++ {
			for _, from := range starts {
				if from > cut {
					break
				}
				r := New(Options{})
				foldAll(t, r, lines[:cut])
				foldAll(t, r, lines[from:])
				if got := r.Snapshot(); !bytes.Equal(got, wantSnap) {
					t.Fatalf("%s cut at %d, resent from %d:\n got %s\nwant %s", name, cut, from, got, wantSnap)
				}
				s := New(Options{})
				feed := func(ls []string) {
					st := s.NewStream()
					for _, l := range ls {
						st.Feed([]byte("data: "+l+"\n\n"), func(*Change) {})
					}
					st.Close()
				}
				feed(lines[:cut])
				feed(lines[from:])
				if got := s.Snapshot(); !bytes.Equal(got, wantSnap) {
					t.Fatalf("%s (SSE) cut at %d, resent from %d:\n got %s\nwant %s", name, cut, from, got, wantSnap)
				}
				checked++
			}
		}
	}
	t.Logf("%d streams, %d cut/resend pairs", len(streams), checked)
}

// The rewind covers what the dialects' extension (amendments, Reducer.Amend)
// changes: a run resent from its start finds the entities it amended as
// they were when it first started, not only those the canonical events
// changed.
func TestReplayRewindCoversAmendments(t *testing.T) {
	r := New(Options{})
	foldAll(t, r, []string{
		`{"type":"RUN_STARTED","threadId":"t","runId":"r0"}`,
		`{"type":"TEXT_MESSAGE_START","messageId":"m0","role":"assistant"}`,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m0","delta":"hi"}`,
		`{"type":"TEXT_MESSAGE_END","messageId":"m0"}`,
		`{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"","parentMessageId":"m0"}`,
		`{"type":"TOOL_CALL_ARGS","toolCallId":"c","delta":"{\"a\":1}"}`,
		`{"type":"TOOL_CALL_END","toolCallId":"c"}`,
		`{"type":"RUN_FINISHED","threadId":"t","runId":"r0"}`,
	})
	start := `{"type":"RUN_STARTED","threadId":"t","runId":"r1"}`
	r.Apply([]byte(start))
	atStart := string(r.Snapshot())
	for _, l := range []string{
		amendPrefix + `{"toolCallId":"c","name":"search","argsText":"{\"b\":2}","approval":{"id":"ap"},"clientSide":true}`,
		amendPrefix + `{"finishReason":"stop"}`,
	} {
		c := applyLine(r, l)
		require.False(t, refused(c), "%s: %+v", l, c.Diagnostics)
	}
	require.NotEqual(t, atStart, string(r.Snapshot()))
	c := r.Apply([]byte(start))
	require.True(t, hasCode(c, "resent_run"))
	require.Equal(t, atStart, string(r.Snapshot()), "the resent run starts from the state the first one started from")
}
