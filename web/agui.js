// AG-UI event reducer for the browser (and Node): a plain ES module over the
// Go reducer compiled to WebAssembly (web/dist/agui.wasm, built by
// `make wasm`). No build step: import it from a page, a worker or Node.
// Types: agui.d.ts. Usage: README.md, "Web module".
//
// Layers:
//   - Core: one loaded wasm module; calls its //go:wasmexport functions,
//     passing arguments through a Go-owned input buffer and reading JSON text
//     results from a Go-owned output buffer (wasm/bridge.go describes the
//     calling convention). Many reducers (handles) per module.
//   - Mirror: a plain JS copy of the agent state, kept up to date from change
//     records with structural sharing (queued as they arrive, applied when
//     the state is read), plus subscribe/on.
//   - AguiReducer (same thread) and WorkerReducer (reducing in a Web Worker,
//     agui-worker.js) are Mirrors with the reducer API.

const encoder = new TextEncoder();
const decoder = new TextDecoder();

// ---------------------------------------------------------------------------
// Loading

function defaultWasmURL() {
  return new URL('./dist/agui.wasm', import.meta.url);
}

function baseURL() {
  return globalThis.location?.href ?? import.meta.url;
}

/** Loads the wasm module and returns its low-level Core. */
async function loadCore(wasmURL = defaultWasmURL(), options = {}) {
  const isLocation = typeof wasmURL === 'string' || wasmURL instanceof URL;
  const wasmExecURL = options.wasmExecURL
    ?? (isLocation ? new URL('wasm_exec.js', new URL(wasmURL, baseURL())) : new URL('./dist/wasm_exec.js', import.meta.url));
  const Go = await goClass(String(wasmExecURL));
  const go = new Go();
  go.argv = ['agui'];
  let exitCode = null;
  go.exit = (code) => {
    exitCode = code;
    if (code !== 0) console.error(`agui reducer: the Go runtime exited with code ${code}`);
  };
  const instance = await instantiate(isLocation ? new URL(wasmURL, baseURL()) : wasmURL, go.importObject);
  // go.run() runs the Go program synchronously until main() blocks (or the
  // program exits), so once it returns the exports are callable: no ready
  // callback is needed (wasm/main_js.go). Its promise resolves only when Go
  // exits: not awaited.
  const exited = go.run(instance);
  if (go.exited) {
    await exited;
    throw new Error(`agui reducer: the Go runtime exited while starting (exit code ${exitCode})`);
  }
  if (instance.exports.ready() !== 1) throw new Error('agui reducer: the Go program did not start');
  return new Core(go, instance, () => exitCode);
}

const goClasses = new Map(); // wasm_exec.js URL → the Go class it defined

// wasm_exec.js is a classic script that defines globalThis.Go; it is
// strict-mode clean and exports nothing, so it also loads as a module. The
// class is kept per URL, in case another script later redefines
// globalThis.Go with another Go version's.
async function goClass(url) {
  let Go = goClasses.get(url);
  if (!Go) {
    await import(url);
    Go = globalThis.Go;
    if (typeof Go !== 'function') throw new Error(`agui reducer: ${url} did not define globalThis.Go`);
    goClasses.set(url, Go);
  }
  return Go;
}

async function instantiate(source, imports) {
  if (source instanceof WebAssembly.Module) return WebAssembly.instantiate(source, imports);
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) {
    return (await WebAssembly.instantiate(source, imports)).instance;
  }
  let response = source;
  if (source instanceof URL) {
    if (source.protocol === 'file:') { // Node: fetch() cannot read files
      const { readFile } = await import('node:fs/promises');
      return (await WebAssembly.instantiate(await readFile(source), imports)).instance;
    }
    response = fetch(source);
  }
  response = await response;
  if (typeof Response !== 'undefined' && response instanceof Response) {
    if (!response.ok) {
      throw new Error(`agui reducer: fetching ${response.url} failed: HTTP ${response.status} ${response.statusText}`);
    }
    const type = (response.headers.get('Content-Type') || '').split(';')[0].trim();
    if (typeof WebAssembly.instantiateStreaming === 'function' && type === 'application/wasm') {
      return (await WebAssembly.instantiateStreaming(response, imports)).instance;
    }
    return (await WebAssembly.instantiate(await response.arrayBuffer(), imports)).instance;
  }
  throw new TypeError('agui reducer: wasm source must be a URL, a Response, bytes or a WebAssembly.Module');
}

