// Types of agui.js: the AG-UI event reducer (Go compiled to WebAssembly) as a
// plain ES module. See README.md, "Web module".

// ---------------------------------------------------------------------------
// The agent state (the reducer's JSON document; field names are the contract)

export type JSONValue = null | boolean | number | string | JSONValue[] | { [key: string]: JSONValue };

export interface AgentState {
  threadId: string;
  runId: string;
  status: 'idle' | 'running' | 'error';
  isLoading: boolean;
  error: null | { message: string; code?: string; /** streaming dialect: whether retrying may help */ recoverable?: boolean };
  messages: Message[];
  toolCalls: ToolCall[];
  /** Shared agent state (STATE_SNAPSHOT / STATE_DELTA). */
  state: JSONValue;
  steps: Step[];
  /** Pending interrupts, from RUN_FINISHED with outcome "interrupt". */
  interrupts: JSONValue[];
  /** TokenUsage[] of the last RUN_FINISHED / RUN_ERROR. */
  usage: JSONValue[];
  /** RUN_FINISHED.result, when sent. */
  result?: JSONValue;
}

export type Role = 'user' | 'assistant' | 'system' | 'developer' | 'tool' | 'activity';

export type InputContent =
  | { type: 'text'; text: string }
  | { type: string; [key: string]: JSONValue };

export type Citation = string | {
  id?: string; index?: number; title?: string; url?: string; snippet?: string;
  sourceType?: string; iconUrl?: string; publishedAt?: string; extra?: JSONValue;
};

export interface Message {
  id: string;
  role: Role;
  /** string for text; InputContent[] for multimodal user messages; an object for activity messages. */
  content: string | InputContent[] | { [key: string]: JSONValue };
  name?: string;
  reasoning?: string;
  reasoningDurationMs?: number;
  citations?: Citation[];
  /** Assistant messages: the tool calls they own, in order. */
  toolCallIds?: string[];
  /** Tool messages. */
  toolCallId?: string;
  error?: JSONValue;
  /** Activity messages. */
  activityType?: string;
  encryptedValue?: string;
  metadata?: JSONValue;
  /** true between START and END. */
  streaming: boolean;
}

export interface ToolCall {
  id: string;
  name: string;
  parentMessageId: string;
  status: 'running' | 'complete' | 'error';
  /** Raw concatenated TOOL_CALL_ARGS deltas. */
  argsText: string;
  /** Best-effort parse while streaming; exact parse at END; {} if unparseable. */
  args: JSONValue;
  result?: string;
  resultMessageId?: string;
  error?: JSONValue;
  encryptedValue?: string;
  /** An approval the agent asked for before running the tool (dialects). */
  approval?: Record<string, unknown>;
  /** The client must run this tool itself and send addToolResult (dialects). */
  clientSide?: boolean;
  metadata?: JSONValue;
}

export interface Step {
  name: string;
  status: 'running' | 'finished';
}

// ---------------------------------------------------------------------------
// Change records

/** One operation on the state document (JSON Pointer path; append concatenates a string). */
export type ChangeOp =
  | { op: 'add' | 'replace'; path: string; value: JSONValue }
  | { op: 'remove'; path: string }
  | { op: 'append'; path: string; value: string };

export interface Diagnostic {
  code: string;
  level: 'warning' | 'error';
  message: string;
}

/** What a CUSTOM event produced (custom events are not stored in the state). */
export type CustomEvent =
  | { type: 'custom'; name: string; value: JSONValue }
  | { type: 'state_update'; state: { [key: string]: JSONValue } };

/** What one event or action changed. Empty lists are left out. Treat as read-only: the
 *  mirror applies a record's ops when the state is next read, and their values become part
 *  of the state. */
export interface ChangeRecord {
  ops?: ChangeOp[];
  events?: CustomEvent[];
  diagnostics?: Diagnostic[];
}

// ---------------------------------------------------------------------------
// Options

export interface ReducerOptions {
  /** Also report the orderings the official client's verifier rejects (error diagnostics). Default false. */
  strict?: boolean;
  /** Event shapes accepted: "auto" (default: detected per event), or pinned to one of
   *  "agui", "sse-contract", "tanstack", "streaming" (see docs/dialects.md). */
  dialect?: 'auto' | 'agui' | 'sse-contract' | 'tanstack' | 'streaming';
  /** Reject larger events (default 16 MiB). */
  maxEventBytes?: number;
  /** Reject events nested deeper (default 512). */
  maxDepth?: number;
  /** Bound one streamed field: content, reasoning, tool arguments (default 32 MiB). */
  maxFieldBytes?: number;
  /** Bound the shared state and activity content together, as their JSON size about
   *  (default 64 MiB): an event that would grow them past it is refused with too_large. */
  maxStateBytes?: number;
  /** Ids the reducer makes itself (runInput's runId, user messages without id) are
   *  derived from the state instead of random UUIDs: for replays and tests. */
  deterministicIds?: boolean;
}

