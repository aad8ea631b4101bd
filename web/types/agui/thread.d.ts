// Types of agui.js: threads kept by a relay, loaded into a reducer
// (src/thread/thread.js, src/thread/persist.js; docs/relay.md, "In the
// browser"); ../agui.d.ts exports them.

import type { AgentState } from './state.js';
import type { RunOutcome, ResumeOptions } from './options.js';
import type { Reducer, WorkerReducer } from './reducer.js';
import type { Agent } from './agent.js';

export interface LoadThreadOptions {
  /** The thread's key on a relay without auth (sent as X-Agui-Thread-Key); newThreadKey() makes one. */
  threadKey?: string;
  /** More request headers (e.g. Authorization on a relay with -auth-header). */
  headers?: HeadersInit | Record<string, string>;
  credentials?: RequestCredentials;
  signal?: AbortSignal;
  /** Same-thread reducers only (a worker reducer fetches in its worker). */
  fetch?: typeof fetch;
  /** Default: threads/{threadId} next to url (…/agent → …/threads/{threadId}). */
  threadsURL?: string | URL;
  /**
   * Keep the thread's last snapshot in the browser: true (IndexedDB, database 'agui-threads'),
   * a database name, or a ThreadStore. It is painted before the relay answers, and stays when
   * the relay cannot be reached; the reducer's snapshot is written as it changes.
   */
  persist?: boolean | string | ThreadStore;
  /** Called when the thread is shown and a live run is about to be followed (the promise resolves at the run's end). */
  onLoad?: (result: LoadThreadResult) => void;
  /** The reconnect policy when the attached run's stream is cut (as run()'s). */
  resume?: ResumeOptions | boolean;
  /**
   * Default true: paint the thread's last 50 messages first (GET threads/{threadId}?view=reducer&tail=1),
   * then restore the whole thread, which replaces them before any event of a live run is folded: a
   * long thread shows its end at once (a thread that is its own tail costs one request). Not used
   * when the browser's copy was painted (persist). false: the whole thread in one request.
   */
  tail?: boolean;
}

export interface LoadThreadResult {
  /** 'relay': the relay's thread is shown; 'cache': the browser's copy; 'none': nothing was found. */
  source: 'relay' | 'cache' | 'none';
  /** The relay has the thread for this credential. */
  found: boolean;
  /** A run was going on and was followed to its end. */
  live: boolean;
  /** That run's outcome, or 'idle' when none was going on. */
  outcome: RunOutcome | 'idle';
  /** The relay could not be reached (or answered an error): what is shown is the cache, if any. */
  offline: boolean;
  /** The relay's HTTP status when it answered an error other than 401, 404 or 410. */
  status?: number;
  /** The copy shown came from the browser's store. */
  cached: boolean;
  /** Only the thread's last messages are shown: the whole thread could not be fetched after them (tail). */
  partial: boolean;
  /** With persist: the writer of the reducer's snapshot; stop() writes what is pending and stops. */
  persist: { stop(): Promise<void>; flush(): Promise<void> } | null;
}

/**
 * Loads a thread from the relay whose agent endpoint is url (GET threads/{threadId}?view=reducer,
 * restored into the reducer in one step) and, when a run is going on, streams that run from its
 * first frame (POST url with Last-Event-ID) live to its end: the conversation shows at once, the
 * run goes on with no gap and no duplicate. target may be an agent of createAgent (loaded first).
 */
export function loadThread(
  target: Reducer | WorkerReducer | Agent,
  url: string | URL,
  threadId: string,
  options?: LoadThreadOptions,
): Promise<LoadThreadResult>;

/**
 * Keeps the reducer's snapshot in the browser's store (persist: as loadThread's) as it changes,
 * under the key loadThread reads: for a thread the relay does not have yet (a new chat).
 */
export function persistThread(
  reducer: Reducer | WorkerReducer,
  url: string | URL,
  threadId: string,
  options?: { persist?: boolean | string | ThreadStore; threadsURL?: string | URL },
): { stop(): Promise<void>; flush(): Promise<void> };

/** A new thread key: 22 base64url characters (132 random bits). */
export function newThreadKey(): string;

/** { 'X-Agui-Thread-Key': threadKey } (nothing for an empty key), for run()'s headers. */
export function threadHeaders(threadKey?: string): Record<string, string>;

/** threads/{threadId} next to an agent endpoint: '/agent' → '/threads/{threadId}'. */
export function threadURL(url: string | URL, threadId: string): string;


// The last snapshot of each thread kept in the browser (src/thread/persist.js).

/** What loadThread keeps per thread: the reducer's snapshot and when it was saved (ms). */
export interface PersistedThread {
  snapshot: AgentState & { lastEventId?: string };
  saved: number;
}

/** Where snapshots are kept: IndexedDB (indexedDBStore), memory (memoryStore), or any object alike. */
export interface ThreadStore {
  get(key: string): Promise<PersistedThread | undefined>;
  put(key: string, value: PersistedThread): Promise<unknown>;
  delete(key: string): Promise<unknown>;
}

/** An IndexedDB database of thread snapshots (default name 'agui-threads'); its calls reject where IndexedDB is missing. */
export function indexedDBStore(name?: string): ThreadStore;

/** A ThreadStore in memory (Node, tests). */
export function memoryStore(): ThreadStore;
