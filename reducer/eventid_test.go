package reducer

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// sseFrames writes events as SSE frames, each with the id given ("" none).
func sseFrames(frames ...[2]string) string {
	var b strings.Builder
	for _, f := range frames {
		if f[0] != "" {
			b.WriteString("id: " + f[0] + "\n")
		}
		b.WriteString("data: " + f[1] + "\n\n")
	}
	return b.String()
}

const (
	evStart  = `{"type":"RUN_STARTED","threadId":"t","runId":"r1"}`
	evMsg    = `{"type":"TEXT_MESSAGE_START","messageId":"m","role":"assistant"}`
	evDelta  = `{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"hi"}`
	evEnd    = `{"type":"TEXT_MESSAGE_END","messageId":"m"}`
	evFinish = `{"type":"RUN_FINISHED","threadId":"t","runId":"r1"}`
)

func TestLastEventIDFromStream(t *testing.T) {
	tests := []struct {
		name   string
		chunks []string
		want   []string // LastEventID after each chunk
	}{
		{
			name:   "every frame with an id",
			chunks: []string{sseFrames([2]string{"r1:1", evStart}, [2]string{"r1:2", evMsg}), sseFrames([2]string{"r1:3", evDelta})},
			want:   []string{"r1:2", "r1:3"},
		},
		{
			name:   "a chunk without a whole frame keeps the id",
			chunks: []string{sseFrames([2]string{"r1:1", evStart}), "id: r1:2\ndata: {\"type\":", "\"TEXT_MESSAGE_START\",\"messageId\":\"m\"}\n\n"},
			want:   []string{"r1:1", "r1:1", "r1:2"},
		},
		{
			name:   "a frame without an id keeps the id in force (SSE)",
			chunks: []string{sseFrames([2]string{"r1:1", evStart}, [2]string{"", evMsg})},
			want:   []string{"r1:1"},
		},
		{
			name:   "an empty id field clears it",
			chunks: []string{sseFrames([2]string{"r1:1", evStart}), "id\ndata: " + evMsg + "\n\n"},
			want:   []string{"r1:1", ""},
		},
		{
			name:   "comments and retry fields alone change nothing",
			chunks: []string{sseFrames([2]string{"a", evStart}), ": keep-alive\n\nretry: 10\n\n"},
			want:   []string{"a", "a"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := New(Options{Clock: fixedClock()})
			m := newMirror(t, r)
			s := r.NewStream()
			for i, chunk := range tt.chunks {
				s.Feed([]byte(chunk), func(c *Change) { m.apply(t, c) })
				require.Equal(t, tt.want[i], r.State().LastEventID, "after chunk %d", i)
				m.check(t, r, "after chunk")
			}
		})
	}
}

func TestLastEventIDInSnapshot(t *testing.T) {
	r := New(Options{Clock: fixedClock()})
	require.NotContains(t, string(r.Snapshot()), "lastEventId", "absent until a frame carries an id")
	r.NewStream().Feed([]byte(sseFrames([2]string{"r1.x:1", evStart}, [2]string{"r1.x:2", evMsg})), func(*Change) {})
	snap := r.Snapshot()
	require.Contains(t, string(snap), `"lastEventId":"r1.x:2"`)

	restored := New(Options{Clock: fixedClock()})
	c, err := restored.Restore(snap)
	require.NoError(t, err)
	require.Equal(t, "r1.x:2", restored.State().LastEventID)
	require.Equal(t, string(snap), string(restored.Snapshot()))
	require.Equal(t, string(snap), string(c.Ops[0].Value), "the restore's root replace carries it")

	_, err = restored.Restore([]byte(`{"lastEventId":7}`))
	require.Error(t, err, "a lastEventId that is not a string is a bad snapshot")

	restored.Reset()
	require.Equal(t, "", restored.State().LastEventID, "reset starts a new conversation")
}

