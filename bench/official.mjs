// The official reducer pipeline of @ag-ui/client 1.0.0, as
// AbstractAgent.runAgent() runs it for one run: transformChunks, then
// defaultApplyEvents, then processApplyEvents (which assigns each emitted
// mutation's messages/state to the agent). Nothing else of the client
// (HTTP, verifyEvents, middleware) is involved.
//
// Bare specifiers: Node resolves them from bench/node_modules; the Chromium
// page maps them with an import map (browser.mjs).

import { defaultApplyEvents, transformChunks } from '@ag-ui/client';
import { from } from 'rxjs';

/**
 * A minimal agent: defaultApplyEvents reads agent.messages (cloned at the
 * start of a run) and writes agent.pendingInterrupts on RUN_FINISHED.
 */
export function officialAgent(messages = [], state = undefined) {
  return { messages, state, pendingInterrupts: [], threadId: '' };
}

/**
 * Folds one run's events (objects) into agent, consuming every mutation the
 * way processApplyEvents does (agent.messages = mutation.messages, …) and
 * touching what a UI would read. Resolves to the number of mutations.
 */
export function officialRun(agent, threadId, runId, events) {
  const input = {
    threadId, runId,
    state: agent.state,
    messages: agent.messages,
    tools: [], context: [], forwardedProps: {},
  };
  return new Promise((resolve, reject) => {
    let n = 0;
    let touched = 0;
    defaultApplyEvents(input, transformChunks()(from(events)), agent, []).subscribe({
      next(mutation) {
        n++;
        if (mutation.messages !== undefined) {
          agent.messages = mutation.messages;
          touched += mutation.messages.length;
        }
        if (mutation.state !== undefined) {
          agent.state = mutation.state;
          touched++;
        }
      },
      error: reject,
      complete() { resolve(n + (touched & 0)); },
    });
  });
}
