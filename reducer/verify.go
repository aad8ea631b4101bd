package reducer

import (
	"sort"
	"strings"
)

// verifier reproduces the official client's verifyEvents ordering rules. In
// strict mode each violation becomes an error-level diagnostic with code
// "order"; unlike the official client the event is still applied, so one
// out-of-order event cannot end the conversation.
type verifier struct {
	started, finished, errored, seenFirst bool
	messages, tools, steps                map[string]bool
	thinkingStep, thinkingMessage         bool
}

func (v *verifier) reset() {
	v.messages, v.tools, v.steps = map[string]bool{}, map[string]bool{}, map[string]bool{}
	v.thinkingStep, v.thinkingMessage = false, false
}

func (v *verifier) check(c *Change, ev *Event) {
	if v.messages == nil {
		v.reset()
	}
	t := string(ev.Type)
	bad := func(msg string) { c.fail("order", msg) }
	first := !v.seenFirst
	v.seenFirst = true
	if v.errored && ev.Type != RunStarted {
		bad("Cannot send event type '" + t + "': The run has already errored with 'RUN_ERROR'. No further events can be sent.")
		return
	}
	if v.finished && ev.Type != RunError && ev.Type != RunStarted {
		bad("Cannot send event type '" + t + "': The run has already finished with 'RUN_FINISHED'. Start a new run with 'RUN_STARTED'.")
		return
	}
	if first && ev.Type != RunStarted && ev.Type != RunError {
		bad("First event must be 'RUN_STARTED'")
		return
	}
	switch ev.Type {
	case RunStarted:
		if v.started && !v.finished && !v.errored {
			bad("Cannot send 'RUN_STARTED' while a run is still active. The previous run must be finished with 'RUN_FINISHED' before starting a new run.")
			return
		}
		v.reset()
		v.started, v.finished, v.errored = true, false, false
	case RunError:
		v.errored = true
	case RunFinished:
		if names := keys(v.steps); names != "" {
			bad("Cannot send 'RUN_FINISHED' while steps are still active: " + names)
		} else if names := keys(v.messages); names != "" {
			bad("Cannot send 'RUN_FINISHED' while text messages are still active: " + names)
		} else if names := keys(v.tools); names != "" {
			bad("Cannot send 'RUN_FINISHED' while tool calls are still active: " + names)
		}
		v.finished = true
	case TextMessageStart:
		if v.messages[ev.MessageID] {
			bad("Cannot send 'TEXT_MESSAGE_START' event: A text message with ID '" + ev.MessageID + "' is already in progress. Complete it with 'TEXT_MESSAGE_END' first.")
		}
		v.messages[ev.MessageID] = true
	case TextMessageContent:
		if !v.messages[ev.MessageID] {
			bad("Cannot send 'TEXT_MESSAGE_CONTENT' event: No active text message found with ID '" + ev.MessageID + "'. Start a text message with 'TEXT_MESSAGE_START' first.")
		}
	case TextMessageEnd:
		if !v.messages[ev.MessageID] {
			bad("Cannot send 'TEXT_MESSAGE_END' event: No active text message found with ID '" + ev.MessageID + "'. A 'TEXT_MESSAGE_START' event must be sent first.")
		}
		delete(v.messages, ev.MessageID)
	case ToolCallStart:
		if v.tools[ev.ToolCallID] {
			bad("Cannot send 'TOOL_CALL_START' event: A tool call with ID '" + ev.ToolCallID + "' is already in progress. Complete it with 'TOOL_CALL_END' first.")
		}
		v.tools[ev.ToolCallID] = true
	case ToolCallArgs:
		if !v.tools[ev.ToolCallID] {
			bad("Cannot send 'TOOL_CALL_ARGS' event: No active tool call found with ID '" + ev.ToolCallID + "'. Start a tool call with 'TOOL_CALL_START' first.")
		}
	case ToolCallEnd:
		if !v.tools[ev.ToolCallID] {
			bad("Cannot send 'TOOL_CALL_END' event: No active tool call found with ID '" + ev.ToolCallID + "'. A 'TOOL_CALL_START' event must be sent first.")
		}
		delete(v.tools, ev.ToolCallID)
	case StepStarted:
		if v.steps[ev.StepName] {
			bad("Step \"" + ev.StepName + "\" is already active for 'STEP_STARTED'")
		}
		v.steps[ev.StepName] = true
	case StepFinished:
		if !v.steps[ev.StepName] {
			bad("Cannot send 'STEP_FINISHED' for step \"" + ev.StepName + "\" that was not started")
		}
		delete(v.steps, ev.StepName)
	case ThinkingStart:
		if v.thinkingStep {
			bad("Cannot send 'THINKING_START' event: A thinking step is already in progress. End it with 'THINKING_END' first.")
		}
		v.thinkingStep = true
	case ThinkingEnd:
		if !v.thinkingStep {
			bad("Cannot send 'THINKING_END' event: No active thinking step found. A 'THINKING_START' event must be sent first.")
		}
		v.thinkingStep = false
	case ThinkingTextMessageStart:
		if !v.thinkingStep {
			bad("Cannot send 'THINKING_TEXT_MESSAGE_START' event: A thinking step is not in progress. Create one with 'THINKING_START' first.")
		} else if v.thinkingMessage {
			bad("Cannot send 'THINKING_TEXT_MESSAGE_START' event: A thinking message is already in progress. Complete it with 'THINKING_TEXT_MESSAGE_END' first.")
		}
		v.thinkingMessage = true
	case ThinkingTextMessageContent, ThinkingTextMessageEnd:
		if !v.thinkingMessage {
			bad("Cannot send '" + t + "' event: No active thinking message found. Start a message with 'THINKING_TEXT_MESSAGE_START' first.")
		}
		if ev.Type == ThinkingTextMessageEnd {
			v.thinkingMessage = false
		}
	}
}

func keys(m map[string]bool) string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return strings.Join(out, ", ")
}
