// Resumable runs: run() reconnects with Last-Event-ID when a response is cut,
// against a scripted server for each way a server may answer. Backoff waits
// are injected (no real sleeping), and nothing here asserts a timing.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { MessageChannel } from 'node:worker_threads';
import { loadReducer, createWorkerHost } from '../../entries/agui.node.js';
import { serve } from '../../src/worker/entry.js';
import { wasmURL, stream, normalise } from '../support/helpers.mjs';

const factory = await loadReducer(wasmURL);
const NAME = 'ParallelToolCalls--WithParallelToolCalls_InvokesBothToolsAndStreamsResults-turn1.jsonl';
const LINES = stream(NAME).lines;

/** The frames of the run from index `from` on, with ids `<tag>:<seq>` (seq from 1). */
function frames(tag, from = 0, to = LINES.length) {
  let s = '';
  for (let i = from; i < to; i++) s += `id: ${tag}:${i + 1}\ndata: ${LINES[i]}\n\n`;
  return s;
}

/** The seq of an id `<tag>:<seq>`, 0 for none. */
const seqOf = (id) => (id ? Number(id.split(':')[1]) : 0);

/**
 * A server whose answer to request n is script({n, lastEventId, body}):
 * {status, json} for an error, else {body, end} where end is 'end' (the
 * response ends) or 'destroy' (the connection is cut, a network error).
 */