func TestSetLastEventID(t *testing.T) {
	r := New(Options{Clock: fixedClock()})
	m := newMirror(t, r)
	steps := []struct {
		id      string
		wantOps []Op
	}{
		{"a:1", []Op{{Kind: OpAdd, Path: "/lastEventId", Value: []byte(`"a:1"`)}}},
		{"a:1", nil},
		{"a:2", []Op{{Kind: OpAdd, Path: "/lastEventId", Value: []byte(`"a:2"`)}}},
		{"", []Op{{Kind: OpRemove, Path: "/lastEventId"}}},
		{"", nil},
	}
	for _, st := range steps {
		c := r.SetLastEventID(st.id)
		require.Equal(t, st.wantOps, c.Ops, "SetLastEventID(%q)", st.id)
		m.apply(t, c)
		m.check(t, r, "SetLastEventID")
		require.Equal(t, st.id, r.State().LastEventID)
	}
}

// A run resent from its start rewinds the state to the run's checkpoint,
// but the stream's cursor moves on: it is where the resent frames left off.
func TestLastEventIDSurvivesRewind(t *testing.T) {
	r := New(Options{Clock: fixedClock()})
	m := newMirror(t, r)
	s := r.NewStream()
	each := func(c *Change) { m.apply(t, c) }
	s.Feed([]byte(sseFrames([2]string{"a:1", evStart}, [2]string{"a:2", evMsg}, [2]string{"a:3", evDelta})), each)
	s.Close()
	s = r.NewStream()
	// A server that ignored Last-Event-ID: the run again, new ids.
	s.Feed([]byte(sseFrames([2]string{"b:1", evStart})), each)
	require.Equal(t, "b:1", r.State().LastEventID)
	m.check(t, r, "after the rewind")
	s.Feed([]byte(sseFrames([2]string{"b:2", evMsg}, [2]string{"b:3", evDelta}, [2]string{"b:4", evEnd}, [2]string{"b:5", evFinish})), each)
	require.Equal(t, "b:5", r.State().LastEventID)
	require.Equal(t, "hi", string(r.State().Messages[0].text), "the resent delta applied once")
	m.check(t, r, "end")
}

// TestLastEventIDAcrossResponses: a resumed response (a new Stream) whose
// first frame has no id field keeps the cursor, and the frame the server
// resends after it is skipped by its id, not applied twice.
func TestLastEventIDAcrossResponses(t *testing.T) {
	r := New(Options{Clock: fixedClock()})
	m := newMirror(t, r)
	each := func(c *Change) { m.apply(t, c) }
	s := r.NewStream()
	s.Feed([]byte(sseFrames([2]string{"a:1", evStart}, [2]string{"a:2", evMsg}, [2]string{"a:3", evDelta})), each)
	s.Close()
	s = r.NewStream()
	s.Feed([]byte(sseFrames([2]string{"", `{"type":"CUSTOM","name":"keep-alive","value":1}`})), each)
	require.Equal(t, "a:3", r.State().LastEventID, "a frame without an id field keeps the cursor")
	s.Feed([]byte(sseFrames([2]string{"a:3", evDelta}, [2]string{"a:4", evEnd}, [2]string{"a:5", evFinish})), each)
	require.Equal(t, "a:5", r.State().LastEventID)
	require.Equal(t, "hi", string(r.State().Messages[0].text), "the resent delta applied once")
	m.check(t, r, "end")
}

// However a server resumes, after the cursor, from an earlier frame or
// from the start with the same ids, or runs the agent again with new ids,
// the state ends as if the stream had never been cut.
func TestResumedStreams(t *testing.T) {
	frames := [][2]string{{"a:1", evStart}, {"a:2", evMsg}, {"a:3", evDelta}, {"a:4", evDelta}, {"a:5", evEnd}, {"a:6", evFinish}}
	renamed := make([][2]string, len(frames))
	for i, f := range frames {
		renamed[i] = [2]string{strings.Replace(f[0], "a:", "b:", 1), f[1]}
	}
	whole := New(Options{Clock: fixedClock()})
	whole.NewStream().Feed([]byte(sseFrames(frames...)), func(*Change) {})
	want := string(whole.Snapshot())

	tests := []struct {
		name    string
		cut     int         // frames of the first response
		resumed [][2]string // the second response
		warn    string      // a warning the resumed response gives
		wantID  string      // the cursor at the end
	}{
		{"exactly after the cursor", 3, frames[3:], "", "a:6"},
		{"from an earlier frame", 3, frames[1:], "resent_frames", "a:6"},
		{"from the start, same ids", 4, frames, "resent_frames", "a:6"},
		{"the run again, new ids", 4, renamed, "resent_run", "b:6"},
		{"nothing more: the cut was after the end", 6, nil, "", "a:6"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := New(Options{Clock: fixedClock()})
			m := newMirror(t, r)
			each := func(c *Change) { m.apply(t, c) }
			s := r.NewStream()
			s.Feed([]byte(sseFrames(frames[:tt.cut]...)), each)
			s.Close()
			require.Equal(t, frames[tt.cut-1][0], r.State().LastEventID)
			var codes []string
			s = r.NewStream()
			body := sseFrames(tt.resumed...)
			for i := 0; i < len(body); i += 7 { // in pieces
				s.Feed([]byte(body[i:min(i+7, len(body))]), func(c *Change) {
					for _, d := range c.Diagnostics {
						codes = append(codes, d.Code)
					}
					each(c)
				})
			}
			s.Close()
			m.check(t, r, "end")
			if tt.warn != "" {
				require.Contains(t, codes, tt.warn)
			}
			require.Equal(t, tt.wantID, r.State().LastEventID)
			got := strings.Replace(string(r.Snapshot()), `"lastEventId":"`+tt.wantID+`"`, `"lastEventId":"a:6"`, 1)
			require.Equal(t, want, got)
		})
	}
}

