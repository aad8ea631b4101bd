// run() and resume() under faults, against local misbehaving servers: the
// cursor survives a resumed response whose first frame has no id, the
// requests of one call are bounded whatever the server claims is progress,
// a cursor that cannot be sent is refused before any request, and a bad
// argument rejects (never throws) and leaves the reducer usable. Backoff
// waits are injected or 0; nothing here asserts a timing.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { MessageChannel } from 'node:worker_threads';
import { loadReducer, createWorkerHost, createAgent } from '../../entries/agui.node.js';
import { serve } from '../../src/worker/entry.js';
import { FirstEvent } from '../../src/reducer/resume.js';
import { wasmURL, rng } from '../support/helpers.mjs';

const factory = await loadReducer(wasmURL);

/** A run answering "ABC" in three deltas; events[i] goes out with id `${tag}:${i + 1}`. */
function answer(runId = 'r1', text = ['A', 'B', 'C']) {
  return [
    { type: 'RUN_STARTED', threadId: 't', runId },
    { type: 'TEXT_MESSAGE_START', messageId: `m-${runId}`, role: 'assistant' },
    ...text.map((delta) => ({ type: 'TEXT_MESSAGE_CONTENT', messageId: `m-${runId}`, delta })),
    { type: 'TEXT_MESSAGE_END', messageId: `m-${runId}` },
    { type: 'RUN_FINISHED', threadId: 't', runId },
  ];
}
const EVENTS = answer();

/** SSE frames of events[from, to), with ids `${tag}:<seq>` (null tag: no ids). */
function frames(events, from = 0, to = events.length, tag = 'k') {
  let s = '';
  for (let i = from; i < to; i++) s += `${tag === null ? '' : `id: ${tag}:${i + 1}\n`}data: ${JSON.stringify(events[i])}\n\n`;
  return s;
}
const seqOf = (id) => (id ? Number(id.split(':')[1]) : 0);

/**
 * A server whose answer to request n is script({n, lastEventId}): {status}
 * for an HTTP error, {destroy: true} for a connection cut before any byte,
 * else {body} (the response ends after it; an array of pieces is written a
 * piece at a time). Past 60 requests it answers 410: every loop ends.
 */
