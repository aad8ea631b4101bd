// Vue 3 binding: useAgent, a composable over createAgent returning shallow
// refs that are assigned on every change; a ref whose value keeps its
// identity (an untouched slice, thanks to the mirror's structural sharing)
// triggers nothing. The module is loaded on mount (never during server
// rendering) and the agent disposed with the component's scope.

import { getCurrentInstance, onMounted, onScopeDispose, shallowRef, getCurrentScope } from 'vue';
import { agentActions, createAgent, isAgent } from '../agent/agent.js';

export function useAgent(optionsOrAgent) {
  const given = isAgent(optionsOrAgent);
  const agent = given ? optionsOrAgent : createAgent(optionsOrAgent);
  const s = agent.state;
  const state = shallowRef(s);
  const messages = shallowRef(s.messages);
  const toolCalls = shallowRef(s.toolCalls);
  const status = shallowRef(s.status);
  const ready = shallowRef(agent.ready);
  const error = shallowRef(agent.error);
  const update = () => {
    const next = agent.state;
    state.value = next;
    messages.value = next.messages;
    toolCalls.value = next.toolCalls;
    status.value = next.status;
    ready.value = agent.ready;
    error.value = agent.error;
  };
  const unsubscribe = agent.subscribe(update);
  const start = () => { agent.load().catch(() => {}); }; // error.value has it
  if (getCurrentInstance()) onMounted(start);
  else if (typeof window !== 'undefined') start();
  if (getCurrentScope()) {
    onScopeDispose(() => {
      unsubscribe();
      if (!given) agent.dispose();
    });
  }
  return {
    state, messages, toolCalls, status, ready, error, agent,
    ...agentActions(agent),
  };
}
