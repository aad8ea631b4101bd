// Types of src/ag-ui/drop-in.js: @ag-ui/client's agents with the wasm reducer as their
// apply step (a one-line swap: import { HttpAgent } from '<package>/ag-ui').

import type { AbstractAgent as OfficialAbstractAgent, HttpAgent as OfficialHttpAgent, AgentConfig, HttpAgentConfig } from '@ag-ui/client';
import type { ReducerAgentConfig, ReducerAgentMembers } from './ag-ui-reducer.js';

export { withReducer, setReducerFactory } from './ag-ui-reducer.js';

/** Resolves once the default reducer factory (setReducerFactory's, else the package's) is ready:
 *  every run that starts after it is folded by the reducer (docs/ag-ui-agent.md, "Cold start").
 *  Rejects with the LoadError of a factory that failed to load. */
export function reducerReady(): Promise<void>;
export type { ReducerAgentConfig, ReducerAgentMembers, InvalidToolCall, InvalidToolCallAnswer } from './ag-ui-reducer.js';

/** AbstractAgent with the reducer as its apply step; subclasses implement run(input). */
export declare abstract class ReducerAgent extends OfficialAbstractAgent implements ReducerAgentMembers {
  constructor(config?: AgentConfig & ReducerAgentConfig);
  readonly reducerState: ReducerAgentMembers['reducerState'];
}

/** Resuming a cut run (README, "Resumable runs"). */
export interface ResumeAgentConfig {
  /** false: no reconnects (as @ag-ui/client). Else the backoff (RunOptions' resume numbers) and
   *  onReconnect, called before each reconnect (a UI's "reconnecting…"). */
  resume?: false | (Omit<import('./agui.js').ResumeOptions, 'sleep' | 'random'> & { onReconnect?: (info: import('./agui.js').ReconnectInfo) => void });
  /** The run to continue: connectAgent() resumes it from this SSE id (saved from agent.lastEventId before a reload). */
  lastEventId?: string;
  /** connectAgent() without lastEventId loads the thread from an agui-relay in front of the agent
   *  (GET threads/{threadId} next to url: the conversation, then its live run; docs/relay.md):
   *  by default when the agent's headers carry X-Agui-Thread-Key (the relay's thread key), always
   *  with true (a relay with -auth-header), never with false. An agent not behind a relay (the GET
   *  answers an error) connects as @ag-ui/client's does: nothing. */
  threads?: boolean;
  /** Where connectAgent() loads the thread (default: threads/{threadId} next to url). */
  threadsURL?: string | URL;
  /** With @ag-ui/client 0.0.x (CopilotKit 1.75 pins 0.0.59): AG-UI 1.0's shapes that its parse
   *  refuses are handed to it in its own (tool content parts as their text, a cancelled outcome
   *  as a run that ended, pendingToolCallIds kept on the event, RUN_STARTED input's tools and
   *  context defaulted, a provider-file part as a text part, an unknown event type to onEvent
   *  subscribers only, with one warning per type), the reducer folding them as they came
   *  (docs/ag-ui-agent.md, "AG-UI 1.0 events on @ag-ui/client 0.0.x"). Default true; false:
   *  strict parity with that client's HttpAgent (such a run fails). No effect with 1.0. */
  bridge?: boolean;
}

/** @ag-ui/client's HttpAgent (same options: url, headers, threadId, initialMessages,
 *  initialState, agentId, description, debug, fetch) with the reducer as its apply step.
 *  A run whose response is cut reconnects with Last-Event-ID (docs/resume.md). */
export declare class HttpAgent extends OfficialHttpAgent implements ReducerAgentMembers {
  constructor(config: HttpAgentConfig & ReducerAgentConfig & ResumeAgentConfig);
  readonly reducerState: ReducerAgentMembers['reducerState'];
  /** The SSE id of the last frame passed on ('' when the frames carried none). */
  lastEventId: string;
  /** Where connectAgent() loads the thread (default: threads/{threadId} next to url). */
  threadsURL?: string;
  /** How the last run's transport ended: its reconnects. */
  lastRun: import('./agui.js').RunReport | null;
}
