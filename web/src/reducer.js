// The same-thread reducer: a Mirror over one handle of a loaded Core.

import { loadCore } from './loader.js';
import { COMPACT } from './core.js';
import { diagnosticError, eventData, chunkData, badEventRecord, badSnapshotRecord } from './records.js';
import { appendPath } from './ops.js';
import { Mirror } from './mirror.js';
import { runStream } from './transport.js';

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
