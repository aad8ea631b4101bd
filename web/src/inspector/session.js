// The inspector's model: every input a reducer folded (an entry), folded
// again into the inspector's own reducer for its change record and
// diagnostics, checkpoints every N entries, and time travel: the state right
// after any entry is the last checkpoint at or before it with the change
// records of the entries since replayed onto it.
//
// A checkpoint is a state object, made from the one before by applying the
// records in between in one batch (ops.js: each container copied once, the
// rest shared with the checkpoint before), so checkpoints cost no snapshot
// and little memory. Replaying records rather than events reproduces
// exactly what the reducer did, clock readings included: restore() carries
// the conversation, not every transient of a reducer mid-stream (a legacy
// thinking message's generated id, when a reasoning began…), so a refold
// from a restored snapshot could differ.
//
// It runs on the wasm Core directly (one handle): no mirror is kept.

import { loadCore } from '../wasm/loader.js';
import { packageFiles } from '../wasm/package-files.js';
import { FrameParser } from './sse.js';
import { Lanes } from './lanes.js';
import { applyOps } from '../state/ops.js';
import { dataText, ID_FIELDS, addedMessageId, actionCall } from './inputs.js';

// The path of a tool call's argument errors in a change record: the list
// written whole, or one error added to it.
const ARGS_ERRORS = /^\/toolCalls\/(\d+)\/argsErrors(\/(?:-|\d+))?$/;

const now = () => (globalThis.performance ? performance.now() : Date.now());

/**
 * One entry: {seq, t (ms from the start), kind: 'event' | 'action' | 'end' |
 * 'reconnect', name (SSE event name, or the action), id (SSE id), data (the
 * event's text), args (an action's), fed (came in an SSE body), type,
 * messageId…, run, step (the run and step open then), size, ops (count),
 * diagnostics, record (the change record), argsInvalid (the tool calls
 * whose arguments this entry found breaking their schema or cut off:
 * [{toolCallId, toolCallName, first (the entry made the call invalid),
 * errors: [{path, keyword, message}] (those new at this entry)}])}.
 */
export class Session {
  #core = null;
  #h = 0; // the folding reducer
  #pendingOps = []; // ops of the entries since the last checkpoint
  #last = null; // {at, state, from}: the state stateAt built last (a forward step starts from it)
  #listeners = new Set();
  #folded = new Set(); // SSE ids folded from bodies (a resent frame is skipped, as feed() does)
  #run = '';
  #steps = [];
  #parser = new FrameParser();
  #t0 = now();
  #detach = null;
  #initial = null; // the snapshot text before the first entry
  #reducerOptions = {};

  /** When this session started (ISO time): a recording's header. */
  created = new Date().toISOString();
  /** Entries, in order. Never capped. */
  entries = [];
  /** [{at, state}]: the state right after entry at (at -1: the initial state). */
  checkpoints = [];
  /** Runs, steps, subagents and tool calls on one time axis. */
  lanes = new Lanes();
  /** Event types seen, with their counts. */
  types = new Map();
  checkpointEvery;
  /** 'live' while attached, 'replay' while a recording plays, else 'idle'. */
  mode = 'idle';

  constructor({ checkpointEvery = 1000 } = {}) {
    this.checkpointEvery = Math.max(1, checkpointEvery | 0);
  }

