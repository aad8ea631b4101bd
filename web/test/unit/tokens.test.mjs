// Streamed tokens applied as objects, or as the JSON text JSON.stringify
// writes of them, cross the bridge by their fields (Core.applyToken), not
// as JSON text for the wasm to parse: the same records and state as the
// same events parsed by the wasm (given as bytes), whatever the ids, the
// text and the memory's growth in between; tokens JSON would write
// otherwise, and texts in another form, keep the JSON path.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadReducer } from '../../entries/agui.node.js';
import { tokenKind, tokenOfText, escapeLone } from '../../src/wasm/records.js';
import { wasmURL } from '../support/helpers.mjs';

const factory = await loadReducer(wasmURL);

function stream() {
  const out = [{ type: 'RUN_STARTED', threadId: 't', runId: 'r' }];
  for (const id of ['a', 'b']) out.push({ type: 'TEXT_MESSAGE_START', messageId: id, role: 'assistant' });
  out.push({ type: 'REASONING_MESSAGE_START', messageId: 'rz', role: 'reasoning' });
  out.push({ type: 'TOOL_CALL_START', toolCallId: 'c', toolCallName: 'f', parentMessageId: 'a' });
  for (let i = 0; i < 1200; i++) {
    const id = i % 7 < 5 ? 'a' : 'b';
    // long deltas grow the input buffer, a large state grows the wasm memory
    const delta = i % 100 === 0 ? 'x'.repeat(70_000) + i : `t${i} "é" 😀\n`;
    out.push({ type: 'TEXT_MESSAGE_CONTENT', messageId: id, delta });
    if (i % 300 === 0) out.push({ type: 'STATE_SNAPSHOT', snapshot: { big: 'y'.repeat(200_000 + i) } });
    if (i % 50 === 0) out.push({ type: 'REASONING_MESSAGE_CONTENT', messageId: 'rz', delta: `r${i}` });
    if (i % 40 === 0) out.push({ type: 'TOOL_CALL_ARGS', toolCallId: 'c', delta: i === 0 ? '{"a":"' : `${i}` });
  }
  // a long stretch of one message's tokens: its text outgrows the memory during them
  for (let i = 0; i < 40_000; i++) out.push({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'b', delta: `${i} `.padEnd(64, '.') });
  // not by fields: unknown message, an extra member, a lone surrogate, an empty text delta
  out.push({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'nope', delta: 'x' });
  out.push({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'a', delta: 'y', timestamp: 5 });
  out.push({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'a', delta: 'lone \ud800' });
  out.push({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'a', delta: '' });
  return out;
}

test('tokens applied by their fields fold as their JSON text does', () => {
  const grew = factory.memoryBytes();
  const byFields = factory.createReducer({ dialect: 'agui', deterministicIds: true });
  const byString = factory.createReducer({ dialect: 'agui', deterministicIds: true });
  const byText = factory.createReducer({ dialect: 'agui', deterministicIds: true });
  // One reducer after the other: a call between two tokens rewrites the id they share.
  const events = stream();
  const encoder = new TextEncoder();
  const a = events.map((ev) => byFields.apply(ev));
  const s = events.map((ev) => byString.apply(JSON.stringify(ev)));
  // Bytes: always the wasm's JSON parser (a lone surrogate written as its escape).
  const b = events.map((ev) => byText.apply(encoder.encode(escapeLone(JSON.stringify(ev)))));
  a.forEach((rec, i) => assert.deepEqual(rec, b[i], JSON.stringify(events[i]).slice(0, 80)));
  s.forEach((rec, i) => assert.deepEqual(rec, b[i], JSON.stringify(events[i]).slice(0, 80)));
  assert.deepEqual(byFields.state, byText.state);
  assert.deepEqual(byString.state, byText.state);
  assert.deepEqual(byFields.snapshot(), byText.snapshot());
  assert.deepEqual(byString.snapshot(), byText.snapshot());
  assert.ok(factory.memoryBytes() > grew, 'the memory grew');
  byFields.dispose();
  byString.dispose();
  byText.dispose();
});

