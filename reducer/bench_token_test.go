package reducer

import (
	"strconv"
	"testing"
)

// BenchmarkFoldToken: one streamed text token given by its fields, to a
// message whose id is a UUID, through ApplyToken (the change record built)
// and through FoldToken (only the message's index returned). A message
// takes 4096 tokens, then the next one starts.
func BenchmarkFoldToken(b *testing.B) {
	delta := []byte(" the quick fox")
	for _, fold := range []bool{false, true} {
		name := "ApplyToken"
		if fold {
			name = "FoldToken"
		}
		b.Run(name, func(b *testing.B) {
			r := New(Options{})
			var c Change
			r.ApplyInto(&c, []byte(`{"type":"RUN_STARTED","threadId":"t","runId":"r"}`))
			var id []byte
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if i%4096 == 0 {
					id = []byte("0b9f3c2e-8d41-4e7a-a5c6-" + strconv.Itoa(100000000000+i))
					r.ApplyInto(&c, []byte(`{"type":"TEXT_MESSAGE_START","messageId":"`+string(id)+`","role":"assistant"}`))
				}
				i++
				if fold {
					if _, ok := r.FoldToken(&c, TextMessageContent, id, delta); !ok {
						b.Fatal("not appended")
					}
				} else {
					c.Reset()
					r.ApplyToken(&c, TextMessageContent, id, delta)
				}
			}
		})
	}
}
