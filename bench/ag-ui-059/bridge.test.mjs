// The drop-in's 1.0 → 0.0.x bridge (web/src/ag-ui/bridge.js) on @ag-ui/client
// 0.0.59 (what CopilotKit 1.75 pins), installed here from this folder's
// lockfile: six shapes AG-UI 1.0 added, each in a run of its own over HTTP.
// HttpAgent 0.0.59 fails each run (its transport's zod parse refuses the
// shape; the rest of the run is lost); the drop-in finishes it with every
// message kept, in the shapes 0.0.59's types promise (tool content parts as
// their text), the reducer's own state keeping the parts; with bridge:
// false it fails as HttpAgent does. A malformed event still fails the run.
// No timing.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as client from '@ag-ui/client';
import { loadReducer } from '../../web/entries/agui.node.js';
import { withReducer, setReducerFactory } from '../../web/src/ag-ui/with-reducer.js';
import { withResume } from '../../web/src/ag-ui/resume.js';
import { serve, quietly } from '../../web/test/ag-ui/diff.mjs';

const DropIn = withResume(withReducer(client.HttpAgent), { transformHttpEventStream: client.transformHttpEventStream, EventType: client.EventType });

const T = 'thread-b';
const text = (id, words) => [
  { type: 'TEXT_MESSAGE_START', messageId: id, role: 'assistant' },
  ...words.map((w) => ({ type: 'TEXT_MESSAGE_CONTENT', messageId: id, delta: w })),
  { type: 'TEXT_MESSAGE_END', messageId: id },
];
const toolCall = (id, parent) => [
  { type: 'TOOL_CALL_START', toolCallId: id, toolCallName: 'search', parentMessageId: parent },
  { type: 'TOOL_CALL_ARGS', toolCallId: id, delta: '{"q":"x"}' },
  { type: 'TOOL_CALL_END', toolCallId: id },
];
const start = { type: 'RUN_STARTED', threadId: T, runId: 'r1' };
const finish = { type: 'RUN_FINISHED', threadId: T, runId: 'r1' };
const parts = [{ type: 'text', text: 'first block' }, { type: 'text', text: 'second block' }];
const fileImage = { type: 'image', source: { type: 'file', value: 'file-abc123', provider: 'openai', mimeType: 'image/png' } };
const user = { id: 'u1', role: 'user', content: [{ type: 'text', text: 'what is in this picture?' }, fileImage] };

// Each shape: the run's events, and what the drop-in's agent.messages must hold.
const shapes = {
  'TOOL_CALL_RESULT with content parts': {
    events: [start, ...text('a1', ['Let me ', 'look.']), ...toolCall('c1', 'a1'),
      { type: 'TOOL_CALL_RESULT', messageId: 't1', toolCallId: 'c1', content: parts }, ...text('a2', ['Found ', 'it.']), finish],
    messages: [
      { id: 'a1', role: 'assistant', content: 'Let me look.', toolCalls: [{ id: 'c1', type: 'function', function: { name: 'search', arguments: '{"q":"x"}' } }] },
      { id: 't1', role: 'tool', toolCallId: 'c1', content: 'first block\nsecond block' },
      { id: 'a2', role: 'assistant', content: 'Found it.' },
    ],
  },
  'RUN_FINISHED with a cancelled outcome': {
    events: [start, ...text('a1', ['Stopping ', 'here.']), { ...finish, outcome: { type: 'cancelled' } }],
    messages: [{ id: 'a1', role: 'assistant', content: 'Stopping here.' }],
  },
  'RUN_FINISHED success with pendingToolCallIds': {
    events: [start, ...text('a1', ['Calling.']), ...toolCall('c1', 'a1'),
      { ...finish, result: { ok: true }, outcome: { type: 'success', pendingToolCallIds: ['c1'] } }],
    messages: [{ id: 'a1', role: 'assistant', content: 'Calling.', toolCalls: [{ id: 'c1', type: 'function', function: { name: 'search', arguments: '{"q":"x"}' } }] }],
  },
  'RUN_STARTED input without tools and context': {
    events: [{ ...start, input: { threadId: T, runId: 'r1', messages: [{ id: 'u0', role: 'user', content: 'hi' }], state: {}, forwardedProps: {} } },
      ...text('a1', ['Hello.']), finish],
    messages: [{ id: 'u0', role: 'user', content: 'hi' }, { id: 'a1', role: 'assistant', content: 'Hello.' }],
  },
  'a user message with a provider-file image part': {
    events: [start, { type: 'MESSAGES_SNAPSHOT', messages: [user] }, ...text('a1', ['A cat.']), finish],
    messages: [
      { id: 'u1', role: 'user', content: [{ type: 'text', text: 'what is in this picture?' }, { type: 'text', text: '[image: file file-abc123 (openai)]' }] },
      { id: 'a1', role: 'assistant', content: 'A cat.' },
    ],
  },
  'an event type the client does not know': {
    events: [start, ...text('a1', ['Before. ']), { type: 'FUTURE_EVENT', payload: { x: 1 } }, { type: 'FUTURE_EVENT', payload: { x: 2 } },
      ...text('a2', ['After.']), finish],
    messages: [{ id: 'a1', role: 'assistant', content: 'Before. ' }, { id: 'a2', role: 'assistant', content: 'After.' }],
  },
};
const malformed = [start, ...text('a1', ['x']), ...toolCall('c1', 'a1'), { type: 'TOOL_CALL_RESULT', messageId: 't1', content: parts }, ...text('a2', ['y']), finish];

const streams = new Map(Object.entries(shapes).map(([k, s]) => [k, [s.events]]));
streams.set('malformed', [malformed]);
streams.set('next', [[{ ...start, runId: 'r2' }, ...text('a9', ['Next.']), { ...finish, runId: 'r2' }]]);

