// Mirror: the JS copy of the agent state, kept up to date from change
// records (queued as they arrive, applied when the state is read), plus
// subscribe/on. The same-thread and worker reducers extend it.

import { applyAppends, applyMixed } from './ops.js';

const EVENT_TYPES = new Set(['custom', 'diagnostic', 'change', 'error', 'reconnect']);

// Change ops wait in the mirror until the state is read; past this many
// unread ops they are applied anyway, so an unread mirror stays bounded.
const MAX_PENDING = 1024;

export class Mirror {
  #state; // the state as last built
  // Change ops not yet applied to #state. Records are queued as they
  // arrive and applied when the state is next read, all at once: each
  // container on their paths is copied once per read, not once per event,
  // so a stream nobody reads between events costs O(1) per event however
  // long the conversation (the messages array alone is 1,200 entries at
  // 400 turns).
  #pending = [];
  // A kind, index, key triple per pending op: a compact append's
  // (applyAppends), or kind -1 for an op applied by its path.
  #appends = [];
  #general = 0; // how many pending ops are applied by their path
  #version = 0;
  #listeners = new Set();
  #sole = null; // the entry of the only listener, when there is exactly one
  #handlers = new Map();
  #change = null; // the handlers of 'change' (in #handlers), once one was added
  #stale = false; // waiting for a snapshot after a record failed to apply
  #committing = 0; // _commit/_commitAppend(s) calls in progress (handlers may nest them)
  #resyncDue = false; // a build failed during a commit: resynchronise when it ends
  #reading = false; // resynchronising inside a read of state
  #store = null; // the Svelte store view, made on first use

  constructor(state) {
    this.#state = state;
    // Bound, for useSyncExternalStore(r.subscribe, r.getSnapshot).
    this.subscribe = this.subscribe.bind(this);
    this.getSnapshot = this.getSnapshot.bind(this);
    this.getVersion = this.getVersion.bind(this);
  }

