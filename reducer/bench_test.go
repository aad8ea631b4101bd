package reducer

import (
	"strconv"
	"strings"
	"testing"
)

// conversation returns a reducer holding n finished messages.
func conversation(b *testing.B, n int) *Reducer {
	r := New(Options{})
	var c Change
	for i := 0; i < n; i++ {
		id := "m" + strconv.Itoa(i)
		r.ApplyInto(&c, []byte(`{"type":"TEXT_MESSAGE_START","messageId":"`+id+`","role":"assistant"}`))
		r.ApplyInto(&c, []byte(`{"type":"TEXT_MESSAGE_CONTENT","messageId":"`+id+`","delta":"some earlier text"}`))
		r.ApplyInto(&c, []byte(`{"type":"TEXT_MESSAGE_END","messageId":"`+id+`"}`))
	}
	r.ApplyInto(&c, []byte(`{"type":"TEXT_MESSAGE_START","messageId":"live","role":"assistant"}`))
	return r
}

// BenchmarkTextContent: one TEXT_MESSAGE_CONTENT (decode, reduce, change
// record as JSON) with 100 vs 25,000 messages already in the conversation.
// The cost per event must not grow with the conversation.
func BenchmarkTextContent(b *testing.B) {
	ev := []byte(`{"type":"TEXT_MESSAGE_CONTENT","messageId":"live","delta":" token"}`)
	for _, n := range []int{100, 25000} {
		b.Run("messages="+strconv.Itoa(n), func(b *testing.B) {
			r := conversation(b, n)
			var c Change
			var out []byte
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				r.ApplyInto(&c, ev)
				out = c.AppendJSON(out[:0])
			}
		})
	}
}

// stateOf builds a shared state of about size bytes.
func stateOf(size int) string {
	var sb strings.Builder
	sb.WriteString(`{"counter":0,"items":[`)
	for i := 0; sb.Len() < size; i++ {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(`{"id":` + strconv.Itoa(i) + `,"title":"item number ` + strconv.Itoa(i) + `","done":false}`)
	}
	sb.WriteString(`],"log":[]}`)
	return sb.String()
}

// BenchmarkStateDelta: a 3-op STATE_DELTA on a 1 KB vs a 1 MB state.
func BenchmarkStateDelta(b *testing.B) {
	delta := []byte(`{"type":"STATE_DELTA","delta":[{"op":"replace","path":"/counter","value":1},{"op":"replace","path":"/items/3/done","value":true},{"op":"add","path":"/log/-","value":"x"}]}`)
	for _, size := range []int{1 << 10, 1 << 20} {
		b.Run("state="+strconv.Itoa(size>>10)+"KB", func(b *testing.B) {
			r := New(Options{})
			var c Change
			r.ApplyInto(&c, []byte(`{"type":"STATE_SNAPSHOT","snapshot":`+stateOf(size)+`}`))
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				r.ApplyInto(&c, delta)
				if c.HasError() {
					b.Fatal(c.Diagnostics)
				}
			}
		})
	}
}

// BenchmarkToolArgs: 50 KB (and 5 KB) of arguments in 16-byte deltas. The
// per-byte cost must stay flat: the parse is incremental.
func BenchmarkToolArgs(b *testing.B) {
	for _, size := range []int{5 << 10, 50 << 10} {
		args := `{"path":"main.go","code":"` + strings.Repeat(`fmt.Println(\"hi\")\n`, size/20) + `"}`
		var events [][]byte
		for i := 0; i < len(args); i += 16 {
			j := min(i+16, len(args))
			q := strconv.Quote(args[i:j])
			events = append(events, []byte(`{"type":"TOOL_CALL_ARGS","toolCallId":"c","delta":`+q+`}`))
		}
		b.Run("args="+strconv.Itoa(size>>10)+"KB", func(b *testing.B) {
			b.SetBytes(int64(len(args)))
			b.ReportAllocs()
			var c Change
			for i := 0; i < b.N; i++ {
				r := New(Options{})
				r.ApplyInto(&c, []byte(`{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"write"}`))
				for _, ev := range events {
					r.ApplyInto(&c, ev)
				}
				r.ApplyInto(&c, []byte(`{"type":"TOOL_CALL_END","toolCallId":"c"}`))
			}
		})
	}
}
