// loadThread (src/thread/thread.js) and persist (src/thread/persist.js) against the demo
// server's relay (cmd/agui-demo, built by the test): a thread loaded after
// its run, one loaded mid-run and attached to the live run (the final state
// is the uninterrupted run's), another key's and an unknown thread, the
// browser's copy painted first and kept while the relay is unreachable.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { MessageChannel } from 'node:worker_threads';
import { loadReducer, loadThread, newThreadKey, threadHeaders, threadURL, memoryStore, createAgent, createWorkerHost } from '../../entries/agui.node.js';
import { serve } from '../../src/worker/entry.js';
import { wasmURL } from '../support/helpers.mjs';
import { startDemo } from '../support/demo-server.mjs';

const factory = await loadReducer(wasmURL);
let fast; // speed 0: runs end at once
let slow; // paced: a run lasts a second or two

before(async () => {
  [fast, slow] = await Promise.all([startDemo(['-speed', '0']), startDemo(['-speed', '0.1'])]);
});
after(async () => { await Promise.all([fast?.stop(), slow?.stop()]); });

/** The conversation as a page shows it: roles, contents, tool calls; the state. */
function view(state) {
  return {
    messages: state.messages.map((m) => ({ id: m.id, role: m.role, content: m.content, toolCalls: m.toolCalls })),
    state: state.state,
    status: state.status,
  };
}

async function turn(r, url, key, text, scenario) {
  r.addUserMessage(text);
  return r.run(url, r.runInput({ forwardedProps: { scenario } }), { headers: threadHeaders(key) });
}

test('threadURL and newThreadKey', () => {
  assert.equal(threadURL('/agent', 't 1'), '/threads/t%201');
  assert.equal(threadURL('http://h:1/relay/agent?x=1', 't'), 'http://h:1/relay/threads/t');
  const k = newThreadKey();
  assert.match(k, /^[A-Za-z0-9_-]{22}$/);
  assert.notEqual(k, newThreadKey());
});

test('a finished thread loads as it was: every turn, the state', async () => {
  const url = `${fast.url}agent`;
  const key = newThreadKey();
  const a = factory.createReducer({ threadId: 'thread-finished' });
  assert.equal(await turn(a, url, key, 'hello', 'text'), 'completed');
  assert.equal(await turn(a, url, key, 'the state please', 'state'), 'completed');

  const b = factory.createReducer({ threadId: 'thread-finished' });
  const res = await loadThread(b, url, 'thread-finished', { threadKey: key });
  assert.equal(res.source, 'relay');
  assert.equal(res.found, true);
  assert.equal(res.live, false);
  assert.deepEqual(view(b.state).messages, view(a.state).messages);
  assert.deepEqual(b.state.state, a.state.state);
  // And the conversation goes on from there.
  assert.equal(await turn(b, url, key, 'more', 'text'), 'completed');
  assert.equal(b.state.messages.length, a.state.messages.length + 2);

  // Another key, or a thread never run: nothing (and no error state).
  const c = factory.createReducer({});
  const other = await loadThread(c, url, 'thread-finished', { threadKey: newThreadKey() });
  assert.equal(other.found, false);
  assert.equal(c.state.messages.length, 0);
  assert.equal(c.state.error, null);
  const none = await loadThread(c, url, 'no-such-thread', { threadKey: key });
  assert.equal(none.found, false);
});

test('a thread loaded mid-run shows the conversation, then the run live: the final state is the uninterrupted run\'s', async () => {
  const url = `${slow.url}agent`;
  const key = newThreadKey();
  const a = factory.createReducer({ threadId: 'thread-live' });
  assert.equal(await turn(a, url, key, 'first', 'text'), 'completed');
  const running = turn(a, url, key, 'use a tool', 'tools');
  // Mid-run: some frames folded, not all.
  for (let i = 0; i < 200 && a.state.messages.length < 4; i++) await new Promise((r) => setTimeout(r, 20));
  assert.equal(a.state.status, 'running');

  const b = factory.createReducer({ threadId: 'thread-live' });
  const painted = [];
  b.subscribe(() => { if (painted.length === 0) painted.push(view(b.state)); });
  const res = await loadThread(b, url, 'thread-live', { threadKey: key });
  assert.equal(await running, 'completed');
  assert.equal(res.live, true, 'the run was going on');
  assert.equal(res.outcome, 'completed');
  // The first paint already had the whole conversation before the run: both user turns.
  assert.ok(painted[0].messages.filter((m) => m.role === 'user').length === 2, JSON.stringify(painted[0]));
  assert.deepEqual(view(b.state), view(a.state));
});

