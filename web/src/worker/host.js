// Worker reducers: the wasm runs in the worker (serve.js), the mirror stays here.

import { baseURL, LoadError } from '../wasm/loader.js';
import { packageFiles } from '../wasm/package-files.js';
import { chunkData, compactBytes } from '../wasm/records.js';
import { Mirror } from '../state/mirror.js';
import { plainHeaders, settle } from '../reducer/transport.js';
import { portablePolicy, badCursor, badCursorError } from '../reducer/resume.js';
import { args, eventArgs, valueArgs, snapshotArgs, snapshotArg, SurrogateCarry, resumeFrom, inputTools } from '../reducer/calls.js';

// Worker reducers garbage-collected without dispose() are disposed in the
// worker: the held value names the host and the reducer id, never the
// reducer.
const finalizer = typeof FinalizationRegistry === 'function'
  ? new FinalizationRegistry(({ host, rid }) => host._release(rid))
  : null;

/** The error a worker's answer describes (a LoadError when loading failed). */
function workerError(e) {
  if (e.code === 'load_failed') return new LoadError(e.message.replace(/^agui reducer: /, ''), { url: e.url, status: e.status });
  const err = new Error(e.message);
  if (e.code) err.code = e.code;
  return err;
}

class WorkerHost {
  #port;
  #pending = new Map();
  #reducers = new Map(); // rid → WeakRef of its WorkerReducer
  #seq = 0;
  #broken = null;

