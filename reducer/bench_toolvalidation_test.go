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
	`"properties":{"path":{"type":"string","minLength":1,"pattern":"^[^\\u0000]+$"},"content":{"type":"string","maxLength":1000000}},` +
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
// validation off (no schema known) and on (the write_file schema), side by
// side. ns/event is the whole stream's; first-tenth and last-tenth are the
// cost per TOOL_CALL_ARGS event of the first and last tenth of the deltas,
// which must stay level (the validation is incremental); end-ns is the
// three TOOL_CALL_ENDs together (each parses its 100 KB exactly, and with
// validation judges the whole value).
func BenchmarkLargeArgsValidation(b *testing.B) {
	events := largeArgsEvents(100_000)
	tools, err := jsontree.Parse([]byte(writeFileTool), jsontree.ParseOptions{})
	if err != nil {
		b.Fatal(err)
	}
	for _, mode := range []string{"off", "on"} {
		b.Run("validation="+mode, func(b *testing.B) {
			opt := Options{}
			if mode == "on" {
				opt.Tools = tools
			}
			lo, hi := 3, len(events)-3 // the deltas
			tenth := (hi - lo) / 10
			var first, last, end time.Duration
			var c Change
			for b.Loop() {
				r := New(opt)
				for i, ev := range events {
					t0 := time.Now()
					r.ApplyInto(&c, ev)
					d := time.Since(t0)
					if c.HasError() {
						b.Fatal(c.Diagnostics)
					}
					switch {
					case i < lo:
					case i < lo+tenth:
						first += d
					case i >= hi:
						end += d
					case i >= hi-tenth:
						last += d
					}
				}
				if mode == "on" && r.State().ToolCalls[0].ArgsStatus != ArgsValid {
					b.Fatal("not validated: ", r.State().ToolCalls[0].ArgsStatus)
				}
			}
			n := float64(b.N)
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/n/float64(len(events)), "ns/event")
			b.ReportMetric(float64(first.Nanoseconds())/n/float64(tenth), "first-tenth-ns/event")
			b.ReportMetric(float64(last.Nanoseconds())/n/float64(tenth), "last-tenth-ns/event")
			b.ReportMetric(float64(end.Nanoseconds())/n, "end-ns")
		})
	}
}
