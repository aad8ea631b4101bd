// The drop-in agent's surface besides streaming (web/src/ag-ui/with-reducer.js),
// each against @ag-ui/client 1.0.0 doing the same: subscribers that return
// mutations and stop propagation, addMessage(s)/setMessages/setState/clone,
// in-process agents (run and connect), detachActiveRun; and what only this
// agent promises: structural sharing of agent.messages. No timing.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as client from '@ag-ui/client';
import { from, Subject } from 'rxjs';
import { loadReducer } from '../../entries/agui.node.js';
import { withReducer, setReducerFactory } from '../../src/ag-ui/with-reducer.js';
import { serve, observe, recorder, normalise, runsOf, readJSONL, quietly } from './diff.mjs';
import { generate } from '../../../bench/gen.mjs';
import { randomStream } from './random-streams.mjs';

const Ours = withReducer(client.HttpAgent);
const conv = generate({ turns: 3, seed: 5, textDeltas: 20, reasoningDeltas: 3, argDeltas: 5 });
const streams = new Map([
  ['conv', conv.turns.map((t) => t.events)],
  ['interrupt', runsOf(readJSONL(new URL('../../../testdata/streams/12_interrupt_resume.jsonl', import.meta.url)))],
]);
for (const seed of [3, 8, 21]) streams.set(`random-${seed}`, runsOf(randomStream(seed)));

let server;
before(async () => {
  setReducerFactory(await loadReducer(new URL('../../dist/agui.wasm', import.meta.url)));
  server = await serve(streams);
});
after(() => server.close());

/** A subscriber returning mutations, deterministically, from the hooks where both clients agree on their meaning. */
function mutator() {
  let n = 0;
  return {
    onRunInitialized: ({ state }) => ({ state: { ...state, initialised: true } }),
    onEvent: ({ event, messages, state }) => {
      n++;
      if (event.type === 'CUSTOM' || event.type === 'STEP_STARTED') return { stopPropagation: true };
      if (n % 17 === 0) return { messages: [...messages, { id: `injected-${n}`, role: 'user', content: `n=${n}` }] };
      if (n % 23 === 0) return { state: { ...state, n } };
      if (event.type === 'STATE_DELTA' && n % 2 === 0) return { stopPropagation: true };
      return undefined;
    },
    onStateSnapshotEvent: ({ event }) => ({ state: { replaced: event.snapshot } }),
    onToolCallResultEvent: ({ messages }) => ({ messages: messages.filter((m) => m.role !== 'reasoning') }),
    onRunFinalized: ({ messages }) => ({ messages: [...messages, { id: 'final', role: 'system', content: 'done' }] }),
  };
}

for (const key of streams.keys()) {
  test(`subscriber mutations and stopPropagation, as HttpAgent: ${key}`, async () => {
    const runs = streams.get(key);
    const watch = (make) => (c) => {
      const a = make(c);
      a.subscribe(mutator());
      return a;
    };
    const official = await quietly(() => observe(watch((c) => new client.HttpAgent(c)), server, key, runs, { subscribers: 2 }));
    const ours = await quietly(() => observe(watch((c) => new Ours(c)), server, key, runs, { subscribers: 2 }));
    assert.deepStrictEqual(ours, official);
  });
}

test('addMessage, addMessages, setMessages, setState, clone: as HttpAgent', async () => {
  const scenario = async (Agent) => {
    const log = [];
    const agent = new Agent({
      url: server.url('conv', 0), threadId: 'th',
      initialMessages: [{ id: 'sys', role: 'system', content: 'be brief' }],
      initialState: { mode: 'a' },
    });
    agent.subscribe(recorder(log));
    await agent.runAgent({ runId: 'r0' });
    agent.addMessage({ id: 'u1', role: 'user', content: 'more' });
    agent.addMessages([{ id: 'u2', role: 'user', content: 'x' }, { id: 'a2', role: 'assistant', content: '', toolCalls: [{ id: 'tc-x', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }] }]);
    await new Promise((r) => setTimeout(r, 0));
    agent.setState({ mode: 'b' });
    await new Promise((r) => setTimeout(r, 0));
    const twin = agent.clone();
    twin.url = server.url('conv', 1);
    await twin.runAgent({ runId: 'r1' });
    agent.setMessages(agent.messages.slice(1));
    await new Promise((r) => setTimeout(r, 0));
    agent.url = server.url('conv', 2);
    const res = await agent.runAgent({ runId: 'r2' });
    return normalise({ log, res, messages: agent.messages, state: agent.state, twin: { messages: twin.messages, state: twin.state } });
  };
  const official = await quietly(() => scenario(client.HttpAgent));
  const ours = await quietly(() => scenario(Ours));
  assert.deepStrictEqual(ours, official);
});

