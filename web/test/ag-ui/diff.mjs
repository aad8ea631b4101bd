// The differential harness of the drop-in agent (web/src/ag-ui/drop-in.js): the same
// recorded streams, served over HTTP by a local server, run through
// @ag-ui/client's HttpAgent and through the reducer's HttpAgent; everything
// a host can observe is recorded for comparison — every subscriber call with
// its arguments, runAgent's result or error, and afterwards agent.messages,
// agent.state and agent.pendingInterrupts.
//
// Used by web/test/ag-ui/differential.test.mjs (against @ag-ui/client 1.0.0, this folder's
// lockfile) and by bench/ag-ui-059/ (against 0.0.59, its own lockfile): the
// client package is a parameter.

import http from 'node:http';
import { readFileSync, readdirSync, existsSync } from 'node:fs';

/** Splits a stream into runs: each starts at a RUN_STARTED. */
export function runsOf(events) {
  const runs = [];
  for (const e of events) {
    if (e.type === 'RUN_STARTED' || runs.length === 0) runs.push([]);
    runs[runs.length - 1].push(e);
  }
  return runs;
}

export function readJSONL(path) {
  return readFileSync(path, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l));
}

/** The streams of a folder (*.jsonl), by name; a missing folder gives none. */
export function streamsIn(dir, filter = () => true) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true })
    .filter((f) => f.endsWith('.jsonl') && filter(f))
    .sort()
    .map((f) => ({ name: f, events: readJSONL(new URL(f, dir)) }));
}

/**
 * A local server: POST /<key>/<run> answers with that run's events as SSE.
 * streams: Map key → runs (arrays of events).
 */
export async function serve(streams) {
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => { body += c; });
    req.on('end', () => {
      const [, key, run] = req.url.split('/');
      const events = streams.get(decodeURIComponent(key))?.[Number(run)];
      if (events === undefined) { res.writeHead(404).end(); return; }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const e of events) res.write(`data: ${JSON.stringify(e)}\n\n`);
      res.end();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return { url: (key, run) => `http://127.0.0.1:${port}/${encodeURIComponent(key)}/${run}`, close: () => new Promise((r) => server.close(r)) };
}

/** What a subscriber call is recorded as: its arguments without the agent, as JSON. */
function snap(params) {
  const out = {};
  for (const [k, v] of Object.entries(params ?? {})) {
    if (k === 'agent') continue;
    out[k] = v instanceof Error ? `Error: ${v.message}` : v;
  }
  return JSON.parse(JSON.stringify(out));
}

/** A subscriber implementing every hook, each recording its call. */
export function recorder(log, label = '', only = null) {
  return new Proxy({}, {
    get(_, name) {
      if (typeof name !== 'string' || !name.startsWith('on') || (only !== null && !only.includes(name))) return undefined;
      return (params) => { log.push([label + name, snap(params)]); };
    },
  });
}

/**
 * Runs each run of a stream through a fresh agent (make(url) → agent), with
 * `subscribers` recording subscribers; resolves to what was observed.
 */
