// The JS fast paths of apply(JSON text) against the general path: a token's
// text read by its fields (tokenOfText), and the change records committed
// to the mirror, must give what the wasm's own JSON parser gives for the
// same text sent as bytes — records, state, snapshots — whatever the
// strings hold (escapes, quotes, backslashes, control characters, lone
// surrogates raw or escaped, non-ASCII), ids that change between tokens,
// and texts in another form (an extra member, whitespace, reordering).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadReducer } from '../../entries/agui.node.js';
import { tokenOfText, escapeLone } from '../../src/wasm/records.js';
import { wasmURL } from '../support/helpers.mjs';

const factory = await loadReducer(wasmURL);
const encoder = new TextEncoder();

const PIECES = ['a', 'word ', 'é', '{"k":"v\\"q"}', '\\n', 'ß', '中文', '😀', '"', '\\', '\\"', '/', '\n', '\t', '\r', '\u0001', '\u001f', '\u007f', '\u2028',
  '\ud800', '\udc00', '\udbff\udfff', '\udc00\udc01', '\ud800\ud801', '\ud800\uff21', '\uff21', '{', '}', '":"', '","delta":"', 'u00e9', '\\u', '\b', '\f'];
const IDS = ['m', 'm2', 'é', 'id 😀', 'q"uote', 'back\\slash', 'ctl\u0001', 'lone\ud800', 'lone\udc00', '', 'x'.repeat(70)];
const TYPES = [['TEXT_MESSAGE_CONTENT', 'messageId'], ['REASONING_MESSAGE_CONTENT', 'messageId'], ['TOOL_CALL_ARGS', 'toolCallId']];

function random(seed) {
  let x = seed;
  return () => ((x = (x * 1103515245 + 12345) % 2147483648) / 2147483648);
}

/** A JSON string literal of s with some characters written as \u escapes, lone surrogates raw or escaped, some control characters raw. */
function literal(s, rand) {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0);
    const r = rand();
    if (c >= 0xd800 && c <= 0xdfff) out += r < 0.5 ? ch : '\\u' + c.toString(16);
    else if (r < 0.1 && c < 0x10000) out += '\\u' + c.toString(16).padStart(4, '0');
    else if (r < 0.2 && ch === '/') out += '\\/';
    else if (r < 0.3 && c < 0x20) out += ch; // raw: JSON refuses it
    else out += JSON.stringify(ch).slice(1, -1);
  }
  return out + '"';
}

/** Token texts: JSON.stringify's form mostly, some written by hand, some in another form. */
function texts(seed, n) {
  const rand = random(seed);
  const pick = (a) => a[Math.floor(rand() * a.length)];
  const out = [];
  for (let i = 0; i < n; i++) {
    const [type, key] = pick(TYPES);
    const id = rand() < 0.7 ? IDS[i % 3] : pick(IDS);
    let delta = '';
    for (let k = Math.floor(rand() * 5); k > 0; k--) delta += pick(PIECES);
    const r = rand();
    if (r < 0.55) out.push(JSON.stringify({ type, [key]: id, delta }));
    else if (r < 0.8) out.push(`{"type":"${type}","${key}":${literal(id, rand)},"delta":${literal(delta, rand)}}`);
    else if (r < 0.85) out.push(JSON.stringify({ type, [key]: id, delta, timestamp: i }));
    else if (r < 0.9) out.push(JSON.stringify({ type, [key]: id, delta }, null, rand() < 0.5 ? 1 : ''));
    else if (r < 0.93) out.push(`{ "type":"${type}","${key}":${JSON.stringify(id)},"delta":${JSON.stringify(delta)}}`);
    else if (r < 0.96) out.push(JSON.stringify({ [key]: id, type, delta }));
    else out.push(`{"type":"${type}","${key}":${JSON.stringify(id)},"delta":${JSON.stringify(delta)}}${rand() < 0.5 ? ' ' : ''}`);
  }
  return out;
}

const wellFormed = (s) => typeof s === 'string' && s.isWellFormed();

