package reducer

import (
	"strconv"
	"strings"
	"testing"
)

// citedConversation is a reducer holding n assistant messages, each cited
// in state.citations.
func citedConversation(b *testing.B, n int) *Reducer {
	r := New(Options{})
	var cits []string
	for i := range n {
		id := "m" + strconv.Itoa(i)
		r.Apply([]byte(`{"type":"TEXT_MESSAGE_START","messageId":"` + id + `","role":"assistant"}`))
		r.Apply([]byte(`{"type":"TEXT_MESSAGE_CONTENT","messageId":"` + id + `","delta":"answer"}`))
		r.Apply([]byte(`{"type":"TEXT_MESSAGE_END","messageId":"` + id + `"}`))
		cits = append(cits, `"`+id+`":[{"url":"https://example.com/`+id+`","title":"source"}]`)
	}
	if c := r.Apply([]byte(`{"type":"STATE_SNAPSHOT","snapshot":{"citations":{` + strings.Join(cits, ",") + `}}}`)); c.HasError() {
		b.Fatal(c.Diagnostics)
	}
	return r
}

// BenchmarkCitationsDelta: one STATE_DELTA adding a citation to one
// message of a conversation with 1k and 8k cited messages. The cost
// should not depend on the count.
func BenchmarkCitationsDelta(b *testing.B) {
	for _, n := range []int{1000, 8000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			r := citedConversation(b, n)
			evs := [2][]byte{
				[]byte(`{"type":"STATE_DELTA","delta":[{"op":"add","path":"/citations/m7/-","value":"https://example.com/more"}]}`),
				[]byte(`{"type":"STATE_DELTA","delta":[{"op":"remove","path":"/citations/m7/1"}]}`),
			}
			var c Change
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				r.ApplyInto(&c, evs[i&1])
				if c.HasError() {
					b.Fatal(c.Diagnostics)
				}
			}
		})
	}
}

// A /citations delta costs the same whatever the number of cited
// messages: measured in allocations (deterministic), not time.
func TestCitationsDeltaIsOTouched(t *testing.T) {
	if testing.Short() {
		t.Skip("builds two conversations")
	}
	allocs := func(n int) float64 {
		r := citedConversation(&testing.B{}, n)
		evs := [2][]byte{
			[]byte(`{"type":"STATE_DELTA","delta":[{"op":"add","path":"/citations/m7/-","value":"https://example.com/more"}]}`),
			[]byte(`{"type":"STATE_DELTA","delta":[{"op":"remove","path":"/citations/m7/1"}]}`),
		}
		var c Change
		i := 0
		return testing.AllocsPerRun(50, func() {
			r.ApplyInto(&c, evs[i&1])
			i++
		})
	}
	small, large := allocs(100), allocs(2000)
	if large > small+1 {
		t.Fatalf("allocations per delta grow with the cited messages: %v at 100, %v at 2000", small, large)
	}
}
