// Types of src/ag-ui/with-reducer.js: the apply step of an @ag-ui/client agent done by
// the wasm reducer. See docs/ag-ui-agent.md.

import type { ReducerFactory, ReducerOptions, AgentState, ToolCall, ArgsError } from './agui.js';

/** What onInvalidToolCall is told (docs/ag-ui-agent.md, "Tool arguments"). */
export interface InvalidToolCall {
  /** The reducer's tool call (agent.reducerState.toolCalls[i]): argsStatus 'invalid', args,
   *  argsText, safeArgs; status 'running' when the error came while it streams. */
  toolCall: ToolCall;
  /** Its argsErrors at that event: path, keyword ('enum', 'required', 'truncated', …), message. */
  errors: ArgsError[];
  /** The event that made it invalid: the TOOL_CALL_ARGS that completed the offending value, the
   *  TOOL_CALL_END (arguments cut off, or judged whole), or the RUN_FINISHED/RUN_ERROR that ended
   *  the run with the call still open. */
  event: { type: string; [key: string]: unknown };
  /** The agent. */
  agent: unknown;
  /** The run's RunAgentInput (its tools are the schemas). */
  input: unknown;
}

/** What onInvalidToolCall may return: result answers the call with that tool result (a string,
 *  or a JSON value given as its JSON text) once it has ended, instead of leaving it to the host
 *  to run; nothing (undefined) leaves the call as it is. */
export type InvalidToolCallAnswer = { result: unknown } | void | undefined;

/** What withReducer adds to a base class's constructor config. */
export interface ReducerAgentConfig {
  /** The reducer factory (loadReducer()), or a promise of one. Default: setReducerFactory's,
   *  else loadReducer() with its default .wasm location, loaded once for all agents. A run never
   *  waits for it: one that starts before it is ready (or after it failed to load) is folded by
   *  the base class's own apply step (docs/ag-ui-agent.md, "Cold start"). */
  reducer?: ReducerFactory | Promise<ReducerFactory>;
  /** Options of the agent's reducer (dialect is "agui"). Its tools validate calls beside each
   *  run's input.tools, which the agent hands the reducer (docs/tool-validation.md). */
  reducerOptions?: Omit<ReducerOptions, 'dialect'>;
  /** Called once per tool call whose arguments break its tool's parameters schema (the run's
   *  input.tools, or reducerOptions.tools), synchronously, at the event that made them invalid
   *  (a call of a cold run is not validated). Returning {result} refuses the call: once it has
   *  ended, the agent adds a tool message with that content (id `result-<toolCallId>`) to
   *  agent.messages, so that a host which runs frontend tools for unanswered calls (CopilotKit)
   *  does not run it; the next run sends it to the model. A throw is logged and ignored. */
  onInvalidToolCall?: (info: InvalidToolCall) => InvalidToolCallAnswer;
}

/** The members withReducer adds. */
export interface ReducerAgentMembers {
  /** The reducer's own agent state (types/agui.d.ts), once a run has started with the reducer
   *  (not after cold runs only); read-only. */
  readonly reducerState: AgentState | undefined;
}

type AgentClass = abstract new (...args: any[]) => {
  messages: unknown[];
  state: unknown;
  clone(): unknown;
  addMessage(message: any): void;
  addMessages(messages: any[]): void;
};

/**
 * A subclass of Base (an @ag-ui/client AbstractAgent subclass: AbstractAgent, HttpAgent, …)
 * whose apply step is the reducer: agent.messages and agent.state are the official shapes,
 * kept with structural sharing, and subscribers receive immutable values (frozen when
 * NODE_ENV is "development" or "test"). Its constructor takes Base's config plus
 * ReducerAgentConfig.
 */
export function withReducer<B extends AgentClass>(
  Base: B,
): {
  new (config?: ConstructorParameters<B>[0] & ReducerAgentConfig, ...rest: any[]): InstanceType<B> & ReducerAgentMembers;
  prototype: InstanceType<B> & ReducerAgentMembers;
} & Omit<B, 'prototype'>;

/** Sets the reducer factory agents without a `reducer` option use (null: back to loadReducer()). */
export function setReducerFactory(factory: ReducerFactory | Promise<ReducerFactory> | null): void;
