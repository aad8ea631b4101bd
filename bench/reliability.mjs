// make bench, reliability part (issue 13): costs that must not grow with
// the conversation, measured through the web module like the rest of the
// benchmark, in Node (node.mjs) and in Chromium (browser.mjs):
//
// - citations: a conversation whose agent cites each new answer (one
//   STATE_DELTA `add /citations/<messageId>` per turn, as the README's
//   citations model has it), folded whole with garbage collection included
//   (no forced collection anywhere), timed per tenth of the fold;
// - restore: restore() of a snapshot of many messages, and the wasm call's
//   share of it;
// - wide state: the per-event cost of a STATE_DELTA on a shared-state
//   object of many keys, against the same delta on a small object, with a
//   consumer that reads the state after every event and one that reads it
//   once per frame.
//
// Runtime-neutral: the drivers pass `now`. bench/README.md has the method.

import { generate } from './gen.mjs';
import { loadReducer, __internal } from '../web/agui.js';

const median = (a) => {
  const s = [...a].sort((x, y) => x - y);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/**
 * The benchmark's generated conversation with citations: the first
 * STATE_SNAPSHOT holds `citations: {}`, and each turn, after its answer,
 * one STATE_DELTA adds `/citations/<the answer's id>`. Returns the events of
 * each turn as JSON text.
 */
export function citedTurns(turns, seed = 42) {
  const conv = generate({ turns, seed });
  return conv.turns.map(({ events }, t) => {
    const out = [];
    let answer;
    for (const e of events) {
      if (e.type === 'STATE_SNAPSHOT') e.snapshot.citations = {};
      out.push(JSON.stringify(e));
      if (e.type === 'TEXT_MESSAGE_START') answer = e.messageId;
      if (e.type === 'TEXT_MESSAGE_END') {
        out.push(JSON.stringify({
          type: 'STATE_DELTA',
          delta: [{ op: 'add', path: `/citations/${answer}`, value: [{ url: `https://example.com/source/${t + 1}`, title: `Source ${t + 1}` }] }],
        }));
      }
    }
    return out;
  });
}

/**
 * Folds a cited conversation whole, reading the state once per turn (a UI
 * rendering once per frame), and times each tenth of it. Nothing forces a
 * collection: what the fold's garbage costs is in the figures.
 */
function foldCited(factory, turns, now) {
  const tenth = Math.max(1, Math.floor(turns.length / 10));
  const r = factory.createReducer({});
  let dirty = false;
  let seen = 0;
  r.subscribe(() => { dirty = true; });
  const perEventUs = [];
  for (let from = 0; from < turns.length; from += tenth) {
    const to = Math.min(turns.length, from + tenth);
    let events = 0;
    const t0 = now();
    for (let t = from; t < to; t++) {
      const texts = turns[t];
      for (let i = 0; i < texts.length; i++) r.apply(texts[i]);
      events += texts.length;
      if (dirty) { dirty = false; seen += r.state.messages.length; }
    }
    perEventUs.push(((now() - t0) * 1000) / events);
  }
  const cited = Object.keys(r.state.state.citations).length;
  const withCitations = r.state.messages.filter((m) => m.citations).length;
  r.dispose();
  if (cited !== turns.length || withCitations !== turns.length || seen === 0) {
    throw new Error(`citations fold: ${cited} cited ids, ${withCitations} messages with citations, want ${turns.length}`);
  }
  return perEventUs;
}

/** A snapshot (JSON text) of n short user messages. */
export function manyMessagesSnapshot(n) {
  const parts = new Array(n);
  for (let i = 0; i < n; i++) parts[i] = `{"id":"m${i}","role":"user","content":"message number ${i}","streaming":false}`;
  return `{"threadId":"t","runId":"","status":"idle","isLoading":false,"error":null,"messages":[${parts.join(',')}],"toolCalls":[],"state":{},"steps":[],"interrupts":[],"usage":[],"pendingToolCallIds":[],"subagents":[]}`;
}

/**
 * restore() of a snapshot of n messages through the web module, on a fresh
 * reducer; then the same snapshot through the module's calling convention
 * alone (web/agui.js's internal Core), split into writing the text into
 * the wasm memory, the wasm call (parse, load, the change record written
 * out) and decoding the record: what restore() spends beyond those is
 * JSON.parse of the record and the mirror.
 */
function timeRestore(factory, core, snapshot, n, now, cpu) {
  const r = factory.createReducer({});
  const c0 = cpu?.();
  const t0 = now();
  const rec = r.restore(snapshot);
  const ms = now() - t0;
  const cpuMs = cpu ? cpu() - c0 : undefined;
  if ((rec.diagnostics ?? []).some((d) => d.level === 'error') || r.state.messages.length !== n) {
    throw new Error(`restore of ${n} messages failed: ${JSON.stringify(rec.diagnostics)}`);
  }
  r.dispose();
  const h = core.create('{}');
  const t1 = now();
  const len = core.put(0, snapshot);
  const t2 = now();
  const c2 = cpu?.();
  const res = core.x.restore(h, len);
  const wasmCpuMs = cpu ? cpu() - c2 : undefined;
  const t3 = now();
  const out = core.result(res);
  const t4 = now();
  core.call('dispose', h);
  if (!out.ok) throw new Error('core restore failed');
  return { ms, cpuMs, encodeMs: t2 - t1, wasmMs: t3 - t2, wasmCpuMs, decodeMs: t4 - t3 };
}

/**
 * The per-event cost of a one-op STATE_DELTA replacing one key of a
 * shared-state object of `keys` keys, with the state read after every event
 * ('event') or every 16 events ('frame').
 */
function timeWideState(factory, keys, events, consumer, now) {
  const r = factory.createReducer({});
  const obj = {};
  for (let i = 0; i < keys; i++) obj[`k${i}`] = i;
  r.apply(JSON.stringify({ type: 'STATE_SNAPSHOT', snapshot: { wide: obj } }));
  void r.state.state.wide;
  const texts = [];
  for (let i = 0; i < 64; i++) texts.push(JSON.stringify({ type: 'STATE_DELTA', delta: [{ op: 'replace', path: `/wide/k${(i * 7919) % keys}`, value: -i }] }));
  let seen = 0;
  const every = consumer === 'event' ? 1 : 16;
  if (consumer !== 'event') events *= 4; // four reads
  const t0 = now();
  for (let i = 0; i < events; i++) {
    r.apply(texts[i & 63]);
    if ((i + 1) % every === 0) seen += r.state.state.wide === undefined ? 0 : 1;
  }
  const us = ((now() - t0) * 1000) / events;
  r.dispose();
  if (seen === 0) throw new Error('wide state: never read');
  return us;
}

/**
 * Runs the reliability benchmarks. options: {wasmURL, now, log, turns,
 * reps, restoreMessages, restoreReps, wideKeys, wideEvents}.
 */
export async function runReliability(options = {}) {
  const {
    wasmURL,
    now = () => performance.now(),
    cpu, // the process's CPU time in ms, where the runtime tells it (Node)
    log = () => {},
    turns = 400,
    reps = 3,
    restoreMessages = 100_000,
    restoreReps = 3,
    wideKeys = 200_000,
    smallKeys = 10,
    wideEvents = 16,
  } = options;
  const factory = await loadReducer(wasmURL);

  // Citations: a few whole folds; per tenth, the median over the folds.
  const cited = citedTurns(turns);
  const events = cited.reduce((n, t) => n + t.length, 0);
  log(`citations: ${turns} turns, ${events} events, ${reps} folds, no forced GC`);
  foldCited(factory, cited.slice(0, Math.min(cited.length, 20)), now); // warm-up
  const folds = [];
  for (let i = 0; i < reps; i++) folds.push(foldCited(factory, cited, now));
  const tenths = folds[0].map((_, k) => median(folds.map((f) => f[k])));
  const citations = {
    turns, events, reps,
    perTenthUs: tenths,
    folds,
    lastOverFirst: tenths[tenths.length - 1] / tenths[0],
  };
  log(`citations: µs/event per tenth ${tenths.map((x) => x.toFixed(2)).join(' ')}`);

  // Restore.
  log(`restore: ${restoreMessages} messages, ${restoreReps} times`);
  const snapshot = manyMessagesSnapshot(restoreMessages);
  const core = await __internal.loadCore(wasmURL);
  timeRestore(factory, core, manyMessagesSnapshot(1000), 1000, now, cpu); // warm-up
  const restores = [];
  for (let i = 0; i < restoreReps; i++) restores.push(timeRestore(factory, core, snapshot, restoreMessages, now, cpu));
  const m = (k) => median(restores.map((x) => x[k]));
  const restore = {
    messages: restoreMessages,
    snapshotBytes: snapshot.length,
    ms: m('ms'), encodeMs: m('encodeMs'), wasmMs: m('wasmMs'), decodeMs: m('decodeMs'),
    ...(cpu ? { cpuMs: m('cpuMs'), wasmCpuMs: m('wasmCpuMs') } : {}),
    runs: restores,
  };
  log(`restore: ${restore.ms.toFixed(0)} ms, wasm call ${restore.wasmMs.toFixed(0)} ms${cpu ? ` (CPU: ${restore.cpuMs.toFixed(0)} ms, wasm call ${restore.wasmCpuMs.toFixed(0)} ms)` : ''}`);

  // Wide state: the same delta on a small and on a wide object, alternately.
  log(`wide state: ${wideKeys} vs ${smallKeys} keys, ${wideEvents} deltas each`);
  const wide = {};
  for (const consumer of ['event', 'frame']) {
    const small = [];
    const big = [];
    timeWideState(factory, smallKeys, 64, consumer, now);
    for (let i = 0; i < reps; i++) {
      small.push(timeWideState(factory, smallKeys, wideEvents, consumer, now));
      big.push(timeWideState(factory, wideKeys, wideEvents, consumer, now));
    }
    wide[consumer] = { smallUs: median(small), wideUs: median(big), ratio: median(big) / median(small) };
    log(`wide state, read ${consumer === 'event' ? 'every event' : 'every 16 events'}: ${wide[consumer].wideUs.toFixed(1)} vs ${wide[consumer].smallUs.toFixed(1)} µs/event`);
  }
  return { citations, restore, wideState: { keys: wideKeys, smallKeys, events: wideEvents, ...wide } };
}

/** Sizes for a smoke run (--quick, bench.test.mjs): seconds, not minutes. */
export const quickReliability = { turns: 20, reps: 1, restoreMessages: 2_000, restoreReps: 1, wideKeys: 2_000, wideEvents: 4 };