test('tokenKind takes only what JSON would write as {type, id, delta}', () => {
  assert.equal(tokenKind({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'x' }), 1);
  assert.equal(tokenKind({ type: 'REASONING_MESSAGE_CONTENT', messageId: 'm', delta: '' }), 2);
  assert.equal(tokenKind({ type: 'TOOL_CALL_ARGS', toolCallId: 'c', delta: '{' }), 3);
  assert.equal(tokenKind({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'x', timestamp: undefined }), 1);
  assert.equal(tokenKind({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'x', timestamp: 1 }), 0);
  assert.equal(tokenKind({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: '\udc00' }), 0);
  assert.equal(tokenKind({ type: 'TEXT_MESSAGE_CONTENT', messageId: 1, delta: 'x' }), 0);
  assert.equal(tokenKind({ type: 'TOOL_CALL_ARGS', messageId: 'm', delta: 'x' }), 0);
  assert.equal(tokenKind(Object.assign(Object.create({ toJSON() { return {}; } }), { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'x' })), 0);
  assert.equal(tokenKind('{"type":"TEXT_MESSAGE_CONTENT"}'), 0);
  assert.equal(tokenKind(null), 0);
});

test('tokenOfText reads only the form JSON.stringify writes of a token, with strings JSON takes', () => {
  const t = (o) => { const r = tokenOfText(JSON.stringify(o)); return r === null ? null : { ...r }; };
  assert.deepEqual(t({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'x' }), { kind: 1, id: 'm', delta: 'x' });
  assert.deepEqual(t({ type: 'REASONING_MESSAGE_CONTENT', messageId: 'm', delta: '' }), { kind: 2, id: 'm', delta: '' });
  assert.deepEqual(t({ type: 'TOOL_CALL_ARGS', toolCallId: 'c', delta: '{"a":"\\"}' }), { kind: 3, id: 'c', delta: '{"a":"\\"}' });
  assert.deepEqual(t({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm\\', delta: 'a "b" \\ \n\t é😀 \u0001 ' }), { kind: 1, id: 'm\\', delta: 'a "b" \\ \n\t é😀 \u0001 ' });
  // An id with an escaped quote: the wasm parses it.
  assert.equal(t({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm"', delta: 'x' }), null);
  assert.deepEqual(t({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: '\\' }), { kind: 1, id: 'm', delta: '\\' });
  assert.deepEqual({ ...tokenOfText('{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"\\u00e9"}') }, { kind: 1, id: 'm', delta: 'é' });
  // Not in that form, or what JSON refuses: the wasm parses it (and reports what is wrong).
  for (const text of [
    '{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"x","timestamp":1}',
    '{"type":"TEXT_MESSAGE_CONTENT","delta":"x","messageId":"m"}',
    '{"type": "TEXT_MESSAGE_CONTENT","messageId":"m","delta":"x"}',
    '{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"x"} ',
    '{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"x\\"}',
    '{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"a\nb"}',
    '{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"\\q"}',
    '{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"\\ud800"}',
    '{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"\ud800"}',
    '{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"a"b"}',
    '{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"x","delta":"y"}',
    '{"type":"TOOL_CALL_ARGS","messageId":"m","delta":"x"}',
    '{"type":"TEXT_MESSAGE_END","messageId":"m"}',
  ]) assert.equal(tokenOfText(text), null, text);
});

test('apply(text) of a token folds as the wasm folds the same text, escapes and refusals included', () => {
  const byString = factory.createReducer({ dialect: 'agui', deterministicIds: true });
  const byBytes = factory.createReducer({ dialect: 'agui', deterministicIds: true });
  const encoder = new TextEncoder();
  const texts = [
    '{"type":"RUN_STARTED","threadId":"t","runId":"r"}',
    '{"type":"TEXT_MESSAGE_START","messageId":"m\\"q","role":"assistant"}',
    '{"type":"TEXT_MESSAGE_CONTENT","messageId":"m\\"q","delta":"a \\"b\\" \\\\ \\n é"}',
    '{"type":"TEXT_MESSAGE_CONTENT","messageId":"m\\u0022q","delta":"\\u00e9\\ud83d\\ude00"}',
    '{"type":"TEXT_MESSAGE_CONTENT","messageId":"m\\"q","delta":"\\ud800"}',
    '{"type":"TEXT_MESSAGE_CONTENT","messageId":"m\\"q","delta":"bad \\q"}',
    '{"type":"TEXT_MESSAGE_CONTENT","messageId":"nope","delta":"x"}',
    '{"type":"TEXT_MESSAGE_CONTENT","messageId":"m\\"q","delta":""}',
  ];
  for (const text of texts) {
    const a = byString.apply(text);
    const b = byBytes.apply(encoder.encode(text));
    assert.deepEqual(a, b, text);
  }
  assert.deepEqual(byString.state, byBytes.state);
  byString.dispose();
  byBytes.dispose();
});

/** Interleaved tool calls whose JSON arguments stream in short pieces: nested keys that need escaping in a pointer, arrays, "__proto__", escapes, non-ASCII text. */
function argsStream(seed) {
  let x = seed;
  const rand = () => ((x = (x * 1103515245 + 12345) % 2147483648) / 2147483648);
  const out = [{ type: 'RUN_STARTED', threadId: 't', runId: 'r' }, { type: 'TEXT_MESSAGE_START', messageId: 'm', role: 'assistant' }];
  const calls = [
    { id: 'c0', text: JSON.stringify({ path: 'src/a.txt', content: 'line "one"\nline \\two\\ é😀 '.repeat(30) }) },
    { id: 'c1', text: JSON.stringify({ 'a/b': { 'c~d': ['x', { __proto__: null, q: 'é😀\n"', ['__proto__']: 'p' }, 'yy'] }, '': 'empty key', list: ['s1', 's2', 3, true, null] }) },
    { id: 'c2', text: '{"k":"unterminated ' + 'text '.repeat(50) },
  ];
  for (const c of calls) out.push({ type: 'TOOL_CALL_START', toolCallId: c.id, toolCallName: 'write_file', parentMessageId: 'm' }), c.at = 0;
  for (let open = calls.length; open > 0;) {
    for (const c of calls) {
      if (c.at >= c.text.length) continue;
      let n = 1 + Math.floor(rand() * 7);
      // never split a surrogate pair: a lone surrogate takes the JSON path
      const code = c.text.charCodeAt(c.at + n - 1);
      if (code >= 0xd800 && code <= 0xdbff) n++;
      out.push({ type: 'TOOL_CALL_ARGS', toolCallId: c.id, delta: c.text.slice(c.at, c.at + n) });
      if (rand() < 0.2) out.push({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: `w${c.at} ` });
      c.at += n;
      if (c.at >= c.text.length) open--;
    }
  }
  for (const c of calls) out.push({ type: 'TOOL_CALL_END', toolCallId: c.id });
  out.push({ type: 'RUN_FINISHED', threadId: 't', runId: 'r' });
  return out;
}

test('tool-argument tokens fold as their JSON text, the state read at any interval', () => {
  for (const seed of [1, 2, 3]) {
    const events = argsStream(seed);
    const byFields = factory.createReducer({ dialect: 'agui', deterministicIds: true });
    const byText = factory.createReducer({ dialect: 'agui', deterministicIds: true });
    let x = seed * 7;
    const every = () => ((x = (x * 75 + 74) % 65537) % 5);
    const states = [];
    for (const ev of events) {
      const a = byFields.apply(ev);
      const b = byText.apply(JSON.stringify(ev));
      assert.deepEqual(a, b, JSON.stringify(ev));
      if (every() === 0) {
        const st = byFields.state;
        assert.deepStrictEqual(st, byFields.snapshot(), JSON.stringify(ev));
        states.push([st, JSON.stringify(st)]);
      }
    }
    assert.deepStrictEqual(byFields.state, byText.state);
    assert.deepStrictEqual(byFields.state, byFields.snapshot());
    for (const [st, json] of states) assert.equal(JSON.stringify(st), json, 'an old state never changes');
    assert.equal(Object.prototype.p, undefined);
    const args = byFields.state.toolCalls[1].args;
    assert.ok(Object.hasOwn(args['a/b']['c~d'][1], '__proto__'));
    byFields.dispose();
    byText.dispose();
  }
});
