package reducer

import (
	"strconv"
	"strings"
	"testing"
)

// Property (convergence): a generated stream of runs (text, reasoning,
// tool calls, subagents, state, activity, citations, steps), delivered
// through any sequence of cuts, resends from an earlier frame, reconnects
// with or without frame ids and restore(snapshot()) at a cut, ends with
// the state of the uninterrupted delivery, reports no strict order error
// the uninterrupted delivery does not (a valid stream: none), and keeps a
// mirror equal to the snapshot after every step.
//
// What is resent: with frame ids, any earlier frame while the reducer
// holds the ids it folded (they do not survive a restore: after one, a
// resend starts at its run's RUN_STARTED or resumes after the cursor);
// without ids, the run the cut is in from its RUN_STARTED.

// convergenceRuns generates one or two valid runs from s.
func convergenceRuns(s *byteSource) []string {
	var out []string
	q := func(x string) string { return strconv.Quote(x) }
	n := 0
	id := func(p string) string { n++; return p + strconv.Itoa(n) }
	hasCites := false
	runs := 1 + s.pick(2)
	for run := 1; run <= runs; run++ {
		rid := "r" + strconv.Itoa(run)
		out = append(out, `{"type":"RUN_STARTED","threadId":"t","runId":"`+rid+`"}`)
		var lastText string
		patch := func() {
			// Something the state cannot compare, between any two events.
			switch s.pick(4) {
			case 0:
				out = append(out, `{"type":"STATE_DELTA","delta":[{"op":"add","path":"/k`+strconv.Itoa(len(out))+`","value":`+strconv.Itoa(len(out))+`}]}`)
			case 1:
				if lastText != "" {
					if !hasCites {
						hasCites = true
						out = append(out, `{"type":"STATE_DELTA","delta":[{"op":"add","path":"/citations","value":{}}]}`)
					}
					out = append(out, `{"type":"STATE_DELTA","delta":[{"op":"add","path":"/citations/`+lastText+`","value":["https://e.org/`+strconv.Itoa(len(out))+`"]}]}`)
				}
			}
		}
		text := func(tag string) string {
			m := id("m")
			out = append(out, `{"type":"TEXT_MESSAGE_START","messageId":"`+m+`","role":"assistant"`+tag+`}`)
			for k := s.pick(4); k >= 0; k-- {
				out = append(out, `{"type":"TEXT_MESSAGE_CONTENT","messageId":"`+m+`","delta":`+q([]string{"Hello ", "world", "Hel", "lo", " ", "é"}[s.pick(6)])+tag+`}`)
				patch()
			}
			out = append(out, `{"type":"TEXT_MESSAGE_END","messageId":"`+m+`"`+tag+`}`)
			return m
		}
		blocks := 1 + s.pick(5)
		for b := 0; b < blocks; b++ {
			switch s.pick(7) {
			case 0:
				lastText = text("")
			case 1:
				rs, rm := id("rs"), id("rm")
				out = append(out, `{"type":"REASONING_START","messageId":"`+rs+`"}`, `{"type":"REASONING_MESSAGE_START","messageId":"`+rm+`","role":"reasoning"}`)
				for k := s.pick(3); k >= 0; k-- {
					out = append(out, `{"type":"REASONING_MESSAGE_CONTENT","messageId":"`+rm+`","delta":"think "}`)
					patch()
				}
				out = append(out, `{"type":"REASONING_MESSAGE_END","messageId":"`+rm+`"}`, `{"type":"REASONING_END","messageId":"`+rs+`"}`)
			case 2:
				c := id("c")
				parent := ""
				if lastText != "" {
					parent = `,"parentMessageId":"` + lastText + `"`
				}
				out = append(out, `{"type":"TOOL_CALL_START","toolCallId":"`+c+`","toolCallName":"f"`+parent+`}`)
				args := `{"a":{"b":` + strconv.Itoa(s.pick(100)) + `}}`
				for cut := 0; cut < len(args); {
					next := min(len(args), cut+1+s.pick(6))
					out = append(out, `{"type":"TOOL_CALL_ARGS","toolCallId":"`+c+`","delta":`+q(args[cut:next])+`}`)
					cut = next
				}
				out = append(out, `{"type":"TOOL_CALL_END","toolCallId":"`+c+`"}`)
				if s.pick(2) == 0 {
					out = append(out, `{"type":"TOOL_CALL_RESULT","messageId":"`+id("res")+`","toolCallId":"`+c+`","content":"ok"}`)
				}
			case 3:
				sa := id("s")
				out = append(out, `{"type":"SUBAGENT_STARTED","subagentRunId":"`+sa+`","name":"helper"}`)
				text(`,"subagentRunId":"` + sa + `"`)
				if s.pick(2) == 0 {
					out = append(out, `{"type":"SUBAGENT_FINISHED","subagentRunId":"`+sa+`"}`)
				} else {
					out = append(out, `{"type":"SUBAGENT_ERROR","subagentRunId":"`+sa+`","message":"no"}`)
				}
			case 4:
				if s.pick(2) == 0 {
					out = append(out, `{"type":"STATE_SNAPSHOT","snapshot":{"v":`+strconv.Itoa(len(out))+`}}`)
					hasCites = false
				} else {
					patch()
				}
			case 5:
				a := id("a")
				out = append(out, `{"type":"ACTIVITY_SNAPSHOT","messageId":"`+a+`","activityType":"progress","content":{"p":0}}`)
				for k := s.pick(3); k > 0; k-- {
					out = append(out, `{"type":"ACTIVITY_DELTA","messageId":"`+a+`","activityType":"progress","patch":[{"op":"replace","path":"/p","value":`+strconv.Itoa(k)+`}]}`)
				}
			case 6:
				st := id("step")
				out = append(out, `{"type":"STEP_STARTED","stepName":"`+st+`"}`)
				lastText = text("")
				out = append(out, `{"type":"STEP_FINISHED","stepName":"`+st+`"}`)
			}
		}
		out = append(out, `{"type":"RUN_FINISHED","threadId":"t","runId":"`+rid+`"}`)
	}
	return out
}