test('in-process agents: run() and connect() of an AbstractAgent subclass, as the official', async () => {
  const events = conv.turns[0].events;
  const define = (Base) => class Local extends Base {
    run() { return from(structuredClone(events)); }
    connect() { return from(structuredClone(events)); }
  };
  const scenario = async (Agent) => {
    const log = [];
    const agent = new Agent({ threadId: 'th' });
    agent.subscribe(recorder(log));
    const ran = await agent.runAgent({ runId: 'r0' });
    const connected = await agent.connectAgent({ runId: 'r1' });
    return normalise({ log, ran, connected, messages: agent.messages, state: agent.state });
  };
  const official = await quietly(() => scenario(define(client.AbstractAgent)));
  const ours = await quietly(() => scenario(define(withReducer(client.AbstractAgent))));
  assert.deepStrictEqual(ours, official);
  assert.ok(ours.connected.newMessages.length === 0, 'a replayed run adds no messages');
});

test('detachActiveRun ends the run where it is, as the official', async () => {
  const events = conv.turns[0].events;
  const scenario = async (Base) => {
    const source = new Subject();
    const Agent = class extends Base { run() { return source; } };
    const agent = new Agent({ threadId: 'th' });
    const log = [];
    agent.subscribe(recorder(log));
    const done = agent.runAgent({ runId: 'r0' });
    while (!source.observed) await new Promise((r) => setTimeout(r, 0));
    for (const e of events.slice(0, 40)) {
      source.next(structuredClone(e));
      await new Promise((r) => setTimeout(r, 0));
    }
    await agent.detachActiveRun();
    const res = await done;
    return normalise({ log, res, messages: agent.messages, isRunning: agent.isRunning });
  };
  const official = await quietly(() => scenario(client.AbstractAgent));
  const ours = await quietly(() => scenario(withReducer(client.AbstractAgent)));
  assert.deepStrictEqual(ours, official);
});

test('structural sharing: a streamed event leaves the other messages (and earlier turns) as they were', async () => {
  const agent = new Ours({ url: server.url('conv', 0), threadId: 'th' });
  const seen = [];
  agent.subscribe({ onMessagesChanged: ({ messages }) => { seen.push(messages); } });
  await agent.runAgent({ runId: 'r0' });
  const afterFirst = agent.messages;
  agent.url = server.url('conv', 1);
  await agent.runAgent({ runId: 'r1' });
  for (let i = 0; i < afterFirst.length; i++) assert.equal(agent.messages[i], afterFirst[i], `message ${i} of turn 1 kept its identity`);
  assert.ok(seen.length > 40);
  let changedOne = 0;
  for (let k = 1; k < seen.length; k++) {
    const a = seen[k - 1], b = seen[k];
    if (a.length !== b.length) continue;
    const differing = b.filter((m, i) => m !== a[i]).length;
    assert.ok(differing <= 1, `event ${k}: ${differing} messages changed identity`);
    if (differing === 1) changedOne++;
  }
  assert.ok(changedOne > 20, 'streaming replaces one message per event');
  // What the host reads is what the official client holds.
  const official = new client.HttpAgent({ url: server.url('conv', 0), threadId: 'th' });
  await official.runAgent({ runId: 'r0' });
  official.url = server.url('conv', 1);
  await official.runAgent({ runId: 'r1' });
  assert.deepStrictEqual(agent.messages, official.messages);
  assert.deepStrictEqual(agent.state, official.state);
});

test('subscribers get the same values the agent holds; nothing is copied per subscriber', async () => {
  const agent = new Ours({ url: server.url('conv', 0), threadId: 'th' });
  const got = [];
  for (let i = 0; i < 3; i++) agent.subscribe({ onTextMessageContentEvent: ({ messages }) => { got.push(messages); } });
  await agent.runAgent({ runId: 'r0' });
  assert.ok(got.length >= 3);
  for (let i = 0; i + 2 < got.length; i += 3) {
    assert.equal(got[i], got[i + 1]);
    assert.equal(got[i + 1], got[i + 2]);
  }
});