async function scripted(script) {
  const requests = [];
  const server = http.createServer(async (req, res) => {
    for await (const _ of req); // eslint-disable-line no-unused-vars
    const lastEventId = req.headers['last-event-id'] ?? null;
    const a = requests.length >= 60 ? { status: 410 } : script({ n: requests.length, lastEventId });
    requests.push({ lastEventId });
    res.setHeader('Connection', 'close');
    if (a.destroy) { req.socket.destroy(); return; }
    if (a.status) { res.writeHead(a.status, { 'Content-Type': 'application/json' }).end('{}'); return; }
    res.writeHead(200, { 'Content-Type': 'text/event-stream' });
    for (const piece of [a.body].flat()) {
      res.write(piece);
      await new Promise((resolve) => setTimeout(resolve, 20)); // pieces reach the client apart
    }
    res.end();
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  after(() => new Promise((resolve) => server.close(resolve)));
  return { url: `http://127.0.0.1:${server.address().port}/agent`, requests };
}

/** Resume options that do not wait. */
const NOW = { delay: 0, sleep: async () => true };

function workerHost() {
  const { port1, port2 } = new MessageChannel();
  serve(port1);
  const host = createWorkerHost({ worker: port2, wasmURL });
  after(() => host.terminate());
  return host;
}

const text = (state) => state.messages.filter((m) => m.role === 'assistant').map((m) => m.content);

for (const mode of ['same thread', 'worker']) {
  const make = mode === 'worker' ? (() => { const host = workerHost(); return () => host.createReducer({}); })() : async () => factory.createReducer({});

  test(`${mode}: a resumed response whose first frame has no id keeps the cursor; the frame resent after it applies once`, async () => {
    // The first response is cut after "AB"; the resumed one opens with a
    // frame without an id, then resends from "A" (k:3) on.
    const srv = await scripted(({ n }) => (n === 0
      ? { body: frames(EVENTS, 0, 4) }
      : { body: [`data: ${JSON.stringify({ type: 'CUSTOM', name: 'keep-alive', value: 1 })}\n\n`, frames(EVENTS, 2)] }));
    const r = await make();
    assert.equal(await r.run(srv.url, undefined, { resume: NOW }), 'completed');
    assert.deepStrictEqual(text(r.state), ['ABC']);
    assert.equal(r.state.lastEventId, `k:${EVENTS.length}`);
    assert.deepStrictEqual(srv.requests.map((q) => q.lastEventId), [null, 'k:4']);
    r.dispose();
  });

  test(`${mode}: a server that mints a new run on every request and cuts every answer: two requests, one answer`, async () => {
    const srv = await scripted(({ n }) => ({ body: frames(answer(`run-${n}`, ['w', 'x', 'y']), 0, 4, `t${n}`) }));
    const r = await make();
    assert.equal(await r.run(srv.url, undefined, { resume: NOW }), 'failed');
    assert.equal(srv.requests.length, 2, 'the reconnect is answered with another run: no more requests');
    assert.deepStrictEqual(text(r.state), ['wx'], 'the answer of the run, not one per attempt');
    assert.equal(r.state.runId, 'run-0');
    assert.equal(r.state.error.code, 'resume_restarted');
    r.dispose();
  });

  test(`${mode}: run() and resume() refuse a cursor with CR, LF or NUL before any request`, async () => {
    const srv = await scripted(() => ({ body: frames(EVENTS) }));
    const r = await make();
    for (const bad of ['k:1\r\nX-Forged: 1', 'k:1\n', 'k\u00001']) {
      const before = JSON.stringify(r.state);
      await assert.rejects(r.run(srv.url, undefined, { lastEventId: bad, resume: NOW }), (err) => err.code === 'bad_last_event_id');
      assert.equal(JSON.stringify(r.state), before, 'state unchanged');
    }
    // A restored state whose cursor cannot be sent (if restore() keeps it):
    // resume() makes no request and never reports a network failure.
    const running = { ...(await r.snapshot()), threadId: 't', runId: 'r1', status: 'running', isLoading: true, lastEventId: 'k:2\nX: 1' };
    await r.restore(running);
    let outcome;
    try { outcome = await r.resume(srv.url, undefined, { resume: NOW }); } catch (err) { outcome = err.code; }
    assert.ok(outcome === 'bad_last_event_id' || r.state.lastEventId !== running.lastEventId, `resume(): ${outcome}`);
    assert.notEqual(r.state.error?.code, 'network');
    assert.equal(srv.requests.length, 0);
    // The reducer is not left busy.
    assert.equal(await r.run(srv.url, undefined, { resume: NOW }), 'completed');
    r.dispose();
  });

  test(`${mode}: apply(event, {id}) with an id no frame can carry is an error and applies nothing`, async () => {
    const r = await make();
    await r.apply(EVENTS[0], { id: 'k:1' });
    const before = JSON.stringify(await r.snapshot());
    for (const id of ['k:2\r\nid: forged', 'k:2\n', 'k\u00002']) {
      const rec = await r.apply(EVENTS[1], { id });
      assert.ok(rec.diagnostics.some((d) => d.code === 'bad_event' && d.level === 'error'), JSON.stringify(rec));
      assert.equal(JSON.stringify(await r.snapshot()), before, 'state unchanged');
    }
    assert.deepStrictEqual(r.state, await r.snapshot());
    r.dispose();
  });

  test(`${mode}: apply(event, {id}) of an event JSON cannot encode is an error and moves no cursor`, async () => {
    const r = await make();
    await r.apply(EVENTS[0], { id: 'k:1' });
    const before = JSON.stringify(await r.snapshot());
    const cyclic = { ...EVENTS[1] };
    cyclic.self = cyclic;
    for (const event of [cyclic, { ...EVENTS[1], big: 1n }]) {
      const rec = await r.apply(event, { id: 'k:2' });
      assert.ok(rec.diagnostics.some((d) => d.code === 'bad_event' && d.level === 'error'), JSON.stringify(rec));
      assert.equal(JSON.stringify(await r.snapshot()), before, 'state unchanged (lastEventId too)');
    }
    assert.deepStrictEqual(r.state, await r.snapshot());
    r.dispose();
  });

  test(`${mode}: a bad argument to run() rejects and releases the run`, async () => {
    const srv = await scripted(() => ({ body: frames(EVENTS) }));
    const r = await make();
    const cyclic = { threadId: 't' };
    cyclic.self = cyclic;
    const bad = [
      () => r.run('http://[bad', undefined, { resume: NOW }),
      () => r.run(srv.url, cyclic, { resume: NOW }),
      () => r.run(srv.url, { big: 1n }, { resume: NOW }),
      () => r.run(srv.url, undefined, { resume: { attempts: -1 } }),
    ];
    for (const call of bad) {
      let p;
      assert.doesNotThrow(() => { p = call(); }, 'rejects, never throws');
      await p.then((outcome) => assert.notEqual(outcome, 'completed'), () => {});
    }
    assert.equal(await r.run(srv.url, undefined, { resume: NOW }), 'completed', 'a later run is not "already in progress"');
    assert.deepStrictEqual(text(r.state), ['ABC']);
    r.dispose();
  });
}

test('worker: every async method rejects on an argument it cannot send, never throws', async () => {
  const host = workerHost();
  const r = await host.createReducer({});
  const cyclic = {};
  cyclic.self = cyclic;
  const calls = [
    () => r.feed(42),
    () => r.feed({}),
    () => r.apply({ type: 'CUSTOM', name: 'x', value: 1 }, { id: Symbol('x') }),
    () => r.addUserMessage(cyclic),
    () => r.addToolResult('tc', 1n),
    () => r.fail(Symbol('m')),
    () => r.runInput(cyclic),
  ];
  for (const call of calls) {
    let p;
    assert.doesNotThrow(() => { p = call(); }, String(call));
    await p.then(() => {}, () => {});
  }
  await r.addUserMessage('still here');
  assert.equal(r.state.messages.at(-1).content, 'still here');
  r.dispose();
});

test('agent (worker): a bad url rejects, the next run completes', async () => {
  const srv = await scripted(() => ({ body: frames(EVENTS) }));
  const { port1, port2 } = new MessageChannel();
  serve(port1);
  const agent = createAgent({ url: srv.url, wasm: wasmURL, worker: { worker: port2 }, runOptions: { resume: NOW } });
  await assert.rejects(agent.run(undefined, { url: 'http://[bad' }));
  assert.equal(await agent.run(), 'completed');
  agent.dispose();
  port2.close();
});

// The bounded work property: whatever a server answers — cut answers that
// each bring a new frame, new runs, the run from its start, 5xx, cut
// connections, in any mix — one run() makes at most 1 + maxReconnects
// requests, and the conversation holds one answer.
test('bounded work: run() makes at most its budget of requests against any misbehaving server', async () => {
  const rand = rng(21);
  const LONG = answer('r1', Array.from({ length: 300 }, (_, i) => `w${i} `));
  const behaviours = {
    progress: ({ lastEventId }) => ({ body: frames(LONG, seqOf(lastEventId), Math.min(seqOf(lastEventId) + 1, LONG.length - 1)) }),
    newRun: ({ n }) => ({ body: frames(answer(`run-${n}`), 0, 4, `t${n}`) }),
    restart: ({ n }) => ({ body: frames(LONG, 0, 5, `s${n}`) }),
    status: ({ n }) => (n === 0 ? { body: frames(LONG, 0, 3) } : { status: 503 }),
    destroy: ({ n }) => (n === 0 ? { body: frames(LONG, 0, 3) } : { destroy: true }),
    freshIds: ({ n, lastEventId }) => ({ body: frames(LONG, seqOf(lastEventId), seqOf(lastEventId) + 2, `f${n}`).replace(/id: f\d+:/g, `id: f${n}x`) }),
  };
  const names = Object.keys(behaviours);
  const mixed = ({ n, lastEventId }) => behaviours[names[(n * 7 + 3) % names.length]]({ n, lastEventId });
  const cases = [...names.map((name) => [name, behaviours[name]]), ['mixed', mixed]];
  const host = workerHost();
  for (const [name, behaviour] of [...cases, ...cases.map(([n, b]) => [`${n} (worker)`, b])]) {
    const maxReconnects = 1 + Math.floor(rand() * 12);
    const attempts = Math.floor(rand() * 4);
    const srv = await scripted(behaviour);
    const r = name.endsWith('(worker)') ? await host.createReducer({}) : factory.createReducer({});
    const resume = name.endsWith('(worker)') ? { delay: 0, attempts, maxReconnects } : { ...NOW, attempts, maxReconnects };
    const outcome = await r.run(srv.url, undefined, { resume });
    assert.notEqual(outcome, 'completed', name);
    assert.ok(srv.requests.length <= 1 + maxReconnects, `${name}: ${srv.requests.length} requests, budget 1 + ${maxReconnects}`);
    assert.ok(text(r.state).length <= 1, `${name}: ${text(r.state).length} answers`);
    assert.ok(r.lastRun.reconnects <= maxReconnects, `${name}: lastRun ${JSON.stringify(r.lastRun)}`);
    r.dispose();
  }
});

test('a reconnect\'s first event is found however the body is split, in one pass', () => {
  const bodies = [
    'data: {"type":"RUN_STARTED","runId":"x"}\n\n',
    '\ufeff: keep-alive\r\n\r\nid: 1\r\ndata: a\r\ndata: b\r\n\r\ndata: c\n\n',
    'retry: 10\r\rdata\r\r',
    'event: x\ndata:  two spaces\n\n',
  ];
  for (const body of bodies) {
    const whole = new FirstEvent().push(body);
    assert.notEqual(whole, null, JSON.stringify(body));
    for (let k = 1; k < body.length; k++) {
      const f = new FirstEvent();
      const got = f.push(body.slice(0, k)) ?? f.push(body.slice(k));
      assert.equal(got, whole, `${JSON.stringify(body)} split at ${k}`);
    }
    const f = new FirstEvent();
    let got = null;
    for (const c of body) got ??= f.push(c);
    assert.equal(got, whole, 'a character at a time');
  }
  assert.equal(new FirstEvent().push('data: no blank line yet\n'), null);
});
