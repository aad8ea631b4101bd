package jsontree

import (
	"bytes"
	"strconv"
	"testing"
)

// benchDoc returns a state-like JSON document of roughly size bytes: keyed
// records with strings (some non-ASCII or escaped), numbers, booleans and
// small arrays.
func benchDoc(size int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"threadId":"thread-1","counters":{"a":{"b":{"c":{"n":0}}}},"records":{`)
	for i := 0; b.Len() < size-64; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		n := strconv.Itoa(i)
		b.WriteString(`"rec-` + n + `":{"id":` + n + `,"title":"Record ` + n + ` — café \"quoted\"",` +
			`"done":` + strconv.FormatBool(i%3 == 0) + `,"score":` + n + `.25,"tags":["alpha","beta",null]}`)
	}
	b.WriteString(`},"log":[]}`)
	return b.Bytes()
}

func BenchmarkParse(b *testing.B) {
	for _, bc := range []struct {
		name string
		size int
	}{{"1KB", 1 << 10}, {"1MB", 1 << 20}} {
		data := benchDoc(bc.size)
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Parse(data, ParseOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkAppendJSON(b *testing.B) {
	for _, bc := range []struct {
		name string
		size int
	}{{"1KB", 1 << 10}, {"1MB", 1 << 20}} {
		data := benchDoc(bc.size)
		v, err := Parse(data, ParseOptions{})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			buf := make([]byte, 0, 2*len(data))
			for b.Loop() {
				buf = AppendJSON(buf[:0], v)
			}
		})
	}
}

// Two AG-UI events, as the reducer decodes them one per call: a bare
// TEXT_MESSAGE_CONTENT (70 bytes) and one carrying the provider's original
// chunk as a nested rawEvent the reducer never reads (1.5 KB, of which the
// rawEvent is 1.3 KB), and a longer delta with escapes.
var (
	smallEvent = []byte(`{"type":"TEXT_MESSAGE_CONTENT","messageId":"msg_01J","delta":" token"}`)
	largeEvent = func() []byte {
		var raw bytes.Buffer
		raw.WriteString(`{"id":"chatcmpl-9x7Kq2LmN4pR8sT1vW3yZ5aB","object":"chat.completion.chunk","created":1732252800,` +
			`"model":"gpt-4o-2024-08-06","system_fingerprint":"fp_3a7f1c9e2b","choices":[{"index":0,` +
			`"delta":{"role":"assistant","content":" token","refusal":null},"logprobs":{"content":[`)
		for i := 0; raw.Len() < 1300-200; i++ {
			if i > 0 {
				raw.WriteByte(',')
			}
			raw.WriteString(`{"token":" tok` + strconv.Itoa(i) + `","logprob":-0.00` + strconv.Itoa(i+1) +
				`,"bytes":[32,116,111,107],"top_logprobs":[]}`)
		}
		raw.WriteString(`]},"finish_reason":null}],"usage":null,"x_meta":{"region":"eu-west-1",` +
			`"trace":"caf\u00e9 \"quoted\" — ok","flags":[true,false,null]}}`)
		return []byte(`{"type":"TEXT_MESSAGE_CONTENT","messageId":"msg_01J9Z8QK4T","delta":` +
			`" tokens \u2014 \"streamed\" one chunk at a time, which the reducer appends to the message as they arrive.\n",` +
			`"timestamp":1732252800123,"rawEvent":` + raw.String() + `}`)
	}()
)

func TestBenchEvents(t *testing.T) {
	if len(smallEvent) != 70 {
		t.Errorf("smallEvent is %d bytes, want 70", len(smallEvent))
	}
	var rawLen int
	err := ScanObject(largeEvent, ParseOptions{}, func(key, value []byte) error {
		if string(key) == "rawEvent" {
			rawLen = len(value)
		}
		return nil
	})
	if err != nil || len(largeEvent) < 1450 || len(largeEvent) > 1550 || rawLen < 1250 || rawLen > 1350 {
		t.Errorf("largeEvent: %d bytes, rawEvent %d bytes, err %v; want about 1.5 KB and 1.3 KB", len(largeEvent), rawLen, err)
	}
	checkScan(t, smallEvent, ParseOptions{})
	checkScan(t, largeEvent, ParseOptions{})
}

// BenchmarkEvent compares decoding an event with Parse (a whole tree) and
// with ScanObject. "Scan" keeps the value spans and appends the delta to a
// reused buffer, which is all a streaming decoder needs; "ScanStrings" also
// materialises type and messageId as strings.
func BenchmarkEvent(b *testing.B) {
	for _, ev := range []struct {
		name string
		data []byte
	}{{"70B", smallEvent}, {"1.5KB", largeEvent}} {
		b.Run(ev.name+"/Parse", func(b *testing.B) {
			b.SetBytes(int64(len(ev.data)))
			b.ReportAllocs()
			for b.Loop() {
				v, err := Parse(ev.data, ParseOptions{})
				if err != nil {
					b.Fatal(err)
				}
				if _, ok := v.(*Object).Get("delta"); !ok {
					b.Fatal("no delta")
				}
			}
		})
		b.Run(ev.name+"/Scan", func(b *testing.B) {
			b.SetBytes(int64(len(ev.data)))
			b.ReportAllocs()
			var typ, id []byte
			delta := make([]byte, 0, 64)
			for b.Loop() {
				err := ScanObject(ev.data, ParseOptions{}, func(key, value []byte) error {
					var err error
					switch string(key) {
					case "type":
						typ = value
					case "messageId":
						id = value
					case "delta":
						delta, err = AppendUnquoted(delta[:0], value)
					}
					return err
				})
				if err != nil || typ == nil || id == nil || len(delta) == 0 {
					b.Fatal(err)
				}
			}
		})
		b.Run(ev.name+"/ScanStrings", func(b *testing.B) {
			b.SetBytes(int64(len(ev.data)))
			b.ReportAllocs()
			var typ, id string
			delta := make([]byte, 0, 64)
			for b.Loop() {
				err := ScanObject(ev.data, ParseOptions{}, func(key, value []byte) error {
					var err error
					switch string(key) {
					case "type":
						typ, err = UnquoteString(value)
					case "messageId":
						id, err = UnquoteString(value)
					case "delta":
						delta, err = AppendUnquoted(delta[:0], value)
					}
					return err
				})
				if err != nil || typ == "" || id == "" || len(delta) == 0 {
					b.Fatal(err)
				}
			}
		})
	}
}
