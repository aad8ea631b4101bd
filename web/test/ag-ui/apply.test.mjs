// The apply step of the drop-in agent (web/src/ag-ui/with-reducer.js) against
// @ag-ui/client 1.0.0's defaultApplyEvents, without transport and
// verification: the golden streams (some of which the verifier rejects
// before their interesting part), the corpus and generated streams, chunk-
// expanded, folded by both with the same recording subscribers. No timing.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import * as client from '@ag-ui/client';
import { from } from 'rxjs';
import { loadReducer } from '../../entries/agui.node.js';
import { withReducer, setReducerFactory } from '../../src/ag-ui/with-reducer.js';
import { observeApply, runsOf, streamsIn, quietly } from './diff.mjs';
import { randomStream } from './random-streams.mjs';

const Ours = withReducer(client.HttpAgent);
const streams = new Map();
for (const s of streamsIn(new URL('../../../testdata/streams/', import.meta.url))) streams.set(s.name, runsOf(s.events));
for (const s of streamsIn(new URL('../../../testdata/corpus/', import.meta.url))) streams.set('corpus/' + s.name, runsOf(s.events));
for (let seed = 1; seed <= 40; seed++) streams.set(`random-${seed}`, runsOf(randomStream(seed)));

// Small streams pinning where the reducer differs from the official client
// today (docs/ag-ui-agent.md, "Differences"); reported as todo until the
// reducer matches.
const R = (...events) => [[{ type: 'RUN_STARTED', threadId: 't', runId: 'r' }, ...events, { type: 'RUN_FINISHED', threadId: 't', runId: 'r' }]];
const pinned = {
  'empty metadata on an entity without metadata': R(
    { type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant', metadata: {} },
    { type: 'TEXT_MESSAGE_END', messageId: 'm1' }),
  'tool call whose parentMessageId names a reasoning message': R(
    { type: 'REASONING_MESSAGE_START', messageId: 'r1', role: 'reasoning' },
    { type: 'REASONING_MESSAGE_CONTENT', messageId: 'r1', delta: 'hm' },
    { type: 'REASONING_MESSAGE_END', messageId: 'r1' },
    { type: 'TOOL_CALL_START', toolCallId: 'tc1', toolCallName: 'f', parentMessageId: 'r1' },
    { type: 'TOOL_CALL_END', toolCallId: 'tc1' }),
  'messages snapshot giving a reasoning message id another role': R(
    { type: 'REASONING_MESSAGE_START', messageId: 'r1', role: 'reasoning' },
    { type: 'REASONING_MESSAGE_END', messageId: 'r1' },
    { type: 'MESSAGES_SNAPSHOT', messages: [{ id: 'r1', role: 'user', content: 'u' }] }),
  'reasoning streamed into a text message': R(
    { type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' },
    { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'text' },
    { type: 'TEXT_MESSAGE_END', messageId: 'm1' },
    { type: 'REASONING_MESSAGE_START', messageId: 'm1', role: 'reasoning' },
    { type: 'REASONING_MESSAGE_CONTENT', messageId: 'm1', delta: ' more' },
    { type: 'REASONING_MESSAGE_END', messageId: 'm1' }),
  'text streamed into a multimodal user message': [[
    { type: 'RUN_STARTED', threadId: 't', runId: 'r', input: { threadId: 't', runId: 'r', messages: [{ id: 'u1', role: 'user', content: [{ type: 'text', text: 'hi' }] }], tools: [], context: [], forwardedProps: {} } },
    { type: 'TEXT_MESSAGE_START', messageId: 'u1', role: 'user' },
    { type: 'TEXT_MESSAGE_CONTENT', messageId: 'u1', delta: 'x' },
    { type: 'TEXT_MESSAGE_END', messageId: 'u1' },
    { type: 'RUN_FINISHED', threadId: 't', runId: 'r' }]],
  'subagent attribution (AG-UI 1.0)': R(
    { type: 'SUBAGENT_STARTED', subagentRunId: 's1', name: 'helper' },
    { type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant', subagentRunId: 's1' },
    { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'x', subagentRunId: 's1' },
    { type: 'TEXT_MESSAGE_END', messageId: 'm1', subagentRunId: 's1' },
    { type: 'TOOL_CALL_START', toolCallId: 'tc1', toolCallName: 'f', subagentRunId: 's1' },
    { type: 'TOOL_CALL_END', toolCallId: 'tc1', subagentRunId: 's1' },
    { type: 'SUBAGENT_FINISHED', subagentRunId: 's1' }),
  'tool result with content parts (AG-UI 1.0)': R(
    { type: 'TOOL_CALL_START', toolCallId: 'tc1', toolCallName: 'f' },
    { type: 'TOOL_CALL_END', toolCallId: 'tc1' },
    { type: 'TOOL_CALL_RESULT', messageId: 'res1', toolCallId: 'tc1', content: [{ type: 'text', text: 'done' }] }),
  'cancelled outcome (AG-UI 1.0)': [[
    { type: 'RUN_STARTED', threadId: 't', runId: 'r' },
    { type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' },
    { type: 'TEXT_MESSAGE_END', messageId: 'm1' },
    { type: 'RUN_FINISHED', threadId: 't', runId: 'r', outcome: { type: 'cancelled' } }]],
};
for (const [name, runs] of Object.entries(pinned)) streams.set(`pinned: ${name}`, runs);

before(async () => {
  setReducerFactory(await loadReducer(new URL('../../dist/agui.wasm', import.meta.url)));
});

// Streams whose outcome differs for a documented reason (docs/ag-ui-agent.md, "Differences"):
// reported as todo, not failures, until the reducer matches.
const KNOWN = new Map([
  // SPEC.md: REASONING_MESSAGE_CONTENT appends to the message's reasoning, never its content.
  ['pinned: reasoning streamed into a text message', 'reducer (by SPEC.md): reasoning goes to the message\'s reasoning field (exported as <id>-reasoning), not its content'],
]);

for (const [key, runs] of streams) {
  test(`apply step same as defaultApplyEvents: ${key}`, { todo: KNOWN.get(key) }, async () => {
    const official = await quietly(() => observeApply((c) => new client.HttpAgent(c), client, from, runs, { subscribers: 2 }));
    const ours = await quietly(() => observeApply((c) => new Ours(c), client, from, runs, { subscribers: 2 }));
    assert.deepStrictEqual(ours.results, official.results, 'results');
    assert.deepStrictEqual(ours.messages, official.messages, 'agent.messages');
    assert.deepStrictEqual(ours.state, official.state, 'agent.state');
    assert.deepStrictEqual(ours.pendingInterrupts, official.pendingInterrupts, 'pendingInterrupts');
    for (let i = 0; i < Math.min(ours.log.length, official.log.length); i++) assert.deepStrictEqual(ours.log[i], official.log[i], `subscriber call ${i}`);
    assert.equal(ours.log.length, official.log.length, 'number of subscriber calls');
  });
}