// convergenceClient is one page: a reducer, its mirror, and the
// connection it reads.
type convergenceClient struct {
	t      testing.TB
	opt    Options
	r      *Reducer
	m      *mirror
	stream *Stream
	errs   []string
	// fresh: no restore since the ids folded were last known, so a resend
	// from any earlier frame is recognised by id.
	fresh bool
}

func (k *convergenceClient) each(c *Change) {
	k.t.Helper()
	k.m.apply(k.t, c)
	k.m.check(k.t, k.r, "step")
	k.errs = append(k.errs, orderErrors(c)...)
}

// frame is frame i of lines as SSE, with or without its id.
func convergenceFrame(lines []string, i int, ids bool) string {
	if ids {
		return "id: f" + strconv.Itoa(i) + "\ndata: " + lines[i] + "\n\n"
	}
	return "data: " + lines[i] + "\n\n"
}

// runStart is the index of the RUN_STARTED of the run frame i is in.
func runStart(lines []string, i int) int {
	for ; i > 0; i-- {
		if i < len(lines) && strings.Contains(lines[i], `"RUN_STARTED"`) {
			return i
		}
	}
	return 0
}

// debugConvergence checks, after every step where the client is caught up,
// that its state is that of the frames it has: it finds the first wrong
// step of a failing input, at a quadratic cost.
var debugConvergence = false