test('persist: the browser\'s copy paints first, stays when the relay cannot be reached, and is replaced by the relay\'s', async () => {
  const url = `${fast.url}agent`;
  const key = newThreadKey();
  const store = memoryStore();
  const a = factory.createReducer({ threadId: 'thread-kept' });
  const first = await loadThread(a, url, 'thread-kept', { threadKey: key, persist: store });
  assert.equal(first.found, false);
  assert.equal(await turn(a, url, key, 'hello', 'text'), 'completed');
  await first.persist.stop();
  const saved = await store.get(threadURL(url, 'thread-kept'));
  assert.equal(saved.snapshot.messages.length, a.state.messages.length);

  // Offline: the copy is all there is.
  const offline = factory.createReducer({ threadId: 'thread-kept' });
  const down = async () => { throw new TypeError('fetch failed'); };
  const r1 = await loadThread(offline, url, 'thread-kept', { threadKey: key, persist: store, fetch: down });
  assert.equal(r1.source, 'cache');
  assert.equal(r1.offline, true);
  assert.deepEqual(view(offline.state), view(a.state));
  await r1.persist.stop();

  // The relay moved on (another turn elsewhere): the copy paints, then the relay's thread replaces it.
  assert.equal(await turn(a, url, key, 'again', 'text'), 'completed');
  const c = factory.createReducer({ threadId: 'thread-kept' });
  const seen = [];
  c.subscribe(() => seen.push(c.state.messages.length));
  const r2 = await loadThread(c, url, 'thread-kept', { threadKey: key, persist: store });
  assert.equal(r2.source, 'relay');
  assert.deepEqual(seen, [2, 4], 'the copy (one turn), then the relay\'s (two)');
  assert.deepEqual(view(c.state), view(a.state));
  await r2.persist.stop();
});

test('an agent of createAgent loads a thread too (its reducer, loaded first)', async () => {
  const url = `${fast.url}agent`;
  const key = newThreadKey();
  const a = factory.createReducer({ threadId: 'thread-agent' });
  assert.equal(await turn(a, url, key, 'hello', 'text'), 'completed');
  const agent = createAgent({ url, wasm: wasmURL, threadId: 'thread-agent', runOptions: { headers: threadHeaders(key) } });
  const res = await loadThread(agent, url, 'thread-agent', { threadKey: key });
  assert.equal(res.found, true);
  assert.deepEqual(view(agent.state), view(a.state));
  await agent.send('more');
  assert.equal(agent.state.messages.length, a.state.messages.length + 2);
  agent.dispose();
});

test('a worker reducer loads a thread mid-run and follows the live run', async () => {
  const url = `${slow.url}agent`;
  const key = newThreadKey();
  const a = factory.createReducer({ threadId: 'thread-worker' });
  assert.equal(await turn(a, url, key, 'first', 'text'), 'completed');
  const running = turn(a, url, key, 'use a tool', 'tools');
  for (let i = 0; i < 200 && a.state.messages.length < 4; i++) await new Promise((r) => setTimeout(r, 20));
  const { port1, port2 } = new MessageChannel();
  serve(port1);
  const host = createWorkerHost({ worker: port2, wasmURL });
  try {
    const w = await host.createReducer({ threadId: 'thread-worker' });
    const res = await loadThread(w, url, 'thread-worker', { threadKey: key });
    assert.equal(await running, 'completed');
    assert.equal(res.live, true);
    assert.equal(res.outcome, 'completed');
    assert.deepEqual(view(w.state), view(a.state));
  } finally {
    host.terminate();
    port1.close();
  }
});
