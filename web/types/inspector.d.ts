// Types of @agui-reducer/web/inspector (inspector.js).
import type { AgentState, ArgsError, ChangeRecord, Diagnostic, Reducer, WorkerReducer, Agent, ReducerOptions } from './agui';

/** One input the inspector saw. */
export interface InspectorEntry {
  /** Its index. */
  seq: number;
  /** Milliseconds from the start of the session (or as recorded). */
  t: number;
  kind: 'event' | 'action' | 'end' | 'reconnect';
  /** The event's type, the action's name, 'end of stream' or 'reconnect'. */
  type: string;
  /** The SSE event field (events), or the action's name. */
  name: string;
  /** The SSE id field. */
  id?: string;
  /** The event as the reducer was given it (text). */
  data?: string;
  /** An action's arguments. */
  args?: unknown[];
  /** What a restore() entry stands for (Session.startFrom), e.g. "loaded from the relay". */
  note?: string;
  /** The frame came in an SSE body (a resent id is skipped, as feed() skips it). */
  fed?: boolean;
  messageId?: string; toolCallId?: string; toolCallName?: string; parentMessageId?: string;
  runId?: string; threadId?: string; stepName?: string; subagentRunId?: string;
  /** The run and the innermost step open at this entry. */
  run?: string; step?: string;
  /** Bytes of the event text. */
  size: number;
  /** Operations of the change record it produced. */
  ops: number;
  record?: ChangeRecord;
  diagnostics: Diagnostic[] | null;
  /** The tool calls whose arguments this event found breaking their schema or cut off
   *  (keyword 'truncated'): the errors new at this event; first when it made the call invalid. */
  argsInvalid?: { toolCallId: string; toolCallName: string; first: boolean; errors: ArgsError[] }[];
}

export interface Span {
  kind: 'run' | 'step' | 'subagent' | 'tool';
  id: string; label: string; run: string; status: string;
  start: number; end?: number; argsEnd?: number;
  startSeq: number; endSeq?: number; argsEndSeq?: number;
  /** A tool call whose arguments broke its schema or were cut off (status 'cut off'): the
   *  time and index of the entry that made it invalid, and the keywords of its errors. */
  invalid?: { at: number; atSeq: number; keywords: string[] };
}

export interface SessionOptions { checkpointEvery?: number }
export interface InspectorOptions {
  /** The agui.wasm the inspector folds with (default: the package's). */
  wasmURL?: string | URL;
  /** Options of the inspector's reducers; the same as the observed reducer's (dialect, deterministicIds…). */
  reducerOptions?: ReducerOptions & { dialect?: string; deterministicIds?: boolean };
  /** A checkpoint every this many entries (default 1000). */
  checkpointEvery?: number;
}

/** Something attach() follows: a reducer, a worker reducer, an agent (createAgent) or a
 *  drop-in @ag-ui/client agent (web/ag-ui.js). */
export type Inspectable = Reducer | WorkerReducer | Agent | { subscribe(subscriber: object): { unsubscribe(): void }; reducerState?: AgentState };

export class Session {
  constructor(options?: SessionOptions);
  readonly entries: InspectorEntry[];
  readonly checkpoints: { at: number; text: string }[];
  readonly lanes: { spans: Span[] };
  readonly types: Map<string, number>;
  mode: 'live' | 'replay' | 'idle';
  checkpointEvery: number;
  ready(options?: InspectorOptions): Promise<this>;
  attach(target: Inspectable, options?: InspectorOptions): Promise<void>;
  detach(): void;
  clear(initial?: AgentState | string | null): void;
  addEvent(data: object | string | Uint8Array, frame?: { name?: string; id?: string; fed?: boolean; t?: number }): InspectorEntry;
  addAction(name: string, args?: unknown[], options?: { t?: number; record?: ChangeRecord; note?: string }): InspectorEntry;
  /** Starts the entries again from the state now: one restore() entry marked note (a conversation loaded from elsewhere). */
  startFrom(note: string): InspectorEntry;
  addChunk(chunk: string | Uint8Array, options?: { t?: number }): void;
  addEnd(options?: { t?: number }): InspectorEntry;
  addReconnect(info: object, options?: { t?: number }): InspectorEntry;
  /** The reducer's snapshot right after entry i (checkpoint + replay). */
  stateAt(i: number): AgentState;
  snapshotTextAt(i: number): string;
  onChange(listener: (s: Session) => void): () => void;
  dispose(): void;
}

export class AguiInspector extends HTMLElement {
  readonly session: Session;
  /** The selected entry (-1: none). */
  readonly selected: number;
  readonly visibleEntries: number[];
  filters: { type?: string; message?: string; toolCall?: string; run?: string; step?: string; subagent?: string };
  tab: 'conversation' | 'state' | 'event' | 'diff' | 'lanes';
  ready(options?: InspectorOptions): Promise<Session>;
  attach(target: Inspectable, options?: InspectorOptions): Promise<void>;
  detach(): void;
  /** Starts the timeline again from the state now, as one entry marked note (e.g. "loaded from the relay"); following goes on. */
  startFrom(note: string): InspectorEntry;
  /** Replays a recording, a .jsonl of events or an SSE capture; resolves when all is folded. */
  load(source: string | Blob, options?: InspectorOptions & { speed?: 1 | 10 | 'full' | number }): Promise<void>;
  exportRecording(): string;
  fixture(from?: number, to?: number): string;
  stateAt(i: number): AgentState;
  /** Selects entry i (mark: extend a range from the previous selection) and shows the state then. */
  select(i: number, options?: { mark?: boolean }): AgentState | null;
  /** Renders now instead of on the next animation frame. */
  flush(): void;
}

export function defineInspector(name?: string): typeof AguiInspector;
export function toRecording(entries: InspectorEntry[], created?: string): string;
export function toFixture(entries: InspectorEntry[], from: number, to: number): string;
export function parseRecording(text: string): { format: 'recording' | 'jsonl' | 'sse'; created?: string; entries: Partial<InspectorEntry>[] };
export function jsonPatch(a: unknown, b: unknown): { op: 'add' | 'remove' | 'replace'; path: string; value?: unknown }[];
export function applyPatch<T>(doc: T, patch: { op: string; path: string; value?: unknown }[]): T;

declare global {
  interface HTMLElementTagNameMap { 'agui-inspector': AguiInspector }
}
