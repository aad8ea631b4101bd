// The drop-in agent's benchmark, the same code in Node (agent.mjs) and in a
// Chromium page (agent.mjs → agent-page.html): @ag-ui/client 1.0.0's
// HttpAgent and the reducer's HttpAgent (web/ag-ui-reducer.js over the same
// HttpAgent class) run the same generated conversations (gen.mjs), turn by
// turn, one runAgent() per turn, with 1 or 10 subscribers whose
// onMessagesChanged reads the messages as a chat UI does (maps them to
// their text). Both get the same SSE bytes through HttpAgent's `fetch`
// option: a Response over a ReadableStream that yields 16 events per read,
// each read in a task of its own, as a network delivers them, with no wait
// (the network is out of the measurement). bench/README.md, "The drop-in
// agent", describes the method.

import { generate } from './gen.mjs';

const median = (a) => {
  const s = [...a].sort((x, y) => x - y);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** Yields a macrotask: the page's tasks end between turns, as a chat's do between runs. */
const tick = () => new Promise((r) => setTimeout(r, 0));
const collect = () => { if (typeof globalThis.gc === 'function') globalThis.gc(); };

const encoder = new TextEncoder();

/** Events per network read: a read of a streaming response returns a few SSE events. */
export const EVENTS_PER_READ = 16;

/** A turn's events as SSE, EVENTS_PER_READ events per Uint8Array. */
function sseChunks(events) {
  const chunks = [];
  for (let i = 0; i < events.length; i += EVENTS_PER_READ) {
    chunks.push(encoder.encode(events.slice(i, i + EVENTS_PER_READ).map((e) => `data: ${JSON.stringify(e)}\n\n`).join('')));
  }
  return chunks;
}

/** Resolves in a new macrotask, unclamped (setImmediate in Node, a MessageChannel in a page). */
const nextTask = typeof setImmediate === 'function'
  ? () => new Promise((r) => setImmediate(r))
  : (() => {
    const ch = new MessageChannel();
    const waiting = [];
    ch.port1.onmessage = () => waiting.shift()();
    return () => new Promise((r) => { waiting.push(r); ch.port2.postMessage(0); });
  })();

/**
 * HttpAgent's fetch option: answers every request with the next turn's
 * bytes, each read's chunk in a task of its own, as a network delivers them
 * (the bytes are all there: the network's pace is not measured, and a client
 * slower than its stream is measured as it falls behind).
 */
function fakeFetch(turns) {
  let next = 0;
  return async () => {
    const chunks = turns[next++];
    let i = 0;
    const body = new ReadableStream({
      async pull(c) {
        await nextTask();
        if (i < chunks.length) c.enqueue(chunks[i++]);
        if (i >= chunks.length) c.close();
      },
    });
    return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
  };
}

/** A chat UI's subscriber: every onMessagesChanged maps the messages to their text. */
export function chatSubscriber(sink) {
  return {
    onMessagesChanged({ messages }) {
      const texts = messages.map((m) => (typeof m.content === 'string' ? m.content
        : m.toolCalls !== undefined ? m.toolCalls.map((t) => t.function.name).join(',') : ''));
      sink.n += texts.length;
      sink.chars += texts[texts.length - 1]?.length ?? 0;
    },
    onStateChanged({ state }) {
      sink.n += state?.notes?.length ?? 0;
    },
  };
}

/**
 * One conversation through one agent class: resolves to {turnMs: [ms per
 * turn], events: [events per turn], messages, state, sink}. make(config) →
 * agent. With carry (the floor, which folds nothing), the agent is given,
 * before each turn and outside the timing, the messages and state the
 * conversation holds by then: runAgent's per-run work over them
 * (RunAgentInput's clone and validation) is paid as by the agents that fold.
 */
export async function converse(make, conv, { subscribers, now, between = tick, carry = false }) {
  const turns = conv.turns.map((t) => sseChunks(t.events));
  const fetch = fakeFetch(turns);
  const agent = make({ url: 'http://bench.invalid/agent', threadId: conv.threadId, fetch });
  const sink = { n: 0, chars: 0 };
  for (let i = 0; i < subscribers; i++) agent.subscribe(chatSubscriber(sink));
  const turnMs = [];
  for (const [i, t] of conv.turns.entries()) {
    if (carry) {
      agent.messages = conv.messages(i);
      agent.state = conv.state(i) ?? {};
    }
    await between();
    const t0 = now();
    await agent.runAgent({ runId: t.runId });
    turnMs.push(now() - t0);
  }
  return { turnMs, events: conv.turns.map((t) => t.events.length), messages: agent.messages, state: agent.state, sink };
}

/** JSON with object keys sorted: the two agents build equal objects with keys in different orders. */
export function canon(v) {
  return JSON.stringify(v, (_, x) => (x !== null && typeof x === 'object' && !Array.isArray(x)
    ? Object.fromEntries(Object.keys(x).sort().map((k) => [k, x[k]])) : x));
}

/**
 * The agent classes measured, from the installed @ag-ui/client's HttpAgent
 * and the reducer's withReducer: 'official', 'ours', and 'floor' — HttpAgent
 * with an apply step that folds nothing and fires no subscriber, i.e. what
 * both agents pay before applying (HTTP body reading, SSE parsing, schema
 * validation, the middleware chain, enforcement, verification, and per run
 * the RunAgentInput over the conversation so far: converse's carry).
 */
export function sides({ HttpAgent, withReducer, ignoreElements, endWith, factory }) {
  const Ours = withReducer(HttpAgent);
  class Floor extends HttpAgent {
    apply(_input, events$) { return events$.pipe(ignoreElements(), endWith({})); }
  }
  return {
    official: (c) => new HttpAgent(c),
    ours: (c) => new Ours({ ...c, reducer: factory }),
    floor: (c) => new Floor(c),
  };
}

/**
 * Runs the benchmark. options: {make (sides()), lengths, subscribers,
 * reps (ours and the floor), officialReps(turns, subscribers), now, log,
 * longTasks ({reset(), longest()} over PerformanceObserver 'longtask';
 * Chromium only)}. Resolves to {rows, bars}.
 */
export async function runAgentBench(options) {
  const {
    make, now, log = () => {},
    lengths = [1, 5, 25, 100], subscribers = [1, 10],
    reps = 5, officialReps = (turns) => (turns >= 100 ? 1 : turns >= 25 ? 2 : reps),
    longTasks = null,
  } = options;
  const rows = [];
  // A warm-up: both agents' JavaScript optimised and the wasm tiered up
  // before the first measured turn (a cold start is the module load's).
  const warm = generate({ turns: 5, seed: 1 });
  for (let i = 0; i < 3; i++) for (const side of ['official', 'ours', 'floor']) await converse(make[side], warm, { subscribers: 1, now, carry: side === 'floor' });
  // Run again after each full collection, unmeasured: a collection can drop
  // compiled code and type feedback (V8 flushes bytecode it thinks unused),
  // and a short conversation would otherwise measure their recompilation.
  const rewarm = generate({ turns: 1, seed: 2 });
  for (const subs of subscribers) {
    for (const turns of lengths) {
      const conv = generate({ turns, seed: 7 + turns });
      const runs = { official: [], ours: [], floor: [] };
      const longest = { official: 0, ours: 0, floor: 0 };
      const nOfficial = officialReps(turns, subs);
      for (let rep = 0; rep < Math.max(reps, nOfficial); rep++) {
        // Alternating which side goes first: a spell of load falls on both.
        const order = rep % 2 === 0 ? ['official', 'ours', 'floor'] : ['ours', 'official', 'floor'];
        for (const side of order) {
          if (side === 'official' ? rep >= nOfficial : rep >= reps) continue;
          collect();
          await tick();
          await converse(make[side], rewarm, { subscribers: subs, now, carry: side === 'floor' });
          await tick();
          longTasks?.reset();
          const r = await converse(make[side], conv, { subscribers: subs, now, carry: side === 'floor' });
          await tick();
          if (longTasks !== null) longest[side] = Math.max(longest[side], longTasks.longest());
          runs[side].push(r);
        }
      }
      // Per event at N turns: the best of the last (up to) three turns over
      // the repetitions, per event. The best, not the median: on a shared
      // machine a turn's wall time includes whatever time the process was
      // not running, and a turn is short enough to be hit whole.
      const summary = (rs) => {
        let best = Infinity;
        for (const r of rs) {
          for (let t = Math.max(0, r.turnMs.length - 3); t < r.turnMs.length; t++) best = Math.min(best, (r.turnMs[t] * 1000) / r.events[t]);
        }
        return {
          totalMs: median(rs.map((r) => r.turnMs.reduce((a, b) => a + b, 0))),
          perEventUs: best,
          reps: rs.length,
        };
      };
      const o = summary(runs.official), u = summary(runs.ours), f = summary(runs.floor);
      const a = runs.official[0], b = runs.ours[0];
      const row = {
        turns, subscribers: subs,
        events: b.events.reduce((x, y) => x + y, 0),
        official: o, ours: u, floor: f,
        ratio: o.perEventUs / u.perEventUs,
        totalRatio: o.totalMs / u.totalMs,
        // The apply steps alone: each agent's cost above what both pay before applying.
        applyRatio: (o.totalMs - f.totalMs) / Math.max(u.totalMs - f.totalMs, 1e-3),
        // Both agents end where the other does, their subscribers having read the same.
        same: canon(a.messages) === canon(b.messages) && canon(a.state) === canon(b.state) &&
          a.sink.n === b.sink.n && a.sink.chars === b.sink.chars,
      };
      if (longTasks !== null) row.longTaskMs = longest;
      rows.push(row);
      log(`${subs} subscriber(s), ${turns} turn(s): HttpAgent ${o.perEventUs.toFixed(1)} µs/event, ours ${u.perEventUs.toFixed(1)} (${row.ratio.toFixed(1)}×), floor ${f.perEventUs.toFixed(1)}; total ${o.totalMs.toFixed(0)} / ${u.totalMs.toFixed(0)} / ${f.totalMs.toFixed(0)} ms${longTasks ? `; longest task ${longest.official.toFixed(0)} / ${longest.ours.toFixed(0)} ms` : ''}${row.same ? '' : ' — RESULTS DIFFER'}`);
    }
  }
  return { rows, bars: bars(rows, longTasks !== null) };
}

function bars(rows, browser) {
  const at = (subs, turns) => rows.find((r) => r.subscribers === subs && r.turns === turns);
  const out = [];
  const r25 = at(10, 25), r100 = at(10, 100), r1 = at(1, 1);
  // subscribers and turns name the row a bar reads (agent.mjs puts the
  // development-mode row's value beside it).
  if (r25) out.push({ bar: '10 subscribers, 25 turns: ≥ 50× faster than HttpAgent (per event)', value: r25.ratio, met: r25.ratio >= 50, subscribers: 10, turns: 25 });
  if (r100) out.push({ bar: '10 subscribers, 100 turns: ≥ 300× faster than HttpAgent (per event)', value: r100.ratio, met: r100.ratio >= 300, subscribers: 10, turns: 100 });
  if (r100 && browser) out.push({ bar: '10 subscribers, 100 turns: no main-thread task over 50 ms (ms)', value: r100.longTaskMs.ours, met: r100.longTaskMs.ours <= 50, subscribers: 10, turns: 100, longTask: true });
  if (r1) out.push({ bar: '1 subscriber, 1 turn: no slower than HttpAgent (per event)', value: r1.ratio, met: r1.ratio >= 1, subscribers: 1, turns: 1 });
  for (const r of rows) if (!r.same) out.push({ bar: `${r.subscribers} subscriber(s), ${r.turns} turns: both agents end equal`, value: 0, met: false });
  return out;
}

/**
 * Puts the development-mode figure beside each production bar (dev: the
 * value the development rows give; the bars are judged on production).
 */
export function withDev(bars, devRows) {
  for (const b of bars) {
    const r = devRows.find((x) => x.subscribers === b.subscribers && x.turns === b.turns);
    if (r !== undefined) b.dev = b.longTask ? r.longTaskMs?.ours : r.ratio;
  }
  return bars;
}
