package reducer

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	"github.com/agui-reducer/agui/reducer/jsontree"
	"github.com/stretchr/testify/require"
)

// The cases of the reliability review: each failed before the fix.

// copyDelta is a STATE_DELTA of n ops copying the root into itself: each
// op doubles the state.
func copyDelta(n, from int) string {
	ops := make([]string, n)
	for i := range ops {
		ops[i] = `{"op":"copy","from":"","path":"/k` + strconv.Itoa(from+i) + `"}`
	}
	return `{"type":"STATE_DELTA","delta":[` + strings.Join(ops, ",") + `]}`
}

const kiloSnapshot = `{"type":"STATE_SNAPSHOT","snapshot":{"pad":"` + "0123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789" +
	"0123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789" + `"}}`

// One event of 30 copies of the root (2^30 times the state) is refused
// with too_large, whole, under the default budget.
func TestReliabilityStateCopyDoubling(t *testing.T) {
	r := New(Options{})
	require.False(t, r.Apply([]byte(kiloSnapshot)).HasError())
	before := r.Snapshot()
	c := r.Apply([]byte(copyDelta(30, 0)))
	require.True(t, hasCode(c, "too_large"), "%+v", c.Diagnostics)
	require.Empty(t, c.Ops)
	require.Equal(t, string(before), string(r.Snapshot()))
	// The reducer keeps working.
	require.False(t, r.Apply([]byte(`{"type":"STATE_DELTA","delta":[{"op":"add","path":"/ok","value":1}]}`)).HasError())
}

// One doubling per event: the event that would pass the budget is refused,
// the state stays under it, and restore(snapshot()) takes it back.
func TestReliabilityStateDoublingPerEvent(t *testing.T) {
	const budget = 1 << 20
	r := New(Options{MaxStateBytes: budget})
	m := newMirror(t, r)
	c := r.Apply([]byte(kiloSnapshot))
	m.apply(t, c)
	refusedAt := -1
	for i := range 20 {
		c := r.Apply([]byte(copyDelta(1, i)))
		m.apply(t, c)
		if hasCode(c, "too_large") {
			require.Empty(t, c.Ops)
			if refusedAt < 0 {
				refusedAt = i
			}
		}
		require.LessOrEqual(t, jsontree.Size(r.State().State), int64(budget))
		require.Equal(t, jsontree.Size(r.State().State), r.stateBytes)
	}
	require.Greater(t, refusedAt, 8) // 2^12 × 220 bytes passes 1 MiB
	m.check(t, r, "doubling")
	r2 := New(Options{MaxStateBytes: budget})
	_, err := r2.Restore(r.Snapshot())
	require.NoError(t, err)
	require.Equal(t, r.Snapshot(), r2.Snapshot())
}

