// Hostile input through the wasm module and web/agui.js (SPEC.md §7): every
// bad event yields a diagnostic with the right code and level, a refused
// event leaves snapshot() byte-identical, the JS mirror deep-equals
// snapshot() after every step, and the same reducer folds the next valid
// event. Mirrors reducer/hostile_test.go and reducer/robustness_test.go.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadReducer, __internal } from '../../entries/agui.node.js';
import { wasmURL, stream, sseText } from '../support/helpers.mjs';

const factory = await loadReducer(wasmURL);
const core = await __internal.loadCore(wasmURL); // raw snapshot text, for byte comparisons
const enc = new TextEncoder();

const protoNames = () => Object.getOwnPropertyNames(Object.prototype).sort();
const protoBefore = protoNames();
const arrayProtoBefore = Object.getOwnPropertyNames(Array.prototype).sort();

function assertNoPollution(what) {
  assert.equal(({}).polluted, undefined, `${what}: ({}).polluted`);
  assert.equal(Object.prototype.polluted, undefined, what);
  assert.equal([].polluted, undefined, what);
  assert.deepStrictEqual(protoNames(), protoBefore, `${what}: Object.prototype keys`);
  assert.deepStrictEqual(Object.getOwnPropertyNames(Array.prototype).sort(), arrayProtoBefore, `${what}: Array.prototype keys`);
  assert.equal(typeof Object.prototype.toString, 'function');
}

// The conversation the hostile events are thrown at.
const BASE = [
  '{"type":"RUN_STARTED","threadId":"t","runId":"r1"}',
  '{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}',
  '{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"hello"}',
  '{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"f","parentMessageId":"m1"}',
  '{"type":"STATE_SNAPSHOT","snapshot":{"a":{"b":[1,2,3]},"n":1}}',
  '{"type":"ACTIVITY_SNAPSHOT","messageId":"act","activityType":"P","content":{"x":1}}',
];
const NEXT = '{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"!"}';

const big = 'x'.repeat(10 << 20);
const deep = '['.repeat(100000) + ']'.repeat(100000);
const ERROR = 'error';
const WARN = 'warning';

/**
 * Hostile events: event (JSON text, bytes, or an object), codes and
 * levels expected in order, same: the state must be byte-identical.
 */
