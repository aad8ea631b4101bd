// Types of vue.js: the Vue 3 binding (subpath "./vue").
import type { ShallowRef } from 'vue';
import type { Agent, AgentOptions, AgentState, Message, ToolCall } from './agui.js';

export interface UseAgentResult {
  state: Readonly<ShallowRef<AgentState>>;
  messages: Readonly<ShallowRef<Message[]>>;
  toolCalls: Readonly<ShallowRef<ToolCall[]>>;
  status: Readonly<ShallowRef<AgentState['status']>>;
  ready: Readonly<ShallowRef<boolean>>;
  /** Why the module failed to load, else null. */
  error: Readonly<ShallowRef<unknown>>;
  agent: Agent;
  run: Agent['run'];
  send: Agent['send'];
  stop: Agent['stop'];
  addUserMessage: Agent['addUserMessage'];
  addToolResult: Agent['addToolResult'];
  reset: Agent['reset'];
  setState: Agent['setState'];
  setMessages: Agent['setMessages'];
  runInput: Agent['runInput'];
}

/** Shallow refs updated on every change; loads on mount, disposes with the component's scope. */
export function useAgent(options?: AgentOptions | Agent): UseAgentResult;
