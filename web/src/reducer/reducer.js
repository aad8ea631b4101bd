// The same-thread reducer: a Mirror over one handle of a loaded Core.

import { loadCore } from '../wasm/loader.js';
import { packageFiles } from '../wasm/package-files.js';
import { COMPACT, APPENDS } from '../wasm/core.js';
import { diagnosticError, chunkData, tokenKind, tokenOfText } from '../wasm/records.js';
import { appendPath } from '../state/ops.js';
import { Mirror } from '../state/mirror.js';
import { runStream, settle } from './transport.js';
import { args, eventArgs, valueArgs, snapshotArgs, snapshotArg, SurrogateCarry, resumeFrom, inputTools } from './calls.js';
import { runTarget } from './run-target.js';

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
    const text = result.text;
    const rec = text === '{}' ? {} : JSON.parse(text); // (an event that changed nothing: a common record)
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
    const kind = frame === '' && this.#core.tokens ? tokenKind(event) : 0;
    if (kind !== 0) {
      // A streamed token: its fields cross, not its JSON text.
      const rec = this.#fold(this.#core.applyToken(h, kind, kind === 3 ? event.toolCallId : event.messageId, event.delta));
      if (this._observers !== null) this._tell({ kind: 'event', data: event, name: '', id: undefined, record: rec });
      return rec;
    }
    const tok = frame === '' && this.#core.tokens && typeof event === 'string' ? tokenOfText(event) : null;
    if (tok !== null) {
      // The same for a token given as JSON text: read here, not parsed by the wasm.
      const rec = this.#fold(this.#core.applyToken(h, tok.kind, tok.id, tok.delta));
      if (this._observers !== null) this._tell({ kind: 'event', data: event, name: '', id: undefined, record: rec });
      return rec;
    }
    const a = eventArgs(event, frame);
    let rec;
    if (a.record) {
      rec = this.#commitOne(a.record); // an id no frame can carry, an event JSON cannot encode
    } else if (a.id === undefined) {
      rec = this.#apply(h, a.data, a.name);
    } else {
      // An id setLastEventId would refuse refuses the frame before it is applied
      // (an error: the event is not applied either).
      const chk = JSON.parse(this.#core.call('checkEventId', h, a.id).text);
      rec = chk.diagnostics?.length ? this.#commitOne(chk) : this.#applyWithId(h, a);
    }
    if (this._observers !== null) this._tell({ kind: 'event', data: event, name: a.name, id: a.id, record: rec });
    return rec;
  }

  #applyWithId(h, a) {
    const rec = this.#apply(h, a.data, a.name);
    const idRec = JSON.parse(this.#core.call('setLastEventId', h, a.id).text);
    this._commit([idRec]);
    if (!idRec.ops?.length && !idRec.diagnostics?.length) return rec;
    return {
      ...rec,
      ops: [...(rec.ops ?? []), ...(idRec.ops ?? [])],
      diagnostics: [...(rec.diagnostics ?? []), ...(idRec.diagnostics ?? [])],
    };
  }

  #apply(h, data, sseEventName) {
    return this.#fold(this.#core.applyCompact(h, data, sseEventName));
  }

  /** Commits and returns the change record of an applyCompact or applyToken result. */
  #fold(result) {
    const core = this.#core;
    if (result === COMPACT) {
      const key = core.appendKey;
      const index = core.appendIndex;
      const value = core.appendText;
      const rec = { ops: [{ op: 'append', path: appendPath(key, index), value }] };
      this._commitAppend(rec, key, index);
      return rec;
    }
    if (result === APPENDS) {
      // A tool-argument token's: its text and the parsed argument it extends.
      const n = core.appendCount;
      const paths = core.appendPaths;
      const texts = core.appendTexts;
      const ops = new Array(n);
      for (let k = 0; k < n; k++) ops[k] = { op: 'append', path: paths[k], value: texts[k] };
      const rec = { ops };
      this._commitAppends(rec, core.appendKinds, core.appendIndexes, core.appendKeys);
      return rec;
    }
    return this.#record(result);
  }

  /** A change record made here (an argument that cannot be sent): committed, returned. */
  #commitOne(rec) {
    this._commit([rec]);
    return rec;
  }

  #carry = new SurrogateCarry(); // calls.js

  feed(chunk) {
    const h = this.#handle();
    let data = chunkData(chunk);
    if (typeof data === 'string') data = this.#carry.take(data);
    else this.#flushHigh(h);
    const recs = this.#feed(h, data);
    if (this._observers !== null) this._tell({ kind: 'chunk', data: chunk, records: recs });
    return recs;
  }

  #feed(h, data) {
    const r = this.#core.call('feed', h, data);
    const recs = r.ok ? JSON.parse(r.text) : [JSON.parse(r.text)]; // one record when it failed
    if (recs.length > 0) this._commit(recs);
    return recs;
  }

  #flushHigh(h) {
    const lone = this.#carry.flush();
    if (lone !== '') this.#feed(h, lone);
  }

  endStream() {
    const h = this.#handle();
    this.#flushHigh(h);
    this.#core.call('endStream', h);
    if (this._observers !== null) this._tell({ kind: 'endStream' });
  }

  /** An action: its call's record, committed and handed to the observers. */
  #act(name, argv, text) {
    const rec = this.#record(this.#core.call(name, this.#handle(), text));
    if (this._observers !== null) this._tell({ kind: 'action', name, args: argv, record: rec });
    return rec;
  }

  addUserMessage(content, id) { return this.#act('addUserMessage', [content, id], args.addUserMessage(content, id)); }

  addToolResult(toolCallId, content) { return this.#act('addToolResult', [toolCallId, content], args.addToolResult(toolCallId, content)); }

  fail(message, code) { return this.#act('fail', [message, code], args.fail(message, code)); }

  stop() { return this.#act('stop', []); }

  reset() { return this.#act('reset', []); }

  setState(state) { return this.#valueCall('setState', state); }

  setMessages(messages) { return this.#valueCall('setMessages', messages); }

  #valueCall(what, value) {
    this.#handle();
    const a = valueArgs(what, value);
    return a.record ? this.#commitOne(a.record) : this.#act(what, [value], a.text);
  }

  snapshot() {
    return this.#value(this.#core.call('snapshot', this.#handle()));
  }

  restore(snapshot) {
    this.#handle();
    const a = snapshotArgs(snapshot);
    return a.record ? this.#commitOne(a.record) : this.#act('restore', [this._observers === null ? a.text : snapshotArg(a.text)], a.text);
  }

  runInput(options = {}) {
    return this.#value(this.#core.call('runInput', this.#handle(), args.runInput(options)));
  }

  /** Tools (an AG-UI Tool[]) whose parameters schemas validate their calls' arguments. */
  setTools(tools) {
    this.#value(this.#core.call('setTools', this.#handle(), args.setTools(tools)));
    this.#toldTools(tools);
  }

  /** Observers (the inspector) see the tools, so that their own reducer validates alike. */
  #toldTools(tools) {
    if (this._observers !== null) this._tell({ kind: 'action', name: 'setTools', args: [tools] });
  }

  messages() {
    return this.#value(this.#core.call('messages', this.#handle()));
  }

  /** Continues the run the state holds from its lastEventId (after restore()). */
  resume(url, input, options = {}) {
    if (this.#h === 0) return Promise.reject(new Error('agui reducer: this reducer was disposed'));
    try {
      const cursor = { id: this.#core.call('lastEventId', this.#h).text, running: this.#core.number('running', this.#h) === 1 };
      return resumeFrom(this, cursor, url, input, options);
    } catch (err) {
      return Promise.reject(err); // an async API: it rejects, never throws
    }
  }

  run(url, input, options = {}) {
    if (this.#h === 0) return Promise.reject(new Error('agui reducer: this reducer was disposed'));
    if (this.#run) return Promise.reject(new Error('agui reducer: a run is already in progress on this reducer'));
    const h = this.#h;
    const ctrl = new AbortController();
    this.#run = ctrl;
    this.#flushHigh(h); // a string fed before: its held half ends with the stream the run replaces
    const tools = inputTools(input); // the run's tools validate its calls' arguments
    if (tools) {
      this.#core.call('setTools', h, tools);
      if (this._observers !== null) this.#toldTools(JSON.parse(tools));
    }
    const target = runTarget(this.#core, h, {
      live: () => this.#h === h,
      commit: (text) => this._commit(JSON.parse(text)),
      runId: () => this.state.runId,
      observing: () => this._observers !== null,
      tell: (input) => this._tell(input),
    });
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