const cases = [
  // Malformed and truncated JSON
  { name: 'truncated JSON', event: '{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","del', codes: [['bad_json', ERROR]], same: true },
  { name: 'truncated after a value', event: '{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"x"', codes: [['bad_json', ERROR]], same: true },
  { name: 'empty', event: '', codes: [['bad_json', ERROR]], same: true },
  { name: 'whitespace', event: ' \n\t', codes: [['bad_json', ERROR]], same: true },
  { name: 'not an object', event: '"TEXT_MESSAGE_CONTENT"', codes: [['bad_event', ERROR]], same: true },
  { name: 'an array', event: '[{"type":"CUSTOM","name":"x"}]', codes: [['bad_event', ERROR]], same: true },
  { name: 'null', event: 'null', codes: [['bad_event', ERROR]], same: true },
  { name: 'trailing garbage', event: '{"type":"CUSTOM","name":"x"} {}', codes: [['bad_json', ERROR]], same: true },
  { name: 'single quotes', event: "{'type':'CUSTOM'}", codes: [['bad_json', ERROR]], same: true },
  { name: 'trailing comma', event: '{"type":"CUSTOM","name":"x",}', codes: [['bad_json', ERROR]], same: true },
  { name: 'no type', event: '{}', codes: [['bad_event', ERROR]], same: true },
  { name: 'type null', event: '{"type":null}', codes: [['bad_event', ERROR]], same: true },
  // Wrong field types
  { name: 'delta is an object', event: '{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":{"a":1}}', codes: [['bad_event', ERROR]], same: true },
  { name: 'delta is missing', event: '{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1"}', codes: [['bad_event', ERROR]], same: true },
  { name: 'id is a number', event: '{"type":"TOOL_CALL_ARGS","toolCallId":7,"delta":"x"}', codes: [['bad_event', ERROR]], same: true },
  { name: 'id is an array', event: '{"type":"TEXT_MESSAGE_CONTENT","messageId":["m1"],"delta":"x"}', codes: [['bad_event', ERROR]], same: true },
  { name: 'threadId is a number', event: '{"type":"RUN_STARTED","threadId":5,"runId":"r"}', codes: [['bad_event', ERROR]], same: true },
  { name: 'messages is an object', event: '{"type":"MESSAGES_SNAPSHOT","messages":{}}', codes: [['bad_event', ERROR]], same: true },
  { name: 'message is a number', event: '{"type":"MESSAGES_SNAPSHOT","messages":[1]}', codes: [['bad_message', ERROR]], same: true },
  { name: 'role is unknown', event: '{"type":"TEXT_MESSAGE_START","messageId":"m9","role":"wizard"}', codes: [['bad_event', ERROR]], same: true },
  { name: 'result content is an object', event: '{"type":"TOOL_CALL_RESULT","messageId":"r9","toolCallId":"c1","content":{"a":1}}', codes: [['bad_event', ERROR]], same: true },
  { name: 'delta patch is an object', event: '{"type":"STATE_DELTA","delta":{}}', codes: [['bad_event', ERROR]], same: true },
  { name: 'outcome is a string', event: '{"type":"RUN_FINISHED","threadId":"t","runId":"r1","outcome":"weird"}', codes: [['bad_event', ERROR]], same: true },
  { name: 'timestamp is a string', event: '{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"x","timestamp":"now"}', codes: [['bad_event', ERROR]], same: true },
  { name: 'metadata is null', event: '{"type":"TEXT_MESSAGE_END","messageId":"m1","metadata":null}', codes: [['bad_event', ERROR]], same: true },
  { name: 'unknown event type', event: '{"type":"FROM_THE_FUTURE"}', codes: [['unknown_type', WARN]], same: true },
  // Size and depth
  { name: '10 MB string is accepted', event: `{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"${big}"}`, codes: [], same: false, slow: true },
  { name: '10 MB string as bytes is accepted', event: enc.encode(`{"type":"CUSTOM","name":"big","value":"${big}"}`), codes: [], same: true, slow: true },
  { name: 'nesting 100,000 deep', event: `{"type":"CUSTOM","name":"x","value":${deep}}`, codes: [['bad_json', ERROR]], same: true, slow: true },
  { name: 'nesting 100,000 deep in a state snapshot', event: `{"type":"STATE_SNAPSHOT","snapshot":${deep}}`, codes: [['bad_json', ERROR]], same: true, slow: true },
  { name: 'nesting 100,000 deep, unclosed', event: `{"type":"CUSTOM","name":"x","value":${'{"a":'.repeat(100000)}`, codes: [['bad_json', ERROR]], same: true, slow: true },
  { name: 'tool arguments nesting 100,000 deep (text)', event: `{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"${'['.repeat(100000)}"}`, codes: [], same: false, slow: true },
  // Invalid UTF-8 and control characters
  { name: 'invalid UTF-8 bytes', event: Uint8Array.of(...enc.encode('{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"a'), 0xff, 0xfe, 0xc3, ...enc.encode('b"}')), codes: [], same: false },
  { name: 'escaped NUL, controls, lone surrogates, bidi', event: '{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"a\\u0000\\u001f\\ud800\\udfffb\\u202e\\u2028"}', codes: [], same: false },
  { name: 'lone surrogate in a JS string', event: '{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"a\ud800b"}', codes: [], same: false },
  { name: 'raw control character', event: '{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"a\u0001"}', codes: [['bad_json', ERROR]], same: true },
  { name: 'raw NUL byte outside strings', event: '{"type":"CUSTOM",\u0000"name":"x"}', codes: [['bad_json', ERROR]], same: true },
  { name: 'UTF-8 BOM before the event', event: '\ufeff{"type":"CUSTOM","name":"x"}', codes: [['bad_json', ERROR]], same: true },
  // Numbers
  { name: 'NaN', event: '{"type":"STATE_SNAPSHOT","snapshot":NaN}', codes: [['bad_json', ERROR]], same: true },
  { name: 'Infinity', event: '{"type":"STATE_SNAPSHOT","snapshot":{"n":Infinity}}', codes: [['bad_json', ERROR]], same: true },
  { name: '-Infinity', event: '{"type":"STATE_SNAPSHOT","snapshot":{"n":-Infinity}}', codes: [['bad_json', ERROR]], same: true },
  { name: 'hex number', event: '{"type":"STATE_SNAPSHOT","snapshot":{"n":0x10}}', codes: [['bad_json', ERROR]], same: true },
  { name: 'leading zero', event: '{"type":"STATE_SNAPSHOT","snapshot":{"n":01}}', codes: [['bad_json', ERROR]], same: true },
  { name: 'huge numbers', event: '{"type":"STATE_DELTA","delta":[{"op":"add","path":"/big","value":1e400},{"op":"add","path":"/tiny","value":-1e-400},{"op":"add","path":"/long","value":123456789012345678901234567890}]}', codes: [], same: false },
  // 1.0: a timestamp is an integer within ±(2^53-1).
  { name: 'huge timestamp', event: '{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"x","timestamp":1e400}', codes: [['bad_event', ERROR]], same: true },
  // Unknown ids, every event kind that names something
  { name: 'content for unknown message', event: '{"type":"TEXT_MESSAGE_CONTENT","messageId":"nope","delta":"x"}', codes: [['unknown_message', WARN]], same: true },
  { name: 'end for unknown message', event: '{"type":"TEXT_MESSAGE_END","messageId":"nope"}', codes: [['unknown_message', WARN]], same: true },
  { name: 'reasoning content for unknown message', event: '{"type":"REASONING_MESSAGE_CONTENT","messageId":"nope","delta":"x"}', codes: [['unknown_message', WARN]], same: true },
  { name: 'reasoning end for unknown message', event: '{"type":"REASONING_MESSAGE_END","messageId":"nope"}', codes: [['unknown_message', WARN]], same: true },
  { name: 'args for unknown call', event: '{"type":"TOOL_CALL_ARGS","toolCallId":"nope","delta":"{}"}', codes: [['unknown_tool_call', WARN]], same: true },
  { name: 'end for unknown call', event: '{"type":"TOOL_CALL_END","toolCallId":"nope"}', codes: [['unknown_tool_call', WARN]], same: true },
  { name: 'activity delta for unknown message', event: '{"type":"ACTIVITY_DELTA","messageId":"nope","activityType":"P","patch":[]}', codes: [['unknown_message', WARN]], same: true },
  { name: 'activity delta for a text message', event: '{"type":"ACTIVITY_DELTA","messageId":"m1","activityType":"P","patch":[]}', codes: [['not_activity', WARN]], same: true },
  { name: 'encrypted value for unknown message', event: '{"type":"REASONING_ENCRYPTED_VALUE","subtype":"message","entityId":"nope","encryptedValue":"e"}', codes: [], same: true },
  { name: 'encrypted value for unknown call', event: '{"type":"REASONING_ENCRYPTED_VALUE","subtype":"tool-call","entityId":"nope","encryptedValue":"e"}', codes: [], same: true },
  { name: 'step finished, never started', event: '{"type":"STEP_FINISHED","stepName":"nope"}', codes: [['unknown_step', WARN]], same: true },
  { name: 'text chunk without id', event: '{"type":"TEXT_MESSAGE_CHUNK","delta":"x"}', codes: [['bad_chunk', ERROR]], same: true },
  { name: 'tool chunk without id', event: '{"type":"TOOL_CALL_CHUNK","delta":"x"}', codes: [['bad_chunk', ERROR]], same: true },
  { name: 'reasoning chunk without id', event: '{"type":"REASONING_MESSAGE_CHUNK","delta":"x"}', codes: [['bad_chunk', ERROR]], same: true },
  // Out of order
  { name: 'END twice', event: '{"type":"TEXT_MESSAGE_END","messageId":"m1"}', codes: [], same: false, twice: true },
  { name: 'tool END twice', event: '{"type":"TOOL_CALL_END","toolCallId":"c1"}', codes: [], same: false, twice: true },
  { name: 'RESULT for an unknown call', event: '{"type":"TOOL_CALL_RESULT","messageId":"r9","toolCallId":"nope","content":"x"}', codes: [], same: false },
  { name: 'RUN_FINISHED for another run', event: '{"type":"RUN_FINISHED","threadId":"t","runId":"other"}', codes: [], same: false },
  // The open run resent from its start: rewound to its checkpoint, then folded again.
  { name: 'RUN_STARTED twice', event: '{"type":"RUN_STARTED","threadId":"t","runId":"r1"}', codes: [['resent_run', WARN]], same: false, rewinds: true },
  // Patches
  { name: 'patch failing at its last op (atomic)', event: '{"type":"STATE_DELTA","delta":[{"op":"replace","path":"/n","value":2},{"op":"add","path":"/a/b/-","value":4},{"op":"remove","path":"/a/b/7"}]}', codes: [['patch_failed', ERROR]], same: true },
  { name: 'patch with a failing test op last', event: '{"type":"STATE_DELTA","delta":[{"op":"add","path":"/z","value":1},{"op":"test","path":"/n","value":2}]}', codes: [['patch_failed', ERROR]], same: true },
  { name: 'activity patch failing at its last op', event: '{"type":"ACTIVITY_DELTA","messageId":"act","activityType":"P","patch":[{"op":"add","path":"/y","value":2},{"op":"remove","path":"/nope"}]}', codes: [['patch_failed', ERROR]], same: true },
  // 1.0: an unknown op is removed from the patch, as enforcement removes it.
  { name: 'patch with an unknown op', event: '{"type":"STATE_DELTA","delta":[{"op":"bogus","path":"/a"}]}', codes: [['unknown_member', WARN]], same: true },
  { name: 'patch through __proto__', event: '{"type":"STATE_DELTA","delta":[{"op":"add","path":"/__proto__/polluted","value":true}]}', codes: [['patch_failed', ERROR]], same: true },
  { name: 'patch through constructor/prototype', event: '{"type":"STATE_DELTA","delta":[{"op":"add","path":"/constructor/prototype/polluted","value":1}]}', codes: [['patch_failed', ERROR]], same: true },
  // JS-side: not serialisable
  { name: 'cyclic object', event: (() => { const o = { type: 'CUSTOM', name: 'x' }; o.self = o; return o; })(), codes: [['bad_event', ERROR]], same: true },
  { name: 'BigInt in an object', event: { type: 'CUSTOM', name: 'x', value: 1n }, codes: [['bad_event', ERROR]], same: true },
  { name: 'object event with NaN (JSON.stringify makes null)', event: { type: 'CUSTOM', name: 'x', value: NaN }, codes: [], same: true },
];

