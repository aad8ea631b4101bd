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
  /** The result of the last successful RUN_FINISHED, when sent (an interrupted or cancelled run keeps the previous one). */
  result?: JSONValue;
  /** Class of the last RUN_FINISHED outcome; absent before any. */
  outcome?: 'success' | 'interrupt' | 'cancelled';
  /**
   * Tool calls the last successful run left for the client to run: the
   * outcome's non-empty pendingToolCallIds, else the calls the run started
   * that no TOOL_CALL_RESULT answered ([] after an interrupt or a cancel).
   */
  pendingToolCallIds: string[];
  /**
   * The open run's tool-call tally behind the next pendingToolCallIds: the
   * calls it started and those a TOOL_CALL_RESULT answered, in order.
   * Absent while empty (cleared when a run starts or ends); kept so that
   * restore(snapshot()) mid-run is exact.
   */
  runToolCalls?: { started: string[]; answered: string[] };
  /**
   * How many events of the open run changed the state in ways it cannot be compared with (state
   * and activity snapshots and patches, messages snapshots): a reducer restored mid-run skips that
   * many when the server resends the run from its start. Absent while 0 (cleared when a run
   * starts or ends).
   */
  runPatches?: number;
  /** Subagent invocations (SUBAGENT_STARTED / _FINISHED / _ERROR), in start order. */
  subagents: Subagent[];
  /** The SSE id of the last frame folded (feed(), apply(event, {id})); absent when the frames
   *  carried none. What a reconnect sends as Last-Event-ID; kept by snapshot() and restore(). */
  lastEventId?: string;
}

/** One subagent invocation; nest them by parentSubagentRunId. */
export interface Subagent {
  /** The invocation's subagentRunId. */
  id: string;
  name: string;
  description?: string;
  parentSubagentRunId?: string;
  parentToolCallId?: string;
  parentMessageId?: string;
  /** suspended: paused on interrupts (interruptIds); a later run may continue it. */
  status: 'running' | 'finished' | 'suspended' | 'error';
  result?: JSONValue;
  interruptIds?: string[];
  error?: { message: string; code?: string };
  /** Milliseconds: the event's timestamp, else the reducer's clock; absent without either. */
  startTime?: number;
  endTime?: number;
}

export type Role = 'user' | 'assistant' | 'system' | 'developer' | 'tool' | 'activity';

export type InputContent =
  | { type: 'text'; text: string }
  | { type: string; [key: string]: JSONValue };

/** AG-UI 1.0 name of InputContent: text and media parts. */
export type ContentPart = InputContent;

export type Citation = string | {
  id?: string; index?: number; title?: string; url?: string; snippet?: string;
  sourceType?: string; iconUrl?: string; publishedAt?: string; extra?: JSONValue;
};

export interface Message {
  id: string;
  role: Role;
  /** string for text; content parts for multimodal user messages and 1.0 tool results; an object for activity messages. */
  content: string | ContentPart[] | { [key: string]: JSONValue };
  name?: string;
  /** The subagent the message is attributed to (copied from the event that created it). */
  subagentRunId?: string;
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
  /** The result's text: the string sent, or the text parts of a content-part result joined by newlines. */
  result?: string;
  /** A content-part result as sent (TOOL_CALL_RESULT content: ContentPart[]). */
  resultContent?: ContentPart[];
  resultMessageId?: string;
  /** Its assistant message's subagentRunId. */
  subagentRunId?: string;
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
  /** Also report what the official 1.0 client's verifyEvents rejects (`order` error diagnostics,
   *  with its messages); the events are still applied. Default false. */
  strict?: boolean;
  /** Event shapes accepted: "auto" (default: detected per event), or pinned to one of
   *  "agui", "sse-contract", "tanstack", "streaming" (see docs/dialects.md). */
  dialect?: 'auto' | 'agui' | 'sse-contract' | 'tanstack' | 'streaming';
  /** The thread id from the start (state.threadId, every runInput), until a RUN_STARTED
   *  names another; reset() keeps it. Default: runInput() chooses one, the same for every
   *  request before the first run. */
  threadId?: string;
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
  /** The Go glue to use instead of the package's dist/wasm_exec.js (built with agui.wasm by
   *  the same toolchain): an ES module exporting Go, or a classic wasm_exec.js. */
  wasmExecURL?: string | URL;
}

