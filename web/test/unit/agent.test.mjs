// The API a UI needs besides folding: the thread id, setState and
// setMessages (same-thread and worker), textOf, the Svelte store contract
// and createAgent (what the framework bindings wrap).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadReducer, createWorkerHost, createAgent, EMPTY_STATE, textOf } from '../../entries/agui.node.js';
import { agentActions } from '../../src/agent/agent.js';
import { serve } from '../../src/worker/entry.js';
import { wasmURL } from '../support/helpers.mjs';

const factory = await loadReducer(wasmURL);

const conversation = [
  { id: 'u1', role: 'user', content: 'weather?' },
  { id: 'a1', role: 'assistant', content: '', toolCalls: [{ id: 'c1', type: 'function', function: { name: 'weather', arguments: '{"city":"Oslo"}' } }] },
  { id: 't1', role: 'tool', content: 'sunny', toolCallId: 'c1' },
];

test('threadId: chosen at creation, kept by reset, one per conversation before the first run, overridden by runInput', () => {
  const r = factory.createReducer({ threadId: 'thread-a' });
  assert.equal(r.state.threadId, 'thread-a');
  assert.equal(r.runInput().threadId, 'thread-a');
  r.reset();
  assert.equal(r.state.threadId, 'thread-a');
  const input = r.runInput({ threadId: 'thread-b', state: { k: 1 }, messages: [] });
  assert.deepEqual([input.threadId, input.state, input.messages], ['thread-b', { k: 1 }, []]);

  const free = factory.createReducer();
  assert.equal(free.runInput().threadId, free.runInput().threadId, 'no new thread per request');
  assert.throws(() => factory.createReducer({ threadId: 7 }), /threadId/);
});

test('setState and setMessages produce change records that the mirror applies', () => {
  const r = factory.createReducer({ deterministicIds: true });
  const seen = [];
  r.subscribe(() => seen.push(r.state));
  const rec = r.setState({ todo: ['a'] });
  assert.deepEqual(rec, { ops: [{ op: 'replace', path: '/state', value: { todo: ['a'] } }] });
  assert.deepEqual(r.state.state, { todo: ['a'] });
  assert.deepEqual(r.runInput().state, { todo: ['a'] });

  r.addUserMessage('dropped');
  r.setMessages(conversation);
  assert.deepEqual(r.state.messages.map((m) => m.id), ['u1', 'a1', 't1']);
  assert.deepEqual(r.state.toolCalls.map((t) => [t.id, t.name, t.result]), [['c1', 'weather', 'sunny']]);
  assert.deepEqual(r.state, r.snapshot(), 'mirror matches the reducer');
  assert.equal(seen.length, 3);

  const diags = [];
  r.on('diagnostic', (d) => diags.push(d.code));
  const before = r.state;
  r.setMessages([{ id: 'x', role: 'robot', content: '' }]);
  r.setMessages('nope');
  const cyclic = {}; cyclic.self = cyclic;
  r.setState(cyclic);
  assert.equal(diags.length, 3);
  assert.equal(r.state, before, 'rejected values change nothing');
});

test('worker reducers have setState and setMessages too', async () => {
  const { port1, port2 } = new MessageChannel();
  serve(port2);
  const host = createWorkerHost({ worker: port1, wasmURL });
  try {
    const r = await host.createReducer({ threadId: 'w' });
    assert.equal(r.state.threadId, 'w');
    await r.setState({ n: 1 });
    await r.setMessages(conversation);
    assert.deepEqual(r.state.state, { n: 1 });
    assert.deepEqual(r.state.messages.map((m) => m.id), ['u1', 'a1', 't1']);
    assert.deepEqual(r.state, await r.snapshot());
  } finally {
    host.terminate();
    port2.close();
  }
});

test('textOf renders every kind of content as text', () => {
  assert.equal(textOf({ id: '1', role: 'user', content: 'hi' }), 'hi');
  assert.equal(textOf({ id: '1', role: 'user', content: [{ type: 'text', text: 'a' }, { type: 'binary', mimeType: 'image/png' }, { type: 'text', text: 'b' }] }), 'a\nb');
  assert.equal(textOf({ id: '1', role: 'activity', content: { progress: 1 } }), '');
  assert.equal(textOf('plain'), 'plain');
  assert.equal(textOf(undefined), '');
});

test('reducer.store satisfies the Svelte store contract', () => {
  const r = factory.createReducer();
  const values = [];
  const unsubscribe = r.store.subscribe((s) => values.push(s));
  assert.equal(values.length, 1, 'called at once with the current value');
  assert.equal(values[0], r.state);
  r.addUserMessage('hi');
  assert.equal(values.length, 2);
  assert.equal(values[1].messages[0].content, 'hi');
  unsubscribe();
  r.addUserMessage('again');
  assert.equal(values.length, 2, 'no call after unsubscribe');
});

test('createAgent: empty state until loaded, actions wait for the load, dispose', async () => {
  const agent = createAgent({ wasm: wasmURL, threadId: 'ag' });
  assert.deepEqual(agent.state, { ...EMPTY_STATE, threadId: 'ag' });
  assert.equal(agent.ready, false);
  let notified = 0;
  agent.subscribe(() => notified++);
  await agent.addUserMessage('hello'); // loads first
  assert.equal(agent.ready, true);
  assert.deepEqual(agent.state.messages.map(textOf), ['hello']);
  assert.ok(notified >= 2, 'load and change notify');
  const fresh = factory.createReducer({ threadId: 'ag' });
  assert.deepEqual({ ...EMPTY_STATE, threadId: 'ag' }, fresh.state, 'EMPTY_STATE is a new reducer\'s state');
  await assert.rejects(agent.run(), /needs a url/);
  const r = agent.reducer;
  agent.dispose();
  assert.equal(r.disposed, true);
  await assert.rejects(createAgent({ wasm: new URL('./missing.wasm', wasmURL) }).load());
});

test('agent.resume(): needs a url; with nothing to resume it settles without a request; agentActions are its bound actions', async () => {
  const agent = createAgent({ wasm: wasmURL });
  const { resume, addUserMessage, ...rest } = agentActions(agent);
  await assert.rejects(resume(), /resume\(\) needs a url/);
  await addUserMessage('hi'); // detached: the actions are bound
  // Not running, no lastEventId: no request is made, so the url is never reached.
  assert.equal(await resume(undefined, { url: 'http://127.0.0.1:9/never' }), 'completed');
  assert.equal(agent.reducer.lastRun.reason, 'nothing_to_resume');
  assert.deepEqual(Object.keys(rest).sort(), ['reset', 'run', 'runInput', 'send', 'setMessages', 'setState', 'stop', 'addToolResult'].sort());
  for (const f of Object.values(rest)) assert.equal(typeof f, 'function');
  agent.dispose();
});