/** snapshot() as text straight from the module (the public one is parsed). */
function rawFold(lines, options = '{"deterministicIds":true}') {
  const h = core.create(options);
  for (const l of lines) core.apply(h, typeof l === 'string' || l instanceof Uint8Array ? l : JSON.stringify(l), '');
  return h;
}
const rawSnapshot = (h) => core.call('snapshot', h).text;

function withBase(options = {}) {
  const r = factory.createReducer({ deterministicIds: true, ...options });
  for (const l of BASE) {
    const rec = r.apply(l);
    assert.equal(rec.diagnostics, undefined, l);
  }
  assert.deepStrictEqual(r.state, r.snapshot());
  return r;
}

function codesOf(rec) {
  return (rec.diagnostics ?? []).map((d) => [d.code, d.level]);
}

function assertNextFolds(r, what) {
  const before = r.state.messages[0].content;
  const rec = r.apply(NEXT);
  assert.ok(!(rec.diagnostics ?? []).some((d) => d.level === 'error'), `${what}: next event: ${JSON.stringify(rec.diagnostics)}`);
  assert.equal(r.state.messages[0].content, `${before}!`, `${what}: next event folds`);
  assert.deepStrictEqual(r.state, r.snapshot(), `${what}: mirror after the next event`);
}

const timings = [];