/** What loadReducer() (and a worker reducer's first call) rejects with when the wasm module
 *  cannot be fetched, read, compiled or started; e.g. show "could not load" with err.url. */
export class LoadError extends Error {
  readonly name: 'LoadError';
  readonly code: 'load_failed';
  /** The wasm (or worker) URL, when known. */
  readonly url?: string;
  /** The HTTP status of a failed fetch. */
  readonly status?: number;
}

/** The AG-UI RunAgentInput a run() POSTs. */
export interface RunAgentInput {
  threadId: string;
  runId: string;
  protocolVersion: '1.0';
  /** Left out when the state is null. */
  state?: JSONValue;
  messages: JSONValue[];
  tools: JSONValue[];
  context: JSONValue[];
  forwardedProps: JSONValue;
  resume?: JSONValue;
  [key: string]: JSONValue | undefined;
}

export interface RunInputOptions {
  /** Default: the state's thread id (or the one chosen at creation). */
  threadId?: string;
  /** Default: a fresh id. */
  runId?: string;
  /** Default: the shared state. */
  state?: JSONValue;
  /** Default: the conversation in the official Message[] shape. */
  messages?: JSONValue[];
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
  /** Reconnecting when the response is cut (default on, RESUME_DEFAULTS); false: never. */
  resume?: boolean | ResumeOptions;
  /** Continue the run from this SSE id instead of starting one (resume() passes state.lastEventId). */
  lastEventId?: string;
}

export type { ResumeOptions, ReconnectInfo, RunReport } from './agui/resume.js';
import type { ResumeOptions, ReconnectInfo, RunReport } from './agui/resume.js';

/**
 * How a run() ended:
 * - 'completed': the response body ended and the run is no longer running;
 * - 'incomplete': the body ended while the state still says running (no RUN_FINISHED / RUN_ERROR);
 *   the state is left as the agent sent it (as the official client does); call stop() or fail() to settle it;
 * - 'aborted': options.signal aborted (or the reducer was disposed); a running run was stopped with
 *   stop() (status idle, no error);
 * - 'failed': a network error (fail(message, 'network')) or an HTTP error status
 *   (fail('HTTP <status>: <statusText>', '<status>')); a refused reconnect (4xx) is
 *   fail('resume failed: <the server's error>', <its code, e.g. 'resume_unavailable'>); a reconnect
 *   answered with another run (another runId) is fail('resume failed: …', 'resume_restarted'),
 *   and none of that run is folded.
 * A cut response is reconnected first (RunOptions.resume); these are the ends after that.
 * run() and resume() reject, without a request and with the state unchanged, on a bad argument:
 * a lastEventId with CR, LF or NUL (code 'bad_last_event_id'), an input JSON cannot encode, and
 * for worker reducers a URL that does not parse.
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
  /** run() is reconnecting after a cut (a UI's "reconnecting…"). */
  reconnect: ReconnectInfo;
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
  | { kind: 'action'; name: 'addUserMessage' | 'addToolResult' | 'fail' | 'stop' | 'reset' | 'setState' | 'setMessages' | 'restore' | 'setLastEventId';
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
  /** Replaces the state by a snapshot; a bad one (or one JSON.stringify cannot encode) yields an
   *  error diagnostic and changes nothing. */
  restore(snapshot: AgentState | string): ChangeRecord;
  /** The RunAgentInput for the next request (fresh runId, official Message[] shape). */
  runInput(options?: RunInputOptions): RunAgentInput;
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
  restore(snapshot: AgentState | string): Promise<ChangeRecord>;
  runInput(options?: RunInputOptions): Promise<RunAgentInput>;
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
  /** Default: the package's agui-worker.js, started as a module worker (bundlers emit it). */
  workerURL?: string | URL;
  /** Default: the package's dist/agui.wasm (as loadReducer()). */
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

// ---------------------------------------------------------------------------
// Rendering

/** The Svelte store contract. */
export interface Readable<T> {
  subscribe(run: (value: T) => void): () => void;
}

/**
 * The text of a message or of its content: a string as it is, the text parts of an
 * InputContent[] joined with newlines, "" for anything else (activity objects, image parts).
 */
export function textOf(message: Message | Message['content'] | null | undefined): string;

// ---------------------------------------------------------------------------
// Agents: what the framework bindings (./react, ./svelte, ./vue) wrap

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
