package reducer

import (
	"testing"

	"github.com/agui-reducer/agui/reducer/jsontree"
)

// byteSource turns fuzz input into choices; past its end every choice is 0.
type byteSource struct{ b []byte }

func (s *byteSource) next() byte {
	if len(s.b) == 0 {
		return 0
	}
	c := s.b[0]
	s.b = s.b[1:]
	return c
}

func (s *byteSource) pick(n int) int { return int(s.next()) % n }

func (s *byteSource) done() bool { return len(s.b) == 0 }

var allEventTypes = []EventType{
	TextMessageStart, TextMessageContent, TextMessageEnd, TextMessageChunk,
	ToolCallStart, ToolCallArgs, ToolCallEnd, ToolCallChunk, ToolCallResult,
	ThinkingStart, ThinkingEnd, ThinkingTextMessageStart, ThinkingTextMessageContent, ThinkingTextMessageEnd,
	StateSnapshot, StateDelta, MessagesSnapshot, ActivitySnapshot, ActivityDelta,
	Raw, Custom, RunStarted, RunFinished, RunError, StepStarted, StepFinished,
	ReasoningStart, ReasoningMessageStart, ReasoningMessageContent, ReasoningMessageEnd,
	ReasoningMessageChunk, ReasoningEnd, ReasoningEncryptedValue, "", "BOGUS",
}

var fuzzStrings = []string{"", "a", "b", "m", "t", "r1", "r2", "assistant", "user", "tool", "activity", "message", "tool-call", "x\x00y"}

// fuzzValues are the values a hand-built Event may carry, well-formed or
// not: typed nil containers, Go values that are not JSON, an invalid
// Number, patches that copy the root or remove it.
func fuzzValue(s *byteSource) jsontree.Value {
	parse := func(text string) jsontree.Value {
		v, err := jsontree.Parse([]byte(text), jsontree.ParseOptions{})
		if err != nil {
			panic(err)
		}
		return v
	}
	switch s.pick(22) {
	case 0:
		return nil
	case 1:
		return (*jsontree.Object)(nil)
	case 2:
		return (*jsontree.Array)(nil)
	case 3:
		return jsontree.NewObject(0)
	case 4:
		return parse(`{"a":1,"citations":{"m":["http://x"]}}`)
	case 5:
		return parse(`[1,"x"]`)
	case 6:
		return "text"
	case 7:
		return jsontree.Number("1.5")
	case 8:
		return jsontree.Number("not a number")
	case 9:
		return 5 // not a jsontree value
	case 10:
		return true
	case 11:
		return parse(`[{"op":"add","path":"/a","value":{"b":[1]}}]`)
	case 12:
		return parse(`[{"op":"copy","from":"","path":"/k"},{"op":"copy","from":"","path":"/j"}]`)
	case 13:
		return parse(`[{"op":"remove","path":""}]`)
	case 14:
		return parse(`[{"op":"replace","path":"","value":5}]`)
	case 15:
		return parse(`[{"id":"m","role":"user","content":"hi"},{"id":"m","role":"assistant","content":"yo","toolCalls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{}"}}]}]`)
	case 16:
		return parse(`[{"id":"a","role":"activity","activityType":"x","content":{"n":1}},{"id":"t","role":"tool","toolCallId":"c","content":"r"}]`)
	case 17:
		return parse(`{"messages":[{"id":"u","role":"user","content":"q"}]}`)
	case 18:
		return parse(`{"type":"interrupt","interrupts":[{"id":"i"}]}`)
	case 19:
		shared := jsontree.NewObject(0)
		return jsontree.NewArray(shared, shared) // one node in two places
	case 20:
		return parse(`[{"op":"add","path":"/citations","value":{"m":["http://c"],"a":[{"url":"u","x":1}]}}]`)
	default:
		o := jsontree.NewObject(1)
		o.Set("self", o) // a cycle
		return o
	}
}

func fuzzEvent(s *byteSource) Event {
	str := func() string { return fuzzStrings[s.pick(len(fuzzStrings))] }
	obj := func() *jsontree.Object { o, _ := fuzzValue(s).(*jsontree.Object); return o }
	arr := func() *jsontree.Array { a, _ := fuzzValue(s).(*jsontree.Array); return a }
	ev := Event{Type: allEventTypes[s.pick(len(allEventTypes))]}
	// Every field gets a value, used or not, so that half-filled and
	// over-filled events both occur.
	ev.MessageID, ev.HasMessageID = str(), s.next()&1 == 0
	ev.Role, ev.Name, ev.HasName = str(), str(), s.next()&1 == 0
	ev.Delta, ev.HasDelta = str(), s.next()&1 == 0
	ev.ActivityType, ev.Replace = str(), s.next()&1 == 0
	ev.ToolCallID, ev.ToolCallName, ev.ParentMessageID = str(), str(), str()
	ev.ThreadID, ev.RunID, ev.ParentRunID = str(), str(), str()
	ev.Message, ev.Code, ev.HasCode = str(), str(), s.next()&1 == 0
	ev.StepName, ev.CustomName, ev.Source = str(), str(), str()
	ev.Subtype, ev.EntityID, ev.EncryptedValue, ev.Title = str(), str(), str(), str()
	ev.Timestamp, ev.HasTimestamp = float64(s.next()), s.next()&1 == 0
	ev.HasResult, ev.HasValue = s.next()&1 == 0, s.next()&1 == 0
	if s.next()&1 == 0 {
		ev.Metadata = obj()
	}
	ev.Content, ev.Patch, ev.Snapshot = fuzzValue(s), fuzzValue(s), fuzzValue(s)
	ev.Messages, ev.Input, ev.Result, ev.Outcome = arr(), obj(), fuzzValue(s), obj()
	ev.Usage, ev.Value, ev.RawBody, ev.RawEvent = arr(), fuzzValue(s), fuzzValue(s), fuzzValue(s)
	return ev
}

// FuzzEventValues builds Event values directly (zero-valued, half-filled,
// carrying values that are not JSON) and applies them with ApplyEventInto:
// never a panic, and after every event the invariants of checker.
func FuzzEventValues(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{8, 0, 0, 0, 0, 0})
	f.Add([]byte{16})
	for i := range allEventTypes {
		f.Add([]byte{byte(i), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21})
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s := &byteSource{b: data}
		k := newChecker(t, Options{MaxDepth: 64, Clock: fixedClock(), MaxStateBytes: 1 << 14})
		for i := 0; i < 12; i++ {
			ev := fuzzEvent(s)
			var c Change
			k.r.ApplyEventInto(&c, ev)
			k.check(t, &c, []byte(ev.Type))
			k.m.check(t, k.r, string(ev.Type))
			if s.done() {
				break
			}
		}
		k.finish(t)
	})
}