for (const tc of cases) {
  test(`hostile: ${tc.name}`, () => {
    const r = withBase();
    const diags = [];
    r.on('diagnostic', (d) => diags.push(d));
    if (tc.twice) r.apply(tc.event);
    const before = JSON.stringify(r.snapshot());
    const beforeState = r.state;
    const t0 = performance.now();
    const rec = r.apply(tc.event);
    const ms = performance.now() - t0;
    if (tc.slow) timings.push([tc.name, ms]);
    assert.deepStrictEqual(codesOf(rec), tc.codes, 'diagnostics');
    assert.deepStrictEqual(diags.slice(-tc.codes.length || diags.length).map((d) => [d.code, d.level]), tc.codes, 'on(diagnostic)');
    if (tc.same) {
      assert.equal(rec.ops, undefined, 'a refused event has no ops');
      assert.equal(JSON.stringify(r.snapshot()), before, 'snapshot() unchanged');
      assert.equal(r.state, beforeState, 'the mirror keeps its identity');
    }
    assert.deepStrictEqual(r.state, r.snapshot(), 'mirror equals snapshot()');
    assertNoPollution(tc.name);
    if (tc.rewinds) {
      // Back to the state before the run; its events fold again.
      assert.equal(r.state.messages.length, 0, 'rewound');
      for (const l of BASE.slice(1)) r.apply(l);
    }
    assertNextFolds(r, tc.name);
    r.dispose();

    // Byte-identical, straight from the module.
    const h = rawFold(BASE);
    const data = typeof tc.event === 'string' || tc.event instanceof Uint8Array ? tc.event : null;
    if (data !== null) {
      if (tc.twice) core.apply(h, data, '');
      const raw = rawSnapshot(h);
      const res = core.apply(h, data, '');
      assert.ok(res.ok);
      if (tc.same) assert.equal(rawSnapshot(h), raw, 'raw snapshot byte-identical');
    }
    core.call('dispose', h);
  });
}

test('hostile: large and deep events do not hang (timings)', () => {
  for (const [name, ms] of timings) console.log(`# ${name}: ${ms.toFixed(0)} ms`);
  assert.ok(timings.length >= 5);
});

test('restore(snapshot()) after every hostile case gives the same state', () => {
  for (const tc of cases) {
    if (tc.slow) continue;
    const h = rawFold(BASE);
    core.apply(h, typeof tc.event === 'string' || tc.event instanceof Uint8Array ? tc.event : '{}', '');
    const snap = rawSnapshot(h);
    const h2 = core.create('{}');
    const rec = JSON.parse(core.call('restore', h2, snap).text);
    assert.equal(rec.diagnostics, undefined, tc.name);
    assert.equal(rawSnapshot(h2), snap, tc.name);
    core.call('dispose', h);
    core.call('dispose', h2);
  }
  // Through the public API: a parsed snapshot restores to an equal mirror.
  const r = withBase();
  r.apply('{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"{\\"a\\":[1,"}');
  const r2 = factory.createReducer();
  r2.restore(r.snapshot());
  assert.deepStrictEqual(r2.state, r.state);
  assert.deepStrictEqual(r2.snapshot(), r.snapshot());
  // A snapshot JSON.stringify cannot encode is refused with a diagnostic.
  const cyclic = r.snapshot();
  cyclic.state.self = cyclic;
  const before = r2.state;
  const rec = r2.restore(cyclic);
  assert.equal(rec.diagnostics[0].code, 'bad_snapshot');
  assert.equal(r2.state, before);
  assert.deepStrictEqual(codesOf(r2.restore('{"messages":7}')).map((c) => c[1]), ['error']);
  assert.equal(r2.state, before);
  r.dispose();
  r2.dispose();
});

test('numbers beyond float64: exact in snapshot text, Infinity and rounded in the JS mirror', () => {
  const h = rawFold([...BASE, '{"type":"STATE_DELTA","delta":[{"op":"add","path":"/big","value":1e400},{"op":"add","path":"/long","value":123456789012345678901234567890}]}']);
  assert.match(rawSnapshot(h), /"big":1e400,"long":123456789012345678901234567890/);
  core.call('dispose', h);
  const r = withBase();
  r.apply('{"type":"STATE_DELTA","delta":[{"op":"add","path":"/big","value":1e400}]}');
  assert.equal(r.state.state.big, Infinity);
  assert.deepStrictEqual(r.state, r.snapshot());
  r.dispose();
});

