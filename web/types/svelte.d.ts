// Types of src/bindings/svelte.js: the Svelte binding (subpath "./svelte").
import type { Agent, AgentActions, AgentOptions, AgentState, Readable } from './agui.js';

export interface AgentStore<T> extends Readable<T>, AgentActions {
  agent: Agent;
  readonly ready: boolean;
  /** A store of why the module failed to load (null until then). */
  error: Readable<unknown>;
  dispose: Agent['dispose'];
}

/** A store of selector(state) (default the whole state); loads the module on first subscribe in a browser. */
export function agentStore<T = AgentState>(options?: AgentOptions | Agent, selector?: (state: AgentState) => T): AgentStore<T>;
