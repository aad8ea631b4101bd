// loadThread's tail option (src/thread/thread.js, on unless tail: false): a
// long thread paints its last messages first (GET ?view=reducer&tail=1), then the whole thread,
// which replaces them before any event of a live run is folded. Against the
// demo server's relay, and against a scripted relay (fetch) for the order
// of a live run and for a failure after the tail.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { loadReducer, loadThread, newThreadKey, threadHeaders, threadURL, memoryStore } from '../../entries/agui.node.js';
import { wasmURL } from '../support/helpers.mjs';
import { startDemo } from '../support/demo-server.mjs';

const factory = await loadReducer(wasmURL);
const TAIL = 50; // the relay's tail (relay.TailMessages)
let demo;

before(async () => { demo = await startDemo(['-speed', '0']); });
after(async () => { await demo?.stop(); });

const ids = (state) => state.messages.map((m) => m.id);

/** fetch that records the requests it passes on: [method, path and query]. */
function recording(impl = fetch) {
  const calls = [];
  const f = (url, init) => {
    const u = new URL(url);
    calls.push([init?.method ?? 'GET', u.pathname + u.search]);
    return impl(url, init);
  };
  return { f, calls };
}

test('tail: a long thread paints its last messages first, then the whole thread', async () => {
  const url = `${demo.url}agent`;
  const key = newThreadKey();
  const a = factory.createReducer({ threadId: 'thread-long' });
  for (let i = 0; i < TAIL / 2 + 1; i++) {
    a.addUserMessage(`turn ${i}`);
    assert.equal(await a.run(url, a.runInput({ forwardedProps: { scenario: 'text' } }), { headers: threadHeaders(key) }), 'completed');
  }
  const all = ids(a.state);
  assert.ok(all.length > TAIL);

  const b = factory.createReducer({ threadId: 'thread-long' });
  const seen = [];
  b.subscribe(() => seen.push(ids(b.state)));
  const { f, calls } = recording();
  const res = await loadThread(b, url, 'thread-long', { threadKey: key, tail: true, fetch: f });
  assert.equal(res.source, 'relay');
  assert.equal(res.partial, false);
  assert.deepEqual(seen[0], all.slice(-TAIL), 'the first paint: the last messages');
  assert.deepEqual(seen.at(-1), all, 'then the whole thread');
  assert.deepEqual(calls.map((c) => c[1].replace(/^.*\?/, '')), ['view=reducer&tail=1', 'view=reducer']);
  assert.deepEqual(b.state.messages, a.state.messages);
});

test('tail: a short thread is its own tail: one request', async () => {
  const url = `${demo.url}agent`;
  const key = newThreadKey();
  const a = factory.createReducer({ threadId: 'thread-short' });
  a.addUserMessage('hello');
  assert.equal(await a.run(url, a.runInput({ forwardedProps: { scenario: 'text' } }), { headers: threadHeaders(key) }), 'completed');
  const b = factory.createReducer({ threadId: 'thread-short' });
  const { f, calls } = recording();
  const res = await loadThread(b, url, 'thread-short', { threadKey: key, tail: true, fetch: f });
  assert.equal(res.found, true);
  assert.equal(res.partial, false);
  assert.equal(calls.length, 1, JSON.stringify(calls));
  assert.deepEqual(b.state.messages, a.state.messages);
});