// ---------------------------------------------------------------------------
// SSE level: feed() with truncated frames and garbage

const sseCases = [
  { name: 'frame truncated mid-JSON, then a blank line', body: 'data: {"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","del\n\n', codes: [['bad_json', ERROR]] },
  { name: 'frame cut mid-line, ended by endStream', body: 'data: {"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"lost"}', codes: [], end: true },
  { name: 'frame without blank line, ended by endStream', body: 'data: {"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"lost"}\n', codes: [], end: true },
  { name: 'multi-line data joined with a newline', body: 'data: {"type":"CUSTOM",\ndata: "name":"x","value":1}\n\n', codes: [] },
  { name: 'lines without a field name', body: 'garbage\n{"type":"CUSTOM","name":"x","value":1}\n\n', codes: [] },
  { name: 'comments, id, retry and unknown fields only', body: ': hi\nid: 7\nretry: 10\nfoo: bar\n\n', codes: [] },
  { name: 'empty data', body: 'data:\n\n', codes: [['bad_json', ERROR]] },
  { name: 'NUL bytes', body: 'data: \u0000\u0000\n\n', codes: [['bad_json', ERROR]] },
  { name: 'invalid UTF-8 inside a frame', bytes: Uint8Array.of(...enc.encode('data: {"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"'), 0xff, 0xc0, 0x80, ...enc.encode('"}\n\n')), codes: [] },
  { name: 'CR-only line endings', body: 'data: {"type":"CUSTOM","name":"x","value":1}\r\r', codes: [] },
  { name: 'event name of another dialect', body: 'event: tool_call_start\ndata: {"nope":1}\n\n', codes: null },
  { name: 'a run of blank lines', body: '\n\n\n\n\r\n\r\n', codes: [] },
  { name: 'a valid frame then a truncated one', body: 'data: {"type":"CUSTOM","name":"a","value":1}\n\ndata: {"type":"CUS\n\n', codes: [['bad_json', ERROR]] },
];

for (const tc of sseCases) {
  test(`hostile SSE: ${tc.name}`, () => {
    const r = withBase();
    const before = JSON.stringify(r.snapshot());
    const bytes = tc.bytes ?? enc.encode(tc.body);
    const recs = [];
    for (let i = 0; i < bytes.length; i += 5) recs.push(...r.feed(bytes.subarray(i, i + 5))); // split anywhere
    if (tc.end) r.endStream();
    const content = r.state.messages[0].content;
    const got = recs.flatMap(codesOf);
    if (tc.codes !== null) assert.deepStrictEqual(got, tc.codes);
    else assert.ok(got.length > 0 && got.every(([, level]) => level === ERROR || level === WARN));
    if (tc.codes !== null && tc.codes.length > 0) assert.equal(JSON.stringify(r.snapshot()), before, 'refused frames change nothing');
    if (tc.end) assert.equal(r.state.messages[0].content, 'hello', 'an unterminated frame is discarded');
    assert.deepStrictEqual(r.state, r.snapshot());
    // The same reducer, and a fresh SSE body, keep working.
    r.endStream();
    const more = r.feed(`data: ${NEXT}\n\n`);
    assert.equal(more.length, 1);
    assert.equal(r.state.messages[0].content, `${content}!`);
    assertNextFolds(r, tc.name);
    r.dispose();
  });
}

// ---------------------------------------------------------------------------
// Limits from JS

test('limits: maxEventBytes, maxDepth, maxFieldBytes are enforced and reported', () => {
  const start = [
    '{"type":"RUN_STARTED","threadId":"t","runId":"r"}',
    '{"type":"TEXT_MESSAGE_START","messageId":"m","role":"assistant"}',
    '{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"f","parentMessageId":"m"}',
    '{"type":"REASONING_MESSAGE_START","messageId":"m","role":"reasoning"}',
  ];
  const limits = [
    { options: { maxEventBytes: 100 }, ok: [], bad: `{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"${'x'.repeat(100)}"}`, code: 'too_large' },
    { options: { maxDepth: 4 }, ok: ['{"type":"CUSTOM","name":"x","value":[[1]]}'], bad: '{"type":"CUSTOM","name":"x","value":[[[[1]]]]}', code: 'bad_json' },
    { options: { maxFieldBytes: 8 }, ok: ['{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"12345"}'], bad: '{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"6789"}', code: 'too_large' },
    { options: { maxFieldBytes: 8 }, ok: ['{"type":"REASONING_MESSAGE_CONTENT","messageId":"m","delta":"12345"}'], bad: '{"type":"REASONING_MESSAGE_CONTENT","messageId":"m","delta":"6789"}', code: 'too_large' },
    { options: { maxFieldBytes: 8 }, ok: ['{"type":"TOOL_CALL_ARGS","toolCallId":"c","delta":"{\\"a\\":"}'], bad: '{"type":"TOOL_CALL_ARGS","toolCallId":"c","delta":"12345"}', code: 'too_large' },
  ];
  for (const { options, ok, bad, code } of limits) {
    for (const via of ['apply', 'feed']) {
      const r = factory.createReducer(options);
      for (const l of [...start, ...ok]) assert.equal(codesOf(r.apply(l)).length, 0, `${JSON.stringify(options)}: ${l}`);
      const before = JSON.stringify(r.snapshot());
      const state = r.state;
      const recs = via === 'apply' ? [r.apply(bad)] : r.feed(`data: ${bad}\n\n`);
      assert.deepStrictEqual(recs.flatMap(codesOf), [[code, ERROR]], `${JSON.stringify(options)} via ${via}`);
      assert.equal(JSON.stringify(r.snapshot()), before, 'skipped, not truncated');
      assert.equal(r.state, state);
      const next = r.apply('{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"ok"}');
      assert.equal(codesOf(next).length, 0);
      assert.deepStrictEqual(r.state, r.snapshot());
      r.dispose();
    }
  }
});

