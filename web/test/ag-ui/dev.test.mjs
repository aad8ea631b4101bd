// The drop-in agent in development mode (NODE_ENV=development, read when
// the module loads): what subscribers receive and agent.messages are
// frozen, a subscriber writing to them gets a TypeError (logged, as the
// official client logs it), and the result is still what HttpAgent holds.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';

process.env.NODE_ENV = 'development';
const client = await import('@ag-ui/client');
const { loadReducer } = await import('../../entries/agui.node.js');
const { withReducer, setReducerFactory } = await import('../../src/ag-ui/with-reducer.js');
const { serve, observe, runsOf, quietly } = await import('./diff.mjs');
const { generate } = await import('../../../bench/gen.mjs');
const { randomStream } = await import('./random-streams.mjs');

const Ours = withReducer(client.HttpAgent);
const streams = new Map([
  ['conv', generate({ turns: 2, seed: 9, textDeltas: 20, reasoningDeltas: 3, argDeltas: 5 }).turns.map((t) => t.events)],
  ['random', runsOf(randomStream(77))],
]);
let server;
before(async () => {
  setReducerFactory(await loadReducer(new URL('../../dist/agui.wasm', import.meta.url)));
  server = await serve(streams);
});
after(() => server.close());

test('development: frozen values, and still the same as HttpAgent', async () => {
  for (const [key, runs] of streams) {
    const official = await quietly(() => observe((c) => new client.HttpAgent(c), server, key, runs));
    const ours = await quietly(() => observe((c) => new Ours(c), server, key, runs));
    assert.deepStrictEqual(ours, official, key);
  }
  const agent = new Ours({ url: server.url('conv', 0), threadId: 'th' });
  const errors = [];
  agent.subscribe({
    onTextMessageContentEvent: ({ messages }) => {
      assert.ok(Object.isFrozen(messages));
      messages[0].content = 'changed'; // throws: frozen
    },
    onStateChanged: ({ state }) => { assert.ok(Object.isFrozen(state)); },
  });
  const saved = console.error;
  console.error = (...args) => { errors.push(args); };
  try {
    await agent.runAgent({ runId: 'r0' });
  } finally {
    console.error = saved;
  }
  assert.ok(errors.length > 0 && errors.every(([, e]) => e instanceof TypeError), 'the writes failed and were logged');
  assert.ok(Object.isFrozen(agent.messages) && agent.messages.every((m) => Object.isFrozen(m)));
  assert.notEqual(agent.messages[0].content, 'changed');
});