let server, factory;
before(async () => {
  factory = await loadReducer(new URL('../../web/dist/agui.wasm', import.meta.url));
  setReducerFactory(factory);
  server = await serve(streams);
});
after(() => server.close());

/** One run of a stream: its result or error, the messages, the onEvent and onRunFinishedEvent calls, the warnings. */
async function runOne(agent, key) {
  agent.url = server.url(key, 0);
  const events = [];
  const finished = [];
  agent.subscribe({
    onEvent: ({ event }) => { events.push(JSON.parse(JSON.stringify(event))); },
    onRunFinishedEvent: ({ event, result }) => { finished.push({ outcome: event.outcome, result }); },
  });
  const warnings = [];
  const saved = console.warn;
  console.warn = (...a) => warnings.push(a.join(' '));
  let out;
  try {
    const r = await agent.runAgent({ runId: 'r1' });
    out = { ok: true, result: r.result, newMessages: r.newMessages.map((m) => m.id) };
  } catch (err) {
    out = { ok: false, error: String(err?.message ?? err) };
  } finally {
    console.warn = saved;
  }
  return { ...out, messages: JSON.parse(JSON.stringify(agent.messages)), events, finished, warnings };
}

const config = { url: 'http://127.0.0.1:9/', threadId: T };

for (const [key, shape] of Object.entries(shapes)) {
  test(`0.0.59: ${key}: HttpAgent fails the run, the drop-in finishes it with every message kept; bridge: false fails as HttpAgent`, async () => {
    const official = await quietly(() => runOne(new client.HttpAgent(config), key));
    assert.equal(official.ok, false, 'HttpAgent 0.0.59 fails the run');
    assert.ok(official.messages.length < shape.messages.length, 'and loses the rest of it');

    const agent = new DropIn(config);
    const ours = await runOne(agent, key);
    assert.equal(ours.ok, true, ours.error);
    assert.deepEqual(ours.messages, shape.messages);
    assert.deepEqual(ours.newMessages, shape.messages.map((m) => m.id));
    assert.notEqual(agent.reducerState, undefined, 'folded by the reducer');

    const strict = await quietly(() => runOne(new DropIn({ ...config, bridge: false }), key));
    assert.deepEqual({ ok: strict.ok, error: strict.error, messages: strict.messages },
      { ok: official.ok, error: official.error, messages: official.messages }, 'bridge: false: strict parity');

    const cold = await quietly(() => runOne(new DropIn({ ...config, reducer: new Promise(() => {}) }), key));
    assert.deepEqual({ ok: cold.ok, messages: cold.messages }, { ok: true, messages: shape.messages }, 'a cold run (the official apply step) too');

    switch (key) {
      case 'TOOL_CALL_RESULT with content parts': {
        const tool = agent.reducerState.messages.find((m) => m.id === 't1');
        assert.deepEqual(tool.content, parts, 'the reducer\'s own state keeps the parts');
        const ev = ours.events.find((e) => e.type === 'TOOL_CALL_RESULT');
        assert.equal(ev.content, 'first block\nsecond block', 'subscribers get the event in 0.0.59\'s shape');
        // The host adds a message (as CopilotKit does before a run): the reducer, restored from
        // agent.messages at the next run, keeps the parts.
        agent.addMessage({ id: 'u2', role: 'user', content: 'and then?' });
        agent.url = server.url('next', 0);
        await agent.runAgent({ runId: 'r2' });
        assert.deepEqual(agent.reducerState.messages.find((m) => m.id === 't1').content, parts);
        assert.equal(agent.messages.find((m) => m.id === 't1').content, 'first block\nsecond block');
        assert.deepEqual(agent.messages.map((m) => m.id), ['a1', 't1', 'a2', 'u2', 'a9']);
        break;
      }
      case 'RUN_FINISHED with a cancelled outcome':
        assert.deepEqual(ours.finished, [{ outcome: { type: 'cancelled' }, result: undefined }], 'visible as cancelled on the event');
        assert.equal(ours.result, undefined);
        break;
      case 'RUN_FINISHED success with pendingToolCallIds':
        assert.deepEqual(ours.finished, [{ outcome: { type: 'success', pendingToolCallIds: ['c1'] }, result: { ok: true } }]);
        assert.deepEqual(ours.result, { ok: true });
        break;
      case 'RUN_STARTED input without tools and context':
        assert.deepEqual(ours.events[0].input.tools, []);
        assert.deepEqual(ours.events[0].input.context, []);
        break;
      case 'a user message with a provider-file image part': {
        const u = agent.reducerState.messages.find((m) => m.id === 'u1');
        assert.deepEqual(u.content, user.content, 'the reducer\'s own state keeps the file part');
        break;
      }
      case 'an event type the client does not know': {
        const future = ours.events.filter((e) => e.type === 'FUTURE_EVENT');
        assert.deepEqual(future, [{ type: 'FUTURE_EVENT', payload: { x: 1 } }, { type: 'FUTURE_EVENT', payload: { x: 2 } }], 'onEvent gets it as it came');
        const w = ours.warnings.filter((x) => x.includes('FUTURE_EVENT'));
        assert.equal(w.length, 1, ours.warnings.join('\n'));
        break;
      }
    }
  });
}

test('0.0.59: a malformed event (TOOL_CALL_RESULT without toolCallId) still fails the run, as in HttpAgent', async () => {
  const official = await quietly(() => runOne(new client.HttpAgent(config), 'malformed'));
  const ours = await quietly(() => runOne(new DropIn(config), 'malformed'));
  assert.equal(official.ok, false);
  assert.equal(ours.ok, false);
  assert.match(ours.error, /toolCallId/);
  assert.deepEqual(ours.messages, official.messages);
});