export async function observe(make, server, key, runs, { subscribers = 1, threadId = 'thread-1', hooks = null } = {}) {
  const log = [];
  const agent = make({ url: server.url(key, 0), threadId });
  for (let i = 0; i < subscribers; i++) agent.subscribe(recorder(log, i === 0 ? '' : `${i}:`, hooks));
  const results = [];
  for (let i = 0; i < runs.length; i++) {
    agent.url = server.url(key, i);
    const params = { runId: `run-${i}` };
    if (agent.pendingInterrupts.length > 0) {
      params.resume = agent.pendingInterrupts.map((p) => ({ interruptId: p.id, status: 'resolved', payload: { ok: true } }));
    }
    try {
      const r = await agent.runAgent(params);
      results.push({ result: r.result ?? null, newMessages: r.newMessages });
    } catch (err) {
      results.push({ error: String(err?.message ?? err) });
    }
  }
  // onRunFinalized is fired without waiting: let it land.
  await new Promise((r) => setTimeout(r, 0));
  return normalise({
    results, log,
    messages: agent.messages,
    state: agent.state,
    pendingInterrupts: agent.pendingInterrupts,
  });
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/**
 * As JSON, with what legitimately differs between two runs taken out: the
 * UUIDs the client mints (the compatibility boundary names legacy THINKING
 * messages) become uuid-1, uuid-2… in order of appearance, and
 * partialToolCallArgs is left out: @ag-ui/client computes it with
 * untruncate-json, whose default import is the module object under Node
 * (the call throws, so it is always {}) and the function under bundlers (a
 * string: the completed JSON text) — this agent gives the parsed partial
 * arguments (docs/ag-ui-agent.md).
 */
export function normalise(value) {
  const ids = new Map();
  const text = JSON.stringify(value, (k, v) => (k === 'partialToolCallArgs' ? undefined : v))
    .replace(UUID, (u) => {
      if (!ids.has(u)) ids.set(u, `uuid-${ids.size + 1}`);
      return ids.get(u);
    });
  return JSON.parse(text);
}

/** Runs fn with console.warn/error/log/debug silenced (both clients warn on odd streams). */
export async function quietly(fn) {
  const saved = { warn: console.warn, error: console.error, log: console.log, debug: console.debug };
  console.warn = console.error = console.log = console.debug = () => {};
  try { return await fn(); } finally { Object.assign(console, saved); }
}

/**
 * The apply step alone, without transport and verification (which reject
 * some of the golden streams, meant for a lenient reducer): each run's
 * events, chunk-expanded, go through agent.apply() and
 * agent.processApplyEvents() as runAgent would chain them. make(config) →
 * agent; client: the @ag-ui/client module (transformChunks, rxjs' from).
 */
export async function observeApply(make, client, from, runs, { subscribers = 1 } = {}) {
  // The official reducer adopts objects of the events (a snapshot's
  // messages) and later appends to them: each side gets its own copy.
  runs = structuredClone(runs);
  const log = [];
  const agent = make({ url: 'http://127.0.0.1:9/', threadId: 'thread-1' });
  const subs = [];
  for (let i = 0; i < subscribers; i++) subs.push(recorder(log, i === 0 ? '' : `${i}:`));
  const results = [];
  for (let i = 0; i < runs.length; i++) {
    const input = agent.prepareRunAgentInput({ runId: `run-${i}` });
    try {
      await new Promise((resolve, reject) => {
        const events$ = client.transformChunks()(from(runs[i]));
        agent.processApplyEvents(input, agent.apply(input, events$, subs), subs).subscribe({ error: reject, complete: resolve });
      });
      results.push('ok');
    } catch (err) {
      results.push({ error: String(err?.message ?? err) });
    }
  }
  return normalise({ results, log, messages: agent.messages, state: agent.state, pendingInterrupts: agent.pendingInterrupts });
}

/**
 * web/src/ag-ui/drop-in.js (the drop-in entry) with the reducer factory set: web/ has
 * no @ag-ui/client installed, so the entry's peer dependency resolves from
 * bench/, as an app's node_modules would.
 */
export async function loadDropIn() {
  const { loadReducer } = await import('../../entries/agui.node.js');
  const { setReducerFactory } = await import('../../src/ag-ui/with-reducer.js');
  setReducerFactory(await loadReducer(new URL('../../dist/agui.wasm', import.meta.url)));
  const { register } = await import('node:module');
  const hook = `export async function resolve(s, c, next) {
    return s === '@ag-ui/client' ? next(s, { ...c, parentURL: ${JSON.stringify(import.meta.url)} }) : next(s, c);
  }`;
  register('data:text/javascript,' + encodeURIComponent(hook));
  return import('../../src/ag-ui/drop-in.js');
}