test('limits: defaults are 16 MiB per event, 512 deep, 32 MiB per field', () => {
  const r = factory.createReducer();
  r.apply('{"type":"TEXT_MESSAGE_START","messageId":"m","role":"assistant"}');
  const over = 'y'.repeat((16 << 20) + 1);
  assert.deepStrictEqual(codesOf(r.apply(`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"${over}"}`)), [['too_large', ERROR]]);
  assert.deepStrictEqual(codesOf(r.apply(`{"type":"CUSTOM","name":"x","value":${'['.repeat(511)}${']'.repeat(511)}}`)), []);
  assert.deepStrictEqual(codesOf(r.apply(`{"type":"CUSTOM","name":"x","value":${'['.repeat(512)}${']'.repeat(512)}}`)), [['bad_json', ERROR]]);
  const chunk = 'z'.repeat(11 << 20);
  for (let i = 0; i < 2; i++) assert.deepStrictEqual(codesOf(r.apply(`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"${chunk}"}`)), []);
  const before = r.state;
  assert.deepStrictEqual(codesOf(r.apply(`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"${chunk}"}`)), [['too_large', ERROR]], '33 MiB > 32 MiB');
  assert.equal(r.state, before);
  assert.equal(r.state.messages[0].content.length, 22 << 20);
  // An SSE frame over the event limit is skipped by the parser. (Its
  // record comes after those of the frames completed by the same feed():
  // TestBugStreamErrorOrder.)
  const r2 = factory.createReducer({ maxEventBytes: 64 });
  const recs = r2.feed(`data: {"type":"CUSTOM","name":"${'n'.repeat(100)}"}\n\ndata: {"type":"CUSTOM","name":"ok","value":1}\n\n`);
  assert.deepStrictEqual(recs.map((rec) => codesOf(rec)[0]?.[0] ?? rec.events[0].name).sort(), ['ok', 'too_large']);
  r.dispose();
  r2.dispose();
});

test('limits: bad option types are refused at createReducer', () => {
  for (const options of [{ maxDepth: 'deep' }, { maxEventBytes: 1.5 }, { maxFieldBytes: [] }, { strict: 'yes' }]) {
    assert.throws(() => factory.createReducer(options), (err) => err.code === 'bad_options', JSON.stringify(options));
  }
  // Zero or negative means the default.
  const r = factory.createReducer({ maxDepth: 0, maxEventBytes: -1 });
  assert.deepStrictEqual(codesOf(r.apply(`{"type":"CUSTOM","name":"x","value":${'['.repeat(300)}${']'.repeat(300)}}`)), []);
  r.dispose();
});

test('limits raised past the defaults: 100,000 deep folds, and restore of it is refused, not thrown', () => {
  const r = factory.createReducer({ maxDepth: 200000 });
  const custom = [];
  r.on('custom', (e) => custom.push(e));
  r.apply(`{"type":"CUSTOM","name":"deep","value":${deep}}`);
  assert.equal(custom.length, 1);
  r.apply(`{"type":"STATE_SNAPSHOT","snapshot":${deep}}`);
  assert.ok(Array.isArray(r.state.state));
  const snap = r.snapshot(); // JSON.parse copes; JSON.stringify would not
  const rec = r.restore(snap);
  assert.equal(rec.diagnostics?.[0]?.code, 'bad_snapshot');
  r.apply('{"type":"STATE_SNAPSHOT","snapshot":{"ok":true}}');
  assert.deepStrictEqual(r.state.state, { ok: true });
  r.dispose();
});

// ---------------------------------------------------------------------------
// Prototype pollution

