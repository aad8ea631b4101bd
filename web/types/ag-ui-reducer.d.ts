// Types of src/ag-ui/with-reducer.js: the apply step of an @ag-ui/client agent done by
// the wasm reducer. See docs/ag-ui-agent.md.

import type { ReducerFactory, ReducerOptions, AgentState } from './agui.js';

/** What withReducer adds to a base class's constructor config. */
export interface ReducerAgentConfig {
  /** The reducer factory (loadReducer()), or a promise of one. Default: setReducerFactory's,
   *  else loadReducer() with its default .wasm location, loaded once for all agents. A run never
   *  waits for it: one that starts before it is ready (or after it failed to load) is folded by
   *  the base class's own apply step (docs/ag-ui-agent.md, "Cold start"). */
  reducer?: ReducerFactory | Promise<ReducerFactory>;
  /** Options of the agent's reducer (dialect is "agui"). */
  reducerOptions?: Omit<ReducerOptions, 'dialect'>;
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
