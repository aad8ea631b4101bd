// Types of agui.js: agents: what the framework bindings (./react, ./svelte, ./vue) wrap (re-exported by ../agui.d.ts).

import type { JSONValue, AgentState, InputContent, ToolDefinition } from './state.js';
import type { ChangeRecord } from './records.js';
import type { ReducerOptions, RunAgentInput, RunInputOptions, RunOptions, RunOutcome } from './options.js';
import type { Reducer, WorkerReducer, run, WorkerHostOptions, WorkerHost } from './reducer.js';

export interface AgentOptions extends ReducerOptions {
  /** The agent endpoint run() and send() POST to. */
  url?: string | URL;
  /** Passed to every run (headers, credentials, signal…). */
  runOptions?: RunOptions;
  /** Where agui.wasm is (loadReducer's argument); agents with the same one share the module. */
  wasm?: string | URL;
  /** Run the wasm in a Web Worker (true, or createWorkerReducer's worker options). */
  worker?: boolean | (WorkerHostOptions & { host?: WorkerHost });
  /** Use this reducer instead of loading one (the agent does not dispose it). */
  reducer?: Reducer | WorkerReducer;
}

/** A reducer loaded on first use, with a chat UI's actions (all bound; each waits for the load). */
export interface Agent {
  /** The reducer's state; EMPTY_STATE (with the chosen threadId) until it has loaded. */
  readonly state: AgentState;
  getSnapshot(): AgentState;
  readonly reducer: Reducer | WorkerReducer | null;
  readonly ready: boolean;
  /** Why the load failed, else null. */
  readonly error: unknown;
  readonly disposed: boolean;
  /** listener runs after every change of the state and when the load ends. */
  subscribe(listener: () => void): () => void;
  /** Loads the module once and resolves to the reducer. */
  load(): Promise<Reducer | WorkerReducer>;
  run(input?: RunAgentInput | object | string, options?: RunOptions & { url?: string | URL }): Promise<RunOutcome>;
  /** addUserMessage(content), then run(). */
  send(content: string | InputContent[], options?: RunOptions & { url?: string | URL }): Promise<RunOutcome>;
  /** After a reload: the reducer's resume() at options.url (default: the agent's url). */
  resume(input?: RunAgentInput | object | string, options?: RunOptions & { url?: string | URL }): Promise<RunOutcome>;
  stop(): Promise<ChangeRecord>;
  addUserMessage(content: string | InputContent[], id?: string): Promise<ChangeRecord>;
  addToolResult(toolCallId: string, content: string | JSONValue): Promise<ChangeRecord>;
  reset(): Promise<ChangeRecord>;
  setState(state: JSONValue): Promise<ChangeRecord>;
  setMessages(messages: JSONValue[]): Promise<ChangeRecord>;
  runInput(options?: RunInputOptions): Promise<RunAgentInput>;
  /** The reducer's setTools(): tools whose schemas validate their calls' arguments (the
   *  agent's options.tools does it from the start). */
  setTools(tools: ToolDefinition[]): Promise<void>;
  /** Disposes the reducer it made (not one it was given). */
  dispose(): void;
}

/** The actions the framework bindings return beside the state (the agent's bound methods). */
export type AgentActions = Pick<Agent, 'run' | 'send' | 'resume' | 'stop' | 'addUserMessage' | 'addToolResult' |
  'reset' | 'setState' | 'setMessages' | 'runInput'>;

/** The state before anything was folded (frozen). */
export const EMPTY_STATE: AgentState;

/** An agent; nothing loads until load() or an action. */
export function createAgent(options?: AgentOptions): Agent;