test('__proto__, constructor and prototype keys stay data: state, metadata, args, activity, citations, custom', () => {
  const r = factory.createReducer({ deterministicIds: true });
  const custom = [];
  r.on('custom', (e) => custom.push(e));
  const events = [
    '{"type":"RUN_STARTED","threadId":"t","runId":"r"}',
    '{"type":"TEXT_MESSAGE_START","messageId":"m","role":"assistant","metadata":{"__proto__":{"polluted":1}}}',
    '{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"hi","metadata":{"constructor":{"prototype":{"polluted":2}},"prototype":{"polluted":3}}}',
    '{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"f","parentMessageId":"m","metadata":{"__proto__":{"polluted":4}}}',
    // Streamed arguments, the key split across deltas.
    '{"type":"TOOL_CALL_ARGS","toolCallId":"c","delta":"{\\"__pro"}',
    '{"type":"TOOL_CALL_ARGS","toolCallId":"c","delta":"to__\\":{\\"polluted\\":"}',
    '{"type":"TOOL_CALL_ARGS","toolCallId":"c","delta":"5,\\"x\\":{\\"__proto__\\":{\\"polluted\\":6}}},\\"constructor\\":{\\"prototype\\":"}',
    '{"type":"TOOL_CALL_ARGS","toolCallId":"c","delta":"{\\"polluted\\":7}},\\"prototype\\":[1]}"}',
    '{"type":"TOOL_CALL_END","toolCallId":"c"}',
    '{"type":"TOOL_CALL_RESULT","messageId":"res","toolCallId":"c","content":"{\\"__proto__\\":{\\"polluted\\":8}}"}',
    '{"type":"STATE_SNAPSHOT","snapshot":{"__proto__":{"polluted":9},"constructor":{"prototype":{"polluted":10}},"citations":{"m":[{"url":"https://e.x","__proto__":{"polluted":11}},"https://f.x"]}}}',
    '{"type":"STATE_DELTA","delta":[{"op":"add","path":"/prototype","value":{"__proto__":{"polluted":12}}},{"op":"add","path":"/list","value":[{"__proto__":{"polluted":13}}]}]}',
    '{"type":"STATE_DELTA","delta":[{"op":"replace","path":"/citations/m/0","value":{"url":"https://g.x","__proto__":{"polluted":14}}}]}',
    '{"type":"ACTIVITY_SNAPSHOT","messageId":"a","activityType":"P","content":{"__proto__":{"polluted":15}}}',
    '{"type":"ACTIVITY_DELTA","messageId":"a","activityType":"P","patch":[{"op":"add","path":"/constructor","value":{"prototype":{"polluted":16}}}]}',
    '{"type":"CUSTOM","name":"__proto__","value":{"__proto__":{"polluted":17}}}',
    '{"type":"CUSTOM","name":"state_update","value":{"__proto__":{"polluted":18}}}',
    '{"type":"MESSAGES_SNAPSHOT","messages":[{"id":"m","role":"assistant","content":"hi","metadata":{"__proto__":{"polluted":19}}},{"id":"u","role":"user","content":"q","__proto__":{"polluted":19}}]}',
    '{"type":"RUN_FINISHED","threadId":"t","runId":"r","result":{"__proto__":{"polluted":20}}}',
    // Only a success captures a result (1.0): this run keeps the one above.
    '{"type":"RUN_STARTED","threadId":"t","runId":"r2"}',
    '{"type":"RUN_FINISHED","threadId":"t","runId":"r2","result":"ignored","outcome":{"type":"interrupt","interrupts":[{"id":"i","__proto__":{"polluted":21}}]}}',
  ];
  for (const e of events) {
    const rec = r.apply(e);
    assert.ok(!(rec.diagnostics ?? []).some((d) => d.level === 'error'), `${e}: ${JSON.stringify(rec.diagnostics)}`);
    assert.deepStrictEqual(r.state, r.snapshot(), e);
    assertNoPollution(e);
    const args = r.state.toolCalls[0]?.args;
    if (args) assert.equal(Object.getPrototypeOf(args), Object.prototype, 'args keep their prototype while streaming');
  }
  const s = r.state;
  const own = (o, k) => Object.prototype.hasOwnProperty.call(o, k);
  const protoOf = (o) => Object.getPrototypeOf(o);
  // Own data properties, plain prototypes.
  assert.ok(own(s.state, '__proto__'));
  assert.equal(protoOf(s.state), Object.prototype);
  assert.deepStrictEqual({ ...s.state.__proto__ }, { polluted: 9 });
  assert.equal(s.state.constructor.prototype.polluted, 10);
  assert.ok(own(s.state.prototype, '__proto__'));
  assert.ok(own(s.state.list[0], '__proto__'));
  assert.ok(own(s.state.citations.m[0], '__proto__'));
  const m = s.messages.find((x) => x.id === 'm');
  assert.ok(own(m.metadata, '__proto__'));
  assert.equal(protoOf(m.metadata), Object.prototype);
  assert.equal(m.citations[0].url, 'https://g.x');
  assert.ok(own(m.citations[0].extra, '__proto__'));
  const tc = s.toolCalls[0];
  assert.ok(own(tc.args, '__proto__'));
  assert.equal(tc.args.__proto__.polluted, 5);
  assert.ok(own(tc.args.__proto__.x, '__proto__'));
  assert.deepStrictEqual(tc.args.prototype, [1]);
  assert.equal(protoOf(tc.args), Object.prototype);
  assert.ok(own(tc.metadata, '__proto__'));
  const act = s.messages.find((x) => x.id === 'a');
  assert.ok(own(act.content, '__proto__'));
  assert.equal(act.content.constructor.prototype.polluted, 16);
  assert.ok(own(s.result, '__proto__'));
  assert.ok(own(s.interrupts[0], '__proto__'));
  assert.equal(custom.length, 2);
  assert.equal(custom[0].name, '__proto__');
  assert.ok(own(custom[0].value, '__proto__'));
  assert.ok(own(custom[1].state, '__proto__'));
  assert.equal(protoOf(custom[1].state), Object.prototype);
  assertNoPollution('end');
  // restore() of the parsed snapshot keeps the keys (JSON.stringify writes own __proto__).
  const r2 = factory.createReducer();
  r2.restore(r.snapshot());
  assert.deepStrictEqual(r2.state, r.state);
  assert.ok(own(r2.state.state, '__proto__'));
  // The same events as objects (JSON.parse makes own __proto__ keys).
  const r3 = factory.createReducer({ deterministicIds: true });
  for (const e of events) r3.apply(JSON.parse(e));
  assert.deepStrictEqual(r3.state, r.state);
  // And through a split SSE body.
  const r4 = factory.createReducer({ deterministicIds: true });
  const body = enc.encode(sseText(events));
  for (let i = 0; i < body.length; i += 3) r4.feed(body.subarray(i, i + 3));
  assert.deepStrictEqual(r4.state, r.state);
  assertNoPollution('after restore and feed');
  for (const x of [r, r2, r3, r4]) x.dispose();
});

