// persist: the last snapshot of each thread kept in the browser (IndexedDB),
// so that a reload paints the conversation before the relay answers, and
// even without a network. loadThread (thread.js) reads it first and writes
// it as the state changes; any object with get/put/delete (promises) can
// stand in for IndexedDB (memoryStore, for Node and tests).

const DB_VERSION = 1;
const STORE = 'threads';

function request(req) {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

/**
 * An IndexedDB database of thread snapshots (one record per key). Opening
 * fails (the promises reject) where IndexedDB is missing or refused
 * (Node, some private modes); loadThread then goes on without a cache.
 */
export function indexedDBStore(name = 'agui-threads') {
  let db = null;
  const open = () => {
    if (!db) {
      db = new Promise((resolve, reject) => {
        if (typeof indexedDB === 'undefined') { reject(new Error('agui persist: no IndexedDB here')); return; }
        const req = indexedDB.open(name, DB_VERSION);
        req.onupgradeneeded = () => { req.result.createObjectStore(STORE); };
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error);
        req.onblocked = () => reject(new Error('agui persist: the database is blocked by another tab'));
      });
      db.catch(() => { db = null; });
    }
    return db;
  };
  const tx = async (mode, f) => {
    const d = await open();
    return request(f(d.transaction(STORE, mode).objectStore(STORE)));
  };
  return {
    get: (key) => tx('readonly', (s) => s.get(String(key))),
    put: (key, value) => tx('readwrite', (s) => s.put(value, String(key))),
    delete: (key) => tx('readwrite', (s) => s.delete(String(key))),
  };
}

/** A store in memory with the same interface (Node, tests). */
export function memoryStore() {
  const m = new Map();
  return {
    get: async (key) => structuredClone(m.get(String(key))),
    put: async (key, value) => { m.set(String(key), structuredClone(value)); },
    delete: async (key) => { m.delete(String(key)); },
  };
}

/** The store an option names: true (IndexedDB, default name), a database name, or a store. */
export function persistStore(option) {
  if (!option) return null;
  if (option === true) return indexedDBStore();
  if (typeof option === 'string') return indexedDBStore(option);
  if (typeof option.get === 'function' && typeof option.put === 'function') return option;
  throw new TypeError('agui persist: persist is true, a database name, or an object with get/put/delete');
}

/**
 * Keeps reducer's snapshot in store under key as its state changes: at most
 * every `every` ms while a run streams, at once when a run ends. Returns
 * {stop(), flush()}; stop() writes what is pending and stops.
 */
export function persistReducer(reducer, store, key, { every = 500 } = {}) {
  let timer = null;
  let status = reducer.state?.status;
  let writing = Promise.resolve();
  const save = () => {
    timer = null;
    writing = writing.then(async () => {
      const snapshot = await reducer.snapshot();
      await store.put(key, { snapshot, saved: Date.now() });
    }).catch(() => {}); // a full or refused database: the page goes on without
    return writing;
  };
  const unsubscribe = reducer.subscribe(() => {
    const s = reducer.state?.status;
    const ended = status === 'running' && s !== 'running';
    status = s;
    if (ended) {
      if (timer) clearTimeout(timer);
      save();
    } else if (!timer) {
      timer = setTimeout(save, every);
    }
  });
  return {
    flush: () => { if (timer) { clearTimeout(timer); return save(); } return writing; },
    stop() {
      unsubscribe();
      return this.flush();
    },
  };
}
