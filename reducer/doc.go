// Package reducer folds the canonical AG-UI events an agent streams to a
// user interface into one agent state.
//
// A Reducer holds an AgentState: run status, the conversation (messages),
// tool calls tracked on their own, the shared agent state with its
// citations, steps, pending interrupts, usage and the run result. Apply
// takes one event as JSON text, decodes it (DecodeEvent, with the field
// reader and limits of package eventjson, which the translators of package
// dialect share), expands chunk events the way the official @ag-ui/client
// does, and folds every resulting canonical event into the state. The
// semantics follow the official client's defaultApplyEvents wherever it
// defines them (message lookup by first id, tool-call parent resolution,
// tool-result placement, MESSAGES_SNAPSHOT merge, activity messages,
// metadata merge), extended with what a chat UI needs: status and errors,
// reasoning with its duration, live tool-call arguments, citations and
// steps.
//
// It folds AG-UI 1.0 (@ag-ui/client 1.0.0): subagent attribution
// (subagentRunId on the messages events create, chunk lanes per subagent)
// and the subagent invocations themselves (AgentState.Subagents, for UIs),
// content-part tool results, the cancelled outcome and pendingToolCallIds,
// and the 1.0 MESSAGES_SNAPSHOT merge. Streamed text is JavaScript text: a
// UTF-16 surrogate pair split across deltas joins as concatenation joins it
// in JavaScript, and a lone surrogate stays lone (surrogates.go).
//
// The reducer knows canonical AG-UI only. Producers that speak another
// dialect go through a translator of package dialect first (bytes →
// translator → canonical events → reducer); ApplyAppend folds the several
// events one translated event stands for into one change record, and Frames,
// for a host that parses an SSE body itself, skips what a reconnecting
// server resends and moves the cursor (dialect.Pipeline composes the SSE
// parser, the translator and the reducer). What canonical AG-UI has no event
// for comes as an amendment, which the host hands to Amend (amend.go): never
// an event, so a canonical stream cannot forge one.
//
// Every Apply returns a Change: the JSON Patch-like operations (add,
// replace, remove, and append for streamed text) that turn the previous
// state JSON into the new one, the custom events the event produced, and
// diagnostics. A change is bounded by the event and the entity it touched,
// never by the conversation: a host keeps a mirror of the state (the web
// module keeps a JavaScript one) by applying changes, and asks for the whole
// document (Snapshot) only when it needs it.
//
// Bad input never panics and never half-applies: a malformed event, an
// unknown id or a failing patch yields a Diagnostic (a code and a message)
// and the state stays as it was. Lookups by id are O(1), streamed text is
// appended in amortised O(delta), tool-call arguments are parsed
// incrementally (package partialjson), and STATE_DELTA patches a parsed
// tree in place with an undo journal (package jsonpatch), so the cost of an
// event does not grow with the conversation or the state.
//
// The package is pure: no I/O, no globals, no clock it was not given
// (Options.Clock), so the same code runs natively and as WebAssembly.
package reducer