export interface LoadOptions {
  /** Where wasm_exec.js is; default: next to the .wasm (or ./dist/wasm_exec.js). */
  wasmExecURL?: string | URL;
}

/** The AG-UI RunAgentInput a run() POSTs. */
export interface RunAgentInput {
  threadId: string;
  runId: string;
  state: JSONValue;
  messages: JSONValue[];
  tools: JSONValue[];
  context: JSONValue[];
  forwardedProps: JSONValue;
  resume?: JSONValue;
  [key: string]: JSONValue | undefined;
}

export interface RunInputOptions {
  /** Default: a fresh id. */
  runId?: string;
  tools?: JSONValue[];
  context?: JSONValue[];
  forwardedProps?: JSONValue;
  resume?: JSONValue;
}

export interface RunOptions {
  signal?: AbortSignal;
  headers?: HeadersInit;
  credentials?: RequestCredentials;
  /** Same-thread reducers only: the fetch to use (default globalThis.fetch). */
  fetch?: typeof fetch;
}

/**
 * How a run() ended:
 * - 'completed': the response body ended and the run is no longer running;
 * - 'incomplete': the body ended while the state still says running (no RUN_FINISHED / RUN_ERROR);
 *   the state is left as the agent sent it (as the official client does); call stop() or fail() to settle it;
 * - 'aborted': options.signal aborted (or the reducer was disposed); a running run was stopped with
 *   stop() (status idle, no error);
 * - 'failed': a network error (fail(message, 'network')) or an HTTP error status
 *   (fail('HTTP <status>: <statusText>', '<status>')).
 */
export type RunOutcome = 'completed' | 'incomplete' | 'aborted' | 'failed';

export type ReducerEvents = {
  custom: CustomEvent;
  diagnostic: Diagnostic;
  change: ChangeRecord;
  /** A subscriber or handler threw, or the mirror had to resynchronise (a change record
   *  that did not apply; found when the state is next read, as records are applied then).
   *  Without an 'error' handler these go to console.error. */
  error: unknown;
};

// ---------------------------------------------------------------------------
// Reducers

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
  readonly disposed: boolean;
  dispose(): void;
}

/** A reducer running on the calling thread (page or worker). */
export interface Reducer extends MirrorAPI {
  /** Folds one event: an object, its JSON text or bytes. sseEventName is the SSE "event:" field, if any. */
  apply(event: object | string | Uint8Array | ArrayBuffer, sseEventName?: string): ChangeRecord;
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
  snapshot(): AgentState;
  /** Replaces the state by a snapshot; a bad one (or one JSON.stringify cannot encode) yields an
   *  error diagnostic and changes nothing. */
  restore(snapshot: AgentState | string): ChangeRecord;
  /** The RunAgentInput for the next request (fresh runId, official Message[] shape). */
  runInput(options?: RunInputOptions): RunAgentInput;
  /** The conversation in the official AG-UI Message[] shape. */
  messages(): JSONValue[];
  /** POSTs input (default runInput()) to url and streams the SSE answer through feed. One run at a time. */
  run(url: string | URL, input?: RunAgentInput | object | string, options?: RunOptions): Promise<RunOutcome>;
}

/** The same API with the wasm in a Web Worker: calls return Promises; the mirror
 *  (state, subscribe, on) lives on this thread and is updated before they resolve. */
export interface WorkerReducer extends MirrorAPI {
  apply(event: object | string | Uint8Array | ArrayBuffer, sseEventName?: string): Promise<ChangeRecord>;
  feed(chunk: string | Uint8Array | ArrayBuffer | ArrayBufferView): Promise<ChangeRecord[]>;
  endStream(): Promise<void>;
  addUserMessage(content: string | InputContent[], id?: string): Promise<ChangeRecord>;
  addToolResult(toolCallId: string, content: string | JSONValue): Promise<ChangeRecord>;
  fail(message: string, code?: string | number): Promise<ChangeRecord>;
  stop(): Promise<ChangeRecord>;
  reset(): Promise<ChangeRecord>;
  snapshot(): Promise<AgentState>;
  restore(snapshot: AgentState | string): Promise<ChangeRecord>;
  runInput(options?: RunInputOptions): Promise<RunAgentInput>;
  messages(): Promise<JSONValue[]>;
  /** The fetch and the SSE parsing run in the worker (options.fetch is not supported). */
  run(url: string | URL, input?: RunAgentInput | object | string, options?: Omit<RunOptions, 'fetch'>): Promise<RunOutcome>;
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
 * Loads the module (default: ./dist/agui.wasm next to agui.js, with instantiateStreaming
 * when served as application/wasm) and resolves to a factory of independent reducers
 * sharing it. wasm may be a URL, a Response, the bytes or a compiled WebAssembly.Module.
 * In Node, file: URLs are read from disk.
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
  /** Default: ./agui-worker.js next to agui.js, started as a module worker. */
  workerURL?: string | URL;
  /** Default: ./dist/agui.wasm next to agui.js. */
  wasmURL?: string | URL;
  /** An already started worker (or any MessagePort-like object) running agui-worker.js. */
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