test('tokenOfText reads what JSON.parse reads, and every token in JSON.stringify\'s form', () => {
  let read = 0;
  for (const seed of [1, 2, 3, 4]) {
    for (const text of texts(seed, 3000)) {
      const tok = tokenOfText(text);
      let ev = null;
      try { ev = JSON.parse(text); } catch { /* not JSON: must not be read */ }
      if (tok === null) {
        // Only a token JSON.stringify would not write so, or one with a quote
        // in its id or a lone surrogate, takes the general path.
        if (ev !== null && Object.keys(ev).length === 3 && JSON.stringify(ev) === text) {
          const [, key] = TYPES.find(([t]) => t === ev.type) ?? [];
          const id = key && ev[key];
          const ordered = key && Object.keys(ev).join() === `type,${key},delta`;
          assert.ok(!(ordered && wellFormed(id) && wellFormed(ev.delta) && !id.includes('"')), `not read: ${text}`);
        }
        continue;
      }
      read++;
      assert.ok(ev !== null, `read a text JSON refuses: ${text}`);
      const [type, key] = TYPES[tok.kind - 1];
      assert.deepEqual(Object.keys(ev), ['type', key, 'delta'], text);
      assert.equal(ev.type, type, text);
      assert.equal(tok.id, ev[key], text);
      assert.equal(tok.delta, ev.delta, text);
      assert.ok(wellFormed(tok.id) && wellFormed(tok.delta), text);
    }
  }
  assert.ok(read > 5000, `${read} read`);
});

/** Events that make the tokens' messages and tool calls exist (their ids in IDS). */
function starts() {
  const out = ['{"type":"RUN_STARTED","threadId":"t","runId":"r"}'];
  for (const id of IDS) {
    if (!wellFormed(id)) continue;
    out.push(JSON.stringify({ type: 'TEXT_MESSAGE_START', messageId: id, role: 'assistant' }));
    out.push(JSON.stringify({ type: 'TOOL_CALL_START', toolCallId: id, toolCallName: 'f', parentMessageId: 'm' }));
  }
  return out;
}

test('apply(text) of tokens and other events folds as the wasm parses the same text', () => {
  for (const seed of [5, 6, 7]) {
    const byString = factory.createReducer({ dialect: 'agui', deterministicIds: true });
    const byBytes = factory.createReducer({ dialect: 'agui', deterministicIds: true });
    const all = [...starts(), ...texts(seed, 1500),
      '{"type":"REASONING_START","messageId":"r"}',
      '{"type":"REASONING_MESSAGE_START","messageId":"m","role":"reasoning"}',
      ...texts(seed + 10, 300),
      '{"type":"TEXT_MESSAGE_END","messageId":"m"}', '{"type":"TOOL_CALL_END","toolCallId":"m2"}',
      '{"type":"REASONING_END","messageId":"r"}', '{"type":"RUN_FINISHED","threadId":"t","runId":"r"}'];
    all.forEach((text, i) => {
      const a = byString.apply(text);
      // The general path of a string: its lone surrogates as escapes, parsed by the wasm.
      const b = byBytes.apply(encoder.encode(escapeLone(text)));
      assert.deepEqual(a, b, text);
      if (i % 97 === 0) assert.deepStrictEqual(byString.state, byBytes.state, text);
    });
    assert.deepStrictEqual(byString.state, byBytes.state);
    assert.deepStrictEqual(byString.state, byString.snapshot());
    assert.deepEqual(byString.snapshot(), byBytes.snapshot());
    byString.dispose();
    byBytes.dispose();
  }
});

test('each apply(text) returns a fresh record the next call leaves alone', () => {
  const r = factory.createReducer({ dialect: 'agui', deterministicIds: true });
  for (const t of starts()) r.apply(t);
  const recs = [];
  const jsons = [];
  for (const text of [...texts(9, 200), '{"type":"REASONING_START","messageId":"r"}', '{"type":"REASONING_END","messageId":"r"}',
    '{"type":"TEXT_MESSAGE_END","messageId":"m"}', '{"type":"TOOL_CALL_END","toolCallId":"m2"}']) {
    const rec = r.apply(text);
    assert.ok(!recs.includes(rec), text);
    if (rec.ops) for (const op of rec.ops) assert.ok(!recs.some((o) => o.ops?.includes(op)), text);
    recs.push(rec);
    jsons.push(JSON.stringify(rec));
  }
  recs.forEach((rec, i) => assert.equal(JSON.stringify(rec), jsons[i]));
  // A record of nothing ({}, not parsed) and a one-op record, as JSON.parse makes them.
  const empty = r.apply('{"type":"REASONING_START","messageId":"r2"}');
  assert.deepStrictEqual(empty, JSON.parse('{}'));
  assert.notEqual(r.apply('{"type":"REASONING_END","messageId":"r2"}'), empty);
  const one = r.apply('{"type":"TEXT_MESSAGE_END","messageId":"m2"}');
  assert.deepStrictEqual(one, JSON.parse(JSON.stringify(one)));
  assert.equal(one.ops.length, 1);
  r.dispose();
});

