// React binding: useAgent, a hook over createAgent, and useAgentState, a
// selector over an agent a parent made. Both read through
// useSyncExternalStore, so a component renders again only when what its
// selector returns changes identity; the mirror's structural sharing keeps
// untouched messages and tool calls identical from one change to the next.

import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { agentActions, createAgent, EMPTY_STATE } from '../agent/agent.js';

const identity = (s) => s;

/**
 * The slice selector(state) of agent's state. A selector may return a new
 * value each time (a filter, an object of fields): isEqual (default
 * Object.is) compares it with the previous one, which is kept when equal.
 */
export function useAgentState(agent, selector = identity, isEqual = Object.is) {
  const memo = useRef(null);
  const getSnapshot = () => {
    const state = agent ? agent.state : EMPTY_STATE;
    const m = memo.current;
    if (m !== null && m.state === state && m.selector === selector) return m.value;
    let value = selector(state);
    if (m !== null && isEqual(m.value, value)) value = m.value;
    memo.current = { state, selector, value };
    return value;
  };
  // The server snapshot is the empty state (an agent loads only in effects).
  return useSyncExternalStore(agent ? agent.subscribe : noSubscribe, getSnapshot, getSnapshot);
}

function noSubscribe() { return () => {}; }

/**
 * An agent for this component: made on first render, loaded in an effect
 * (never during server rendering, where the state is EMPTY_STATE), disposed
 * on unmount. Under StrictMode's mount, unmount, mount the first agent is
 * disposed and a fresh one made. options is read when the agent is made.
 */
export function useAgent(options, selector = identity, isEqual = Object.is) {
  const [agent, setAgent] = useState(() => createAgent(options));
  const optionsRef = useRef(options);
  optionsRef.current = options;
  useEffect(() => {
    if (agent.disposed) { // StrictMode's second mount
      setAgent(createAgent(optionsRef.current));
      return undefined;
    }
    agent.load().catch(() => {}); // agent.error has it; rendered below
    return () => agent.dispose();
  }, [agent]);
  const state = useAgentState(agent, selector, isEqual);
  const phase = useSyncExternalStore(agent.subscribe, () => phaseOf(agent), () => 'loading');
  return useMemo(() => ({
    state,
    agent,
    ready: phase === 'ready',
    error: phase === 'error' ? agent.error : null,
    ...agentActions(agent),
  }), [state, agent, phase]);
}

function phaseOf(agent) {
  if (agent.ready) return 'ready';
  return agent.error ? 'error' : 'loading';
}
