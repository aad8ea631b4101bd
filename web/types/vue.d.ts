// Types of src/bindings/vue.js: the Vue 3 binding (subpath "./vue").
import type { ShallowRef } from 'vue';
import type { Agent, AgentActions, AgentOptions, AgentState, Message, ToolCall } from './agui.js';

export interface UseAgentResult extends AgentActions {
  state: Readonly<ShallowRef<AgentState>>;
  messages: Readonly<ShallowRef<Message[]>>;
  toolCalls: Readonly<ShallowRef<ToolCall[]>>;
  status: Readonly<ShallowRef<AgentState['status']>>;
  ready: Readonly<ShallowRef<boolean>>;
  /** Why the module failed to load, else null. */
  error: Readonly<ShallowRef<unknown>>;
  agent: Agent;
}

/** Shallow refs updated on every change; loads on mount, disposes with the component's scope. */
export function useAgent(options?: AgentOptions | Agent): UseAgentResult;