func checkConvergence(t testing.TB, data []byte) {
	s := &byteSource{b: data}
	strict := s.pick(2) == 0
	ids := s.pick(2) == 0
	lines := convergenceRuns(s)
	opt := Options{Strict: strict}

	want := New(opt)
	wantErrs := orderErrors(foldLines(t, want, lines)...)
	if len(wantErrs) > 0 {
		t.Fatalf("the generated stream is not valid: %v\n%s", wantErrs, strings.Join(lines, "\n"))
	}
	if ids {
		want.SetLastEventID("f" + strconv.Itoa(len(lines)-1))
	}

	k := &convergenceClient{t: t, opt: opt, r: New(opt), fresh: true}
	k.m = newMirror(t, k.r)
	k.stream = k.r.NewStream()
	var log []string // what happened, for a failure's message
	p := 0           // the next frame the server sends
	hi := 0          // frames before it are in the state
	prefix := func(n int) string {
		r := New(opt)
		for i := 0; i < n; i++ {
			r.NewStream().Feed([]byte(convergenceFrame(lines, i, ids)), func(*Change) {})
		}
		return string(r.Snapshot())
	}
	_ = prefix
	// at is where the client's state is: after the frame its cursor names
	// with ids (what a reconnect resumes after), else after the last frame
	// the server sent before the cut.
	at := func() int {
		if ids {
			if id := k.r.State().LastEventID; id != "" {
				n, _ := strconv.Atoi(id[1:])
				return n + 1
			}
			return 0
		}
		return hi
	}
	for step := 0; p < len(lines) && step < 64; step++ {
		if debugConvergence && k.r.catching == nil && p == at() {
			if got, w := string(k.r.Snapshot()), prefix(p); got != w {
				t.Fatalf("ids %v: diverged at step %d after %s:\n got %s\nwant %s\n%s", ids, step, strings.Join(log, "; "), got, w, strings.Join(lines, "\n"))
			}
		}
		switch s.pick(5) {
		case 0, 1: // frames arrive
			n := 1 + s.pick(8)
			for ; n > 0 && p < len(lines); n-- {
				k.stream.Feed([]byte(convergenceFrame(lines, p, ids)), k.each)
				p++
				hi = max(hi, p)
			}
			log = append(log, "deliver to "+strconv.Itoa(p))
		case 2: // cut, maybe inside a frame; the server resends
			if p < len(lines) && s.pick(2) == 0 {
				f := convergenceFrame(lines, p, ids)
				k.stream.Feed([]byte(f[:1+s.pick(len(f)-1)]), k.each)
			}
			k.stream.Close()
			k.stream = k.r.NewStream()
			from := runStart(lines, min(at(), len(lines)-1)) // the run again
			if ids && k.fresh {
				from = s.pick(at() + 1) // any earlier frame
			} else if ids && s.pick(2) == 0 {
				from = at() // resumed after the cursor
			}
			p = from
			log = append(log, "cut, resend from "+strconv.Itoa(p))
		case 3: // the page reloads: restore(snapshot()) at the cut
			k.stream.Close()
			snap := k.r.Snapshot()
			k.r = New(opt)
			if _, err := k.r.Restore(snap); err != nil {
				t.Fatalf("restore: %v", err)
			}
			k.m = newMirror(t, k.r)
			k.stream = k.r.NewStream()
			k.fresh = false
			p = at() // resumed after the cursor
			if !ids || s.pick(2) == 0 {
				p = runStart(lines, min(at(), len(lines)-1)) // the run again
			}
			log = append(log, "restore, resend from "+strconv.Itoa(p))
		case 4: // the response ends; a reconnect resumes after the cursor
			// (with ids), or the stream goes on in a new response
			k.stream.Close()
			k.stream = k.r.NewStream()
			if ids {
				p = at()
			}
			log = append(log, "reconnect at "+strconv.Itoa(p))
		}
	}
	for ; p < len(lines); p++ {
		k.stream.Feed([]byte(convergenceFrame(lines, p, ids)), k.each)
	}
	k.stream.Close()
	if got, wantSnap := string(k.r.Snapshot()), string(want.Snapshot()); got != wantSnap {
		t.Fatalf("strict %v, ids %v; %s:\n got %s\nwant %s\nstream:\n%s", strict, ids, strings.Join(log, "; "), got, wantSnap, strings.Join(lines, "\n"))
	}
	if len(k.errs) > 0 {
		t.Fatalf("strict %v, ids %v; %s: order errors %v\nstream:\n%s", strict, ids, strings.Join(log, "; "), k.errs, strings.Join(lines, "\n"))
	}
}

// TestConvergence runs the property on inputs derived from a counter: a
// few hundred in -short, more otherwise.
func TestConvergence(t *testing.T) {
	n := 800
	if testing.Short() {
		n = 200
	}
	for i := range n {
		data := make([]byte, 96)
		x := uint64(i)*0x9E3779B97F4A7C15 + 1
		for j := range data {
			x ^= x << 13
			x ^= x >> 7
			x ^= x << 17
			data[j] = byte(x)
		}
		checkConvergence(t, data)
	}
}

// FuzzConvergence is the property on the fuzzer's input.
func FuzzConvergence(f *testing.F) {
	f.Add([]byte{0, 0, 0, 2, 0, 1, 3, 2, 1, 1, 2, 3, 4, 1})
	f.Add([]byte{1, 1, 1, 4, 2, 3, 1, 0, 5, 3, 3, 2, 0, 0, 2, 1})
	f.Fuzz(func(t *testing.T, data []byte) {
		checkConvergence(t, data)
	})
}