  constructor({ worker, workerURL, wasmURL } = {}) {
    this.#port = worker ?? (workerURL ? new Worker(workerURL, { type: 'module' }) : packageFiles.worker());
    const where = worker ? 'the worker' : workerURL ? `the worker ${workerURL}` : 'the worker (src/worker/entry.js)';
    this.#port.addEventListener('message', (e) => this.#onMessage(e.data));
    this.#port.addEventListener('error', (e) => {
      this.#fail(e.message
        ? new Error(`agui reducer: ${where} failed: ${e.message}`)
        : new LoadError(`${where} did not load`, { url: workerURL }));
    });
    this.#port.addEventListener('messageerror', () => this.#fail(new Error('agui reducer: worker message could not be decoded')));
    this.#port.start?.();
    this.#port.postMessage({ op: 'init', wasmURL: String(new URL(wasmURL ?? packageFiles.wasmURL(), baseURL())) });
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
      try {
        this.#port.postMessage({ ...msg, id }, transfer ?? []);
      } catch (err) { // a value the structured clone cannot copy
        this.#pending.delete(id);
        reject(err);
      }
    });
  }

  _post(msg) { this.#port.postMessage(msg); }

  #onMessage(m) {
    if (m.op === 'records') { // pushed by a run
      this.#reducers.get(m.rid)?.deref()?._commit(JSON.parse(m.text));
      return;
    }
    if (m.op === 'observed') { // a run's input, sent while the reducer is observed
      const r = this.#reducers.get(m.rid)?.deref();
      if (r && r._observers !== null) r._tell(m.input);
      return;
    }
    if (m.op === 'reconnect') {
      this.#reducers.get(m.rid)?.deref()?._emit('reconnect', m.info);
      return;
    }
    const p = this.#pending.get(m.id);
    if (!p) return;
    this.#pending.delete(m.id);
    const reducer = this.#reducers.get(p.rid)?.deref();
    // Records are committed here, in arrival order, before anyone awaits them.
    if (!m.ok) {
      if (m.text) reducer?._commit([JSON.parse(m.text)]);
      p.reject(workerError(m.error));
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
    this.#reducers.set(rid, new WeakRef(r));
    finalizer?.register(r, { host: this, rid }, r);
    return r;
  }

  /** Disposes reducer rid in the worker (dispose(), or garbage-collected without it). */
  _release(rid, reducer) {
    if (reducer) finalizer?.unregister(reducer);
    this.#reducers.delete(rid);
    this._post({ op: 'dispose', rid });
  }

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

  /** fn's promise; what it throws (an argument it cannot encode) rejects it: the methods are async. */
  #async(fn) {
    try { return fn(); } catch (err) { return Promise.reject(err); }
  }

  /** #call, whose input and result the observers see (observe()), in the order the worker answers. */
  #told(input, method, args) {
    const p = this.#call(method, args);
    if (this._observers === null) return p;
    p.then((result) => {
      if (this._observers === null) return;
      if (input.kind === 'chunk') this._tell({ ...input, records: result });
      else if (input.kind === 'endStream') this._tell(input);
      else this._tell({ ...input, record: result });
    }, () => {});
    return p;
  }

  _resync() {
    this.#call('snapshot', []).then((s) => this._replaceState(s), (err) => this._report(err));
  }

  get disposed() { return this.#disposed; }

  apply(event, frame = '') { return this.#async(() => this.#apply(event, frame)); }

  #apply(event, frame) {
    const a = eventArgs(event, frame);
    if (a.record) return this.#commitOne(a.record);
    return this.#told({ kind: 'event', data: event, name: a.name, id: a.id }, 'apply', [typeof a.data === 'string' ? a.data : compactBytes(a.data), a.name, a.id]);
  }

  /** A change record made here (an argument that cannot be sent): committed, resolved. */
  #commitOne(rec) {
    this._commit([rec]);
    return Promise.resolve(rec);
  }

  #carry = new SurrogateCarry(); // ../reducer/calls.js, as on the same thread

  feed(chunk) { return this.#async(() => this.#feed(chunk)); }

  #feed(chunk) {
    const data = chunkData(chunk);
    if (typeof data === 'string') return this.#told({ kind: 'chunk', data: chunk }, 'feed', [this.#carry.take(data)]);
    this.#flushHigh();
    return this.#told({ kind: 'chunk', data: chunk }, 'feed', [compactBytes(data)]);
  }

  /** Sends a held high half on alone; its records are committed as they come. */
  #flushHigh() {
    const lone = this.#carry.flush();
    if (lone !== '') this.#call('feed', [lone]).catch((err) => this._report(err));
  }

  endStream() {
    this.#flushHigh();
    return this.#told({ kind: 'endStream' }, 'endStream', []);
  }
  /** An action: wire(), its argument text (what it throws rejects), sent; the observers see it answered. */
  #action(name, argv, wire) { return this.#async(() => this.#told({ kind: 'action', name, args: argv }, name, wire === undefined ? [] : [wire()])); }
  addUserMessage(content, id) { return this.#action('addUserMessage', [content, id], () => args.addUserMessage(content, id)); }
  addToolResult(toolCallId, content) { return this.#action('addToolResult', [toolCallId, content], () => args.addToolResult(toolCallId, content)); }
  fail(message, code) { return this.#action('fail', [message, code], () => args.fail(message, code)); }
  stop() { return this.#action('stop', []); }
  reset() { return this.#action('reset', []); }
  setState(state) { return this.#valueCall('setState', state); }
  setMessages(messages) { return this.#valueCall('setMessages', messages); }
  #valueCall(what, value) {
    const a = valueArgs(what, value);
    return a.record ? this.#commitOne(a.record) : this.#action(what, [value], () => a.text);
  }
  snapshot() { return this.#call('snapshot', []); }
  restore(snapshot) {
    const a = snapshotArgs(snapshot);
    return a.record ? this.#commitOne(a.record) : this.#action('restore', [this._observers === null ? a.text : snapshotArg(a.text)], () => a.text);
  }
  runInput(options = {}) { return this.#async(() => this.#call('runInput', [args.runInput(options)])); }
  /** Tools (an AG-UI Tool[]) whose parameters schemas validate their calls' arguments. */
  setTools(tools) { return this.#action('setTools', [tools], () => args.setTools(tools)).then(() => undefined); }
  messages() { return this.#call('messages', []); }

  /** Continues the run the state holds from its lastEventId (after restore()). */
  async resume(url, input, options = {}) {
    return resumeFrom(this, await this.#call('cursor', []), url, input, options);
  }

  /** The fetch runs in the worker too; records come back as it streams. An async API:
   *  a bad argument (a URL that does not parse, an input JSON cannot encode) rejects, and
   *  leaves the reducer ready for the next run. */
  run(url, input, options = {}) {
    if (this.#disposed) return Promise.reject(new Error('agui reducer: this reducer was disposed'));
    if (this.#runs > 0) return Promise.reject(new Error('agui reducer: a run is already in progress on this reducer'));
    const { signal, headers, credentials } = options ?? {};
    if (options?.fetch) return Promise.reject(new TypeError('agui reducer: a worker reducer cannot use a custom fetch'));
    if (signal?.aborted) return Promise.resolve('aborted');
    const runId = `${this.#rid}:${Math.random().toString(36).slice(2)}`;
    let msg;
    try {
      msg = {
        op: 'run', rid: this.#rid, runId,
        url: String(new URL(url, baseURL())),
        input: input === undefined || input === null ? null : typeof input === 'string' ? input : JSON.stringify(input),
        headers: plainHeaders(headers),
        credentials,
        resume: portablePolicy(options?.resume),
        lastEventId: options?.lastEventId ?? null,
        observe: this._observers !== null,
      };
      if (badCursor(msg.lastEventId)) throw badCursorError(msg.lastEventId);
    } catch (err) {
      return Promise.reject(err);
    }
    // The run's tools validate its calls' arguments; the worker takes
    // messages in order, so they are known before the run starts.
    const tools = inputTools(input);
    if (tools) this.#told({ kind: 'action', name: 'setTools', args: [JSON.parse(tools)] }, 'setTools', [tools]).catch((err) => this._report(err));
    const onAbort = () => this.#host._post({ op: 'abort', runId });
    signal?.addEventListener('abort', onAbort, { once: true });
    this.#runs++;
    return this.#host._request(msg).then((report) => settle(this, report)).finally(() => {
      this.#runs--;
      signal?.removeEventListener('abort', onAbort);
    });
  }

  dispose() {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#host._release(this.#rid, this);
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