  /** The current state: a plain object, replaced (never mutated) on change. */
  get state() { return this.#pending.length === 0 ? this.#state : this.#build(); }

  getSnapshot() { return this.#pending.length === 0 ? this.#state : this.#build(); }

  /** How the last run() or resume() ended: {outcome, reconnects, lastEventId, reason?}; null before one. */
  lastRun = null;

  // Observers of the reducer's input (observe()); null while nobody
  // observes, so that folding costs one comparison per call then.
  _observers = null;

  /**
   * The observation hook for tools (the inspector): observer(input) is
   * called after each input the reducer folds, with what it produced:
   * {kind: 'event', data, name, id, record} for apply(), {kind: 'chunk',
   * data, records} for feed() (run()'s SSE body included), {kind:
   * 'endStream'}, and {kind: 'action', name, args, record} for
   * addUserMessage, addToolResult, fail, stop, reset, setState,
   * setMessages and restore. Returns the function that stops it.
   */
  observe(observer) {
    if (typeof observer !== 'function') throw new TypeError('agui reducer: observe() takes a function');
    const entry = { observer };
    (this._observers ??= new Set()).add(entry);
    return () => {
      this._observers?.delete(entry);
      if (this._observers?.size === 0) this._observers = null;
    };
  }

  /** Hands input to the observers (called only when _observers is not null). */
  _tell(input) {
    for (const { observer } of [...this._observers]) {
      try { observer(input); } catch (err) { this._report(err); }
    }
  }

  /** A number that changes whenever the state does (without building it). */
  get version() { return this.#version; }

  getVersion() { return this.#version; }

  /** Applies the pending ops to the state, copying each touched container once. */
  #build() {
    const ops = this.#pending;
    const appends = this.#appends;
    try {
      this.#state = this.#general === 0 ? applyAppends(this.#state, ops, appends) : applyMixed(this.#state, ops, appends);
    } catch (err) {
      // The mirror no longer matches the reducer (a bug, or a caller that
      // mutated the state): the pending ops are dropped, records arriving
      // until the snapshot are dropped too (#stale), and a snapshot
      // replaces the mirror.
      this.#pending = [];
      this.#appends = [];
      this.#general = 0;
      this.#stale = true;
      const error = new Error(`agui reducer: change record did not apply (${err.message}); resynchronising from a snapshot`);
      if (this.#committing > 0) {
        // Inside apply()/feed(): the reducer has folded the whole batch
        // already, so the snapshot is taken once the batch is queued.
        this.#resyncDue = true;
        this._report(error);
      } else {
        // A plain read (maybe React's getSnapshot during a render): answer
        // with the snapshot now, but report and notify after the read.
        queueMicrotask(() => this._report(error));
        this.#reading = true;
        try {
          this._resync(); // calls _replaceState, now or later
        } finally {
          this.#reading = false;
        }
      }
      return this.#state;
    }
    // The arrays are reused: a state read after every event is common.
    ops.length = 0;
    appends.length = 0;
    this.#general = 0;
    return this.#state;
  }

  subscribe(listener) {
    if (typeof listener !== 'function') throw new TypeError('agui reducer: subscribe() takes a function');
    const entry = { listener }; // the same function may subscribe twice
    this.#listeners.add(entry);
    this.#soleListener();
    return () => { this.#listeners.delete(entry); this.#soleListener(); };
  }

  #soleListener() {
    this.#sole = this.#listeners.size === 1 ? this.#listeners.values().next().value : null;
  }

  /**
   * The Svelte store contract over the state: subscribe(fn) calls fn with
   * the current state at once and after every change, and returns the
   * unsubscribe function. (subscribe itself stays React's: no argument,
   * no call at once.)
   */
  get store() {
    return this.#store ??= {
      subscribe: (fn) => {
        if (typeof fn !== 'function') throw new TypeError('agui reducer: store.subscribe() takes a function');
        let last = this.state;
        fn(last);
        return this.subscribe(() => {
          const s = this.state;
          if (s !== last) fn((last = s));
        });
      },
    };
  }

  on(type, handler) {
    if (!EVENT_TYPES.has(type)) throw new TypeError(`agui reducer: unknown event type '${type}'`);
    if (typeof handler !== 'function') throw new TypeError('agui reducer: on() takes a function');
    let set = this.#handlers.get(type);
    if (!set) {
      this.#handlers.set(type, (set = new Set()));
      if (type === 'change') this.#change = set;
    }
    const entry = { handler };
    set.add(entry);
    return () => { set.delete(entry); };
  }

  _report(err) {
    const set = this.#handlers.get('error');
    if (set && set.size > 0) {
      for (const { handler } of [...set]) {
        try { handler(err); } catch (e) { console.error('agui reducer: error handler threw', e); }
      }
    } else {
      console.error('agui reducer:', err);
    }
  }

  _emit(type, value) {
    const set = this.#handlers.get(type);
    if (!set || set.size === 0) return;
    for (const { handler } of [...set]) {
      try { handler(value); } catch (err) { this._report(err); }
    }
  }

  _notify() {
    const listeners = this.#listeners;
    if (listeners.size === 0) return;
    const sole = this.#sole;
    if (sole !== null) { // the common case, without copying the set
      const listener = sole.listener; // called as before: no this
      try { listener(); } catch (err) { this._report(err); }
      return;
    }
    for (const { listener } of [...listeners]) {
      try { listener(); } catch (err) { this._report(err); }
    }
  }

  /** Queues the ops of change records in order, then notifies subscribers once. */
  _commit(records) {
    let changed = false;
    this.#committing++;
    try {
      for (const rec of records) {
        if (rec.ops && rec.ops.length > 0 && !this.#stale) {
          const pending = this.#pending;
          const appends = this.#appends;
          for (const op of rec.ops) {
            pending.push(op);
            appends.push(-1, 0, null);
          }
          this.#general += rec.ops.length;
          this.#version++;
          changed = true;
          if (pending.length > MAX_PENDING) this.#build();
        }
        if (rec.events) for (const ev of rec.events) this._emit('custom', ev);
        if (rec.diagnostics) for (const d of rec.diagnostics) this._emit('diagnostic', d);
        this._emit('change', rec);
      }
    } finally {
      this.#committing--;
    }
    this.#settle(changed);
  }

  /**
   * _commit of rec = {ops:[{op:'append', path:'/messages/<index>/<key>',
   * value}]} from the compact path, without parsing its path: the
   * streamed-token fast path.
   */
  _commitAppend(rec, key, index) {
    const changed = !this.#stale;
    if (changed) {
      const pending = this.#pending;
      pending.push(rec.ops[0]);
      this.#appends.push(0, index, key);
      if (this.#quiet()) {
        // What #commitQueued does then, without its bookkeeping: the commit of most streamed tokens.
        this.#version++;
        this._notify();
        return;
      }
    }
    this.#commitQueued(rec, changed);
  }

  /**
   * _commit of rec = {ops: n appends} from the compact appends path (a
   * tool-argument token's), without parsing their paths: op k appends to
   * messages[indexes[k]][keys[k]] (kinds[k] 0) or to the string at the
   * segments keys[k] below toolCalls[indexes[k]] (kinds[k] 1).
   */
  _commitAppends(rec, kinds, indexes, keys) {
    const changed = !this.#stale;
    if (changed) {
      const pending = this.#pending;
      const appends = this.#appends;
      const ops = rec.ops;
      for (let k = 0; k < ops.length; k++) {
        pending.push(ops[k]);
        appends.push(kinds[k], indexes[k], keys[k]);
      }
      if (this.#quiet()) { // as in _commitAppend
        this.#version++;
        this._notify();
        return;
      }
    }
    this.#commitQueued(rec, changed);
  }

  /**
   * True when the rest of a commit of queued appends can be nothing but a
   * version and a notification: the pending ops within their bound (no
   * build that may fail), no 'change' handler (none that may nest a
   * commit), no resynchronisation due.
   */
  #quiet() {
    return this.#pending.length <= MAX_PENDING && !this.#resyncDue && (this.#change === null || this.#change.size === 0);
  }

  /** The rest of a commit of compact appends (queued already when changed): version, bound, announcement. */
  #commitQueued(rec, changed) {
    this.#committing++;
    try {
      if (changed) {
        this.#version++;
        if (this.#pending.length > MAX_PENDING) this.#build();
      }
      this._emit('change', rec);
    } finally {
      this.#committing--;
    }
    this.#settle(changed);
  }

  /** The end of a commit: resynchronise if a build failed during it, else notify. */
  #settle(changed) {
    if (this.#resyncDue && this.#committing === 0) {
      this.#resyncDue = false;
      this._resync(); // calls _replaceState (which notifies), now or later
    } else if (changed && !this.#stale) {
      this._notify();
    }
  }

  /** Replaces the whole mirror (a snapshot after a failed op). */
  _replaceState(state) {
    this.#stale = false;
    this.#pending = [];
    this.#appends = [];
    this.#general = 0;
    if (state !== this.#state) {
      this.#state = state;
      this.#version++;
      if (this.#reading) queueMicrotask(() => this._notify()); // not from inside a read
      else this._notify();
    }
  }
}
