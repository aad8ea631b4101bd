// Types of agui.js: reducers (re-exported by ../agui.d.ts).

import type { JSONValue, AgentState, InputContent, ToolDefinition } from './state.js';
import type { ChangeRecord } from './records.js';
import type { ReducerOptions, LoadOptions, RunAgentInput, RunInputOptions, RunOptions, RunOutcome, ReducerEvents, RunReport } from './options.js';
import type { Readable } from './rendering.js';

export interface MirrorAPI {
  /** The current state: a plain object kept up to date from change records. It is never
   *  mutated: a change makes a new root, copying only the paths it touched, so untouched
   *  messages and tool calls keep their identity. Change records are queued as they arrive
   *  and applied when the state is read, all at once: reading after every event gives a
   *  new state per event; reading once per frame copies each touched container once per
   *  frame, however many events came in between. */
  readonly state: AgentState;
  /** The same as state; bound, for useSyncExternalStore(r.subscribe, r.getSnapshot). */
  getSnapshot(): AgentState;
  /** A number that changes whenever the state does, read without building the state. */
  readonly version: number;
  /** The same as version; bound, for useSyncExternalStore(r.subscribe, r.getVersion). */
  getVersion(): number;
  /** listener runs after every apply, feed batch or action that changed the state. Bound.
   *  A throwing listener is reported ('error') and does not stop the others. */
  subscribe(listener: () => void): () => void;
  on<K extends keyof ReducerEvents>(type: K, handler: (value: ReducerEvents[K]) => void): () => void;
  /** The Svelte store contract over the state: subscribe(fn) calls fn with the state at once
   *  and after every change. */
  readonly store: Readable<AgentState>;
  readonly disposed: boolean;
  dispose(): void;
  /** How the last run() or resume() ended, with its reconnects; null before one. */
  readonly lastRun: RunReport | null;
  /** The observation hook for tools (the inspector, @agui-reducer/web/inspector): observer is
   *  called after each input the reducer folds, with what it produced. While nothing observes,
   *  folding costs one comparison more per call. A worker reducer reports its calls when the
   *  worker answers them, and the SSE chunks of a run() started while it is observed.
   *  Returns the function that stops observing. A throwing observer is reported ('error'). */
  observe(observer: (input: ObservedInput) => void): () => void;
}

/** What a reducer's observe() hands its observers. */
export type ObservedInput =
  | { kind: 'event'; data: object | string | Uint8Array | ArrayBuffer; name: string; id?: string; record?: ChangeRecord }
  | { kind: 'chunk'; data: string | Uint8Array | ArrayBuffer; records?: ChangeRecord[] }
  | { kind: 'endStream' }
  | { kind: 'action'; name: 'addUserMessage' | 'addToolResult' | 'fail' | 'stop' | 'reset' | 'setState' | 'setMessages' | 'restore' | 'setLastEventId' | 'setTools';
      args: unknown[]; record?: ChangeRecord };

/** apply()'s frame: the SSE "event:" field and "id:" field of the event, if any. */
export interface FrameFields {
  event?: string;
  /** Recorded as state.lastEventId. An id with CR, LF or NUL (no SSE frame can carry one) is an
   *  error-level 'bad_event' diagnostic, and the event is not applied. */
  id?: string;
}

/** A reducer running on the calling thread (page or worker). */
export interface Reducer extends MirrorAPI {
  /** Folds one event: an object, its JSON text or bytes. frame: the SSE "event:" field, or both fields. */
  apply(event: object | string | Uint8Array | ArrayBuffer, frame?: string | FrameFields): ChangeRecord;
  /** Folds a piece of a text/event-stream body, split anywhere; returns the non-empty records. */
  feed(chunk: string | Uint8Array | ArrayBuffer | ArrayBufferView): ChangeRecord[];
  /** Ends the SSE body being fed (an unterminated last event is dropped); the next feed starts a new one. */
  endStream(): void;
  /** The UI's submit. content: a string or InputContent[]; id: default a fresh one. */
  addUserMessage(content: string | InputContent[], id?: string): ChangeRecord;
  /** A client-side tool ran; non-string content is JSON-encoded. */
  addToolResult(toolCallId: string, content: string | JSONValue): ChangeRecord;
  /** The transport failed: the same as RUN_ERROR. */
  fail(message: string, code?: string | number): ChangeRecord;
  /** Stops a running run without an error (status idle, open messages closed); nothing when not running. */
  stop(): ChangeRecord;
  /** Empties the state (a new conversation). */
  reset(): ChangeRecord;
  /** Replaces the shared state, as a STATE_SNAPSHOT would. */
  setState(state: JSONValue): ChangeRecord;
  /** Replaces the conversation by messages in the official AG-UI Message shape (no merge, unlike
   *  MESSAGES_SNAPSHOT); one bad message rejects the list with an error diagnostic and changes
   *  nothing. Assistant tool calls are mirrored into toolCalls. */
  setMessages(messages: JSONValue[]): ChangeRecord;
  snapshot(): AgentState;
  /** Replaces the state by a snapshot (the state, its JSON text, or that text's UTF-8 bytes, as
   *  fetched); a bad one (or one JSON.stringify cannot encode) yields an error diagnostic and
   *  changes nothing. */
  restore(snapshot: AgentState | string | Uint8Array): ChangeRecord;
  /** The RunAgentInput for the next request (fresh runId, official Message[] shape). Its tools
   *  (options.tools) validate the arguments of the calls that follow (docs/tool-validation.md). */
  runInput(options?: RunInputOptions): RunAgentInput;
  /** Makes tools known (an AG-UI Tool[]: {name, description?, parameters}) whose parameters JSON
   *  Schemas validate the arguments of their calls as they stream (toolCalls[].argsStatus,
   *  argsErrors, safeArgs; docs/tool-validation.md), beside the tools of each run's input. A
   *  later definition of a name replaces the earlier one.
   *  Throws a TypeError when tools is not an array. */
  setTools(tools: ToolDefinition[]): void;
  /** The conversation in the official AG-UI Message[] shape. */
  messages(): JSONValue[];
  /** POSTs input (default runInput()) to url and streams the SSE answer through feed, reconnecting
   *  when it is cut (options.resume). One run at a time. */
  run(url: string | URL, input?: RunAgentInput | object | string, options?: RunOptions): Promise<RunOutcome>;
  /** After restore(): continues the run from state.lastEventId (run() with options.lastEventId;
   *  input default runInput() with the state's run id). Settles at once, without a request, when
   *  the state is not running or has no lastEventId (lastRun.reason 'nothing_to_resume'). */
  resume(url: string | URL, input?: RunAgentInput | object | string, options?: RunOptions): Promise<RunOutcome>;
}

