package main

import (
	"bytes"
	"os"
	"regexp"
	"strconv"
	"testing"
	"time"
)

// conversationTurns returns n turns of testdata/chat-turn.jsonl, each a run
// of its own: turn k's run, message and tool call ids carry the suffix
// "-k", and only the first turn has the STATE_SNAPSHOT (as bench/gen.mjs's
// conversation).
func conversationTurns(tb testing.TB, n int) [][][]byte {
	data, err := os.ReadFile("testdata/chat-turn.jsonl")
	if err != nil {
		tb.Fatal(err)
	}
	events := bytes.Split(bytes.TrimSpace(data), []byte("\n"))
	ids := regexp.MustCompile(`"(runId|messageId|toolCallId|parentMessageId)":"([^"]*)"`)
	turns := make([][][]byte, n)
	for k := range turns {
		suffix := []byte("-" + strconv.Itoa(k))
		for _, ev := range events {
			if k > 0 && bytes.HasPrefix(ev, []byte(`{"type":"STATE_SNAPSHOT"`)) {
				continue
			}
			ev = ids.ReplaceAllFunc(ev, func(m []byte) []byte {
				return append(m[:len(m)-1:len(m)-1], append(suffix, '"')...)
			})
			turns[k] = append(turns[k], ev)
		}
	}
	return turns
}

// isToken reports whether ev is a streamed token (folded through
// applyToken by the hosts that can, and not measured here).
func isToken(ev []byte) bool {
	for _, p := range []string{`{"type":"TEXT_MESSAGE_CONTENT"`, `{"type":"REASONING_MESSAGE_CONTENT"`, `{"type":"TOOL_CALL_ARGS"`} {
		if bytes.HasPrefix(ev, []byte(p)) {
			return true
		}
	}
	return false
}

// BenchmarkBridgeEvents: the events of a conversation that are not
// streamed tokens (run lifecycle, message and tool call starts and ends,
// tool results, state, custom events) through applyCompact as
// createReducer({}) folds them (the dialect detected), over 25 turns.
// ns/event is their mean cost, record included; ns/<TYPE> the mean per
// event type (timed one by one, so with the clock's cost). The tokens
// between them are folded too, untimed.
func BenchmarkBridgeEvents(b *testing.B) {
	turns := conversationTurns(b, 25)
	typeOf := regexp.MustCompile(`^\{"type":"([A-Z_]+)"`)
	var kinds []string
	per := map[string]time.Duration{}
	count := map[string]int{}
	var total time.Duration
	events := 0
	b.ReportAllocs()
	for b.Loop() {
		h := create([]byte(`{}`))
		for _, turn := range turns {
			for _, ev := range turn {
				if isToken(ev) {
					applyCompact(h, nil, ev)
					continue
				}
				t0 := time.Now()
				n := applyCompact(h, nil, ev)
				d := time.Since(t0)
				if n < 0 {
					b.Fatal("apply failed: ", string(out))
				}
				kind := string(typeOf.FindSubmatch(ev)[1])
				if _, seen := per[kind]; !seen {
					kinds = append(kinds, kind)
				}
				per[kind] += d
				count[kind]++
				total += d
				events++
			}
		}
		dispose(h)
	}
	b.ReportMetric(float64(total.Nanoseconds())/float64(events), "ns/event")
	for _, k := range kinds {
		b.ReportMetric(float64(per[k].Nanoseconds())/float64(count[k]), "ns/"+k)
	}
}