// The ids remembered are the last maxFoldedIDs: a resend from further
// back is not recognised by id.
func TestFoldedIDsWindow(t *testing.T) {
	var e eventIDs
	for i := range maxFoldedIDs + 10 {
		e.add("id" + strconv.Itoa(i))
	}
	require.False(t, e.has("id0"))
	require.False(t, e.has("id9"))
	require.True(t, e.has("id10"))
	require.True(t, e.has("id"+strconv.Itoa(maxFoldedIDs+9)))
	require.Len(t, e.set, maxFoldedIDs)

	long := strings.Repeat("x", maxFoldedIDBytes+1)
	e.add(long)
	require.False(t, e.has(long), "a long id is not remembered")
}

// After a restore only the cursor is known: its frame, resent, is skipped.
func TestRestoreKnowsCursorFrame(t *testing.T) {
	r := New(Options{Clock: fixedClock()})
	r.NewStream().Feed([]byte(sseFrames([2]string{"a:1", evStart}, [2]string{"a:2", evMsg}, [2]string{"a:3", evDelta})), func(*Change) {})
	restored := New(Options{Clock: fixedClock()})
	_, err := restored.Restore(r.Snapshot())
	require.NoError(t, err)
	restored.NewStream().Feed([]byte(sseFrames([2]string{"a:3", evDelta}, [2]string{"a:4", evDelta})), func(*Change) {})
	require.Equal(t, "hihi", string(restored.State().Messages[0].text))
}

// A frame without an id field of its own keeps the id in force (SSE), but
// it is not the frame that id names: it is folded, never skipped.
func TestFrameWithoutOwnIDIsFolded(t *testing.T) {
	r := New(Options{Clock: fixedClock()})
	s := r.NewStream()
	s.Feed([]byte(sseFrames([2]string{"a:1", evStart}, [2]string{"a:2", evMsg}, [2]string{"a:3", evDelta}, [2]string{"", evDelta}, [2]string{"", evDelta})), func(*Change) {})
	require.Equal(t, "hihihi", string(r.State().Messages[0].text))
	require.Equal(t, "a:3", r.State().LastEventID)
}

// An id no SSE frame or Last-Event-ID header can carry is refused, and the
// state keeps the id it had.
func TestSetLastEventIDRefusesBadIDs(t *testing.T) {
	r := New(Options{MaxFieldBytes: 16})
	r.SetLastEventID("run.1:3")
	for _, tc := range []struct{ id, code string }{
		{"a\nid: forged", "bad_event"},
		{"a\rb", "bad_event"},
		{"a\x00b", "bad_event"},
		{strings.Repeat("x", 17), "too_large"},
	} {
		c := r.SetLastEventID(tc.id)
		require.Len(t, c.Diagnostics, 1, "%q", tc.id)
		require.Equal(t, tc.code, c.Diagnostics[0].Code, "%q", tc.id)
		require.Empty(t, c.Ops, "%q", tc.id)
		require.Equal(t, "run.1:3", r.State().LastEventID, "%q", tc.id)
	}
}
