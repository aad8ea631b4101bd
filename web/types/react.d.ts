// Types of src/bindings/react.js: the React binding (subpath "./react").
import type { Agent, AgentActions, AgentOptions, AgentState } from './agui.js';

/** The actions of an agent plus the selected state. */
export interface UseAgentResult<T> extends AgentActions {
  /** selector(state); EMPTY_STATE's slice until loaded and during server rendering. */
  state: T;
  agent: Agent;
  ready: boolean;
  /** Why the module failed to load, else null. */
  error: unknown;
}

/**
 * An agent for this component: loaded in an effect (never on the server), disposed on
 * unmount, safe under StrictMode. The component renders again only when selector's result
 * changes (compared with isEqual, default Object.is). options is read when the agent is made.
 */
export function useAgent<T = AgentState>(
  options?: AgentOptions,
  selector?: (state: AgentState) => T,
  isEqual?: (a: T, b: T) => boolean,
): UseAgentResult<T>;

/** selector(agent.state) for a component given an agent (by props or context). */
export function useAgentState<T = AgentState>(
  agent: Agent | null | undefined,
  selector?: (state: AgentState) => T,
  isEqual?: (a: T, b: T) => boolean,
): T;
