package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// tokenStream is a text message's or a write_file tool call's stream: the
// events that open it (as JSON text) and ~20-byte deltas, as the drop-in
// agent hands them to applyToken.
func tokenStream(args bool, n int) (start []string, id string, deltas []string) {
	var b strings.Builder
	words := strings.Fields(`the a of to and in is it that for on with as this "quoted" value result error file path`)
	for i := 0; b.Len() < 20*n; i++ {
		if i%9 == 8 {
			b.WriteString("\n")
		}
		b.WriteString(words[i*7919%len(words)] + " ")
	}
	text := b.String()
	start = []string{`{"type":"RUN_STARTED","threadId":"t","runId":"r"}`, `{"type":"TEXT_MESSAGE_START","messageId":"m","role":"assistant"}`}
	id = "m"
	if args {
		raw, _ := json.Marshal(map[string]string{"path": "src/a.txt", "content": text})
		text = string(raw)
		start = append(start, `{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"write_file","parentMessageId":"m"}`)
		id = "c"
	}
	for at := 0; at < len(text); at += 20 {
		deltas = append(deltas, text[at:min(at+20, len(text))])
	}
	return start, id, deltas
}

// writeFileTools gives create the write_file tool's parameters schema.
const writeFileTools = `,"tools":[{"name":"write_file","parameters":{"type":"object",` +
	`"properties":{"path":{"type":"string","minLength":1},"content":{"type":"string"}},` +
	`"required":["path","content"],"additionalProperties":false}}]`

// BenchmarkBridgeToken: one streamed token through applyToken, as the
// drop-in agent folds it: a text token (TEXT_MESSAGE_CONTENT), a
// text token to a message with a UUID for id, a
// tool-argument token (TOOL_CALL_ARGS of a write_file call's JSON
// arguments, whose record also carries the parsed argument's append), the
// same with the tool's parameters schema given (the arguments validated
// as they stream: the record also carries the safe arguments' append), and
// tool-argument tokens of three such calls streaming at once with
// provider-style ids (each token switches calls, as in bench/agent.mjs's
// large-arguments scenario). ns/token is the cost of one, record
// included; allocs/op over the stream's tokens is what a token allocates.
func BenchmarkBridgeToken(b *testing.B) {
	for _, kind := range []struct {
		name  string
		args  bool
		code  int32
		calls int
		id    string
		opts  string
	}{{"text", false, 1, 1, "", ""}, {"text-uuid", false, 1, 1, "0b9f3c2e-8d41-4e7a-a5c6-2f1d9e7b4a03", ""},
		{"args", true, 3, 1, "", ""}, {"args-interleaved", true, 3, 3, "", ""},
		{"args-validated", true, 3, 1, "", writeFileTools}} {
		b.Run(kind.name, func(b *testing.B) {
			start, id, deltas := tokenStream(kind.args, 5000)
			if kind.id != "" {
				// A client's message id (a UUID), as most streams carry.
				start[1] = strings.Replace(start[1], `"m"`, `"`+kind.id+`"`, 1)
				id = kind.id
			}
			ids := [][]byte{[]byte(id)}
			if kind.calls > 1 {
				ids = ids[:0]
				for i := range kind.calls {
					callID := "call_0P3kX9vYq2" + string(rune('a'+i)) + "LmT7wZr8sNc4"
					ids = append(ids, []byte(callID))
					start = append(start, `{"type":"TOOL_CALL_START","toolCallId":"`+callID+`","toolCallName":"write_file","parentMessageId":"m"}`)
				}
			}
			b.ReportAllocs()
			tokens := 0
			for b.Loop() {
				h := create([]byte(`{"dialect":"agui"` + kind.opts + `}`))
				for _, ev := range start {
					apply(h, nil, []byte(ev))
				}
				for _, d := range deltas {
					// Each call streams the same arguments, a token in turn.
					for _, callID := range ids {
						if applyToken(h, kind.code, callID, []byte(d)) < 0 {
							b.Fatal("applyToken failed")
						}
					}
				}
				tokens += len(deltas) * kind.calls
				dispose(h)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(tokens), "ns/token")
		})
	}
}
