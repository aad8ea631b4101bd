// Text cut between the two halves of a UTF-16 surrogate pair (as
// JavaScript producers cut it with str.slice) joins exactly as JavaScript
// string concatenation joins it: through apply() and feed(), for string
// and byte chunks split anywhere, in the mirror and in runInput().
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadReducer, createWorkerHost } from '../../entries/agui.node.js';
import { serve } from '../../src/worker/entry.js';
import { wasmURL } from '../support/helpers.mjs';

const factory = await loadReducer(wasmURL);

// Deltas cut inside pairs: escaped (\ud83c) and raw (the lone code unit
// itself in the event text).
const events = [
  { type: 'RUN_STARTED', threadId: 't', runId: 'r' },
  { type: 'TEXT_MESSAGE_START', messageId: 'm', role: 'assistant' },
  { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'hi \ud83c' },
  { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: '\udf89!' },
  { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: ' lone \ud83c' },
  { type: 'TEXT_MESSAGE_END', messageId: 'm' },
  { type: 'REASONING_MESSAGE_START', messageId: 'rs', role: 'reasoning' },
  { type: 'REASONING_MESSAGE_CONTENT', messageId: 'rs', delta: '\ud83d' },
  { type: 'REASONING_MESSAGE_CONTENT', messageId: 'rs', delta: '\ude00 ok' },
  { type: 'REASONING_MESSAGE_END', messageId: 'rs' },
  { type: 'TOOL_CALL_START', toolCallId: 'c', toolCallName: 'f', parentMessageId: 'm' },
  { type: 'TOOL_CALL_ARGS', toolCallId: 'c', delta: '{"a":"x\ud83c' },
  { type: 'TOOL_CALL_ARGS', toolCallId: 'c', delta: '\udf89"}' },
  { type: 'TOOL_CALL_END', toolCallId: 'c' },
  { type: 'TEXT_MESSAGE_START', messageId: 'm2', role: 'assistant' },
  { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm2', delta: '🎉😀🎉' },
  { type: 'TEXT_MESSAGE_END', messageId: 'm2' },
  { type: 'RUN_FINISHED', threadId: 't', runId: 'r' },
];

function check(r, input = r.runInput()) {
  const m = r.state.messages.find((x) => x.id === 'm');
  assert.equal(m.content, 'hi 🎉! lone \ud83c');
  assert.equal(r.state.messages.find((x) => x.id === 'm2').content, '🎉😀🎉');
  assert.equal(r.state.messages.find((x) => x.id === 'rs').reasoning, '😀 ok');
  const tc = r.state.toolCalls[0];
  assert.equal(tc.argsText, '{"a":"x🎉"}');
  assert.deepEqual(tc.args, { a: 'x🎉' });
  const msg = input.messages.find((x) => x.id === 'm');
  assert.equal(msg.content, 'hi 🎉! lone \ud83c');
  assert.equal(msg.toolCalls[0].function.arguments, '{"a":"x🎉"}');
}

test('apply(): objects, JSON text with escapes, JSON text with raw lone surrogates', () => {
  for (const form of [(e) => e, (e) => JSON.stringify(e), (e) => JSON.stringify(e).replace(/\\u(d[89a-f][0-9a-f]{2})/g, (_, h) => String.fromCharCode(parseInt(h, 16)))]) {
    const r = factory.createReducer();
    for (const e of events) {
      const rec = r.apply(form(e));
      assert.ok(!(rec.diagnostics ?? []).some((d) => d.level === 'error'), JSON.stringify(rec));
    }
    check(r);
  }
});

test('feed(): string and byte chunks split anywhere, pairs whole in the text', () => {
  // The lone code units raw in the SSE text, so string chunks also cut
  // between the halves of the pairs the text holds.
  const text = events.map((e) => 'data: ' + JSON.stringify(e).replace(/\\u(d[89a-f][0-9a-f]{2})/g, (_, h) => String.fromCharCode(parseInt(h, 16))) + '\n\n').join('');
  for (const size of [1, 2, 3, 7, 50]) {
    const r = factory.createReducer();
    for (let i = 0; i < text.length; i += size) r.feed(text.slice(i, i + size));
    r.endStream();
    check(r);
  }
  // Byte chunks: the lone surrogates of this text cannot be UTF-8, so feed
  // the escaped form, split anywhere.
  const escaped = new TextEncoder().encode(events.map((e) => 'data: ' + JSON.stringify(e) + '\n\n').join(''));
  for (const size of [1, 3, 5]) {
    const r = factory.createReducer();
    for (let i = 0; i < escaped.length; i += size) r.feed(escaped.subarray(i, i + size));
    r.endStream();
    check(r);
  }
});

test('worker mode: feed() of string chunks split inside pairs, and lone halves mid-chunk', async () => {
  const { port1, port2 } = new MessageChannel();
  serve(port2);
  const host = createWorkerHost({ worker: port1, wasmURL });
  try {
    const text = events.map((e) => 'data: ' + JSON.stringify(e).replace(/\\u(d[89a-f][0-9a-f]{2})/g, (_, h) => String.fromCharCode(parseInt(h, 16))) + '\n\n').join('');
    for (const size of [1, 2, 3, 7, 50]) {
      const r = await host.createReducer();
      const pending = [];
      for (let i = 0; i < text.length; i += size) pending.push(r.feed(text.slice(i, i + size)));
      pending.push(r.endStream());
      const recs = (await Promise.all(pending)).flat().filter(Boolean);
      assert.ok(!recs.some((rec) => (rec.diagnostics ?? []).some((d) => d.level === 'error')), `size ${size}`);
      check(r, await r.runInput());
      // The worker's own state agrees with the mirror.
      assert.deepStrictEqual(await r.snapshot(), r.state);
      r.dispose();
    }
    // A high half held back, then bytes: it goes on alone, before them.
    const r = await host.createReducer();
    const head = text.slice(0, text.indexOf('hi ') + 3) + '\ud83c';
    await r.feed(head);
    await r.feed(new TextEncoder().encode('!"}\n\n'));
    await r.endStream();
    assert.equal(r.state.messages.find((x) => x.id === 'm').content, 'hi \ud83c!');
    r.dispose();
  } finally {
    host.terminate();
    port2.close();
  }
});
