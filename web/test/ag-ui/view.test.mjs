// The drop-in agent's official view (web/src/ag-ui/view.js) kept in step
// event by event: after every event of the random, generated and pinned
// streams, the view patched from the last one equals a view built afresh
// from the same reducer state, and its lookups by id (kept in step with
// it) answer what a scan of its messages answers; under NODE_ENV=development
// (NODE_ENV=development node --test web/test/ag-ui/view.test.mjs) everything
// in it is frozen. No timing.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadReducer } from '../../entries/agui.node.js';
import { OfficialView } from '../../src/ag-ui/view.js';
import { messageOf, toolCallOf } from '../../src/ag-ui/messages.js';
import { DEV } from '../../src/ag-ui/freeze.js';
import { randomStream } from './random-streams.mjs';
import { generate, eventsOf } from '../../../bench/gen.mjs';

let factory;
before(async () => {
  factory = await loadReducer(new URL('../../dist/agui.wasm', import.meta.url));
});

const R = (...events) => [{ type: 'RUN_STARTED', threadId: 't', runId: 'r' }, ...events, { type: 'RUN_FINISHED', threadId: 't', runId: 'r' }];
const streams = {
  'tool results sharing a message id, equal content': R(
    { type: 'TOOL_CALL_START', toolCallId: 'tc1', toolCallName: 'f' },
    { type: 'TOOL_CALL_ARGS', toolCallId: 'tc1', delta: '{"a":' },
    { type: 'TOOL_CALL_ARGS', toolCallId: 'tc1', delta: '1}' },
    { type: 'TOOL_CALL_END', toolCallId: 'tc1' },
    { type: 'TOOL_CALL_RESULT', messageId: 'res', toolCallId: 'tc1', content: 'same' },
    { type: 'TOOL_CALL_RESULT', messageId: 'res', toolCallId: 'tc1', content: 'same' },
    { type: 'TOOL_CALL_RESULT', messageId: 'res', toolCallId: 'tc1', content: 'other' }),
  'parallel tool calls on one message, arguments interleaved': R(
    { type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' },
    { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'hi' },
    { type: 'TEXT_MESSAGE_END', messageId: 'm1' },
    { type: 'TOOL_CALL_START', toolCallId: 'a', toolCallName: 'f', parentMessageId: 'm1' },
    { type: 'TOOL_CALL_START', toolCallId: 'b', toolCallName: 'g', parentMessageId: 'm1' },
    { type: 'TOOL_CALL_ARGS', toolCallId: 'b', delta: '{"x"' },
    { type: 'TOOL_CALL_ARGS', toolCallId: 'a', delta: '{}' },
    { type: 'TOOL_CALL_ARGS', toolCallId: 'b', delta: ':2}' },
    { type: 'TOOL_CALL_END', toolCallId: 'a' },
    { type: 'TOOL_CALL_END', toolCallId: 'b' },
    { type: 'TOOL_CALL_START', toolCallId: 'c', toolCallName: 'h', parentMessageId: 'elsewhere' },
    { type: 'TOOL_CALL_END', toolCallId: 'c' }),
  'reasoning then text on one id, then a snapshot reordering': R(
    { type: 'REASONING_MESSAGE_START', messageId: 'x', role: 'reasoning' },
    { type: 'REASONING_MESSAGE_CONTENT', messageId: 'x', delta: 'think' },
    { type: 'REASONING_MESSAGE_END', messageId: 'x' },
    { type: 'TEXT_MESSAGE_START', messageId: 'y', role: 'assistant' },
    { type: 'TEXT_MESSAGE_CONTENT', messageId: 'y', delta: 'say' },
    { type: 'TEXT_MESSAGE_END', messageId: 'y' },
    { type: 'MESSAGES_SNAPSHOT', messages: [{ id: 'y', role: 'assistant', content: 'say' }, { id: 'u', role: 'user', content: 'q' }] },
    { type: 'TEXT_MESSAGE_START', messageId: 'z', role: 'assistant' },
    { type: 'TEXT_MESSAGE_CONTENT', messageId: 'z', delta: 'more' },
    { type: 'TEXT_MESSAGE_END', messageId: 'z' }),
};
for (let seed = 1; seed <= 25; seed++) streams[`random-${seed}`] = randomStream(seed);
streams['generated, 3 turns'] = eventsOf(generate({ turns: 3, seed: 5 }));

for (const [name, events] of Object.entries(streams)) {
  test(`official view kept in step: ${name}`, () => {
    const r = factory.createReducer({ dialect: 'agui' });
    const view = new OfficialView();
    view.update(r.state);
    for (const [k, event] of events.entries()) {
      r.apply(event);
      const st = r.state;
      view.update(st);
      const at = `after event ${k} (${event.type})`;
      const fresh = new OfficialView();
      fresh.update(st);
      assert.deepStrictEqual(view.messages, fresh.messages, `${at}: the patched view is the view built afresh`);
      for (const m of view.messages) {
        assert.equal(view.messageOf(m.id), messageOf(view.messages, m.id), `${at}: messageOf(${m.id})`);
        for (const t of m.toolCalls ?? []) assert.equal(view.toolCallOf(t.id), toolCallOf(view.messages, t.id), `${at}: toolCallOf(${t.id})`);
      }
      if (DEV) {
        assert.ok(Object.isFrozen(view.messages), `${at}: the messages array is frozen`);
        for (const m of view.messages) assert.ok(Object.isFrozen(m) && (m.toolCalls ?? []).every((t) => Object.isFrozen(t) && Object.isFrozen(t.function)), `${at}: ${m.id} is frozen`);
      }
      assert.equal(view.messageOf('no such id'), undefined);
      assert.equal(view.toolCallOf('no such id'), undefined);
      for (const t of st.toolCalls) assert.equal(view.srcToolCallOf(t.id), st.toolCalls.find((u) => u.id === t.id), `${at}: srcToolCallOf(${t.id})`);
    }
    r.dispose();
  });
}
