// The same-thread reducer: a Mirror over one handle of a loaded Core.

import { loadCore } from '../wasm/loader.js';
import { packageFiles } from '../wasm/package-files.js';
import { COMPACT } from '../wasm/core.js';
import { diagnosticError, eventData, chunkData, escapeLone, endsHigh, badEventRecord, badEventIdRecord, badSnapshotRecord, badArgumentRecord } from '../wasm/records.js';
import { appendPath } from '../state/ops.js';
import { Mirror } from '../state/mirror.js';
import { runStream, settle, nothingToResume } from './transport.js';
import { restarted, badCursor } from './resume.js';

// Reducers garbage-collected without dispose() free their Go state: the
// held value names the handle, never the reducer.
const finalizer = typeof FinalizationRegistry === 'function'
  ? new FinalizationRegistry(({ core, h }) => core.release(h))
  : null;

class ReducerFactory {
  #core;
  constructor(core) { this.#core = core; }
  get exited() { return this.#core.exited; }
  /** @internal for tests: the Go instance of wasm_exec.js */
  get _go() { return this.#core.go; }
  /** Bytes of linear memory the wasm module holds (it grows, never shrinks). */
  memoryBytes() { return this.#core.x.mem.buffer.byteLength; }
  /** @internal for tests: reducers created and not yet freed */
  get _live() { return this.#core.live; }
  createReducer(options = {}) {
    const core = this.#core;
    const h = core.create(JSON.stringify(options ?? {}));
    return new AguiReducer(core, h);
  }
}

/** Loads the module; resolves to a factory of reducers sharing it. */
export async function loadReducer(wasmURL, options) {
  return new ReducerFactory(await loadCore(wasmURL ?? packageFiles.wasmURL(), options));
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
    finalizer?.register(this, { core, h }, this);
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

  apply(event, frame = '') {
    const h = this.#handle();
    const sseEventName = typeof frame === 'string' ? frame : frame?.event ?? '';
    const id = typeof frame === 'string' ? undefined : frame?.id;
    if (id != null) {
      // An id setLastEventId would refuse refuses the frame before it is applied
      // (an error: the event is not applied either).
      const chk = badCursor(String(id)) ? badEventIdRecord() : JSON.parse(this.#core.call('checkEventId', h, String(id)).text);
      if (chk.diagnostics?.length) {
        this._commit([chk]);
        if (this._observers !== null) this._tell({ kind: 'event', data: event, name: sseEventName, id: String(id), record: chk });
        return chk;
      }
    }
    if (id == null) {
      const rec = this.#apply(h, event, sseEventName);
      if (this._observers !== null) this._tell({ kind: 'event', data: event, name: sseEventName, id: undefined, record: rec });
      return rec;
    }
    let rec = this.#apply(h, event, sseEventName);
    const idRec = JSON.parse(this.#core.call('setLastEventId', h, String(id)).text);
    this._commit([idRec]);
    if (idRec.ops?.length || idRec.diagnostics?.length) {
      rec = {
        ...rec,
        ops: [...(rec.ops ?? []), ...(idRec.ops ?? [])],
        diagnostics: [...(rec.diagnostics ?? []), ...(idRec.diagnostics ?? [])],
      };
    }
    if (this._observers !== null) this._tell({ kind: 'event', data: event, name: sseEventName, id: String(id), record: rec });
    return rec;
  }

  #apply(h, event, sseEventName) {
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

  // A string chunk may end inside a surrogate pair: its high half waits
  // for the next chunk, so the pair reaches the reducer whole.
  #high = '';

  feed(chunk) {
    const h = this.#handle();
    let data = chunkData(chunk);
    if (typeof data === 'string') {
      data = this.#high + data;
      this.#high = '';
      if (endsHigh(data)) {
        this.#high = data.slice(-1);
        data = data.slice(0, -1);
      }
      data = escapeLone(data);
    } else if (this.#high !== '') {
      this.#flushHigh(h);
    }
    const r = this.#core.call('feed', h, data);
    const recs = r.ok ? JSON.parse(r.text) : [JSON.parse(r.text)]; // one record when it failed
    if (recs.length > 0) this._commit(recs);
    if (this._observers !== null) this._tell({ kind: 'chunk', data: chunk, records: recs });
    return recs;
  }

  #flushHigh(h) {
    const lone = escapeLone(this.#high);
    this.#high = '';
    const r = this.#core.call('feed', h, lone);
    const recs = r.ok ? JSON.parse(r.text) : [JSON.parse(r.text)];
    if (recs.length > 0) this._commit(recs);
  }

  endStream() {
    const h = this.#handle();
    if (this.#high !== '') this.#flushHigh(h);
    this.#core.call('endStream', h);
    if (this._observers !== null) this._tell({ kind: 'endStream' });
  }

  /** An action's record, handed to the observers. */
  #acted(name, args, rec) {
    if (this._observers !== null) this._tell({ kind: 'action', name, args, record: rec });
    return rec;
  }

  addUserMessage(content, id) {
    return this.#acted('addUserMessage', [content, id], this.#record(this.#core.call('addUserMessage', this.#handle(), JSON.stringify(id == null ? [content] : [content, id]))));
  }

  addToolResult(toolCallId, content) {
    const text = typeof content === 'string' ? content : JSON.stringify(content);
    return this.#acted('addToolResult', [toolCallId, content], this.#record(this.#core.call('addToolResult', this.#handle(), JSON.stringify([toolCallId, text]))));
  }

  fail(message, code) {
    return this.#acted('fail', [message, code], this.#record(this.#core.call('fail', this.#handle(), JSON.stringify(code == null ? [String(message)] : [String(message), String(code)]))));
  }

  stop() {
    return this.#acted('stop', [], this.#record(this.#core.call('stop', this.#handle())));
  }

  reset() {
    return this.#acted('reset', [], this.#record(this.#core.call('reset', this.#handle())));
  }

  setState(state) {
    const h = this.#handle();
    let text;
    try { text = JSON.stringify([state ?? null]); } catch (err) { return this.#badArgument('setState', err); }
    return this.#acted('setState', [state], this.#record(this.#core.call('setState', h, text)));
  }

  setMessages(messages) {
    const h = this.#handle();
    let text;
    try { text = JSON.stringify([messages ?? null]); } catch (err) { return this.#badArgument('setMessages', err); }
    return this.#acted('setMessages', [messages], this.#record(this.#core.call('setMessages', h, text)));
  }

  /** A value JSON.stringify cannot encode (cyclic, BigInt): a diagnostic, nothing changed. */
  #badArgument(what, err) {
    const rec = badArgumentRecord(what, err);
    this._commit([rec]);
    return rec;
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
    return this.#acted('restore', [text], this.#record(this.#core.call('restore', h, text)));
  }

  runInput(options = {}) {
    return this.#value(this.#core.call('runInput', this.#handle(), JSON.stringify(options ?? {})));
  }

  messages() {
    return this.#value(this.#core.call('messages', this.#handle()));
  }

  /** Continues the run the state holds from its lastEventId (after restore()). */
  resume(url, input, options = {}) {
    if (this.#h === 0) return Promise.reject(new Error('agui reducer: this reducer was disposed'));
    try {
      const id = this.#core.call('lastEventId', this.#h).text;
      const running = this.#core.number('running', this.#h) === 1;
      if (!id || !running) return nothingToResume(this, running, id);
      return this.run(url, input ?? this.#resumeInput(), { ...options, lastEventId: id });
    } catch (err) {
      return Promise.reject(err); // an async API: it rejects, never throws
    }
  }

  #resumeInput() {
    const { threadId, runId } = this.state;
    return this.runInput(runId ? { threadId, runId } : {});
  }

  run(url, input, options = {}) {
    if (this.#h === 0) return Promise.reject(new Error('agui reducer: this reducer was disposed'));
    if (this.#run) return Promise.reject(new Error('agui reducer: a run is already in progress on this reducer'));
    const h = this.#h;
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
      feed: (chunk) => live() && restarted(this.feed(chunk)),
      lastEventId: () => (live() ? this.#core.call('lastEventId', h).text : ''),
      runId: () => (live() ? this.state.runId : ''),
      setLastEventId: (id) => {
        if (!live()) return;
        const r = this.#core.call('setLastEventId', h, id);
        const rec = JSON.parse(r.text);
        if (rec.ops?.length) this._commit([rec]);
        if (this._observers !== null) this._tell({ kind: 'action', name: 'setLastEventId', args: [id], record: rec });
      },
      fail: (message, code) => { if (live()) this.fail(message, code); },
      stop: () => { if (live()) this.stop(); },
      isRunning: () => live() && this.#core.number('running', h) === 1,
    };
    return settle(this, runStream(target, url, input, options, ctrl, (info) => this._emit('reconnect', info)))
      .finally(() => { this.#run = null; });
  }

  dispose() {
    if (this.#h === 0) return;
    this.#run?.abort();
    const h = this.#h;
    this.#h = 0;
    finalizer?.unregister(this);
    this.#core.release(h);
  }
}
