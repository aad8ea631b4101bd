// The drop-in HttpAgent (web/src/ag-ui/drop-in.js) resumes cut runs: a server that
// cuts every response and resumes from Last-Event-ID gives the same
// agent.messages, agent.state, subscriber calls and result as
// @ag-ui/client's HttpAgent on an uncut response. No timing: the backoff
// waits are 0.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import * as client from '@ag-ui/client';
import { recorder, normalise, quietly, loadDropIn } from './diff.mjs';
import { generate } from '../../../bench/gen.mjs';

const conv = generate({ turns: 1, seed: 11, textDeltas: 30, reasoningDeltas: 3, argDeltas: 6 });
const EVENTS = conv.turns[0].events;

/** frames [from, to) with ids k:<seq>. */
const frames = (from = 0, to = EVENTS.length, tag = 'k') => EVENTS.slice(from, to).map((e, i) => `id: ${tag}:${from + i + 1}\ndata: ${JSON.stringify(e)}\n\n`).join('');
const seqOf = (id) => (id ? Number(id.split(':')[1]) : 0);

/** A server answering request n with script({n, lastEventId}) → {body} or {status, json}. */
let servers = [];
async function scripted(script) {
  const requests = [];
  const server = http.createServer(async (req, res) => {
    for await (const _ of req); // eslint-disable-line no-unused-vars
    const lastEventId = req.headers['last-event-id'] ?? null;
    const a = script({ n: requests.length, lastEventId });
    requests.push({ lastEventId });
    if (a.status) { res.writeHead(a.status, { 'content-type': 'application/json' }).end(JSON.stringify(a.json)); return; }
    res.writeHead(200, { 'content-type': 'text/event-stream', connection: 'close' });
    res.end(a.body);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return { url: `http://127.0.0.1:${server.address().port}/agent`, requests };
}

let HttpAgent;
before(async () => { ({ HttpAgent } = await loadDropIn()); });
after(() => Promise.all(servers.map((s) => new Promise((r) => s.close(r)))));

async function observe(agent) {
  const log = [];
  agent.subscribe(recorder(log));
  let result;
  try {
    const r = await agent.runAgent({ runId: 'run-0' });
    result = { result: r.result ?? null, newMessages: r.newMessages };
  } catch (err) {
    result = { error: String(err?.message ?? err) };
  }
  await new Promise((r) => setTimeout(r, 0));
  return normalise({ result, log, messages: agent.messages, state: agent.state });
}

test('cut at several frames and resumed: what the official agent observes uncut', async () => {
  const cuts = [4, 9, 10, 31, 40];
  const whole = await scripted(() => ({ body: frames() }));
  const cut = await scripted(({ n, lastEventId }) => ({ body: frames(seqOf(lastEventId), cuts[n] ?? EVENTS.length) }));
  const official = await quietly(() => observe(new client.HttpAgent({ url: whole.url, threadId: 't' })));
  const reconnects = [];
  const ours = new HttpAgent({ url: cut.url, threadId: 't', resume: { delay: 0, onReconnect: (i) => reconnects.push(i.lastEventId) } });
  const got = await quietly(() => observe(ours));
  assert.deepStrictEqual(got, official);
  assert.deepStrictEqual(cut.requests.map((r) => r.lastEventId), [null, ...cuts.map((c) => `k:${c}`)]);
  assert.deepStrictEqual(reconnects, cuts.map((c) => `k:${c}`));
  assert.equal(ours.lastRun.reconnects, cuts.length);
  assert.equal(ours.lastEventId, `k:${EVENTS.length}`);
});

test('a server that resends from earlier frames: nothing applies twice', async () => {
  const whole = await scripted(() => ({ body: frames() }));
  const cut = await scripted(({ n, lastEventId }) => ({ body: frames(Math.max(0, seqOf(lastEventId) - 3), n < 3 ? 12 * (n + 1) : EVENTS.length) }));
  const official = await quietly(() => observe(new client.HttpAgent({ url: whole.url, threadId: 't' })));
  const got = await quietly(() => observe(new HttpAgent({ url: cut.url, threadId: 't', resume: { delay: 0 } })));
  assert.deepStrictEqual(got, official);
});

test('a failed resume (410) fails the run with the server\'s reason; resume: false cuts as the official agent', async () => {
  const srv = await scripted(({ n }) => (n === 0 ? { body: frames(0, 8) } : { status: 410, json: { error: 'gone', code: 'resume_unavailable' } }));
  const got = await quietly(() => observe(new HttpAgent({ url: srv.url, threadId: 't', resume: { delay: 0 } })));
  assert.match(got.result.error, /resume failed: gone/);

  const plain = await scripted(() => ({ body: frames(0, 8) }));
  const official = await quietly(() => observe(new client.HttpAgent({ url: plain.url, threadId: 't' })));
  const off = await quietly(() => observe(new HttpAgent({ url: plain.url, threadId: 't', resume: false })));
  assert.deepStrictEqual(off, official);
  assert.equal(plain.requests.length, 2);
});

test('after a reload: connectAgent() continues the run from the saved lastEventId', async () => {
  // Cut between two messages: the resumed stream verifies as a run of its own.
  const at = EVENTS.findIndex((e, i) => i > 0 && e.type === 'TEXT_MESSAGE_START');
  const srv = await scripted(({ n, lastEventId }) => ({ body: frames(seqOf(lastEventId), n === 0 ? at : EVENTS.length) }));
  const page1 = new HttpAgent({ url: srv.url, threadId: 't', resume: { attempts: 0 } }); // ids kept, no reconnect
  await quietly(() => page1.runAgent({ runId: 'run-0' }).catch(() => {}));
  const saved = { lastEventId: page1.lastEventId, messages: page1.messages, state: page1.state };
  assert.equal(saved.lastEventId, `k:${at}`);

  const page2 = new HttpAgent({ url: srv.url, threadId: 't', initialMessages: saved.messages, initialState: saved.state, lastEventId: saved.lastEventId, resume: { delay: 0 } });
  await quietly(() => page2.connectAgent({ runId: 'run-0' }));
  assert.equal(srv.requests.at(-1).lastEventId, `k:${at}`);

  const whole = await scripted(() => ({ body: frames() }));
  const official = new client.HttpAgent({ url: whole.url, threadId: 't' });
  await quietly(() => official.runAgent({ runId: 'run-0' }));
  assert.deepStrictEqual(normalise(page2.messages), normalise(official.messages));
  assert.deepStrictEqual(normalise(page2.state), normalise(official.state));
});