test('token commits notify every subscriber once per event and hand each record to the change handlers, as they come and go', () => {
  const r = factory.createReducer({ dialect: 'agui', deterministicIds: true });
  for (const t of starts()) r.apply(t);
  const token = (i) => JSON.stringify({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: `t${i} ` });
  const calls = [];
  const seen = [];
  let version = r.version;
  const step = (i) => {
    const rec = r.apply(token(i));
    assert.ok(r.version > version, 'the version moves with every token');
    version = r.version;
    return rec;
  };
  step(0); // nobody listens
  const offA = r.subscribe(function () { calls.push(['a', this]); });
  step(1);
  const offB = r.subscribe(() => calls.push(['b']));
  step(2);
  const offChange = r.on('change', (rec) => seen.push(rec));
  const rec3 = step(3);
  offB();
  offB(); // twice: no effect
  const rec4 = step(4);
  offChange();
  step(5);
  const offA2 = r.subscribe(() => { throw new Error('listener fails'); });
  const errors = [];
  const offErr = r.on('error', (err) => errors.push(err.message));
  step(6);
  offA2();
  offA();
  step(7);
  assert.deepEqual(calls, [['a', undefined], ['a', undefined], ['b'], ['a', undefined], ['b'], ['a', undefined], ['a', undefined], ['a', undefined]]);
  assert.deepEqual(seen, [rec3, rec4]);
  assert.deepEqual(errors, ['listener fails']);
  assert.equal(r.state.messages.find((m) => m.id === 'm').content, 't0 t1 t2 t3 t4 t5 t6 t7 ');
  assert.deepStrictEqual(r.state, r.snapshot());
  offErr();
  r.dispose();
});

test('a subscriber that reads the state, or applies an event, inside a token\'s notification sees it folded', () => {
  const r = factory.createReducer({ dialect: 'agui', deterministicIds: true });
  for (const t of starts()) r.apply(t);
  const contents = [];
  let nested = false;
  r.subscribe(() => {
    contents.push(r.state.messages.find((m) => m.id === 'm').content);
    if (!nested && contents.length === 2) {
      nested = true;
      r.apply('{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"[nested]"}');
    }
  });
  for (const d of ['a', 'b', 'c']) r.apply(JSON.stringify({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: d }));
  assert.deepEqual(contents, ['a', 'ab', 'ab[nested]', 'ab[nested]c']);
  assert.deepStrictEqual(r.state, r.snapshot());
  r.dispose();
});

test('tool-argument token commits notify and hand their records to the change handlers alike', () => {
  const r = factory.createReducer({ dialect: 'agui', deterministicIds: true });
  for (const t of starts()) r.apply(t);
  const parts = ['{"city":"Ly', 'o', 'n","units":"met', 'r', 'ic","include":["hum', 'id', 'ity"]}'];
  let notified = 0;
  const seen = [];
  r.subscribe(() => notified++);
  const recs = [];
  parts.forEach((delta, i) => {
    const off = i % 2 === 1 ? r.on('change', (rec) => seen.push(rec)) : null;
    recs.push(r.apply(JSON.stringify({ type: 'TOOL_CALL_ARGS', toolCallId: 'm2', delta })));
    off?.();
  });
  assert.equal(notified, parts.length);
  assert.deepEqual(seen, recs.filter((_, i) => i % 2 === 1));
  // Appends to a string the arguments hold already take the compact path.
  for (const i of [1, 3, 5]) assert.deepEqual(recs[i].ops.map((op) => op.op), ['append', 'append'], JSON.stringify(recs[i]));
  const call = r.state.toolCalls.find((c) => c.id === 'm2');
  assert.equal(call.argsText, parts.join(''));
  assert.deepEqual(call.args, { city: 'Lyon', units: 'metric', include: ['humidity'] });
  assert.deepStrictEqual(r.state, r.snapshot());
  r.dispose();
});
