// Types of ag-ui.js: @ag-ui/client's agents with the wasm reducer as their
// apply step (a one-line swap: import { HttpAgent } from '<package>/ag-ui').

import type { AbstractAgent as OfficialAbstractAgent, HttpAgent as OfficialHttpAgent, AgentConfig, HttpAgentConfig } from '@ag-ui/client';
import type { ReducerAgentConfig, ReducerAgentMembers } from './ag-ui-reducer.js';

export { withReducer, setReducerFactory } from './ag-ui-reducer.js';
export type { ReducerAgentConfig, ReducerAgentMembers } from './ag-ui-reducer.js';

/** AbstractAgent with the reducer as its apply step; subclasses implement run(input). */
export declare abstract class ReducerAgent extends OfficialAbstractAgent implements ReducerAgentMembers {
  constructor(config?: AgentConfig & ReducerAgentConfig);
  readonly reducerState: ReducerAgentMembers['reducerState'];
}

/** @ag-ui/client's HttpAgent (same options: url, headers, threadId, initialMessages,
 *  initialState, agentId, description, debug, fetch) with the reducer as its apply step. */
export declare class HttpAgent extends OfficialHttpAgent implements ReducerAgentMembers {
  constructor(config: HttpAgentConfig & ReducerAgentConfig);
  readonly reducerState: ReducerAgentMembers['reducerState'];
}
