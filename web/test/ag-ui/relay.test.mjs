// The drop-in HttpAgent's connect path (src/ag-ui/connect.js) against
// agui-relay (cmd/agui-relay, memory store) in front of the demo's recorded
// agent (cmd/agui-demo), both built and started here: a page's agent that
// reloads (a new agent, same threadId) gets the conversation from
// connectAgent(), after the run and mid-run (then the live run to its end,
// ending as the uninterrupted agent); the thread key the relay hands out
// is kept in the agent's headers; an agent not behind a relay connects as
// @ag-ui/client's does (nothing). @ag-ui/client 1.0.0. No timing.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as client from '@ag-ui/client';
import { normalise, quietly, loadDropIn } from './diff.mjs';
import { startDemo, startRelay } from '../support/demo-server.mjs';

const { HttpAgent } = await loadDropIn();
let demo;
let relay;

before(async () => {
  demo = await startDemo(['-speed', '0.1']);
  relay = await startRelay(`${demo.url}agent`);
});
after(async () => { await relay?.stop(); await demo?.stop(); });

const KEY = 'X-Agui-Thread-Key';

async function turn(agent, text, scenario) {
  agent.addMessage({ id: `u-${Math.random().toString(36).slice(2)}`, role: 'user', content: text });
  return agent.runAgent({ forwardedProps: { scenario } });
}

test('connectAgent() after a reload: the thread as it was', async () => {
  const a = new HttpAgent({ url: `${relay.url}agent`, threadId: 'relay-finished' });
  await quietly(() => turn(a, 'hello', 'text'));
  await quietly(() => turn(a, 'the state', 'state'));
  assert.match(a.headers[KEY] ?? '', /^[A-Za-z0-9_-]{22}$/, 'the relay\'s thread key is kept');

  const b = new HttpAgent({ url: `${relay.url}agent`, threadId: 'relay-finished', headers: { [KEY]: a.headers[KEY] } });
  const res = await quietly(() => b.connectAgent());
  assert.deepStrictEqual(normalise(b.messages), normalise(a.messages));
  assert.deepStrictEqual(b.state, a.state);
  assert.equal(res.newMessages.length, a.messages.length);
  // And the conversation goes on from the loaded thread.
  await quietly(() => turn(b, 'more', 'text'));
  assert.equal(b.messages.length, a.messages.length + 2);

  // Another key: nothing, and no error.
  const c = new HttpAgent({ url: `${relay.url}agent`, threadId: 'relay-finished', headers: { [KEY]: 'x'.repeat(22) } });
  await quietly(() => c.connectAgent());
  assert.deepStrictEqual(c.messages, []);
});

test('connectAgent() mid-run: the conversation, then the live run to its end, as the uninterrupted agent', async () => {
  const a = new HttpAgent({ url: `${relay.url}agent`, threadId: 'relay-live' });
  await quietly(() => turn(a, 'hello', 'text'));
  const running = quietly(() => turn(a, 'a tool please', 'tools'));
  for (let i = 0; i < 300 && !a.messages.some((m) => m.role === 'assistant' && m.toolCalls?.length); i++) await new Promise((r) => setTimeout(r, 20));
  assert.ok(a.isRunning, 'mid-run');

  const b = new HttpAgent({ url: `${relay.url}agent`, threadId: 'relay-live', headers: { [KEY]: a.headers[KEY] } });
  const seen = [];
  b.subscribe({ onRunStartedEvent: ({ event }) => { seen.push(event.runId); } });
  await quietly(() => b.connectAgent({ runId: 'connect-1' }));
  await running;
  assert.deepStrictEqual(normalise(b.messages), normalise(a.messages));
  assert.deepStrictEqual(b.state, a.state);
  assert.equal(seen[0], 'connect-1', 'the snapshots come as the connect\'s own run');
  assert.equal(seen.length, 2, 'then the live run');
  assert.equal(new Set(b.messages.map((m) => m.id)).size, b.messages.length, 'each message once');
  assert.match(b.lastEventId, /^[A-Za-z0-9_-]{16}:\d+$/);
});

test('an agent not behind a relay connects as @ag-ui/client\'s: nothing, and without a thread key asks nothing', async () => {
  const url = `${demo.url}agent`; // the recorded agent itself: GET threads/… is refused
  const counting = () => {
    const seen = [];
    return { seen, fetch: (u, init) => { seen.push(`${init?.method ?? 'GET'} ${new URL(u).pathname}`); return fetch(u, init); } };
  };
  const official = new client.HttpAgent({ url, threadId: 'plain' });
  const o = await quietly(() => official.connectAgent());
  for (const config of [{}, { threads: true }, { headers: { [KEY]: 'y'.repeat(22) } }, { threads: false, headers: { [KEY]: 'y'.repeat(22) } }]) {
    const c = counting();
    const ours = new HttpAgent({ url, threadId: 'plain', fetch: c.fetch, ...config });
    const r = await quietly(() => ours.connectAgent());
    assert.deepStrictEqual(r, o, JSON.stringify(config));
    assert.deepStrictEqual(ours.messages, []);
    const asked = config.threads === true || (config.headers && config.threads !== false);
    assert.deepStrictEqual(c.seen, asked ? ['GET /threads/plain'] : [], JSON.stringify(config));
  }
});

test('threads: true: a relay with -auth-header, the agent\'s credential header and no key', async () => {
  const authed = await startRelay(`${demo.url}agent`, ['-auth-header', 'Authorization']);
  try {
    const headers = { Authorization: 'Bearer user-1' };
    const a = new HttpAgent({ url: `${authed.url}agent`, threadId: 'authed', headers });
    await quietly(() => turn(a, 'hello', 'text'));
    const b = new HttpAgent({ url: `${authed.url}agent`, threadId: 'authed', headers, threads: true });
    await quietly(() => b.connectAgent());
    assert.deepStrictEqual(normalise(b.messages), normalise(a.messages));
    const other = new HttpAgent({ url: `${authed.url}agent`, threadId: 'authed', headers: { Authorization: 'Bearer user-2' }, threads: true });
    await quietly(() => other.connectAgent());
    assert.deepStrictEqual(other.messages, [], 'another credential: nothing');
  } finally {
    await authed.stop();
  }
});