// ---------------------------------------------------------------------------
// Core: calls into one wasm module

class Core {
  constructor(go, instance, exitCode) {
    this.go = go;
    this.x = instance.exports;
    this.exitCode = exitCode;
    this.buffer = null;
    this.u8 = null;
    this.inView = null; // the input buffer's bytes, while memory does not grow
    this.inPtr = this.x.inPtr() >>> 0;
    this.inCap = this.x.inCap();
    this.compact = typeof this.x.applyCompact === 'function';
    // applyCompact's single text append, when it returned COMPACT
    this.appendKey = '';
    this.appendIndex = 0;
    this.appendText = '';
  }

  get exited() { return this.go.exited === true; }

  check() {
    if (this.go.exited) {
      const code = this.exitCode();
      throw new Error('agui reducer: the Go runtime has exited'
        + (code == null ? '' : ` (exit code ${code})`)
        + '; this module cannot reduce any more: load it again with loadReducer()');
    }
  }

  /** The whole wasm memory; re-created when memory grows (which detaches views). */
  view() {
    // Growing the memory detaches the old buffer, and a view of a detached
    // buffer has length 0: cheaper to test than reading mem.buffer (a
    // getter into the engine) on every call.
    if (this.u8 === null || this.u8.length === 0) {
      this.buffer = this.x.mem.buffer;
      this.u8 = new Uint8Array(this.buffer);
      this.inView = null;
    }
    return this.u8;
  }

  grow(n) {
    this.inPtr = this.x.growIn(n) >>> 0;
    this.check();
    this.inCap = this.x.inCap();
    this.inView = null;
  }

  /** The input buffer from offset off (a cached view for off 0). */
  input(off) {
    const u8 = this.view();
    if (off !== 0) return u8.subarray(this.inPtr + off, this.inPtr + this.inCap);
    return this.inView ??= u8.subarray(this.inPtr, this.inPtr + this.inCap);
  }

  /** Writes a string (as UTF-8) or bytes at offset off of the input buffer. */
  put(off, v) {
    if (typeof v === 'string') {
      if (off + v.length * 3 > this.inCap) {
        if (off + v.length <= this.inCap) { // ASCII-heavy text may still fit
          const r = encoder.encodeInto(v, this.input(off));
          if (r.read === v.length) return r.written;
        }
        this.grow(off + v.length * 3);
      }
      return encoder.encodeInto(v, this.input(off)).written;
    }
    if (off + v.byteLength > this.inCap) this.grow(off + v.byteLength);
    this.view().set(v, this.inPtr + off);
    return v.byteLength;
  }

  /** Decodes the result of a call that returned n; ok is false for n < 0. */
  result(n) {
    this.check();
    const len = n < 0 ? -n : n;
    const p = this.x.outPtr() >>> 0;
    return { ok: n >= 0, text: decoder.decode(this.view().subarray(p, p + len)) };
  }

  create(optionsJSON) {
    this.check();
    const n = this.x.create(this.put(0, optionsJSON));
    this.check();
    if (n <= 0) throw diagnosticError(JSON.parse(this.result(n).text));
    return n;
  }

  apply(h, data, name) {
    this.check();
    const nameLen = name ? this.put(0, name) : 0;
    return this.result(this.x.apply(h, nameLen, this.put(nameLen, data)));
  }

  /**
   * apply through the applyCompact export: returns COMPACT when the record
   * is a single text append (then in appendKey, appendIndex, appendText),
   * else what apply returns.
   */
  applyCompact(h, data, name) {
    if (!this.compact) return this.apply(h, data, name);
    this.check();
    const nameLen = name ? this.put(0, name) : 0;
    const n = this.x.applyCompact(h, nameLen, this.put(nameLen, data));
    if (n >= 6) {
      this.check();
      const p = this.x.outPtr() >>> 0;
      const u8 = this.view();
      if (u8[p] === 1) {
        this.appendKey = u8[p + 1] === 1 ? 'content' : 'reasoning';
        this.appendIndex = (u8[p + 2] | (u8[p + 3] << 8) | (u8[p + 4] << 16) | (u8[p + 5] << 24)) >>> 0;
        this.appendText = decodeText(u8, p + 6, p + n);
        return COMPACT;
      }
    }
    return this.result(n);
  }

  /** Calls export fn(h) or, with arg (JSON text or bytes), fn(h, length). */
  call(fn, h, arg) {
    this.check();
    const n = arg === undefined ? this.x[fn](h) : this.x[fn](h, this.put(0, arg));
    return this.result(n);
  }

