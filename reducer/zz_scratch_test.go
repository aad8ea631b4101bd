package reducer

import (
	"strings"
	"testing"
)

func TestScratchDepth(t *testing.T) {
	for _, ev := range []string{
		`{"type":"ACTIVITY_SNAPSHOT","messageId":"a","activityType":"x","content":` + strings.Repeat(`{"a":`, 511) + `1` + strings.Repeat(`}`, 511) + `}`,
		`{"type":"STATE_SNAPSHOT","snapshot":` + strings.Repeat(`{"a":`, 511) + `1` + strings.Repeat(`}`, 511) + `}`,
	} {
		r := New(Options{})
		c := r.Apply([]byte(ev))
		t.Logf("apply: %+v", c.Diagnostics)
		_, err := New(Options{}).Restore(r.Snapshot())
		t.Logf("restore: %v", err)
	}
	r := New(Options{})
	r.Apply([]byte(`{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"f"}`))
	c := r.Apply([]byte(`{"type":"TOOL_CALL_ARGS","toolCallId":"c","delta":"` + strings.Repeat(`[`, 511) + strings.Repeat(`]`, 511) + `"}`))
	t.Logf("args: %+v ops %d", c.Diagnostics, len(c.Ops))
	c = r.Apply([]byte(`{"type":"TOOL_CALL_END","toolCallId":"c"}`))
	t.Logf("end: %+v", c.Diagnostics)
	_, err := New(Options{}).Restore(r.Snapshot())
	t.Logf("restore: %v", err)
	// state grown by patches
	r = New(Options{})
	path := ""
	for i := 0; i < 600; i++ {
		c := r.Apply([]byte(`{"type":"STATE_DELTA","delta":[{"op":"add","path":"` + path + `/a","value":{}}]}`))
		if len(c.Diagnostics) > 0 {
			t.Logf("patch %d: %+v", i, c.Diagnostics)
			break
		}
		path += "/a"
	}
	_, err = New(Options{}).Restore(r.Snapshot())
	t.Logf("restore deep state: %v (snapshot %d bytes)", err, len(r.Snapshot()))
}