// The budget covers activity content too, and STATE_SNAPSHOT,
// MESSAGES_SNAPSHOT, ACTIVITY_SNAPSHOT, RUN_STARTED input and restore().
func TestReliabilityBudgetEveryWay(t *testing.T) {
	big := strings.Repeat("x", 3000)
	opt := Options{MaxStateBytes: 4000}
	cases := []struct{ name, setup, ev string }{
		{"state snapshot", ``, `{"type":"STATE_SNAPSHOT","snapshot":{"a":"` + big + `","b":"` + big + `"}}`},
		{"activity snapshot", `{"type":"STATE_SNAPSHOT","snapshot":{"a":"` + big + `"}}`, `{"type":"ACTIVITY_SNAPSHOT","messageId":"a","activityType":"P","content":{"b":"` + big + `"}}`},
		{"activity delta copy", `{"type":"ACTIVITY_SNAPSHOT","messageId":"a","activityType":"P","content":{"b":"` + big + `"}}`, `{"type":"ACTIVITY_DELTA","messageId":"a","activityType":"P","patch":[{"op":"copy","from":"/b","path":"/c"}]}`},
		{"state delta vs activity", `{"type":"ACTIVITY_SNAPSHOT","messageId":"a","activityType":"P","content":{"b":"` + big + `"}}`, `{"type":"STATE_DELTA","delta":[{"op":"add","path":"/c","value":"` + big + `"}]}`},
		{"messages snapshot", `{"type":"STATE_SNAPSHOT","snapshot":{"a":"` + big + `"}}`, `{"type":"MESSAGES_SNAPSHOT","messages":[{"id":"a","role":"activity","activityType":"P","content":{"b":"` + big + `"}}]}`},
		{"run input", `{"type":"STATE_SNAPSHOT","snapshot":{"a":"` + big + `"}}`, `{"type":"RUN_STARTED","threadId":"t","runId":"r","input":{"messages":[{"id":"a","role":"activity","activityType":"P","content":{"b":"` + big + `"}}]}}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := New(opt)
			if tc.setup != "" {
				require.False(t, r.Apply([]byte(tc.setup)).HasError())
			}
			before := r.Snapshot()
			c := r.Apply([]byte(tc.ev))
			require.True(t, hasCode(c, "too_large"), "%+v", c.Diagnostics)
			require.Empty(t, c.Ops)
			require.Equal(t, string(before), string(r.Snapshot()))
			// Without the limit the same event applies, and the result
			// cannot be restored into a reducer with it.
			free := New(Options{})
			if tc.setup != "" {
				free.Apply([]byte(tc.setup))
			}
			require.False(t, free.Apply([]byte(tc.ev)).HasError())
			_, err := New(opt).Restore(free.Snapshot())
			require.Error(t, err)
			require.Equal(t, "too_large", err.(*Error).Code)
		})
	}
}

// ACTIVITY_DELTA cannot make activity content anything but an object;
// what snapshot() produces, restore() takes; a refused restore says
// bad_snapshot.
func TestReliabilityActivityContentStaysObject(t *testing.T) {
	for _, patch := range []string{
		`[{"op":"remove","path":""}]`,
		`[{"op":"replace","path":"","value":5}]`,
		`[{"op":"replace","path":"","value":null}]`,
		`[{"op":"add","path":"","value":[1]}]`,
		`[{"op":"add","path":"/l","value":"s"},{"op":"move","from":"/l","path":""}]`,
	} {
		r := New(Options{})
		r.Apply([]byte(`{"type":"ACTIVITY_SNAPSHOT","messageId":"a","activityType":"P","content":{"n":1}}`))
		before := r.Snapshot()
		c := r.Apply([]byte(`{"type":"ACTIVITY_DELTA","messageId":"a","activityType":"P","patch":` + patch + `}`))
		require.True(t, hasCode(c, "patch_failed"), "%s: %+v", patch, c.Diagnostics)
		require.Empty(t, c.Ops, patch)
		require.Equal(t, string(before), string(r.Snapshot()), patch)
		_, err := New(Options{}).Restore(r.Snapshot())
		require.NoError(t, err, patch)
	}
	// A snapshot holding activity content that is not an object (made by
	// hand) is refused with bad_snapshot.
	r := New(Options{})
	r.Apply([]byte(`{"type":"ACTIVITY_SNAPSHOT","messageId":"a","activityType":"P","content":{"n":1}}`))
	snap := bytes.Replace(r.Snapshot(), []byte(`"content":{"n":1}`), []byte(`"content":5`), 1)
	_, err := New(Options{}).Restore(snap)
	require.Error(t, err)
	require.Equal(t, "bad_snapshot", err.(*Error).Code)
	// Every refused restore says bad_snapshot.
	for _, s := range []string{`{"messages":[{"id":1}]}`, `{"status":"x"}`, `{"steps":[{}]}`, `{"toolCalls":[5]}`} {
		_, err := New(Options{}).Restore([]byte(s))
		require.Error(t, err, s)
		require.Equal(t, "bad_snapshot", err.(*Error).Code, s)
	}
}

// A refused ACTIVITY_DELTA changes nothing, even after a TEXT_MESSAGE_CONTENT
// targeted the activity's id (which AG-UI 1.0's activity-id guard refuses).
func TestReliabilityRefusedActivityDeltaChangesNothing(t *testing.T) {
	r := New(Options{})
	r.Apply([]byte(`{"type":"ACTIVITY_SNAPSHOT","messageId":"a","activityType":"P","content":{"n":1}}`))
	r.Apply([]byte(`{"type":"TEXT_MESSAGE_CONTENT","messageId":"a","delta":"Z"}`))
	before := r.Snapshot()
	c := r.Apply([]byte(`{"type":"ACTIVITY_DELTA","messageId":"a","activityType":"P","patch":[{"op":"remove","path":"/missing"}]}`))
	require.True(t, c.HasError())
	require.Empty(t, c.Ops)
	require.Equal(t, string(before), string(r.Snapshot()))
	// A good patch applies to the content as it was.
	m := newMirror(t, r)
	c = r.Apply([]byte(`{"type":"ACTIVITY_DELTA","messageId":"a","activityType":"P","patch":[{"op":"add","path":"/x","value":2}]}`))
	require.False(t, c.HasError())
	m.apply(t, c)
	m.check(t, r, "delta")
	require.Contains(t, string(r.Snapshot()), `"content":{"n":1,"x":2}`)
}

// No Go entry point panics on a zero-value or half-filled Event.
func TestReliabilityApplyEventHalfFilled(t *testing.T) {
	for _, tc := range []struct {
		ev   Event
		code string
	}{
		{Event{Type: ToolCallResult}, "bad_event"},
		{Event{Type: ToolCallResult, Content: 5}, "bad_event"},
		{Event{Type: MessagesSnapshot}, "bad_event"},
		{Event{Type: ActivitySnapshot, MessageID: "a"}, "bad_event"},
		{Event{Type: ActivitySnapshot, MessageID: "a", Content: (*jsontree.Object)(nil)}, "bad_event"},
		{Event{Type: StateDelta}, "bad_event"},
		{Event{Type: StateSnapshot, Snapshot: jsontree.Number("x")}, "bad_event"},
		{Event{Type: Custom, Value: map[string]int{}}, "bad_event"},
		{Event{}, "unknown_type"},
		{Event{Type: RunStarted}, ""},
		{Event{Type: StateSnapshot, Snapshot: (*jsontree.Object)(nil)}, ""},
		{Event{Type: ActivityDelta, MessageID: "x"}, "unknown_message"},
	} {
		r := New(Options{})
		before := r.Snapshot()
		c := r.ApplyEvent(tc.ev)
		if tc.code == "" {
			require.False(t, c.HasError(), "%+v: %+v", tc.ev, c.Diagnostics)
			continue
		}
		require.True(t, hasCode(c, tc.code), "%+v: %+v", tc.ev, c.Diagnostics)
		if tc.code == "bad_event" {
			require.Equal(t, string(before), string(r.Snapshot()))
		}
	}
	// One node in two places of an event, or a cycle, is refused: patches
	// change values in place.
	shared := jsontree.NewObject(0)
	o := jsontree.NewObject(2)
	o.Set("a", shared)
	o.Set("b", shared)
	require.True(t, hasCode(New(Options{}).ApplyEvent(Event{Type: StateSnapshot, Snapshot: o}), "bad_event"))
	cyc := jsontree.NewObject(1)
	cyc.Set("self", cyc)
	require.True(t, hasCode(New(Options{}).ApplyEvent(Event{Type: StateSnapshot, Snapshot: cyc}), "bad_event"))
	// The reducer does not keep the caller's tree.
	snap := jsontree.NewObject(1)
	snap.Set("n", jsontree.Number("1"))
	r := New(Options{})
	r.ApplyEvent(Event{Type: StateSnapshot, Snapshot: snap})
	snap.Set("n", jsontree.Number("2"))
	require.Contains(t, string(r.Snapshot()), `"state":{"n":1}`)
}