  /** Calls an export that returns a plain number. */
  number(fn, h) {
    this.check();
    const n = this.x[fn](h);
    this.check();
    return n;
  }
}

/** What Core.applyCompact returns for a single text append. */
const COMPACT = Object.freeze({ ok: true, text: null });

/** UTF-8 → string; short ASCII text without TextDecoder's fixed cost. */
function decodeText(u8, start, end) {
  if (end - start > 32) return decoder.decode(u8.subarray(start, end));
  let s = '';
  for (let i = start; i < end; i++) {
    const c = u8[i];
    if (c >= 0x80) return decoder.decode(u8.subarray(start, end));
    s += String.fromCharCode(c);
  }
  return s;
}

function diagnosticError(record) {
  const d = record.diagnostics?.[0] ?? { code: 'error', message: 'unknown error' };
  const err = new Error(`agui reducer: ${d.message}`);
  err.code = d.code;
  err.record = record;
  return err;
}

/** Event (object, JSON text or bytes) → what Core.apply takes. */
function eventData(event) {
  if (typeof event === 'string' || event instanceof Uint8Array) return event;
  if (event instanceof ArrayBuffer) return new Uint8Array(event);
  return JSON.stringify(event);
}

function chunkData(chunk) {
  if (typeof chunk === 'string' || chunk instanceof Uint8Array) return chunk;
  if (chunk instanceof ArrayBuffer) return new Uint8Array(chunk);
  if (ArrayBuffer.isView(chunk)) return new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  throw new TypeError('agui reducer: feed() takes a string or bytes (Uint8Array, ArrayBuffer)');
}

/** postMessage clones a view's whole buffer: send only the viewed bytes. */
function compactBytes(v) {
  return typeof v !== 'string' && v.byteLength !== v.buffer.byteLength ? v.slice() : v;
}

function badEventRecord(err) {
  return { diagnostics: [{ code: 'bad_event', level: 'error', message: `event is not JSON-serialisable: ${err.message}` }] };
}

function badSnapshotRecord(err) {
  return { diagnostics: [{ code: 'bad_snapshot', level: 'error', message: `snapshot is not JSON-serialisable: ${err.message}` }] };
}

// ---------------------------------------------------------------------------
// Applying change records with structural sharing

const hasOwn = Object.prototype.hasOwnProperty;