async function scripted(script) {
  const requests = [];
  const server = http.createServer(async (req, res) => {
    let body = '';
    for await (const part of req) body += part;
    const n = requests.length;
    const lastEventId = req.headers['last-event-id'] ?? null;
    requests.push({ lastEventId, body });
    const a = script({ n, lastEventId, body });
    res.setHeader('Connection', 'close');
    if (a.status) {
      res.writeHead(a.status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(a.json ?? {}));
      return;
    }
    const bytes = Buffer.from(a.body);
    // A cut connection: a body shorter than its length is a network error.
    res.writeHead(200, { 'Content-Type': 'text/event-stream', ...(a.end === 'destroy' ? { 'Content-Length': bytes.length + 100 } : {}) });
    const half = bytes.length >> 1; // cut inside a frame: a partial frame is dropped
    if (half > 0) res.write(bytes.subarray(0, half));
    if (a.end === 'destroy') {
      res.write(bytes.subarray(half), () => setImmediate(() => res.socket?.destroy()));
      return;
    }
    res.end(bytes.subarray(half));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${server.address().port}/agent`;
  after(() => new Promise((resolve) => server.close(resolve)));
  return { url, requests };
}

/** Resume options with the waits recorded instead of slept. */
function noWaits(extra = {}) {
  const waits = [];
  return { waits, resume: { sleep: async (ms) => { waits.push(ms); return true; }, random: () => 0.5, ...extra } };
}

const uncut = (() => {
  const r = factory.createReducer({ deterministicIds: true });
  r.feed(frames('k'));
  r.endStream();
  const s = normalise(r.state);
  r.dispose();
  return s;
})();

/** The state without its cursor, which names the last frame of whichever response. */
function withoutCursor(state) {
  const { lastEventId, ...rest } = normalise(state);
  return rest;
}

/** Cuts at these frame counts (cumulative), then the rest: a server that resumes exactly. */
function cutsAt(...cuts) {
  return ({ n, lastEventId }) => {
    const from = seqOf(lastEventId);
    const to = n < cuts.length ? cuts[n] : LINES.length;
    return { body: frames('k', from, to), end: n % 2 ? 'destroy' : 'end' };
  };
}

test('a server that resumes exactly after the cursor: several cuts, one run, the uncut state', async () => {
  const srv = await scripted(cutsAt(3, 9, 10, 20));
  const r = factory.createReducer({ deterministicIds: true });
  const seen = [];
  r.on('reconnect', (info) => seen.push(info));
  const { resume, waits } = noWaits();
  assert.equal(await r.run(srv.url, undefined, { resume }), 'completed');
  assert.deepStrictEqual(withoutCursor(r.state), withoutCursor(uncut));
  assert.equal(r.state.lastEventId, `k:${LINES.length}`);
  assert.deepStrictEqual(srv.requests.map((q) => q.lastEventId), [null, 'k:3', 'k:9', 'k:10', 'k:20']);
  assert.ok(srv.requests.every((q) => q.body === srv.requests[0].body), 'the same RunAgentInput each time');
  assert.deepStrictEqual(r.lastRun, { outcome: 'completed', reconnects: 4, lastEventId: `k:${LINES.length}` });
  assert.deepStrictEqual(seen.map((s) => [s.reconnects, s.attempt, s.lastEventId, s.reason]),
    [[1, 1, 'k:3', 'incomplete'], [2, 1, 'k:9', 'network'], [3, 1, 'k:10', 'incomplete'], [4, 1, 'k:20', 'network']]);
  assert.deepStrictEqual(waits, [375, 375, 375, 375], 'progress each time: the first delay, jittered');
  r.dispose();
});

test('a server that resends from an earlier frame or from the start: nothing applies twice', async () => {
  for (const back of [2, Infinity]) {
    const srv = await scripted(({ n, lastEventId }) => {
      const from = Math.max(0, seqOf(lastEventId) - back);
      return { body: frames('k', from, n < 3 ? 9 * (n + 1) : LINES.length), end: 'end' };
    });
    const r = factory.createReducer({ deterministicIds: true });
    const codes = new Set();
    r.on('diagnostic', (d) => codes.add(d.code));
    assert.equal(await r.run(srv.url, undefined, noWaits()), 'completed');
    assert.deepStrictEqual(normalise(r.state), uncut, `back ${back}`);
    assert.equal(r.lastRun.reconnects, 3);
    assert.ok(codes.has('resent_frames'));
    r.dispose();
  }
});

test('a server that ignores Last-Event-ID and runs the agent again: the replay rules rewind', async () => {
  let tag = 0;
  const srv = await scripted(({ n }) => ({ body: frames(`t${tag++}`, 0, n < 2 ? 12 + n : LINES.length), end: 'end' }));
  const r = factory.createReducer({ deterministicIds: true });
  const codes = new Set();
  r.on('diagnostic', (d) => codes.add(d.code));
  assert.equal(await r.run(srv.url, undefined, noWaits()), 'completed');
  assert.ok(codes.has('resent_run'));
  assert.deepStrictEqual(withoutCursor(r.state), withoutCursor(uncut));
  assert.equal(r.state.lastEventId, `t2:${LINES.length}`);
  r.dispose();
});

test('a restarting server that is always cut is not progress: the budget runs out', async () => {
  let tag = 0;
  const srv = await scripted(() => ({ body: frames(`t${tag++}`, 0, 12), end: 'end' }));
  const r = factory.createReducer({ deterministicIds: true });
  const { resume, waits } = noWaits({ attempts: 3, random: () => 0 });
  assert.equal(await r.run(srv.url, undefined, { resume }), 'incomplete');
  assert.equal(r.lastRun.reason, 'attempts_exhausted');
  assert.equal(srv.requests.length, 4);
  assert.deepStrictEqual(waits, [500, 1000, 2000], 'exponential backoff while no attempt progresses');
  r.dispose();
});

test('the budget resets whenever an attempt progresses', async () => {
  // One frame per response, 1 attempt allowed: the run still completes.
  const srv = await scripted(({ lastEventId }) => {
    const from = seqOf(lastEventId);
    return { body: frames('k', from, from + 1), end: 'end' };
  });
  const r = factory.createReducer({ deterministicIds: true });
  assert.equal(await r.run(srv.url, undefined, noWaits({ attempts: 1 })), 'completed');
  assert.deepStrictEqual(normalise(r.state), uncut);
  assert.equal(r.lastRun.reconnects, LINES.length - 1);
  r.dispose();
});

test('a network failure on every reconnect gives up as a failed run', async () => {
  const srv = await scripted(({ n, lastEventId }) => (n === 0
    ? { body: frames('k', 0, 5), end: 'end' }
    : { body: '', end: 'destroy' }));
  const r = factory.createReducer({ deterministicIds: true });
  assert.equal(await r.run(srv.url, undefined, noWaits({ attempts: 2 })), 'failed');
  assert.equal(r.state.status, 'error');
  assert.equal(r.state.error.code, 'network');
  assert.equal(r.lastRun.reason, 'attempts_exhausted');
  assert.equal(srv.requests.length, 3, 'the run, then two reconnects without progress');
  assert.ok(srv.requests.slice(1).every((q) => q.lastEventId === 'k:5'));
  r.dispose();
});

test('a 4xx on resume is a failed resume with the server\'s code; a 5xx is retried', async () => {
  for (const [status, code] of [[410, 'resume_unavailable'], [410, 'run_stopped'], [400, 'bad_last_event_id']]) {
    const srv = await scripted(({ n }) => (n === 0
      ? { body: frames('k', 0, 6), end: 'end' }
      : { status, json: { error: `no run (${code})`, code } }));
    const r = factory.createReducer({ deterministicIds: true });
    assert.equal(await r.run(srv.url, undefined, noWaits()), 'failed');
    assert.equal(r.state.status, 'error');
    assert.deepStrictEqual(r.state.error, { message: `resume failed: no run (${code})`, code });
    assert.equal(srv.requests.length, 2);
    r.dispose();
  }
  const srv = await scripted(({ n, lastEventId }) => (n === 0 ? { body: frames('k', 0, 6), end: 'end' }
    : n === 1 ? { status: 503, json: {} }
      : { body: frames('k', seqOf(lastEventId)), end: 'end' }));
  const r = factory.createReducer({ deterministicIds: true });
  assert.equal(await r.run(srv.url, undefined, noWaits()), 'completed');
  assert.deepStrictEqual(normalise(r.state), uncut);
  r.dispose();
});

test('a server without ids (no resume support) ends as before: incomplete, no reconnect', async () => {
  const srv = await scripted(() => ({ body: LINES.slice(0, 8).map((l) => `data: ${l}\n\n`).join(''), end: 'end' }));
  const r = factory.createReducer({ deterministicIds: true });
  const seen = [];
  r.on('reconnect', (i) => seen.push(i));
  assert.equal(await r.run(srv.url, undefined, noWaits()), 'incomplete');
  assert.equal(srv.requests.length, 1);
  assert.equal(seen.length, 0);
  assert.equal(r.lastRun.reason, 'no_event_ids');
  assert.equal(r.state.lastEventId, undefined);
  r.dispose();
});

test('resume: false turns reconnecting off', async () => {
  const srv = await scripted(cutsAt(5));
  const r = factory.createReducer({ deterministicIds: true });
  assert.equal(await r.run(srv.url, undefined, { resume: false }), 'incomplete');
  assert.equal(srv.requests.length, 1);
  assert.equal(r.state.lastEventId, 'k:5');
  r.dispose();
});

test('abort is honoured during the backoff wait', async () => {
  const srv = await scripted(cutsAt(5));
  const r = factory.createReducer({ deterministicIds: true });
  const ctrl = new AbortController();
  const resume = { sleep: (ms, signal) => new Promise((resolve) => { signal.addEventListener('abort', () => resolve(false)); ctrl.abort(); }) };
  assert.equal(await r.run(srv.url, undefined, { signal: ctrl.signal, resume }), 'aborted');
  assert.equal(r.state.status, 'idle');
  assert.equal(srv.requests.length, 1);
  r.dispose();
});

test('a new run starts without the previous run\'s cursor', async () => {
  const srv = await scripted(({ n }) => ({ body: n === 0 ? frames('k') : LINES.map((l) => `data: ${l}\n\n`).join(''), end: 'end' }));
  const r = factory.createReducer({ deterministicIds: true });
  assert.equal(await r.run(srv.url, undefined, noWaits()), 'completed');
  assert.equal(r.state.lastEventId, `k:${LINES.length}`);
  await r.run(srv.url, r.runInput(), noWaits());
  assert.equal(srv.requests[1].lastEventId, null);
  assert.equal(r.state.lastEventId, undefined);
  r.dispose();
});

test('after a reload: restore(saved) then resume() continues the run from its lastEventId', async () => {
  const srv = await scripted(({ n, lastEventId }) => (n === 0
    ? { body: frames('k', 0, 11), end: 'destroy' }
    : { body: frames('k', seqOf(lastEventId)), end: 'end' }));
  const page1 = factory.createReducer({ deterministicIds: true });
  // The page goes away mid-run: no reconnect from this one.
  assert.equal(await page1.run(srv.url, undefined, { resume: false }), 'failed');
  const saved = JSON.stringify(page1.snapshot());
  page1.dispose();
  // run() settled the cut as a network failure; a page reloaded mid-stream
  // saved the running state instead:
  const running = { ...JSON.parse(saved), status: 'running', isLoading: true, error: null };

  const page2 = factory.createReducer({ deterministicIds: true });
  page2.restore(running);
  assert.equal(page2.state.lastEventId, 'k:11');
  assert.equal(await page2.resume(srv.url), 'completed');
  assert.equal(srv.requests[1].lastEventId, 'k:11');
  assert.deepStrictEqual(normalise(page2.state), uncut);

  // Nothing to resume: settles without a request.
  const before = srv.requests.length;
  assert.equal(await page2.resume(srv.url), 'completed');
  assert.equal(page2.lastRun.reason, 'nothing_to_resume');
  assert.equal(srv.requests.length, before);
  page2.dispose();
});

test('apply(event, {id}) records the id as the cursor', () => {
  const r = factory.createReducer({ deterministicIds: true });
  const rec = r.apply(LINES[0], { id: 'x:1' });
  assert.ok(rec.ops.some((op) => op.path === '/lastEventId' && op.value === 'x:1'));
  assert.equal(r.state.lastEventId, 'x:1');
  r.apply(LINES[1], { id: 'x:2', event: '' });
  assert.equal(r.snapshot().lastEventId, 'x:2');
  r.dispose();
});

test('apply(event, {id}) refuses an id no frame can carry, and keeps the cursor', () => {
  const r = factory.createReducer({ deterministicIds: true });
  r.apply(LINES[0], { id: 'x:1' });
  const rec = r.apply(LINES[1], { id: 'x:2\nid: forged' });
  assert.ok(rec.diagnostics.some((d) => d.code === 'bad_event'), JSON.stringify(rec.diagnostics));
  assert.equal(r.state.lastEventId, 'x:1');
  assert.equal(r.snapshot().lastEventId, 'x:1');
  r.dispose();
});

test('worker reducers reconnect too, and report it', async () => {
  const srv = await scripted(cutsAt(4, 15));
  const { port1, port2 } = new MessageChannel();
  serve(port1);
  const host = createWorkerHost({ worker: port2, wasmURL });
  const r = await host.createReducer({ deterministicIds: true });
  const seen = [];
  r.on('reconnect', (i) => seen.push(i.lastEventId));
  assert.equal(await r.run(srv.url, undefined, { resume: { delay: 0 } }), 'completed');
  assert.deepStrictEqual(seen, ['k:4', 'k:15']);
  assert.equal(r.lastRun.reconnects, 2);
  assert.deepStrictEqual(normalise(r.state), uncut);
  assert.deepStrictEqual(r.state, await r.snapshot());

  // restore + resume in the worker
  const srv2 = await scripted(({ lastEventId }) => ({ body: frames('k', seqOf(lastEventId)), end: 'end' }));
  const cut = factory.createReducer({ deterministicIds: true });
  cut.feed(frames('k', 0, 9));
  const r2 = await host.createReducer({ deterministicIds: true });
  await r2.restore(cut.snapshot());
  assert.equal(await r2.resume(srv2.url), 'completed');
  assert.equal(srv2.requests[0].lastEventId, 'k:9');
  assert.deepStrictEqual(normalise(r2.state), uncut);
  // (A frame of the finished run again would be a replay: the cursor would stay.)
  await r2.apply({ type: 'CUSTOM', name: 'ping', value: 1 }, { id: 'w:1' });
  assert.equal(r2.state.lastEventId, 'w:1');
  cut.dispose();
  r.dispose();
  r2.dispose();
  host.terminate();
});
