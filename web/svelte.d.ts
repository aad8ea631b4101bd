// Types of svelte.js: the Svelte binding (subpath "./svelte").
import type { Agent, AgentOptions, AgentState, Readable } from './agui.js';

export interface AgentStore<T> extends Readable<T> {
  agent: Agent;
  readonly ready: boolean;
  /** A store of why the module failed to load (null until then). */
  error: Readable<unknown>;
  run: Agent['run'];
  send: Agent['send'];
  stop: Agent['stop'];
  addUserMessage: Agent['addUserMessage'];
  addToolResult: Agent['addToolResult'];
  reset: Agent['reset'];
  setState: Agent['setState'];
  setMessages: Agent['setMessages'];
  runInput: Agent['runInput'];
  dispose: Agent['dispose'];
}

/** A store of selector(state) (default the whole state); loads the module on first subscribe in a browser. */
export function agentStore<T = AgentState>(options?: AgentOptions | Agent, selector?: (state: AgentState) => T): AgentStore<T>;
