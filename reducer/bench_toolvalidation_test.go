package reducer

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agui-reducer/agui/reducer/jsontree"
)

// writeFileTool is the schema of the large-arguments scenario's tool.
const writeFileTool = `[{"name":"write_file","description":"Write a file","parameters":{"type":"object",` +
	`"properties":{"path":{"type":"string","minLength":1,"pattern":"^[^\\u0000]+$"},"content":{"type":"string"}},` +
	`"required":["path","content"],"additionalProperties":false}}]`

// largeArgsEvents is the large-arguments scenario (bench/agent-large.mjs):
// three write_file calls whose arguments, {"path", "content"} with
// `bytes` characters of prose (newlines, quotes, backslashes), stream
// interleaved in 20-character deltas.
func largeArgsEvents(bytes int) [][]byte {
	r := rand.New(rand.NewPCG(11, 12))
	words := strings.Fields("the a of to and in is it that for on with as function return const value result error file path module")
	var texts []string
	for c := range 3 {
		var b strings.Builder
		for b.Len() < bytes {
			switch x := r.Float64(); {
			case x < 0.06:
				b.WriteString("\n")
			case x < 0.08:
				b.WriteString(`"`)
			case x < 0.085:
				b.WriteString(`\`)
			default:
				b.WriteString(" " + words[r.IntN(len(words))])
			}
		}
		args := `{"path":"src/file` + strconv.Itoa(c) + `.txt","content":` + string(jsontree.AppendString(nil, b.String()[:bytes])) + `}`
		texts = append(texts, args)
	}
	var events [][]byte
	for c := range 3 {
		events = append(events, []byte(`{"type":"TOOL_CALL_START","toolCallId":"c`+strconv.Itoa(c)+`","toolCallName":"write_file","parentMessageId":"m"}`))
	}
	for off := 0; ; off += 20 {
		more := false
		for c, t := range texts {
			if off >= len(t) {
				continue
			}
			more = true
			d := t[off:min(off+20, len(t))]
			events = append(events, []byte(`{"type":"TOOL_CALL_ARGS","toolCallId":"c`+strconv.Itoa(c)+`","delta":`+string(jsontree.AppendString(nil, d))+`}`))
		}
		if !more {
			break
		}
	}
	for c := range 3 {
		events = append(events, []byte(`{"type":"TOOL_CALL_END","toolCallId":"c`+strconv.Itoa(c)+`"}`))
	}
	return events
}

// BenchmarkLargeArgsValidation: the 3 × 100 KB tool-argument stream with
// validation off (no schema known) and on (the write_file schema), folded
// alternately in each iteration so that both see the same machine. It
// reports per event, for each: the whole stream (ns/event), the
// TOOL_CALL_ARGS events of the first and of the last tenth of the deltas
// (which must stay level: the validation is incremental), and the three
// TOOL_CALL_ENDs together (each parses its 100 KB exactly and, with
// validation, judges the whole value); and the ratios on/off and
// last/first.
func BenchmarkLargeArgsValidation(b *testing.B) {
	events := largeArgsEvents(100_000)
	tools, err := jsontree.Parse([]byte(writeFileTool), jsontree.ParseOptions{})
	if err != nil {
		b.Fatal(err)
	}
	lo, hi := 3, len(events)-3 // the deltas
	tenth := (hi - lo) / 10
	type totals struct{ all, first, last, end time.Duration }
	var sum [2]totals
	var c Change
	fold := func(opt Options, t *totals) *Reducer {
		r := New(opt)
		for i, ev := range events {
			t0 := time.Now()
			r.ApplyInto(&c, ev)
			d := time.Since(t0)
			if c.HasError() {
				b.Fatal(c.Diagnostics)
			}
			t.all += d
			switch {
			case i < lo:
			case i < lo+tenth:
				t.first += d
			case i >= hi:
				t.end += d
			case i >= hi-tenth:
				t.last += d
			}
		}
		return r
	}
	for b.Loop() {
		fold(Options{}, &sum[0])
		if r := fold(Options{Tools: tools}, &sum[1]); r.State().ToolCalls[0].ArgsStatus != ArgsValid {
			b.Fatal("not validated: ", r.State().ToolCalls[0].ArgsStatus)
		}
	}
	n := float64(b.N)
	for i, name := range []string{"off", "on"} {
		t := sum[i]
		b.ReportMetric(float64(t.all.Nanoseconds())/n/float64(len(events)), name+"-ns/event")
		b.ReportMetric(float64(t.first.Nanoseconds())/n/float64(tenth), name+"-first-tenth-ns/event")
		b.ReportMetric(float64(t.last.Nanoseconds())/n/float64(tenth), name+"-last-tenth-ns/event")
		b.ReportMetric(float64(t.end.Nanoseconds())/n/1e3, name+"-ends-µs")
		b.ReportMetric(float64(t.last)/float64(t.first), name+"-last/first")
	}
	b.ReportMetric(float64(sum[1].all)/float64(sum[0].all), "on/off")
	b.ReportMetric(float64(sum[1].last+sum[1].first)/float64(sum[0].last+sum[0].first), "on/off-deltas")
}