  /** Loads the wasm module (once). */
  async ready({ wasmURL, core, reducerOptions } = {}) {
    if (reducerOptions) this.#reducerOptions = reducerOptions;
    if (this.#core === null) this.#core = core ?? await loadCore(wasmURL ?? packageFiles.wasmURL());
    if (this.#h === 0) this.#reset(null);
    return this;
  }

  #reset(initialText) {
    const core = this.#core;
    if (this.#h !== 0) core.release(this.#h);
    this.#h = core.create(JSON.stringify(this.#reducerOptions ?? {}));
    if (initialText != null) core.call('restore', this.#h, initialText);
    this.#initial = core.call('snapshot', this.#h).text;
    this.entries = [];
    this.checkpoints = [{ at: -1, state: JSON.parse(this.#initial) }];
    this.#pendingOps = [];
    this.#last = null;
    this.lanes = new Lanes();
    this.types = new Map();
    this.#folded.clear();
    this.#run = '';
    this.#steps = [];
    this.#parser.end();
    this.#t0 = now();
    this.created = new Date().toISOString();
  }

  /** Forgets every entry; the next state starts from initial (a snapshot, its text, or empty). */
  clear(initial = null) {
    this.#reset(initial == null ? null : typeof initial === 'string' ? initial : JSON.stringify(initial));
    this.#changed();
  }

  /** listener(session) after entries were added or cleared (call rate: per entry). */
  onChange(listener) {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #changed() {
    for (const l of [...this.#listeners]) {
      try { l(this); } catch (err) { console.error('agui inspector:', err); }
    }
  }

  #time(t) {
    return t ?? Math.round((now() - this.#t0) * 10) / 10;
  }

  // ---- input ------------------------------------------------------------------

  /** Adds and folds one event; returns its entry. */
  addEvent(data, { name = '', id, fed = false, t } = {}) {
    const text = dataText(data);
    const e = { seq: this.entries.length, t: this.#time(t), kind: 'event', name: name ?? '', id: id ?? undefined, data: text, fed: !!fed };
    this.#describe(e);
    this.#fold(e);
    return this.#push(e);
  }

  /** Adds and folds an action (addUserMessage, setState…); returns its entry. */
  addAction(name, args = [], { t, record, note } = {}) {
    const a = args.map((v) => (v === undefined ? null : v));
    while (a.length > 0 && a[a.length - 1] === null) a.pop();
    if (name === 'addUserMessage' && a[1] == null) {
      const id = addedMessageId(record);
      if (id !== undefined) a[1] = id;
    }
    const e = { seq: this.entries.length, t: this.#time(t), kind: 'action', name, args: a, type: name, size: 0 };
    if (typeof note === 'string' && note !== '') e.note = note;
    e.run = this.#run;
    this.#fold(e);
    if (name === 'reset') { this.#run = ''; this.#steps = []; }
    return this.#push(e);
  }

  /**
   * Starts the entries again from the state as it is now, held by one
   * entry: a restore() of it, marked with note (e.g. "loaded from the
   * relay"). For a page that loaded its conversation from elsewhere while
   * attached (the restores it made are replaced; the events that made the
   * conversation were never seen here). Returns that entry.
   */
  startFrom(note) {
    const text = this.#core.call('snapshot', this.#h).text;
    const mode = this.mode;
    this.#reset(null);
    this.mode = mode;
    return this.addAction('restore', [text], { note: String(note ?? 'restored') });
  }

  /** The end of an SSE body. */
  addEnd({ t } = {}) {
    this.#parser.end();
    const e = { seq: this.entries.length, t: this.#time(t), kind: 'end', name: 'endStream', type: 'end of stream', size: 0, run: this.#run };
    this.#fold(e);
    return this.#push(e);
  }

  /** A reconnect of run() (not folded: the frames it brings are). */
  addReconnect(info, { t } = {}) {
    const e = { seq: this.entries.length, t: this.#time(t), kind: 'reconnect', name: 'reconnect', type: 'reconnect', info: info ?? {}, size: 0, run: this.#run, ops: 0 };
    return this.#push(e);
  }

  /** SSE body bytes or text: its complete frames become entries. */
  addChunk(chunk, { t } = {}) {
    const time = this.#time(t);
    this.#parser.push(chunk, (f) => this.addEvent(f.data, { name: f.name, id: f.id, fed: true, t: time }));
  }

  /** Adds an entry as a recording holds it (import). */
  addEntry(x) {
    switch (x.kind) {
      case 'event': return this.addEvent(x.data, x);
      case 'action': return this.addAction(x.name, x.args, x);
      case 'end': return this.addEnd(x);
      case 'reconnect': return this.addReconnect(x.info, x);
      default: return null;
    }
  }

  #push(e) {
    this.entries.push(e);
    this.types.set(e.type, (this.types.get(e.type) ?? 0) + 1);
    this.lanes.add(e);
    this.#maybeCheckpoint(this.entries.length - 1);
    this.#changed();
    return e;
  }

  /** type, ids and size of an event, from its JSON. */
  #describe(e) {
    e.size = e.data.length;
    let ev = null;
    try { ev = JSON.parse(e.data); } catch { /* the reducer reports it */ }
    if (ev !== null && typeof ev === 'object' && !Array.isArray(ev)) {
      e.type = typeof ev.type === 'string' ? ev.type : e.name || '(no type)';
      for (const f of ID_FIELDS) if (typeof ev[f] === 'string' && ev[f] !== '') e[f] = ev[f];
      if (typeof ev.toolCallName === 'string') e.toolCallName = ev.toolCallName;
      if (typeof ev.name === 'string' && e.type === 'CUSTOM') e.customName = ev.name;
      if (e.type === 'RUN_ERROR' && typeof ev.message === 'string') e.message = ev.message;
    } else {
      e.type = e.name || '(not JSON)';
    }
    if (e.type === 'RUN_STARTED') { this.#run = e.runId ?? ''; this.#steps = []; }
    e.run = e.runId ?? this.#run;
    if (e.type === 'STEP_STARTED' && e.stepName) this.#steps.push(e.stepName);
    e.step = this.#steps.length > 0 ? this.#steps[this.#steps.length - 1] : undefined;
    if (e.type === 'STEP_FINISHED' && e.stepName) {
      const i = this.#steps.lastIndexOf(e.stepName);
      if (i >= 0) this.#steps.splice(i, 1);
      e.step = e.stepName;
    }
    if (e.type === 'RUN_FINISHED' || e.type === 'RUN_ERROR') this.#steps = [];
  }

  #fold(e) {
    const text = this.#apply(this.#h, e);
    let rec = null;
    if (text !== null) {
      rec = JSON.parse(text[0]);
      if (text[1] !== null) {
        const idRec = JSON.parse(text[1]);
        if (idRec.ops?.length) rec = { ...rec, ops: [...(rec.ops ?? []), ...idRec.ops] };
      }
    } else if (e.skipped) {
      rec = { diagnostics: [{ code: 'resent_frames', level: 'warning', message: `SSE frame '${e.id}' was folded already; skipped` }] };
    } else if (e.kind === 'action') {
      rec = { diagnostics: [{ code: 'unknown_action', level: 'warning', message: `unknown action ${e.name}` }] };
    }
    e.record = rec;
    e.ops = rec?.ops?.length ?? 0;
    e.diagnostics = rec?.diagnostics?.length ? rec.diagnostics : null;
    const bad = this.#argsInvalid(e, rec?.ops);
    if (bad) e.argsInvalid = bad;
  }

  /**
   * The tool calls whose argument errors grew at this entry (the reducer
   * writes a call's argsErrors whole or adds one: the new ones are those
   * the state before did not hold). Rare: the state before is only built
   * then.
   */
  #argsInvalid(e, ops) {
    if (!ops || e.kind !== 'event') return null;
    let found = null;
    for (const op of ops) {
      if (op.op !== 'add' && op.op !== 'replace') continue;
      const m = ARGS_ERRORS.exec(op.path);
      if (!m || !(m[2] ? op.value && typeof op.value === 'object' : Array.isArray(op.value))) continue;
      found ??= new Map();
      const i = Number(m[1]);
      if (!found.has(i)) found.set(i, []);
      if (m[2]) found.get(i).push(op.value); else found.set(i, op.value.slice());
    }
    if (!found) return null;
    const before = this.stateAt(this.entries.length - 1)?.toolCalls ?? [];
    const key = (x) => `${x?.path}\u0000${x?.keyword}\u0000${x?.message}`;
    const out = [];
    for (const [i, errs] of found) {
      const prev = before[i];
      const had = new Set((prev?.argsErrors ?? []).map(key));
      const errors = errs.filter((x) => x && !had.has(key(x))).map((x) => ({ path: String(x.path ?? ''), keyword: String(x.keyword ?? ''), message: String(x.message ?? '') }));
      if (errors.length === 0) continue;
      out.push({
        toolCallId: prev?.id ?? e.toolCallId ?? '', toolCallName: prev?.name ?? e.toolCallName ?? '',
        first: prev?.argsStatus !== 'invalid', errors,
      });
    }
    return out.length ? out : null;
  }

  /** After entry at was pushed: its ops wait for the next checkpoint, made when one is due. */
  #maybeCheckpoint(at) {
    const ops = this.entries[at].record?.ops;
    if (ops) for (const op of ops) this.#pendingOps.push(op);
    const prev = this.checkpoints[this.checkpoints.length - 1];
    if (at - prev.at < this.checkpointEvery) return;
    this.checkpoints.push({ at, state: applyOps(prev.state, this.#pendingOps, new WeakSet()) });
    this.#pendingOps = [];
  }

  /** Folds entry e into handle h; returns [record text, SSE id record text or null], or null when nothing was folded. */
  #apply(h, e) {
    const core = this.#core;
    if (e.kind === 'event') {
      if (e.fed && e.id !== undefined) {
        if (this.#folded.has(e.id)) { e.skipped = true; return null; }
        this.#folded.add(e.id);
      }
      const r = core.apply(h, e.data, e.name);
      return [r.text, e.id !== undefined ? core.call('setLastEventId', h, e.id).text : null];
    }
    if (e.kind === 'action') {
      const call = actionCall(e.name, e.args ?? []);
      if (call === null) return null;
      const r = call[1] === undefined ? core.call(call[0], h) : core.call(call[0], h, call[1]);
      return [r.text, null];
    }
    if (e.kind === 'end') {
      core.call('endStream', h);
      return ['{}', null];
    }
    return null;
  }

  // ---- time travel --------------------------------------------------------------

  /** The state (the reducer's snapshot, as an object) right after entry i (i = -1: before the first). */
  stateAt(i) {
    const n = this.entries.length;
    if (n === 0 || i < 0) i = -1;
    if (i >= n) i = n - 1;
    const ck = this.#checkpointAt(i);
    let from = ck;
    const last = this.#last;
    // Forward from the state built last, when that is nearer than a checkpoint.
    if (last !== null && last.at <= i && last.at >= ck.at) from = last;
    if (from.at === i) return from.state;
    const ops = [];
    const entries = this.entries;
    for (let k = from.at + 1; k <= i; k++) {
      const o = entries[k].record?.ops;
      if (o) for (const op of o) ops.push(op);
    }
    const state = ops.length === 0 ? from.state : applyOps(from.state, ops, new WeakSet());
    this.#last = { at: i, state };
    return state;
  }

  /** The state right after entry i as JSON text. */
  snapshotTextAt(i) {
    return JSON.stringify(this.stateAt(i));
  }

  #checkpointAt(i) {
    const cps = this.checkpoints;
    let lo = 0, hi = cps.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (cps[mid].at <= i) lo = mid; else hi = mid - 1;
    }
    return cps[lo];
  }

  // ---- attaching ------------------------------------------------------------------

  /**
   * Follows target live: a reducer or worker reducer (observe()), an agent
   * of createAgent (its reducer, once loaded) or a drop-in @ag-ui/client
   * agent (its subscribers). Starts from target's state as it is now.
   */
  async attach(target, options = {}) {
    this.detach();
    await this.ready(options);
    if (target && typeof target.observe === 'function') return this.#attachReducer(target);
    if (target && typeof target.load === 'function' && 'reducer' in target && typeof target.subscribe === 'function') {
      // createAgent: its reducer exists once loaded.
      if (target.reducer) return this.#attachReducer(target.reducer);
      let off = null;
      const done = new Promise((resolve) => {
        off = target.subscribe(() => {
          if (target.reducer) { off?.(); off = null; resolve(this.#attachReducer(target.reducer)); }
        });
      });
      this.#detach = () => off?.();
      this.mode = 'live';
      this.clear();
      return target.reducer ? this.#attachReducer(target.reducer) : void done;
    }
    if (target && typeof target.subscribe === 'function' && ('reducerState' in target || typeof target.runAgent === 'function')) {
      return this.#attachAgUi(target);
    }
    throw new TypeError('agui inspector: attach() takes a reducer, a worker reducer, an agent (createAgent) or an @ag-ui/client agent');
  }

  async #attachReducer(r) {
    const snap = r.snapshot();
    const initial = typeof snap?.then === 'function' ? await snap : snap;
    this.clear(initial);
    this.mode = 'live';
    const offs = [
      r.observe((input) => this.#observed(input)),
      r.on('reconnect', (info) => this.addReconnect(info)),
    ];
    this.#detach = () => offs.forEach((f) => f());
  }

  #observed(input) {
    switch (input.kind) {
      case 'event': this.addEvent(input.data, { name: input.name, id: input.id }); break;
      case 'chunk': this.addChunk(input.data); break;
      case 'endStream': this.addEnd(); break;
      case 'action': this.addAction(input.name, input.args, { record: input.record }); break;
      default: break;
    }
  }

  #attachAgUi(agent) {
    this.clear(agent.reducerState ?? null);
    this.mode = 'live';
    const sub = agent.subscribe({
      onEvent: ({ event, input }) => {
        // Before a run, the agent's messages and state are set from its input: the state then;
        // and the input's tools validate the run's tool calls, as the agent's reducer does.
        if (event?.type === 'RUN_STARTED' && agent.reducerState) this.addAction('restore', [agent.reducerState]);
        if (event?.type === 'RUN_STARTED' && Array.isArray(input?.tools) && input.tools.length > 0) this.addAction('setTools', [input.tools]);
        this.addEvent(event);
      },
    });
    this.#detach = () => sub?.unsubscribe?.();
  }

  /** Stops following the target (the entries stay). */
  detach() {
    this.#detach?.();
    this.#detach = null;
    if (this.mode === 'live') this.mode = 'idle';
  }

  dispose() {
    this.detach();
    if (this.#core !== null && this.#h !== 0) this.#core.release(this.#h);
    this.#h = 0;
    this.#listeners.clear();
  }
}
