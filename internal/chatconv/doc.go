// Package chatconv builds the whole conversations the benchmarks of the
// reducer and of the dialect pipeline fold: n turns, each the recorded turn
// of wasm/testdata/chat-turn.jsonl (bench/gen.mjs's turn: reasoning, a
// streamed answer, a tool call with its result, a state delta; 261 events,
// nearly all streamed tokens) with its ids made the turn's own.
//
// The state snapshot is the first turn's only, so the state grows by a note
// and a fact per turn, as bench/gen.mjs's does. It is for tests and
// benchmarks (Bench runs one over 25 and 100 turns); nothing in the
// module's products imports it.
package chatconv