function unescapeSegment(s) {
  return s.indexOf('~') < 0 ? s : s.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** Sets an own property; "__proto__" becomes a plain own key, never the prototype. */
function setKey(obj, key, value) {
  if (key === '__proto__') {
    Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
  } else {
    obj[key] = value;
  }
}

function arrayIndex(arr, seg, path, allowEnd) {
  const i = seg === '-' && allowEnd ? arr.length : /^(0|[1-9][0-9]*)$/.test(seg) ? Number(seg) : -1;
  if (i < 0 || i > arr.length || (i === arr.length && !allowEnd)) {
    throw new Error(`index ${seg} out of range in ${path}`);
  }
  return i;
}

// Paths of the compact appends, cached for the message being streamed.
let lastAppendKey = '';
let lastAppendIndex = -1;
let lastAppendPath = '';

function appendPath(key, index) {
  if (key !== lastAppendKey || index !== lastAppendIndex) {
    lastAppendKey = key;
    lastAppendIndex = index;
    lastAppendPath = `/messages/${index}/${key}`;
  }
  return lastAppendPath;
}

function shallowCopy(v) {
  return Array.isArray(v) ? v.slice() : { ...v }; // spread keeps "__proto__" an own key
}

/**
 * Applies change ops to root, copying only the containers along each op's
 * path (once per batch: `fresh` holds the copies made so far). Everything
 * else keeps its identity. Returns the new root; root itself is untouched.
 */
function applyOps(root, ops, fresh) {
  for (const op of ops) {
    const path = op.path;
    if (path === '') {
      if (op.op === 'add' || op.op === 'replace') { root = op.value; continue; }
      throw new Error(`unsupported root op ${op.op}`);
    }
    const segs = path.split('/');
    if (segs[0] !== '' || root === null || typeof root !== 'object') throw new Error(`bad path ${path}`);
    if (!fresh.has(root)) { root = shallowCopy(root); fresh.add(root); }
    let parent = root;
    for (let i = 1; i < segs.length - 1; i++) {
      const key = unescapeSegment(segs[i]);
      let child;
      if (Array.isArray(parent)) {
        const idx = arrayIndex(parent, key, path, false);
        child = parent[idx];
        if (child !== null && typeof child === 'object' && !fresh.has(child)) {
          child = shallowCopy(child); fresh.add(child); parent[idx] = child;
        }
      } else {
        child = hasOwn.call(parent, key) ? parent[key] : undefined;
        if (child !== null && typeof child === 'object' && !fresh.has(child)) {
          child = shallowCopy(child); fresh.add(child); setKey(parent, key, child);
        }
      }
      if (child === null || typeof child !== 'object') throw new Error(`no container at ${segs.slice(0, i + 1).join('/')}`);
      parent = child;
    }
    const last = unescapeSegment(segs[segs.length - 1]);
    if (Array.isArray(parent)) {
      switch (op.op) {
        case 'add': {
          const i = arrayIndex(parent, last, path, true);
          if (i === parent.length) parent.push(op.value); // splice to the end takes a slow path in V8
          else parent.splice(i, 0, op.value);
          break;
        }
        case 'replace': parent[arrayIndex(parent, last, path, false)] = op.value; break;
        case 'remove': parent.splice(arrayIndex(parent, last, path, false), 1); break;
        case 'append': {
          const i = arrayIndex(parent, last, path, false);
          if (typeof parent[i] !== 'string') throw new Error(`append to a non-string at ${path}`);
          parent[i] += op.value;
          break;
        }
        default: throw new Error(`unknown op ${op.op}`);
      }
    } else {
      switch (op.op) {
        case 'add':
        case 'replace': setKey(parent, last, op.value); break;
        case 'remove':
          if (!hasOwn.call(parent, last)) throw new Error(`remove of a missing key at ${path}`);
          delete parent[last];
          break;
        case 'append': {
          const cur = hasOwn.call(parent, last) ? parent[last] : undefined;
          if (typeof cur !== 'string') throw new Error(`append to a non-string at ${path}`);
          setKey(parent, last, cur + op.value);
          break;
        }
        default: throw new Error(`unknown op ${op.op}`);
      }
    }
  }
  return root;
}

// ---------------------------------------------------------------------------
// Mirror: the JS state, subscribers and event handlers

const EVENT_TYPES = new Set(['custom', 'diagnostic', 'change', 'error']);

// Change ops wait in the mirror until the state is read; past this many
// unread ops they are applied anyway, so an unread mirror stays bounded.
const MAX_PENDING = 1024;

/**
 * Applies the pending ops when all of them are compact text appends
 * (appends holds index, key pairs): one new root, one new messages array,
 * one new object per touched message, whatever the number of appends.
 */
function applyAppends(root, ops, appends) {
  const msgs = root !== null && typeof root === 'object' ? root.messages : undefined;
  if (!Array.isArray(msgs)) throw new Error('no messages array');
  const messages = msgs.slice();
  for (let k = 0; k < ops.length; k++) {
    const index = appends[2 * k];
    const key = appends[2 * k + 1];
    let m = index < messages.length ? messages[index] : undefined;
    if (m === null || typeof m !== 'object' || !hasOwn.call(m, key) || typeof m[key] !== 'string') {
      throw new Error(`append to a non-string at ${ops[k].path}`);
    }
    if (m === msgs[index]) { // copied once, however many appends it gets
      // A spread of its own (not shallowCopy's): this site sees few
      // shapes, so V8 clones with a monomorphic inline cache.
      m = { ...m };
      messages[index] = m;
    }
    m[key] += ops[k].value;
  }
  const next = { ...root };
  next.messages = messages;
  return next;
}

class Mirror {
  #state; // the state as last built
  // Change ops not yet applied to #state. Records are queued as they
  // arrive and applied when the state is next read, all at once: each
  // container on their paths is copied once per read, not once per event,
  // so a stream nobody reads between events costs O(1) per event however
  // long the conversation (the messages array alone is 1,200 entries at
  // 400 turns).
  #pending = [];
  // While every pending op is a compact text append: their message index,
  // key pairs (applyAppends); null once another op is queued.
  #appends = [];
  #version = 0;
  #listeners = new Set();
  #handlers = new Map();
  #stale = false; // waiting for a snapshot after a record failed to apply
  #committing = 0; // _commit/_commitAppend calls in progress (handlers may nest them)
  #resyncDue = false; // a build failed during a commit: resynchronise when it ends
  #reading = false; // resynchronising inside a read of state

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

  /** A number that changes whenever the state does (without building it). */
  get version() { return this.#version; }

  getVersion() { return this.#version; }

  /** Applies the pending ops to the state, copying each touched container once. */
  #build() {
    const ops = this.#pending;
    const appends = this.#appends;
    try {
      this.#state = appends !== null ? applyAppends(this.#state, ops, appends) : applyOps(this.#state, ops, new WeakSet());
    } catch (err) {
      // The mirror no longer matches the reducer (a bug, or a caller that
      // mutated the state): the pending ops are dropped, records arriving
      // until the snapshot are dropped too (#stale), and a snapshot
      // replaces the mirror.
      this.#pending = [];
      this.#appends = [];
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
    if (appends !== null) appends.length = 0;
    else this.#appends = [];
    return this.#state;
  }

  subscribe(listener) {
    if (typeof listener !== 'function') throw new TypeError('agui reducer: subscribe() takes a function');
    const entry = { listener }; // the same function may subscribe twice
    this.#listeners.add(entry);
    return () => { this.#listeners.delete(entry); };
  }

  on(type, handler) {
    if (!EVENT_TYPES.has(type)) throw new TypeError(`agui reducer: unknown event type '${type}'`);
    if (typeof handler !== 'function') throw new TypeError('agui reducer: on() takes a function');
    let set = this.#handlers.get(type);
    if (!set) this.#handlers.set(type, (set = new Set()));
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
    if (listeners.size === 1) { // the common case, without copying the set
      const { listener } = listeners.values().next().value;
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
          for (const op of rec.ops) pending.push(op);
          this.#appends = null;
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
    this.#committing++;
    try {
      if (changed) {
        const pending = this.#pending;
        pending.push(rec.ops[0]);
        if (this.#appends !== null) this.#appends.push(index, key);
        this.#version++;
        if (pending.length > MAX_PENDING) this.#build();
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
    if (state !== this.#state) {
      this.#state = state;
      this.#version++;
      if (this.#reading) queueMicrotask(() => this._notify()); // not from inside a read
      else this._notify();
    }
  }
}

// ---------------------------------------------------------------------------
// Same-thread reducer

class ReducerFactory {
  #core;
  constructor(core) { this.#core = core; }
  get exited() { return this.#core.exited; }
  /** @internal for tests: the Go instance of wasm_exec.js */
  get _go() { return this.#core.go; }
  /** Bytes of linear memory the wasm module holds (it grows, never shrinks). */
  memoryBytes() { return this.#core.x.mem.buffer.byteLength; }
  createReducer(options = {}) {
    const core = this.#core;
    const h = core.create(JSON.stringify(options ?? {}));
    return new AguiReducer(core, h);
  }
}

/** Loads the module; resolves to a factory of reducers sharing it. */
export async function loadReducer(wasmURL, options) {
  return new ReducerFactory(await loadCore(wasmURL, options));
}

class AguiReducer extends Mirror {
  #core;
  #h;
  #run = null; // AbortController of the run in progress

  constructor(core, h) {
    const { ok, text } = core.call('snapshot', h);
    if (!ok) throw diagnosticError(JSON.parse(text));
    super(JSON.parse(text));
    this.#core = core;
    this.#h = h;
  }

  #handle() {
    if (this.#h === 0) throw new Error('agui reducer: this reducer was disposed');
    return this.#h;
  }

  #record(result) {
    const rec = JSON.parse(result.text);
    this._commit([rec]);
    return rec;
  }

  /** A call that yields a value; on failure its change record is applied, then thrown. */
  #value(result) {
    if (!result.ok) {
      const rec = JSON.parse(result.text);
      this._commit([rec]);
      throw diagnosticError(rec);
    }
    return JSON.parse(result.text);
  }

  _resync() {
    try {
      this._replaceState(this.#value(this.#core.call('snapshot', this.#handle())));
    } catch (err) { this._report(err); }
  }

  get disposed() { return this.#h === 0; }

  apply(event, sseEventName = '') {
    const h = this.#handle();
    let data;
    try { data = eventData(event); } catch (err) {
      const rec = badEventRecord(err);
      this._commit([rec]);
      return rec;
    }
    const core = this.#core;
    const result = core.applyCompact(h, data, sseEventName);
    if (result === COMPACT) {
      const key = core.appendKey;
      const index = core.appendIndex;
      const value = core.appendText;
      const rec = { ops: [{ op: 'append', path: appendPath(key, index), value }] };
      this._commitAppend(rec, key, index);
      return rec;
    }
    return this.#record(result);
  }

  feed(chunk) {
    const h = this.#handle();
    const r = this.#core.call('feed', h, chunkData(chunk));
    const recs = r.ok ? JSON.parse(r.text) : [JSON.parse(r.text)]; // one record when it failed
    if (recs.length > 0) this._commit(recs);
    return recs;
  }

  endStream() {
    this.#core.call('endStream', this.#handle());
  }

  addUserMessage(content, id) {
    return this.#record(this.#core.call('addUserMessage', this.#handle(), JSON.stringify(id == null ? [content] : [content, id])));
  }

  addToolResult(toolCallId, content) {
    const text = typeof content === 'string' ? content : JSON.stringify(content);
    return this.#record(this.#core.call('addToolResult', this.#handle(), JSON.stringify([toolCallId, text])));
  }

  fail(message, code) {
    return this.#record(this.#core.call('fail', this.#handle(), JSON.stringify(code == null ? [String(message)] : [String(message), String(code)])));
  }

  stop() {
    return this.#record(this.#core.call('stop', this.#handle()));
  }

  reset() {
    return this.#record(this.#core.call('reset', this.#handle()));
  }

  snapshot() {
    return this.#value(this.#core.call('snapshot', this.#handle()));
  }

  restore(snapshot) {
    const h = this.#handle();
    let text;
    try { text = typeof snapshot === 'string' ? snapshot : JSON.stringify(snapshot); } catch (err) {
      const rec = badSnapshotRecord(err); // cyclic, BigInt, nested past the JS stack
      this._commit([rec]);
      return rec;
    }
    return this.#record(this.#core.call('restore', h, text));
  }

  runInput(options = {}) {
    return this.#value(this.#core.call('runInput', this.#handle(), JSON.stringify(options ?? {})));
  }

  messages() {
    return this.#value(this.#core.call('messages', this.#handle()));
  }

  run(url, input, options = {}) {
    if (this.#run) return Promise.reject(new Error('agui reducer: a run is already in progress on this reducer'));
    const h = this.#handle();
    const ctrl = new AbortController();
    this.#run = ctrl;
    const live = () => this.#h === h;
    const target = {
      runInputText: () => {
        const r = this.#core.call('runInput', h, '{}');
        if (!r.ok) throw diagnosticError(JSON.parse(r.text));
        return r.text;
      },
      endStream: () => { if (live()) this.endStream(); },
      feed: (chunk) => { if (live()) this.feed(chunk); },
      fail: (message, code) => { if (live()) this.fail(message, code); },
      stop: () => { if (live()) this.stop(); },
      isRunning: () => live() && this.#core.number('running', h) === 1,
    };
    return runStream(target, url, input, options, ctrl).finally(() => { this.#run = null; });
  }

  dispose() {
    if (this.#h === 0) return;
    this.#run?.abort();
    const h = this.#h;
    this.#h = 0;
    if (!this.#core.exited) this.#core.call('dispose', h);
  }
}

// ---------------------------------------------------------------------------
// run(): POST a RunAgentInput and stream the SSE response through feed

function isAbort(err, signal) {
  return signal?.aborted === true || err?.name === 'AbortError';
}

function plainHeaders(headers) {
  if (!headers) return {};
  if (typeof Headers !== 'undefined' && headers instanceof Headers) return Object.fromEntries(headers.entries());
  if (Array.isArray(headers)) return Object.fromEntries(headers);
  return { ...headers };
}

/**
 * The transport shared by the same-thread and worker reducers. target's
 * methods may return promises. Resolves to 'completed', 'incomplete' (the
 * body ended while the run was still running), 'aborted' or 'failed'.
 */
async function runStream(target, url, input, options = {}, ctrl = new AbortController()) {
  const { signal, headers, fetch: fetchImpl = globalThis.fetch, credentials } = options ?? {};
  const onAbort = () => ctrl.abort(signal?.reason);
  if (signal) {
    if (signal.aborted) return 'aborted';
    signal.addEventListener('abort', onAbort, { once: true });
  }
  try {
    const body = input === undefined || input === null ? await target.runInputText()
      : typeof input === 'string' ? input : JSON.stringify(input);
    await target.endStream(); // a fresh SSE parser for this response
    let response;
    try {
      response = await fetchImpl(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream', ...plainHeaders(headers) },
        body,
        signal: ctrl.signal,
        ...(credentials ? { credentials } : {}),
      });
    } catch (err) {
      if (isAbort(err, ctrl.signal)) { await target.stop(); return 'aborted'; }
      await target.fail(err?.message || String(err), 'network');
      return 'failed';
    }
    if (!response.ok) {
      response.body?.cancel().catch(() => {});
      await target.fail(`HTTP ${response.status}: ${response.statusText}`, String(response.status));
      return 'failed';
    }
    if (response.body) {
      const reader = response.body.getReader();
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          await target.feed(value);
          if (ctrl.signal.aborted) throw ctrl.signal.reason ?? new DOMException('aborted', 'AbortError');
        }
      } catch (err) {
        reader.cancel().catch(() => {});
        await target.endStream();
        if (isAbort(err, ctrl.signal)) { await target.stop(); return 'aborted'; }
        await target.fail(err?.message || String(err), 'network');
        return 'failed';
      }
    }
    await target.endStream();
    return (await target.isRunning()) ? 'incomplete' : 'completed';
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
}

/** run(reducer, url, input, options): the same as reducer.run(url, input, options). */
export function run(reducer, url, input, options) {
  return reducer.run(url, input, options);
}

// ---------------------------------------------------------------------------
// Worker reducers: the wasm runs in agui-worker.js, the mirror stays here

class WorkerHost {
  #port;
  #pending = new Map();
  #reducers = new Map();
  #seq = 0;
  #broken = null;

  constructor({ worker, workerURL, wasmURL } = {}) {
    this.#port = worker ?? new Worker(workerURL ?? new URL('./agui-worker.js', import.meta.url), { type: 'module' });
    this.#port.addEventListener('message', (e) => this.#onMessage(e.data));
    this.#port.addEventListener('error', (e) => this.#fail(new Error(`agui reducer: worker error: ${e.message ?? 'failed to load'}`)));
    this.#port.addEventListener('messageerror', () => this.#fail(new Error('agui reducer: worker message could not be decoded')));
    this.#port.start?.();
    this.#port.postMessage({ op: 'init', wasmURL: String(new URL(wasmURL ?? defaultWasmURL(), baseURL())) });
  }

  #fail(err) {
    this.#broken = err;
    for (const { reject } of this.#pending.values()) reject(err);
    this.#pending.clear();
  }

  _request(msg, transfer) {
    if (this.#broken) return Promise.reject(this.#broken);
    const id = ++this.#seq;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject, rid: msg.rid });
      this.#port.postMessage({ ...msg, id }, transfer ?? []);
    });
  }

  _post(msg) { this.#port.postMessage(msg); }

  #onMessage(m) {
    if (m.op === 'records') { // pushed by a run
      this.#reducers.get(m.rid)?._commit(JSON.parse(m.text));
      return;
    }
    const p = this.#pending.get(m.id);
    if (!p) return;
    this.#pending.delete(m.id);
    const reducer = this.#reducers.get(p.rid);
    // Records are committed here, in arrival order, before anyone awaits them.
    if (!m.ok) {
      if (m.text) reducer?._commit([JSON.parse(m.text)]);
      const err = new Error(m.error.message);
      if (m.error.code) err.code = m.error.code;
      p.reject(err);
      return;
    }
    switch (m.kind) {
      case 'record': {
        const rec = JSON.parse(m.text);
        reducer?._commit([rec]);
        p.resolve(rec);
        break;
      }
      case 'records': {
        const recs = JSON.parse(m.text);
        if (recs.length > 0) reducer?._commit(recs);
        p.resolve(recs);
        break;
      }
      case 'json': p.resolve(JSON.parse(m.text)); break;
      default: p.resolve(m.value);
    }
  }

  async createReducer(options = {}) {
    const rid = ++this.#seq;
    const state = await this._request({ op: 'create', rid, options: JSON.stringify(options ?? {}) });
    const r = new WorkerReducer(this, rid, state);
    this.#reducers.set(rid, r);
    return r;
  }

  _forget(rid) { this.#reducers.delete(rid); }

  terminate() {
    this.#fail(new Error('agui reducer: the worker was terminated'));
    this.#port.terminate?.();
    this.#port.close?.();
  }
}

class WorkerReducer extends Mirror {
  #host;
  #rid;
  #disposed = false;
  #runs = 0;

  constructor(host, rid, state) {
    super(state);
    this.#host = host;
    this.#rid = rid;
  }

  #call(method, args, transfer) {
    if (this.#disposed) return Promise.reject(new Error('agui reducer: this reducer was disposed'));
    return this.#host._request({ op: 'call', rid: this.#rid, method, args }, transfer);
  }

  _resync() {
    this.#call('snapshot', []).then((s) => this._replaceState(s), (err) => this._report(err));
  }

  get disposed() { return this.#disposed; }

  apply(event, sseEventName = '') {
    let data = event;
    if (typeof event !== 'string' && !(event instanceof Uint8Array) && !(event instanceof ArrayBuffer)) {
      try { data = JSON.stringify(event); } catch (err) {
        const rec = badEventRecord(err);
        this._commit([rec]);
        return Promise.resolve(rec);
      }
    }
    return this.#call('apply', [data instanceof Uint8Array ? compactBytes(data) : data, sseEventName]);
  }

  feed(chunk) { return this.#call('feed', [compactBytes(chunkData(chunk))]); }
  endStream() { return this.#call('endStream', []); }
  addUserMessage(content, id) { return this.#call('addUserMessage', [JSON.stringify(id == null ? [content] : [content, id])]); }
  addToolResult(toolCallId, content) {
    return this.#call('addToolResult', [JSON.stringify([toolCallId, typeof content === 'string' ? content : JSON.stringify(content)])]);
  }
  fail(message, code) { return this.#call('fail', [JSON.stringify(code == null ? [String(message)] : [String(message), String(code)])]); }
  stop() { return this.#call('stop', []); }
  reset() { return this.#call('reset', []); }
  snapshot() { return this.#call('snapshot', []); }
  restore(snapshot) {
    let text = snapshot;
    if (typeof snapshot !== 'string') {
      try { text = JSON.stringify(snapshot); } catch (err) {
        const rec = badSnapshotRecord(err);
        this._commit([rec]);
        return Promise.resolve(rec);
      }
    }
    return this.#call('restore', [text]);
  }
  runInput(options = {}) { return this.#call('runInput', [JSON.stringify(options ?? {})]); }
  messages() { return this.#call('messages', []); }

  /** The fetch runs in the worker too; records come back as it streams. */
  run(url, input, options = {}) {
    if (this.#disposed) return Promise.reject(new Error('agui reducer: this reducer was disposed'));
    if (this.#runs > 0) return Promise.reject(new Error('agui reducer: a run is already in progress on this reducer'));
    const { signal, headers, credentials } = options ?? {};
    if (options?.fetch) return Promise.reject(new TypeError('agui reducer: a worker reducer cannot use a custom fetch'));
    if (signal?.aborted) return Promise.resolve('aborted');
    const runId = `${this.#rid}:${Math.random().toString(36).slice(2)}`;
    const onAbort = () => this.#host._post({ op: 'abort', runId });
    signal?.addEventListener('abort', onAbort, { once: true });
    this.#runs++;
    return this.#host._request({
      op: 'run', rid: this.#rid, runId,
      url: String(new URL(url, baseURL())),
      input: input === undefined || input === null ? null : typeof input === 'string' ? input : JSON.stringify(input),
      headers: plainHeaders(headers),
      credentials,
    }).finally(() => {
      this.#runs--;
      signal?.removeEventListener('abort', onAbort);
    });
  }

  dispose() {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#host._post({ op: 'dispose', rid: this.#rid });
    this.#host._forget(this.#rid);
  }
}

const defaultHosts = new Map();

/** A worker hosting wasm reducers; several reducers may share one. */
export function createWorkerHost(options = {}) {
  return new WorkerHost(options);
}

/**
 * A reducer whose wasm runs in a Web Worker; resolves once its initial state
 * has arrived. Without options.host, reducers with the same workerURL and
 * wasmURL share one worker.
 */
export async function createWorkerReducer(options = {}, { host, worker, workerURL, wasmURL } = {}) {
  if (!host) {
    if (worker) {
      host = new WorkerHost({ worker, wasmURL });
    } else {
      const key = `${workerURL ?? ''}\n${wasmURL ?? ''}`;
      host = defaultHosts.get(key);
      if (!host) defaultHosts.set(key, (host = new WorkerHost({ workerURL, wasmURL })));
    }
  }
  return host.createReducer(options);
}

/** Internals shared with agui-worker.js; not part of the API. */
export const __internal = { loadCore, runStream, eventData, chunkData, applyOps };
