// Grammar property test through the wasm module: random sequences of every
// event kind and the local actions over small id pools (message and tool
// call ids drawn from the same three names, so ids collide across kinds).
// After every step the JS mirror (r.state, built from change records) must
// deep-equal snapshot(), and a reducer restored from snapshot() must give
// back the same snapshot. reducer/fuzz_grammar_test.go is the Go side.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadReducer } from '../../entries/agui.node.js';
import { wasmURL, rng } from '../support/helpers.mjs';

const factory = await loadReducer(wasmURL);

function generator(random) {
  const pick = (xs) => xs[Math.floor(random() * xs.length)];
  const id = () => pick(['x', 'y', 'z']);
  const word = () => pick(['a', 'b', '', 'é']);
  const runKey = () => ({ threadId: pick(['t1', 't2']), runId: pick(['r1', 'r2', 'r3']) });
  const message = () => pick([
    () => ({ id: id(), role: 'user', content: word() }),
    () => ({ id: id(), role: 'assistant', content: word(), toolCalls: [{ id: id(), type: 'function', function: { name: 'f', arguments: '{}' } }] }),
    () => ({ id: id(), role: 'tool', toolCallId: id(), content: 'r' }),
    () => ({ id: id(), role: 'activity', activityType: 'P', content: { n: 1 } }),
    () => ({ id: id(), role: 'reasoning', content: 'think' }),
    () => ({ id: id(), role: 'assistant', content: word() }),
  ])();
  const messages = () => Array.from({ length: Math.floor(random() * 4) }, message);
  const steps = [
    () => ({ type: 'RUN_STARTED', ...runKey() }),
    () => ({ type: 'RUN_STARTED', ...runKey(), input: { messages: messages() } }),
    () => (random() < 0.5 ? { type: 'RUN_FINISHED' } : { type: 'RUN_FINISHED', ...runKey() }),
    () => ({ type: 'RUN_ERROR', message: 'boom' }),
    () => ({ type: 'TEXT_MESSAGE_START', messageId: id(), role: pick(['assistant', 'user', 'system', 'developer']) }),
    () => ({ type: 'TEXT_MESSAGE_CONTENT', messageId: id(), delta: word() }),
    () => ({ type: 'TEXT_MESSAGE_CONTENT', messageId: id(), delta: word() }),
    () => ({ type: 'TEXT_MESSAGE_END', messageId: id() }),
    () => ({ type: 'TEXT_MESSAGE_CHUNK', messageId: id(), delta: word() }),
    () => ({ type: 'REASONING_MESSAGE_START', messageId: id(), role: 'reasoning' }),
    () => ({ type: 'REASONING_MESSAGE_CONTENT', messageId: id(), delta: word() }),
    () => ({ type: 'REASONING_MESSAGE_END', messageId: id() }),
    () => ({ type: 'TOOL_CALL_START', toolCallId: id(), toolCallName: 'f', ...(random() < 0.5 ? { parentMessageId: id() } : {}) }),
    () => ({ type: 'TOOL_CALL_ARGS', toolCallId: id(), delta: pick(['{', '"k":1', '}', '[1']) }),
    () => ({ type: 'TOOL_CALL_END', toolCallId: id() }),
    () => ({ type: 'TOOL_CALL_RESULT', messageId: id(), toolCallId: id(), content: 'res' }),
    () => ({ type: 'TOOL_CALL_CHUNK', toolCallId: id(), toolCallName: 'f', delta: '{}' }),
    () => ({ type: 'MESSAGES_SNAPSHOT', messages: messages() }),
    () => ({ type: 'STATE_SNAPSHOT', snapshot: { citations: { [id()]: ['http://a'] } } }),
    () => ({ type: 'STATE_DELTA', delta: [pick([
      { op: 'add', path: '/citations', value: {} },
      { op: 'add', path: `/citations/${id()}`, value: [{ url: 'u', x: 1 }] },
      { op: 'remove', path: `/citations/${id()}` },
      { op: 'copy', from: '', path: '/k' },
      { op: 'add', path: '/n', value: 1 },
    ])] }),
    () => ({ type: 'ACTIVITY_SNAPSHOT', messageId: id(), activityType: 'P', content: { n: 1 }, replace: random() < 0.5 }),
    () => ({ type: 'ACTIVITY_DELTA', messageId: id(), activityType: 'P', patch: [pick([
      { op: 'add', path: '/m', value: 2 },
      { op: 'remove', path: '' },
      { op: 'remove', path: '/nope' },
      { op: 'copy', from: '', path: '/c' },
    ])] }),
    () => ({ type: 'STEP_STARTED', stepName: 's' }),
    () => ({ type: 'STEP_FINISHED', stepName: 's' }),
    () => ({ type: 'REASONING_ENCRYPTED_VALUE', subtype: pick(['message', 'tool-call']), entityId: id(), encryptedValue: 'e' }),
    () => ({ type: pick(['THINKING_TEXT_MESSAGE_START', 'THINKING_TEXT_MESSAGE_CONTENT', 'THINKING_TEXT_MESSAGE_END']), delta: 't' }),
    () => { const text = word(); const mid = random() < 0.5 ? id() : undefined; return { action: (r) => r.addUserMessage(text, mid), what: `addUserMessage(${text},${mid})` }; },
    () => { const tc = id(); return { action: (r) => r.addToolResult(tc, 'local'), what: `addToolResult(${tc})` }; },
    () => ({ action: (r) => r.fail('lost'), what: 'fail' }),
    () => ({ action: (r) => r.stop(), what: 'stop' }),
    () => ({ type: 'CUSTOM', name: 'c', value: 1 }),
  ];
  return () => pick(steps)();
}

test('grammar: the mirror deep-equals snapshot() after every step; restore(snapshot()) round-trips', () => {
  const sequences = 300;
  const length = 16;
  let steps = 0;
  for (let seed = 1; seed <= sequences; seed++) {
    const next = generator(rng(seed));
    const r = factory.createReducer({ maxStateBytes: 4096 });
    const copy = factory.createReducer({ maxStateBytes: 4096 });
    const done = [];
    for (let i = 0; i < length; i++) {
      const step = next();
      const what = step.what ?? JSON.stringify(step);
      done.push(what);
      if (step.action) step.action(r);
      else r.apply(step);
      const snap = r.snapshot();
      assert.deepStrictEqual(r.state, snap, `seed ${seed}, after:\n${done.join('\n')}`);
      const rec = copy.restore(snap);
      assert.ok(!(rec.diagnostics ?? []).some((d) => d.level === 'error'), `restore refused: ${JSON.stringify(rec.diagnostics)}`);
      assert.deepStrictEqual(copy.snapshot(), snap, `seed ${seed}: restore(snapshot()) differs`);
      assert.deepStrictEqual(copy.state, snap);
      steps++;
    }
    r.dispose();
    copy.dispose();
  }
  assert.equal(steps, sequences * length);
});
