// Svelte binding: agentStore, a store over createAgent. It satisfies the
// Svelte store contract (subscribe(fn) calls fn with the current value at
// once and after every change, and returns the unsubscribe function), so
// `$agent` works in Svelte 3 to 5. The module is loaded when the store is
// first subscribed to in a browser, never during server rendering.

import { agentActions, createAgent, isAgent } from '../agent/agent.js';

const identity = (s) => s;

export function agentStore(optionsOrAgent, selector = identity) {
  const agent = isAgent(optionsOrAgent) ? optionsOrAgent : createAgent(optionsOrAgent);
  return {
    agent,
    subscribe(fn) {
      if (typeof fn !== 'function') throw new TypeError('agui agent: subscribe() takes a function');
      let last = selector(agent.state);
      fn(last);
      const unsubscribe = agent.subscribe(() => {
        const value = selector(agent.state);
        if (value !== last) fn((last = value));
      });
      if (typeof window !== 'undefined') agent.load().catch(() => {}); // agent.error has it
      return unsubscribe;
    },
    /** A store of why the module failed to load (null until then). */
    error: {
      subscribe(fn) {
        let last = agent.error;
        fn(last);
        return agent.subscribe(() => {
          if (agent.error !== last) fn((last = agent.error));
        });
      },
    },
    get ready() { return agent.ready; },
    ...agentActions(agent),
    dispose: agent.dispose,
  };
}
