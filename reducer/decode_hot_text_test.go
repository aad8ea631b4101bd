package reducer

import (
	"regexp"
	"strings"
	"testing"

	"github.com/agui-reducer/agui/reducer/jsontree"
)

// TestHotTextMatchesGeneralPath: applyHotText (streamed text and reasoning
// tokens in the producers' exact layout) folds exactly as the general
// decoder does. Every event is applied as is to one reducer and with a
// leading space (valid JSON the hot path never takes) to another; their
// change records and snapshots must agree after every event.
func TestHotTextMatchesGeneralPath(t *testing.T) {
	content := func(id, delta string) string {
		return `{"type":"TEXT_MESSAGE_CONTENT","messageId":"` + id + `","delta":"` + delta + `"}`
	}
	reasoning := func(id, delta string) string {
		return `{"type":"REASONING_MESSAGE_CONTENT","messageId":"` + id + `","delta":"` + delta + `"}`
	}
	streams := map[string][]string{
		"text": {
			`{"type":"RUN_STARTED","threadId":"t","runId":"r1"}`,
			`{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}`,
			content("m1", "Hello"),
			content("m1", ""),
			content("m1", ` \"quoted\" \n\t\\ \/`),
			content("m1", `\u00e9\ud83d\ude00 lone \ud800 end`),
			content("m1", "é ✓ 日本 😀"),
			content("m1", "bad \xff\xfe utf8"),
			content("m1", "ctl \x01 char"),
			content("m1", `bad \q escape`),
			content("m1", `trunc \u12`),
			content("nope", "unknown id"),
			content(`m\u0031`, "escaped id"),
			content("m1", "x") + " ",
			content("m1", "x") + "}",
			`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"meta","metadata":{"k":1}}`,
			`{"type":"TEXT_MESSAGE_CONTENT","delta":"order","messageId":"m1"}`,
			`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":5}`,
			`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"dup","delta":"dup2"}`,
			`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1"`,
			`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"` + strings.Repeat("long ", 100) + `"}`,
			`{"type":"TEXT_MESSAGE_END","messageId":"m1"}`,
			content("m1", "after end"),
			`{"type":"TEXT_MESSAGE_START","messageId":"日本","role":"assistant"}`,
			content("日本", "unicode id"),
			`{"type":"TEXT_MESSAGE_CHUNK","messageId":"c1","delta":"chunk"}`,
			content("m1", "while a chunk stream is open"),
			content("c1", "into the chunk message"),
			`{"type":"RUN_FINISHED","threadId":"t","runId":"r1"}`,
			`{"type":"RUN_STARTED","threadId":"t","runId":"r1"}`, // a replay: skipped
			content("m1", "replayed"),
			`{"type":"RUN_FINISHED","threadId":"t","runId":"r1"}`,
			content("m1", "after the replay"),
		},
		"reasoning": {
			`{"type":"REASONING_MESSAGE_START","messageId":"r1","role":"reasoning"}`,
			reasoning("r1", "think"),
			reasoning("r1", `\n\"x\"`),
			reasoning("r1", ""),
			reasoning("nope", "unknown"),
			content("r1", "text into a reasoning message"),
			`{"type":"TEXT_MESSAGE_START","messageId":"m2","role":"assistant"}`,
			reasoning("m2", "reasoning into a text message"),
			reasoning("m2", "again"),
			`{"type":"REASONING_MESSAGE_END","messageId":"r1"}`,
			reasoning("r1", "after end"),
		},
		"tool slot": {
			`{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"f","parentMessageId":"p1"}`,
			content("p1", "into the tool call's slot"),
			content("p1", "again"),
		},
		"limit": {
			`{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}`,
			content("m1", strings.Repeat("a", 30)),
			content("m1", strings.Repeat("b", 30)),
			content("m1", "c"),
			`{"type":"REASONING_MESSAGE_START","messageId":"r1","role":"reasoning"}`,
			reasoning("r1", strings.Repeat("a", 40)),
			reasoning("r1", strings.Repeat("b", 40)),
		},
	}
	for name, events := range streams {
		for _, strict := range []bool{false, true} {
			opt := Options{Strict: strict, Clock: func() float64 { return 5 }}
			if name == "limit" {
				opt.MaxFieldBytes = 64
			}
			hot, general := New(opt), New(opt)
			// A user message whose content is not a string.
			hot.AddUserMessage(mustParse(t, `[{"type":"text","text":"hi"}]`), "u1")
			general.AddUserMessage(mustParse(t, `[{"type":"text","text":"hi"}]`), "u1")
			events := append(events, content("u1", "overwrites the user's content"), content("u1", "appends"))
			var ch, cg Change
			for i, ev := range events {
				hot.ApplyInto(&ch, []byte(ev))
				general.ApplyInto(&cg, []byte(" "+ev))
				// The leading space moves error offsets by one.
				h, g := string(ch.AppendJSON(nil)), offset.ReplaceAllString(string(cg.AppendJSON(nil)), "")
				if h = offset.ReplaceAllString(h, ""); h != g {
					t.Fatalf("%s (strict %v) event %d %s:\nhot     %s\ngeneral %s", name, strict, i, ev, h, g)
				}
				if h, g := string(hot.Snapshot()), string(general.Snapshot()); h != g {
					t.Fatalf("%s (strict %v) event %d %s: snapshots differ:\nhot     %s\ngeneral %s", name, strict, i, ev, h, g)
				}
			}
		}
	}
}

var offset = regexp.MustCompile(`at offset \d+`)

func mustParse(t *testing.T, s string) jsontree.Value {
	t.Helper()
	v, err := jsontree.Parse([]byte(s), jsontree.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestHotTextTaken: the layout producers write does take the hot path (so
// the comparison above compares two paths).
func TestHotTextTaken(t *testing.T) {
	r := New(Options{})
	var c Change
	r.ApplyInto(&c, []byte(`{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}`))
	r.ApplyInto(&c, []byte(`{"type":"REASONING_MESSAGE_START","messageId":"r1","role":"reasoning"}`))
	for _, ev := range []string{
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"Hello"}`,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":" \"w\u00e9\"\n"}`,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"é😀"}`,
		`{"type":"REASONING_MESSAGE_CONTENT","messageId":"r1","delta":"hmm"}`,
	} {
		c.Reset()
		if !r.applyHotText(&c, []byte(ev)) {
			t.Errorf("hot path not taken for %s", ev)
		}
	}
	if got := string(r.Snapshot()); !strings.Contains(got, `"content":"Hello \"wé\"\né😀"`) || !strings.Contains(got, `"reasoning":"hmm"`) {
		t.Errorf("state: %s", got)
	}
}