// A scripted relay: a thread of n user messages and, when live, a run
// going on whose frames the POST with Last-Event-ID answers.
function scriptedRelay(n, { live = false, failWhole = false } = {}) {
  const whole = factory.createReducer({ threadId: 't' });
  for (let i = 0; i < n; i++) whole.addUserMessage(`message ${i}`, `u${i}`);
  const tail = factory.createReducer({ threadId: 't' });
  tail.setMessages(whole.state.messages.slice(-TAIL));
  const frames = [
    { type: 'RUN_STARTED', threadId: 't', runId: 'r-live' },
    { type: 'TEXT_MESSAGE_START', messageId: 'a-live', role: 'assistant' },
    { type: 'TEXT_MESSAGE_CONTENT', messageId: 'a-live', delta: 'live' },
    { type: 'TEXT_MESSAGE_END', messageId: 'a-live' },
    { type: 'RUN_FINISHED', threadId: 't', runId: 'r-live' },
  ].map((e, i) => `id: r-live:${i + 1}\ndata: ${JSON.stringify(e)}\n\n`).join('');
  const json = (body, headers) => new Response(JSON.stringify(body), { headers: { 'Content-Type': 'application/json', ...headers } });
  const snapshots = { tail: JSON.stringify(tail.snapshot()), whole: JSON.stringify(whole.snapshot()) };
  tail.dispose();
  whole.dispose();
  return async (url, init) => {
    const u = new URL(url);
    if (init?.method === 'POST') {
      assert.equal(init.headers['Last-Event-ID'], 'r-live:0', 'the cursor of the whole thread');
      return new Response(frames, { headers: { 'Content-Type': 'text/event-stream' } });
    }
    if (u.searchParams.get('tail')) {
      return json(JSON.parse(snapshots.tail), { 'X-Agui-Partial': String(n > TAIL), ...(live ? { 'X-Agui-Last-Event-ID': 'r-live:tail' } : {}) });
    }
    if (failWhole) throw new TypeError('fetch failed');
    return json(JSON.parse(snapshots.whole), live ? { 'X-Agui-Last-Event-ID': 'r-live:0' } : {});
  };
}

test('tail with a live run: the whole thread replaces the tail before the run\'s first event is folded', async () => {
  const n = TAIL + 10;
  const { f, calls } = recording(scriptedRelay(n, { live: true }));
  const r = factory.createReducer({ threadId: 't' });
  const seen = [];
  r.subscribe(() => seen.push(ids(r.state)));
  const res = await loadThread(r, 'http://relay.test/agent', 't', { tail: true, fetch: f });
  assert.equal(res.live, true);
  assert.equal(res.outcome, 'completed');
  assert.deepEqual(calls.map((c) => c[0]), ['GET', 'GET', 'POST']);
  assert.deepEqual(seen[0], Array.from({ length: TAIL }, (_, i) => `u${n - TAIL + i}`), 'the tail first');
  for (const s of seen) {
    if (s.includes('a-live')) assert.equal(s[0], 'u0', `a live event folded into the tail: ${s.length} messages`);
  }
  assert.equal(seen.findIndex((s) => s.includes('a-live')) > seen.findIndex((s) => s.length === n), true);
  assert.deepEqual(ids(r.state), [...Array.from({ length: n }, (_, i) => `u${i}`), 'a-live']);
});

test('tail: when the whole thread cannot be fetched after the tail, the tail stays, marked partial and not kept', async () => {
  const store = memoryStore();
  const r = factory.createReducer({ threadId: 't' });
  const where = 'http://relay.test/agent';
  const res = await loadThread(r, where, 't', { tail: true, persist: store, fetch: scriptedRelay(TAIL + 5, { failWhole: true }) });
  assert.equal(res.partial, true);
  assert.equal(res.offline, true);
  assert.equal(res.source, 'relay');
  assert.equal(r.state.messages.length, TAIL);
  assert.equal(res.persist, null);
  assert.equal(await store.get(threadURL(where, 't')), undefined, 'the tail is not kept as the thread');
  // With tail: false, the same relay answers with the whole thread at once.
  const w = factory.createReducer({ threadId: 't' });
  const seen = [];
  w.subscribe(() => seen.push(w.state.messages.length));
  const { f, calls } = recording(scriptedRelay(TAIL + 5));
  const whole = await loadThread(w, where, 't', { tail: false, fetch: f });
  assert.equal(whole.partial, false);
  assert.deepEqual(seen, [TAIL + 5]);
  assert.equal(calls.length, 1);
});

test('tail is the default: the last messages paint first, then the whole thread', async () => {
  const r = factory.createReducer({ threadId: 't' });
  const seen = [];
  r.subscribe(() => seen.push(r.state.messages.length));
  const { f, calls } = recording(scriptedRelay(TAIL + 5));
  const res = await loadThread(r, 'http://relay.test/agent', 't', { fetch: f });
  assert.equal(res.partial, false);
  assert.deepEqual(seen, [TAIL, TAIL + 5]);
  assert.deepEqual(calls.map((c) => c[1].replace(/^.*\?/, '')), ['view=reducer&tail=1', 'view=reducer']);
});
