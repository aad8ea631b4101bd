package main

import (
	"bytes"
	"os"
	"testing"
)

// BenchmarkBridgeTurn: one chat turn (testdata/chat-turn.jsonl: bench/gen.mjs's
// 1-turn conversation, 261 events, nearly all streamed tokens) through the
// bridge as the drop-in agent calls it: a reducer created with the agui
// dialect, then applyCompact per event.
func BenchmarkBridgeTurn(b *testing.B) {
	data, err := os.ReadFile("testdata/chat-turn.jsonl")
	if err != nil {
		b.Fatal(err)
	}
	events := bytes.Split(bytes.TrimSpace(data), []byte("\n"))
	b.ReportAllocs()
	for b.Loop() {
		h := create([]byte(`{"dialect":"agui"}`))
		for _, ev := range events {
			if applyCompact(h, nil, ev) < 0 {
				b.Fatal("apply failed")
			}
		}
		dispose(h)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(events)), "ns/event")
}

// BenchmarkBridgeTurnTokens: BenchmarkBridgeTurn as the web module's
// reducer.apply(text) folds it: the streamed tokens (nearly every event)
// by their fields through applyToken, the other events through
// applyCompact.
func BenchmarkBridgeTurnTokens(b *testing.B) {
	data, err := os.ReadFile("testdata/chat-turn.jsonl")
	if err != nil {
		b.Fatal(err)
	}
	type event struct {
		kind      int32
		id, delta []byte
		text      []byte
	}
	var events []event
	for _, l := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
		kind, id, delta := tokenFields(string(l))
		events = append(events, event{kind, []byte(id), []byte(delta), l})
	}
	b.ReportAllocs()
	for b.Loop() {
		h := create([]byte(`{"dialect":"agui"}`))
		for _, ev := range events {
			var n int32
			if ev.kind != 0 {
				n = applyToken(h, ev.kind, ev.id, ev.delta)
			} else {
				n = applyCompact(h, nil, ev.text)
			}
			if n < 0 {
				b.Fatal("apply failed")
			}
		}
		dispose(h)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(events)), "ns/event")
}