// ---------------------------------------------------------------------------
// Replays, out-of-order, survival

test('a duplicated stream converges to the state of one copy (apply and feed)', () => {
  for (const name of ['01_text_basic.jsonl', '02_tool_call.jsonl', '07_shared_state_citations.jsonl', '09_activity.jsonl', '12_interrupt_resume.jsonl']) {
    const { lines } = stream(name);
    const once = factory.createReducer({ deterministicIds: true });
    for (const l of lines) once.apply(l);
    const twice = factory.createReducer({ deterministicIds: true });
    const warned = [];
    twice.on('diagnostic', (d) => warned.push(d.code));
    for (const l of [...lines, ...lines]) twice.apply(l);
    assert.deepStrictEqual(twice.snapshot(), once.snapshot(), name);
    assert.deepStrictEqual(twice.state, twice.snapshot());
    assert.ok(warned.includes('replayed_run'), name);
    const fed = factory.createReducer({ deterministicIds: true });
    const body = enc.encode(sseText([...lines, ...lines]));
    for (let i = 0; i < body.length; i += 61) fed.feed(body.subarray(i, i + 61));
    assert.deepStrictEqual(fed.snapshot(), once.snapshot(), `${name} via feed`);
    for (const x of [once, twice, fed]) x.dispose();
  }
});

test('out of order: CONTENT before START, END twice, RESULT for an unknown call, RUN_FINISHED without RUN_STARTED', () => {
  const events = [
    '{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"early"}',
    '{"type":"RUN_FINISHED","threadId":"t","runId":"r0"}',
    '{"type":"TOOL_CALL_RESULT","messageId":"res","toolCallId":"ghost","content":"42"}',
    '{"type":"TEXT_MESSAGE_START","messageId":"m","role":"assistant"}',
    '{"type":"TEXT_MESSAGE_END","messageId":"m"}',
    '{"type":"TEXT_MESSAGE_END","messageId":"m"}',
    '{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"f"}',
    '{"type":"TOOL_CALL_END","toolCallId":"c"}',
    '{"type":"TOOL_CALL_END","toolCallId":"c"}',
    '{"type":"RUN_STARTED","threadId":"t","runId":"r1"}',
    '{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":" late"}',
    '{"type":"RUN_FINISHED","threadId":"t","runId":"r1"}',
  ];
  const results = {};
  for (const strict of [false, true]) {
    const r = factory.createReducer({ strict, deterministicIds: true });
    const codes = [];
    for (const e of events) {
      const rec = r.apply(e);
      codes.push(...codesOf(rec));
      assert.deepStrictEqual(r.state, r.snapshot(), e);
    }
    results[strict] = { codes, state: r.snapshot() };
    r.dispose();
  }
  assert.ok(!results.false.codes.some(([, level]) => level === ERROR), 'tolerant by default');
  assert.ok(results.true.codes.filter(([code, level]) => code === 'order' && level === ERROR).length >= 3, 'strict mode reports');
  assert.deepStrictEqual(results.true.state, results.false.state, 'strict mode reports, it does not refuse');
  assert.equal(results.false.state.messages[1].content, ' late');
});

test('survival: one reducer takes every hostile case in a row, then a whole valid stream', () => {
  const r = withBase();
  for (const tc of cases) {
    if (tc.slow) continue;
    r.apply(tc.event);
    assert.deepStrictEqual(r.state, r.snapshot(), tc.name);
  }
  for (const tc of sseCases) r.feed(tc.bytes ?? tc.body);
  r.endStream();
  r.reset();
  const { lines } = stream('03_parallel_tools.jsonl');
  for (const l of lines) r.apply(l);
  const solo = factory.createReducer({ deterministicIds: true });
  for (const l of lines) solo.apply(l);
  assert.deepStrictEqual(r.snapshot(), solo.snapshot());
  assert.deepStrictEqual(r.state, r.snapshot());
  assert.equal(factory.exited, false);
  assertNoPollution('survival');
  r.dispose();
  solo.dispose();
});