/** The same API with the wasm in a Web Worker: calls return Promises; the mirror
 *  (state, subscribe, on) lives on this thread and is updated before they resolve. */
export interface WorkerReducer extends MirrorAPI {
  apply(event: object | string | Uint8Array | ArrayBuffer, frame?: string | FrameFields): Promise<ChangeRecord>;
  feed(chunk: string | Uint8Array | ArrayBuffer | ArrayBufferView): Promise<ChangeRecord[]>;
  endStream(): Promise<void>;
  addUserMessage(content: string | InputContent[], id?: string): Promise<ChangeRecord>;
  addToolResult(toolCallId: string, content: string | JSONValue): Promise<ChangeRecord>;
  fail(message: string, code?: string | number): Promise<ChangeRecord>;
  stop(): Promise<ChangeRecord>;
  reset(): Promise<ChangeRecord>;
  setState(state: JSONValue): Promise<ChangeRecord>;
  setMessages(messages: JSONValue[]): Promise<ChangeRecord>;
  snapshot(): Promise<AgentState>;
  restore(snapshot: AgentState | string | Uint8Array): Promise<ChangeRecord>;
  runInput(options?: RunInputOptions): Promise<RunAgentInput>;
  setTools(tools: ToolDefinition[]): Promise<void>;
  messages(): Promise<JSONValue[]>;
  /** The fetch and the SSE parsing run in the worker (options.fetch, resume.sleep and
   *  resume.random are not supported). */
  run(url: string | URL, input?: RunAgentInput | object | string, options?: Omit<RunOptions, 'fetch'>): Promise<RunOutcome>;
  resume(url: string | URL, input?: RunAgentInput | object | string, options?: Omit<RunOptions, 'fetch'>): Promise<RunOutcome>;
}

export interface ReducerFactory {
  createReducer(options?: ReducerOptions): Reducer;
  /** Bytes of linear memory the wasm module holds now (WebAssembly memory grows and never
   *  shrinks; the Go heap reuses it after reset() or dispose()). For monitoring. */
  memoryBytes(): number;
  /** true once the Go runtime has exited; every call then throws. */
  readonly exited: boolean;
}

/**
 * Loads the module (default: the package's dist/agui.wasm, which bundlers emit and rename;
 * compiled while it downloads when served as application/wasm) and resolves to a factory of
 * independent reducers sharing it. wasm may be a URL (a CDN, a precompressed copy), a
 * Response, the bytes or a compiled WebAssembly.Module. In Node (the package's "node"
 * entry), file: URLs are read from disk. Rejects with a LoadError.
 */
export function loadReducer(
  wasm?: string | URL | Response | Promise<Response> | BufferSource | WebAssembly.Module,
  options?: LoadOptions,
): Promise<ReducerFactory>;

/** run(reducer, url, input, options) is reducer.run(url, input, options). */
export function run(
  reducer: Reducer | WorkerReducer,
  url: string | URL,
  input?: RunAgentInput | object | string,
  options?: RunOptions,
): Promise<RunOutcome>;

export interface WorkerHostOptions {
  /** Default: the package's worker entry (src/worker/entry.js), started as a module worker (bundlers emit it). */
  workerURL?: string | URL;
  /** Default: the package's dist/agui.wasm (as loadReducer()). */
  wasmURL?: string | URL;
  /** An already started worker (or any MessagePort-like object) running the worker entry. */
  worker?: Worker | MessagePort;
}

/** A worker that hosts reducers; several reducers can share it. */
export interface WorkerHost {
  createReducer(options?: ReducerOptions): Promise<WorkerReducer>;
  /** Stops the worker; pending calls reject. */
  terminate(): void;
}

export function createWorkerHost(options?: WorkerHostOptions): WorkerHost;

/**
 * A reducer whose wasm runs in a Web Worker, resolved once its initial state has arrived.
 * Without a host, reducers with the same workerURL and wasmURL share one worker.
 */
export function createWorkerReducer(
  options?: ReducerOptions,
  worker?: WorkerHostOptions & { host?: WorkerHost },
): Promise<WorkerReducer>;
