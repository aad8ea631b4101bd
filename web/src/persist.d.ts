// Types of persist.js: the last snapshot of each thread kept in the browser.
import type { AgentState } from '../agui.js';

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
