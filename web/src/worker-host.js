// Worker reducers: the wasm runs in agui-worker.js, the mirror stays here.

import { baseURL, LoadError } from './loader.js';
import { packageFiles } from './package-files.js';
import { chunkData, compactBytes, escapeLone, endsHigh, badEventRecord, badEventIdRecord, badSnapshotRecord, badArgumentRecord } from './records.js';
import { Mirror } from './mirror.js';
import { plainHeaders, settle, nothingToResume } from './transport.js';
import { portablePolicy, badCursor, badCursorError } from './resume.js';

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
    const where = worker ? 'the worker' : workerURL ? `the worker ${workerURL}` : 'the worker (agui-worker.js)';
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
    const sseEventName = typeof frame === 'string' ? frame : frame?.event ?? '';
    const id = typeof frame === 'string' || frame?.id == null ? undefined : String(frame.id);
    if (id !== undefined && badCursor(id)) { // an error: the event is not applied either
      const rec = badEventIdRecord();
      this._commit([rec]);
      return Promise.resolve(rec);
    }
    let data = event;
    if (typeof event !== 'string' && !(event instanceof Uint8Array) && !(event instanceof ArrayBuffer)) {
      try { data = JSON.stringify(event); } catch (err) {
        const rec = badEventRecord(err);
        this._commit([rec]);
        return Promise.resolve(rec);
      }
    }
    return this.#told({ kind: 'event', data: event, name: sseEventName, id }, 'apply', [data instanceof Uint8Array ? compactBytes(data) : data, sseEventName, id]);
  }

  // As in page mode (reducer.js): a string chunk's trailing high surrogate
  // waits for the next chunk, so the pair reaches the reducer whole, and a
  // lone half goes escaped (UTF-8 cannot carry it to the worker's reducer).
  #high = '';

  feed(chunk) { return this.#async(() => this.#feed(chunk)); }

  #feed(chunk) {
    let data = chunkData(chunk);
    if (typeof data !== 'string') {
      if (this.#high !== '') this.#flushHigh();
      return this.#told({ kind: 'chunk', data: chunk }, 'feed', [compactBytes(data)]);
    }
    data = this.#high + data;
    this.#high = '';
    if (endsHigh(data)) {
      this.#high = data.slice(-1);
      data = data.slice(0, -1);
    }
    return this.#told({ kind: 'chunk', data: chunk }, 'feed', [escapeLone(data)]);
  }

  /** Sends a held high half on alone; its records are committed as they come. */
  #flushHigh() {
    const lone = escapeLone(this.#high);
    this.#high = '';
    this.#call('feed', [lone]).catch((err) => this._report(err));
  }

  endStream() {
    if (this.#high !== '') this.#flushHigh();
    return this.#told({ kind: 'endStream' }, 'endStream', []);
  }
  /** An action's call (wire builds its arguments, which may throw: the promise rejects). */
  #action(name, args, method, wire) { return this.#async(() => this.#told({ kind: 'action', name, args }, method, wire())); }
  addUserMessage(content, id) { return this.#action('addUserMessage', [content, id], 'addUserMessage', () => [JSON.stringify(id == null ? [content] : [content, id])]); }
  addToolResult(toolCallId, content) {
    return this.#action('addToolResult', [toolCallId, content], 'addToolResult', () => [JSON.stringify([toolCallId, typeof content === 'string' ? content : JSON.stringify(content)])]);
  }
  fail(message, code) { return this.#action('fail', [message, code], 'fail', () => [JSON.stringify(code == null ? [String(message)] : [String(message), String(code)])]); }
  stop() { return this.#action('stop', [], 'stop', () => []); }
  reset() { return this.#action('reset', [], 'reset', () => []); }
  setState(state) { return this.#valueCall('setState', state); }
  setMessages(messages) { return this.#valueCall('setMessages', messages); }
  #valueCall(what, value) {
    let text;
    try { text = JSON.stringify([value ?? null]); } catch (err) {
      const rec = badArgumentRecord(what, err);
      this._commit([rec]);
      return Promise.resolve(rec);
    }
    return this.#action(what, [value], what, () => [text]);
  }
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
    return this.#action('restore', [text], 'restore', () => [text]);
  }
  runInput(options = {}) { return this.#async(() => this.#call('runInput', [JSON.stringify(options ?? {})])); }
  messages() { return this.#call('messages', []); }

  /** Continues the run the state holds from its lastEventId (after restore()). */
  async resume(url, input, options = {}) {
    const { id, running } = await this.#call('cursor', []);
    if (!id || !running) return nothingToResume(this, running, id);
    if (input == null) {
      const { threadId, runId } = this.state;
      input = await this.runInput(runId ? { threadId, runId } : {});
    }
    return this.run(url, input, { ...options, lastEventId: id });
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
