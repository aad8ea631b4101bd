// Package dialect translates the event shapes of producers that do not
// speak canonical AG-UI into canonical AG-UI events.
//
// A Translator takes one event at a time, as it came (its JSON text, and
// the SSE event name when it came in a frame), and emits zero or more
// canonical AG-UI events as JSON text. A host folds them into a
// reducer.Reducer with a Pipeline, or re-emits them as canonical AG-UI to
// a client (cmd/agui-demo -upstream-dialect). The flow is one way:
//
//	bytes → SSE frames → Translator (dialect → canonical events) → reducer → change record → JS mirror
//
// A Pipeline is that flow in one place: it owns the SSE body being fed
// (reducer.Stream, which skips the frames a reconnecting server resends),
// the Translator and the Reducer, and folds the canonical events one frame
// stands for into one change record (Reducer.ApplyAppend). Events are read
// as the reducer reads them (package reducer/eventjson: the same field
// reader, limits and defaults).
//
// A Translator never sees a reducer's state: what a dialect needs to remember (the run going on, the ids it
// assigned and those the stream used, the open text segment, the text it
// streamed) it keeps itself, from the events it translated and the
// canonical events it passed on. The host tells it what the stream cannot:
// Reset for a new conversation, Resume after a restore, EndRun after a
// local failure, Observe for a canonical event the host folded itself.
//
// The dialects (docs/dialects.md has the full mapping):
//
//   - AGUI: canonical AG-UI, a JSON object with an UPPER_CASE type; passed
//     on as it came.
//   - SSEContract: the SSE contract of seeds/000. The event type is the SSE
//     event name, in snake_case (tool_call_start, tool_call_args,
//     tool_call_end, tool_result, reasoning_start, reasoning_message_start,
//     reasoning_message_content, reasoning_message_end, reasoning_end,
//     message, status, error), and the data has no type.
//   - TanStack: TanStack AI (seeds/001). Its AG-UI variant uses the
//     canonical types with other fields (toolName, error:{message,code},
//     finishReason and a usage object on RUN_FINISHED, thinking text on
//     STEP_FINISHED, full content on TEXT_MESSAGE_CONTENT, input and result
//     on TOOL_CALL_END); its legacy chunks have a lowercase type (content,
//     thinking, tool_call, tool-input-available, approval-requested,
//     tool_result, done, error).
//   - Streaming: the streaming events of seeds/003, a JSON object whose
//     "event" field names it (token, tool_start, tool_end,
//     tool_execution_request, tool_execution_complete, message_complete,
//     error).
//
// With Options.Dialect "" or Auto the dialect is detected per event: a
// canonical UPPER_CASE type is AG-UI (TanStack's field variants are then
// normalised where the canonical field is missing); an SSE event name of
// the SSE contract whose data has no type is the SSE contract; a lowercase
// TanStack chunk type is TanStack; an "event" field is the streaming
// dialect. Mixing dialects in one stream is handled event by event, with a
// "mixed_dialects" warning when a stream switches from one non-canonical
// dialect to another. Pinning a dialect rejects, with a "wrong_dialect"
// error and nothing emitted, every event that is not in it.
//
// Where a dialect gives no message, tool-call or run id, the translator
// names the entity itself, deterministically (Options.NewID when set, else
// "msg-1", "tool-1", "run-1"… skipping ids in use): the same input always
// yields the same ids. What canonical AG-UI has no event for (an approval
// request, a client-side tool, a finish reason, a recoverable error, a text
// sent whole rather than as deltas) goes in an amendment, an object the
// host receives on its own channel (TranslateTo) and folds with package
// reducer's Reducer.Amend; Translate, for hosts that re-emit canonical
// AG-UI, emits it as the custom event AmendEvent ("agui.amend"), which no
// reducer folds.
//
// An event with fields of the wrong types, or whose text would pass the
// field limit, is rejected whole: nothing is emitted and the translator's
// memory stays as it was, even when it would have expanded into several
// canonical events.
package dialect
