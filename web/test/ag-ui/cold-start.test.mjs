// The drop-in's cold start (web/src/ag-ui/factory.js, with-reducer.js): a run
// never waits for the wasm. A run that starts while the reducer factory
// loads is folded by @ag-ui/client's own apply step; the next run that starts
// with the factory at hand restores the reducer from agent.messages and
// folds with it; subscribers see the same calls, messages and state as with
// a reducer ready from the start and as with HttpAgent 1.0.0. A factory that
// fails to load leaves the runs to the official apply step, with one
// warning. No timing.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as client from '@ag-ui/client';
import { from } from 'rxjs';
import { loadReducer } from '../../entries/agui.node.js';
import { withReducer } from '../../src/ag-ui/with-reducer.js';
import { serve, recorder, normalise, quietly } from './diff.mjs';
import { generate } from '../../../bench/gen.mjs';

const Ours = withReducer(client.HttpAgent);
const conv = generate({ turns: 3, seed: 11, textDeltas: 20, reasoningDeltas: 3, argDeltas: 5 });
const run = (id, events) => [
  { type: 'RUN_STARTED', threadId: 'thread-1', runId: id },
  ...events,
  { type: 'RUN_FINISHED', threadId: 'thread-1', runId: id },
];
// A patch that fails on the first run (both apply steps skip it and go on).
const badPatch = [
  run('b0', [
    { type: 'STATE_SNAPSHOT', snapshot: { a: 1 } },
    { type: 'STATE_DELTA', delta: [{ op: 'replace', path: '/missing/x', value: 2 }] },
    { type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' },
    { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'hi' },
    { type: 'TEXT_MESSAGE_END', messageId: 'm1' },
    { type: 'STATE_DELTA', delta: [{ op: 'add', path: '/b', value: 2 }] },
  ]),
  run('b1', [
    { type: 'TEXT_MESSAGE_START', messageId: 'm2', role: 'assistant' },
    { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm2', delta: 'again' },
    { type: 'TEXT_MESSAGE_END', messageId: 'm2' },
    { type: 'STATE_DELTA', delta: [{ op: 'replace', path: '/a', value: 3 }] },
  ]),
];
const streams = new Map([
  ['conv', conv.turns.map((t) => t.events.map((e) => (e.type === 'RUN_STARTED' || e.type === 'RUN_FINISHED' ? { ...e, threadId: 'thread-1' } : e)))],
  ['bad-patch', badPatch],
]);

let server, factory;
before(async () => {
  factory = await loadReducer(new URL('../../dist/agui.wasm', import.meta.url));
  server = await serve(streams);
});
after(() => server.close());

/**
 * Each run of a stream through one agent, two recording subscribers;
 * beforeRun(i) is awaited before run i. Resolves to what was observed, and
 * whether each run left the agent with a reducer.
 */
async function observe(agent, key, beforeRun = async () => {}, onRunStarted = () => {}) {
  const log = [];
  agent.subscribe(recorder(log));
  agent.subscribe(recorder(log, '1:'));
  agent.subscribe({ onRunStartedEvent: () => { onRunStarted(); } });
  const results = [];
  const reducer = [];
  for (let i = 0; i < streams.get(key).length; i++) {
    await beforeRun(i);
    agent.url = server.url(key, i);
    try {
      const r = await agent.runAgent({ runId: `run-${i}` });
      results.push({ result: r.result ?? null, newMessages: r.newMessages });
    } catch (err) {
      results.push({ error: String(err?.message ?? err) });
    }
    reducer.push(agent.reducerState !== undefined);
  }
  await new Promise((r) => setTimeout(r, 0)); // onRunFinalized lands
  return {
    seen: normalise({ results, log, messages: agent.messages, state: agent.state, pendingInterrupts: agent.pendingInterrupts }),
    reducer,
  };
}

function deferred() {
  let resolve, reject;
  const promise = new Promise((res, rej) => { resolve = res; reject = rej; });
  return { promise, resolve, reject };
}

for (const key of streams.keys()) {
  test(`a run that starts before the reducer is ready is folded by the official apply step, the next by the reducer: ${key}`, async () => {
    const config = { url: server.url(key, 0), threadId: 'thread-1' };
    const official = await quietly(() => observe(new client.HttpAgent(config), key));
    const warm = await quietly(() => observe(new Ours({ ...config, reducer: factory }), key));
    const pending = deferred();
    const cold = await quietly(() => observe(new Ours({ ...config, reducer: pending.promise }), key, async (i) => {
      if (i === 1) {
        pending.resolve(factory);
        await pending.promise;
      }
    }));
    assert.deepEqual(warm.seen, official.seen, 'the reducer folds as HttpAgent');
    assert.deepEqual(cold.seen, warm.seen, 'a cold first run changes nothing subscribers see');
    assert.deepEqual(warm.reducer, warm.reducer.map(() => true));
    assert.deepEqual(cold.reducer, cold.reducer.map((_, i) => i > 0), 'run 0 without the reducer, the later runs with it');
  });

  test(`back to back: the factory ready while the first run streams, the next run (started at once) is folded by the reducer: ${key}`, async () => {
    const config = { url: server.url(key, 0), threadId: 'thread-1' };
    const official = await quietly(() => observe(new client.HttpAgent(config), key));
    const pending = deferred();
    let started = 0;
    const cold = await quietly(() => observe(new Ours({ ...config, reducer: pending.promise }), key, async () => {}, () => {
      if (started++ === 0) pending.resolve(factory);
    }));
    assert.deepEqual(cold.seen, official.seen, 'the switch changes nothing subscribers see');
    assert.deepEqual(cold.reducer, cold.reducer.map((_, i) => i > 0), 'run 0 without the reducer, the later runs with it');
  });
}

test('the default factory (setReducerFactory) given as a promise: the runs before it resolves never wait for it', async () => {
  const { setReducerFactory } = await import('../../src/ag-ui/with-reducer.js');
  const pending = deferred();
  setReducerFactory(pending.promise);
  try {
    const agent = new Ours({ url: server.url('conv', 0), threadId: 'thread-1' });
    const { seen, reducer } = await quietly(() => observe(agent, 'conv', async (i) => {
      if (i === 2) {
        pending.resolve(factory);
        await pending.promise;
      }
    }));
    const warm = await quietly(() => observe(new Ours({ url: server.url('conv', 0), threadId: 'thread-1', reducer: factory }), 'conv'));
    assert.deepEqual(seen, warm.seen);
    assert.deepEqual(reducer, [false, false, true]);
  } finally {
    setReducerFactory(factory);
  }
});

test('a reducer factory that fails to load: the runs complete with the official apply step, and one warning says so', async () => {
  const config = { url: server.url('conv', 0), threadId: 'thread-1' };
  const failed = Promise.reject(Object.assign(new Error('agui reducer: fetching agui.wasm failed: HTTP 404 Not Found'), { code: 'load_failed' }));
  failed.catch(() => {});
  await failed.catch(() => {});
  const official = await quietly(() => observe(new client.HttpAgent(config), 'conv'));
  const warnings = [];
  const saved = console.warn;
  let ours;
  try {
    console.warn = (...args) => warnings.push(args.join(' '));
    ours = await observe(new Ours({ ...config, reducer: failed }), 'conv');
  } finally {
    console.warn = saved;
  }
  assert.deepEqual(ours.seen, official.seen);
  assert.deepEqual(ours.reducer, [false, false, false]);
  const ourWarnings = warnings.filter((w) => w.startsWith('agui reducer:'));
  assert.equal(ourWarnings.length, 1, warnings.join('\n'));
  assert.match(ourWarnings[0], /the reducer factory failed to load \(agui reducer: fetching agui\.wasm failed: HTTP 404 Not Found\); this agent's runs apply events with @ag-ui\/client's own apply step/);
});

test('messages of cold runs the reducer cannot hold: the next run stays cold instead of failing, with one warning', async () => {
  // The apply step alone (runAgent's enforcement refuses such messages before it).
  const pending = deferred();
  const agent = new Ours({ url: 'http://127.0.0.1:9/', threadId: 'thread-1', reducer: pending.promise });
  const applyRun = (i) => new Promise((resolve, reject) => {
    const input = agent.prepareRunAgentInput({ runId: `run-${i}` });
    const events$ = client.transformChunks()(from(badPatch[i]));
    agent.processApplyEvents(input, agent.apply(input, events$, []), []).subscribe({ error: reject, complete: resolve });
  });
  await quietly(() => applyRun(0));
  assert.equal(agent.reducerState, undefined);
  pending.resolve(factory);
  await pending.promise;
  // A message without an id: the reducer's restore refuses it (bad_snapshot).
  agent.messages = [...agent.messages, { role: 'user', content: 'no id' }];
  const warnings = [];
  const saved = console.warn;
  try {
    console.warn = (...args) => warnings.push(args.join(' '));
    await applyRun(1);
  } finally {
    console.warn = saved;
  }
  assert.equal(agent.reducerState, undefined, 'the run stayed cold');
  assert.deepEqual(agent.messages.map((m) => m.id), ['m1', undefined, 'm2']);
  assert.deepEqual(agent.state, { a: 3, b: 2 });
  const ours = warnings.filter((w) => w.includes('messages the reducer cannot hold'));
  assert.equal(ours.length, 1, warnings.join('\n'));
  assert.match(ours[0], /id is required; this run applies events with @ag-ui\/client's own apply step$/);
});
