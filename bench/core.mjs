// The benchmark itself, the same code in Node (node.mjs) and in a Chromium
// page (browser.mjs → page.html): the official @ag-ui/client pipeline and our
// wasm reducer through web/agui.js fold the same generated streams, turn by
// turn, interleaved, in one JS runtime. bench/README.md describes the method.

import { generate } from './gen.mjs';
import { officialAgent, officialRun } from './official.mjs';
import { loadReducer, __internal } from '../web/agui.js';

const median = (a) => {
  const s = [...a].sort((x, y) => x - y);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const best = (a) => Math.min(...a);

/** The wasm memory of a factory, in bytes. */
export function wasmMemory(factory) {
  if (typeof factory.memoryBytes === 'function') return factory.memoryBytes();
  return factory._go._inst.exports.mem.buffer.byteLength;
}

/** Yields to the event loop (lets Chromium breathe between long measurements). */
const tick = () => new Promise((r) => setTimeout(r, 0));

/**
 * Before each measured fold: a full collection where the runtime exposes
 * one (node.mjs and browser.mjs enable it), so no fold pays for the garbage
 * the previous one left (the official reducer's clones run to gigabytes at
 * 400 turns, and a 2-core machine marks them while the next fold runs).
 */
const collect = () => { if (typeof globalThis.gc === 'function') globalThis.gc(); };

/**
 * Our side of a fold: one reducer of a factory, one subscriber, events
 * applied as the JSON text they arrive as. Two consumers:
 *
 * - 'frame' (the benchmark's): a UI. The subscriber is notified after every
 *   event and marks the view dirty; the view renders (reads the state) once
 *   per frame, as every UI framework batches renders. The fold renders at
 *   the end of each turn, inside the timed window; a 60 fps UI in a burst
 *   like this one would render less often still (a frame is ~16 ms, a turn
 *   ~1 ms).
 * - 'event': the subscriber reads the whole state after every event (a
 *   consumer that needs every intermediate state), so the mirror builds an
 *   immutable state, a new messages array included, per event.
 */
function ourReducer(factory, consumer = 'frame') {
  const r = factory.createReducer({});
  let seen = 0;
  let dirty = false;
  if (consumer === 'event') {
    r.subscribe(() => { seen += r.state.messages.length; });
  } else {
    r.subscribe(() => { dirty = true; });
  }
  const render = () => {
    if (dirty) { dirty = false; seen += r.state.messages.length; }
  };
  return { r, seen: () => seen, render };
}

function foldOurs(o, texts) {
  const r = o.r;
  for (let i = 0; i < texts.length; i++) r.apply(texts[i]);
  o.render();
}

/**
 * Runs the whole benchmark. options: {wasmURL, lengths, reps, oursReps, oursWindowTurns,
 * fullMax, now, log, seed, parseBlocks, memoryConversations, memoryTurns}.
 * Resolves to the results object (bench/README.md says what it holds).
 */
export async function runBench(options = {}) {
  const {
    wasmURL,
    lengths = [5, 25, 100, 400],
    reps = 5, // official; each at 100 turns folds 25,763 events at ~200 µs
    oursReps = 21,
    oursWindowTurns = 2,
    fullMax = 100, // the official reducer folds whole conversations up to this length
    now = () => performance.now(),
    log = () => {},
    seed = 42,
    parseBlocks = 100,
    memoryConversations = 40,
    memoryTurns = 100,
  } = options;

  const results = { lengths: [], textContent: null, load: null, memory: null, meta: {} };

  // Load: from loadReducer() to a factory that can create reducers.
  const loads = [];
  let factory;
  for (let i = 0; i < 3; i++) {
    const t0 = now();
    const f = await loadReducer(wasmURL);
    f.createReducer({}).dispose();
    loads.push(now() - t0);
    factory = f;
  }
  results.load = { firstMs: loads[0], bestMs: best(loads), medianMs: median(loads) };
  log(`loadReducer() → ready: first ${loads[0].toFixed(1)} ms, best ${best(loads).toFixed(1)} ms`);

  const maxTurns = Math.max(...lengths);
  const conv = generate({ turns: maxTurns, seed });
  const texts = conv.turns.map((t) => t.events.map((e) => JSON.stringify(e)));
  const eventsUpTo = (n) => { let s = 0; for (let t = 0; t < n; t++) s += texts[t].length; return s; };
  results.meta = {
    seed,
    gcBeforeFolds: typeof globalThis.gc === 'function',
    oursWindowTurns,
    eventsPerTurn: texts.map((t) => t.length).slice(0, 3),
    bytesPerTurn: texts[1].reduce((s, x) => s + x.length, 0),
    eventsAt: Object.fromEntries(lengths.map((n) => [n, eventsUpTo(n)])),
    reps,
    oursReps,
    fullMax,
  };

  // Warm-up: both sides' JS optimised and the wasm tiered up (V8 compiles
  // wasm with its baseline compiler first, and hot functions again later).
  for (let i = 0; i < 5; i++) {
    const agent = officialAgent();
    for (let t = 0; t < Math.min(10, maxTurns); t++) await officialRun(agent, conv.threadId, conv.turns[t].runId, conv.turns[t].events);
    for (const consumer of ['frame', 'event']) {
      const o = ourReducer(factory, consumer);
      for (let t = 0; t < Math.min(40, maxTurns); t++) foldOurs(o, texts[t]);
      o.r.dispose();
    }
    await tick();
  }

  // What each length times: the official side turn N; ours turns N-1 and N
  // (a turn of ours is ~1 ms, so one collector pause in a one-turn window
  // would weigh as much as the turn).
  const at = new Map(lengths.map((n) => {
    const last = n - 1;
    const first = Math.max(0, last - (oursWindowTurns - 1));
    let oursEvents = 0;
    for (let t = first; t <= last; t++) oursEvents += texts[t].length;
    const acc = () => ({ window: [], total: [], totalGc: [], gcIdle: [] });
    return [n, { last, first, lastEvents: texts[last].length, oursEvents, official: acc(), ours: acc(), oursEvent: acc() }];
  }));

  // The order of the folds: repetition by repetition, every length in turn,
  // so a spell of load on this shared machine falls on all lengths alike
  // rather than on one. Within a length, the official side and ours
  // alternate which goes first. Ours with the 'event' consumer comes last,
  // as its garbage (a messages array per event) is the heaviest.
  const plan = [];
  for (let rep = 0; rep < Math.max(reps, oursReps); rep++) {
    for (const n of lengths) {
      const pair = rep % 2 ? ['ours', 'official'] : ['official', 'ours'];
      for (const side of pair) if (side === 'ours' ? rep < oursReps : rep < reps) plan.push([n, side]);
    }
  }
  for (let rep = 0; rep < oursReps; rep++) for (const n of lengths) plan.push([n, 'oursEvent']);

  for (const [n, side] of plan) {
    const { last, first } = at.get(n);
    const acc = at.get(n)[side];
    await tick();
    collect();
    // What a full collection costs with no fold's garbage (one right after another).
    const gi0 = now();
    collect();
    const gcIdle = now() - gi0;
    // Warm again what the collection may have cooled (caches, the code it
    // flushed): a few turns of the same side, untimed.
    if (side === 'official') {
      const a = officialAgent();
      for (let t = 0; t < Math.min(5, maxTurns); t++) await officialRun(a, conv.threadId, conv.turns[t].runId, conv.turns[t].events);
    } else {
      const w = ourReducer(factory, side === 'ours' ? 'frame' : 'event');
      for (let t = 0; t < Math.min(10, maxTurns); t++) foldOurs(w, texts[t]);
      w.r.dispose();
    }
    if (side === 'official') {
      let agent;
      let prefix = 0;
      if (n <= fullMax) {
        agent = officialAgent();
        const t0 = now();
        for (let t = 0; t < last; t++) await officialRun(agent, conv.threadId, conv.turns[t].runId, conv.turns[t].events);
        prefix = now() - t0;
      } else {
        // Too slow to fold whole: start from what n-1 turns fold into.
        agent = officialAgent(conv.messages(last), conv.state(last));
      }
      const t1 = now();
      await officialRun(agent, conv.threadId, conv.turns[last].runId, conv.turns[last].events);
      const w = now() - t1;
      acc.window.push(w);
      if (n <= fullMax) {
        acc.total.push(prefix + w);
        // The whole fold with its garbage collected: plus a full collection right after it.
        const g0 = now();
        collect();
        acc.totalGc.push(prefix + w + now() - g0);
        acc.gcIdle.push(gcIdle);
      }
      if (agent.messages.length !== 3 * n) throw new Error(`official: ${agent.messages.length} messages after ${n} turns`);
    } else {
      const ours = ourReducer(factory, side === 'ours' ? 'frame' : 'event');
      const t0 = now();
      for (let t = 0; t < first; t++) foldOurs(ours, texts[t]);
      const t1 = now();
      for (let t = first; t <= last; t++) foldOurs(ours, texts[t]);
      const t2 = now();
      acc.window.push(t2 - t1);
      acc.total.push(t2 - t0);
      const g0 = now();
      collect();
      acc.totalGc.push(t2 - t0 + now() - g0);
      acc.gcIdle.push(gcIdle);
      const { r } = ours;
      if (r.state.messages.length !== 3 * n || ours.seen() === 0) throw new Error(`ours: ${r.state.messages.length} messages after ${n} turns`);
      r.dispose();
    }
  }

  const us = (ms, events) => (ms * 1000) / events;
  /** A side's figures from its windows and totals. */
  const figures = (acc, events, extra = {}) => ({
    ...extra,
    perEventUs: us(median(acc.window), events),
    perEventBestUs: us(best(acc.window), events),
    totalMs: acc.total.length ? median(acc.total) : null,
    // With a full collection right after the fold, inside the timing (its
    // garbage collected), and what such a collection costs with no fold's
    // garbage (gcIdleMs): only where the runtime exposes gc().
    totalGcMs: acc.totalGc.length && typeof globalThis.gc === 'function' ? median(acc.totalGc) : null,
    gcIdleMs: acc.gcIdle.length && typeof globalThis.gc === 'function' ? median(acc.gcIdle) : null,
    windowMs: acc.window,
  });
  for (const n of lengths) {
    const { last, first, lastEvents, oursEvents, official, ours, oursEvent } = at.get(n);
    const row = {
      turns: n,
      events: eventsUpTo(n),
      windowEvents: lastEvents,
      oursWindowTurns: last - first + 1,
      oursWindowEvents: oursEvents,
      official: figures(official, lastEvents),
      ours: figures(ours, oursEvents, { consumer: 'frame' }),
      oursEvent: figures(oursEvent, oursEvents, { consumer: 'event' }),
    };
    row.ratio = row.official.perEventUs / row.ours.perEventUs;
    row.ratioEvent = row.official.perEventUs / row.oursEvent.perEventUs;
    row.totalRatio = row.official.totalMs != null ? row.official.totalMs / row.ours.totalMs : null;
    row.totalGcRatio = row.official.totalGcMs != null && row.ours.totalGcMs != null ? row.official.totalGcMs / row.ours.totalGcMs : null;
    // The fold with its own garbage collected: the full collection after it
    // less what one costs with no fold's garbage (the live heap's marking,
    // the process's and the harness's, which either side pays alike).
    const own = (side) => side.totalGcMs - side.gcIdleMs;
    row.totalOwnGcRatio = row.totalGcRatio != null ? own(row.official) / own(row.ours) : null;
    results.lengths.push(row);
    log(`${n} turns: official ${row.official.perEventUs.toFixed(1)} µs/event, ours ${row.ours.perEventUs.toFixed(2)} µs/event (${row.oursEvent.perEventUs.toFixed(2)} reading every event), ratio ${row.ratio.toFixed(1)}×`);
    if (row.totalGcRatio != null) log(`${n} turns, whole fold: official ${row.official.totalMs.toFixed(1)} ms, ours ${row.ours.totalMs.toFixed(2)} ms (${row.totalRatio.toFixed(1)}×); with a full collection after it: official ${row.official.totalGcMs.toFixed(1)} ms, ours ${row.ours.totalGcMs.toFixed(2)} ms (${row.totalGcRatio.toFixed(1)}×; a collection with no fold's garbage: ${row.ours.gcIdleMs.toFixed(2)} ms)`);
  }

  // The official total at lengths past fullMax: estimated from the per-event
  // costs measured at each length (linear in the turn, as the profile shows:
  // every event clones the whole conversation).
  const fit = linearFit(results.lengths.map((r) => [r.turns, r.official.perEventUs]));
  results.officialFit = fit;
  for (const row of results.lengths) {
    if (row.official.totalMs == null) {
      let s = 0;
      for (let t = 0; t < row.turns; t++) s += texts[t].length * (fit.a + fit.b * (t + 1));
      row.official.totalMs = s / 1000;
      row.official.totalEstimated = true;
      row.totalRatio = row.official.totalMs / row.ours.totalMs;
    }
  }

  results.noMirror = await withoutMirror({ wasmURL, texts, lengths, reps: oursReps, now });
  log(`wasm reducer alone (no JS mirror): ${results.noMirror.map((r) => `${r.turns} turns ${r.perEventUs.toFixed(2)} µs`).join(', ')}`);

  results.textContent = await textContentVsParse(factory, conv, texts, { now, blocks: parseBlocks });
  log(`TEXT_MESSAGE_CONTENT: apply ${results.textContent.applyUs.toFixed(2)} µs, JSON.parse ${results.textContent.parseUs.toFixed(2)} µs, ratio ${results.textContent.ratio.toFixed(1)}×`);

  results.memory = await memory({ wasmURL, texts, maxTurns, conversations: memoryConversations, turns: Math.min(memoryTurns, maxTurns) });
  log(`memory: ${(results.memory.after400 / 2 ** 20).toFixed(1)} MiB after ${results.memory.turns400} turns; resets: ${results.memory.afterEach.map((b) => (b / 2 ** 20).toFixed(1)).join(' ')} MiB`);

  results.bars = bars(results);
  return results;
}

function linearFit(points) {
  const n = points.length;
  const mx = points.reduce((s, p) => s + p[0], 0) / n;
  const my = points.reduce((s, p) => s + p[1], 0) / n;
  let sxy = 0, sxx = 0;
  for (const [x, y] of points) { sxy += (x - mx) * (y - my); sxx += (x - mx) ** 2; }
  const b = sxx ? sxy / sxx : 0;
  return { a: my - b * mx, b }; // µs/event = a + b·turn
}

/**
 * One TEXT_MESSAGE_CONTENT as JS sees it: apply(text) (encode, wasm call,
 * reduce, change record, mirror update, subscriber) against JSON.parse of
 * the same text, on a reducer holding a 25-turn conversation with an
 * assistant message streaming. The two alternate in blocks (one message's
 * 200 deltas, 4 times), so both see the same machine; a new message starts
 * every 10 blocks (outside the timing), as answers do.
 */
async function textContentVsParse(factory, conv, texts, { now, blocks }) {
  const ours = ourReducer(factory, 'event');
  const { r } = ours;
  for (let t = 0; t < 25 && t < texts.length; t++) foldOurs(ours, texts[t]);
  const deltas = conv.turns[0].events.filter((e) => e.type === 'TEXT_MESSAGE_CONTENT').map((e) => e.delta);
  let evs = null;
  let msg = 0;
  let sink = 0;
  const parse = [];
  const apply = [];
  const ratio = [];
  const warm = 10;
  const passes = 4; // a block is ~1 ms: well above Chromium's 5 µs timer
  for (let b = 0; b < blocks + warm; b++) {
    if (b % 10 === 0) {
      const id = `msg_liveMessageForTheParseBench${msg++}`;
      r.apply(JSON.stringify({ type: 'TEXT_MESSAGE_START', messageId: id, role: 'assistant' }));
      evs = deltas.map((delta) => JSON.stringify({ type: 'TEXT_MESSAGE_CONTENT', messageId: id, delta }));
      await tick();
    }
    let t0 = now();
    for (let k = 0; k < passes; k++) for (let i = 0; i < evs.length; i++) sink += JSON.parse(evs[i]).delta.length;
    const p = now() - t0;
    t0 = now();
    for (let k = 0; k < passes; k++) for (let i = 0; i < evs.length; i++) r.apply(evs[i]);
    const a = now() - t0;
    if (b >= warm) {
      parse.push((p * 1000) / (passes * evs.length));
      apply.push((a * 1000) / (passes * evs.length));
      ratio.push(a / p);
    }
  }
  const content = r.state.messages.at(-1).content;
  if (content.length === 0 || sink === 0) throw new Error('text content bench did nothing');
  r.dispose();
  return {
    eventBytes: evs.reduce((s, e) => s + e.length, 0) / evs.length,
    parseUs: median(parse),
    applyUs: median(apply),
    parseBestUs: best(parse),
    applyBestUs: best(apply),
    ratio: median(ratio), // of the block pairs
    ratioOfMedians: median(apply) / median(parse),
    events: apply.length * passes * evs.length,
  };
}

/**
 * Diagnostic: the same windows through the wasm module's own calling
 * convention (web/agui.js's internal Core: encode, call, change record out)
 * with no JS mirror, no record parsing and no subscriber, to tell the
 * reducer's cost from the mirror's.
 */
async function withoutMirror({ wasmURL, texts, lengths, reps, now }) {
  const core = await __internal.loadCore(wasmURL);
  const out = [];
  for (const n of [lengths[0], lengths.at(-1)]) {
    const w = [];
    for (let rep = 0; rep < reps; rep++) {
      const h = core.create('{}');
      const apply = (core.applyCompact ?? core.apply).bind(core);
      for (let t = 0; t < n - 1; t++) for (const x of texts[t]) apply(h, x, '');
      const t0 = now();
      for (const x of texts[n - 1]) apply(h, x, '');
      w.push(now() - t0);
      core.call('dispose', h);
      await tick();
    }
    out.push({ turns: n, perEventUs: (median(w) * 1000) / texts[n - 1].length });
  }
  return out;
}

/** Wasm memory on fresh modules: after maxTurns turns; across resets. */
async function memory({ wasmURL, texts, maxTurns, conversations, turns }) {
  const f1 = await loadReducer(wasmURL);
  const start = wasmMemory(f1);
  const o1 = ourReducer(f1);
  const { r } = o1;
  for (let t = 0; t < maxTurns; t++) foldOurs(o1, texts[t]);
  const after400 = wasmMemory(f1);
  r.dispose();

  const f2 = await loadReducer(wasmURL);
  const o2 = ourReducer(f2);
  const r2 = o2.r;
  const afterEach = [];
  for (let c = 0; c < conversations; c++) {
    for (let t = 0; t < turns; t++) foldOurs(o2, texts[t]);
    if (r2.state.messages.length !== 3 * turns) throw new Error('memory: wrong fold');
    r2.reset();
    afterEach.push(wasmMemory(f2));
    await tick();
  }
  r2.dispose();
  // Plateau: the memory stops growing. The Go heap settles over the first
  // conversations (a span or two may still be added late, as fragmentation
  // finds its level: 8.4 then 8.6 MiB at conversation 17 of 80, flat after),
  // so the judgement is on the second half: none of it grows past where the
  // first half ended. A leak of a conversation's worth (~300 messages) grows
  // every few conversations and fails it.
  const half = Math.max(0, (afterEach.length >> 1) - 1);
  const settled = afterEach[half];
  // (Fewer than ten conversations, as --quick folds, tell nothing: not judged.)
  const plateau = afterEach.length < 10 ? null : afterEach.every((b, i) => i <= half || b <= settled);
  return { start, turns400: maxTurns, after400, conversations, turns, afterEach, plateau, growthSecondHalf: afterEach.at(-1) - settled };
}

/** The issue's bars, judged on one run. */
function bars(res) {
  const at = (n) => res.lengths.find((r) => r.turns === n);
  const out = [];
  if (at(25)) out.push({ bar: '≥10× faster than official at 25 turns', value: at(25).ratio, met: at(25).ratio >= 10 });
  if (at(100)) out.push({ bar: '≥50× faster than official at 100 turns', value: at(100).ratio, met: at(100).ratio >= 50 });
  if (at(400) && at(5)) {
    const flat = at(400).ours.perEventUs / at(5).ours.perEventUs;
    out.push({ bar: 'flat: ours at 400 turns ≤ 1.3× ours at 5 turns', value: flat, met: flat <= 1.3 });
    // A check on the medians (the windows are ~1 ms and noisy): the same
    // ratio on the best window of each length.
    res.flatBest = at(400).ours.perEventBestUs / at(5).ours.perEventBestUs;
    // Not a bar: the same ratio for a consumer that reads the whole state
    // after every event (an immutable state per event costs a new messages
    // array per event, so this one grows with the conversation).
    res.flatEvent = at(400).oursEvent.perEventUs / at(5).oursEvent.perEventUs;
  }
  // The reducer on its own against defaultApplyEvents, whole folds: the
  // garbage collected while the fold runs is in both totals; the bar also
  // holds with the fold's own garbage collected after it (totalOwnGcRatio).
  for (const [n, want] of [[25, 25], [100, 100]]) {
    const r = at(n);
    if (r?.totalRatio == null) continue;
    const value = r.totalOwnGcRatio != null ? Math.min(r.totalRatio, r.totalOwnGcRatio) : r.totalRatio;
    out.push({ bar: `whole fold ≥${want}× official at ${n} turns (GC included)`, value, met: value >= want });
  }
  out.push({ bar: 'TEXT_MESSAGE_CONTENT apply ≤ 5× JSON.parse', value: res.textContent.ratio, met: res.textContent.ratio <= 5 });
  if (res.memory.plateau !== null) out.push({ bar: 'memory plateaus across reset conversations', value: res.memory.growthSecondHalf, met: res.memory.plateau });
  return out;
}
