// The reducer API: subscribers, custom events, local actions, errors, and
// what happens when the Go runtime is gone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadReducer, __internal } from '../../entries/agui.node.js';
import { wasmURL, stream } from '../support/helpers.mjs';

const factory = await loadReducer(wasmURL);
const tools = stream('02_tool_call.jsonl').lines;

test('loadReducer accepts bytes and a compiled module too', async () => {
  const { readFile } = await import('node:fs/promises');
  const bytes = await readFile(wasmURL);
  const f1 = await loadReducer(bytes);
  const f2 = await loadReducer(await WebAssembly.compile(bytes));
  for (const f of [f1, f2]) {
    const r = f.createReducer();
    r.apply(tools[0]);
    assert.equal(r.state.status, 'running');
  }
});

test('a throwing subscriber does not break the reducer or the other subscribers', () => {
  const r = factory.createReducer();
  const errors = [];
  r.on('error', (e) => errors.push(e));
  let calls = 0;
  r.subscribe(() => { throw new Error('subscriber bug'); });
  r.subscribe(() => { calls++; });
  r.on('custom', () => { throw new Error('handler bug'); });
  for (const l of tools) r.apply(l);
  r.apply({ type: 'CUSTOM', name: 'x', value: 1 });
  assert.equal(r.state.status, 'idle');
  assert.equal(r.state.messages.length, 3);
  assert.deepStrictEqual(r.state, r.snapshot());
  assert.ok(calls >= tools.length - 1, `other subscriber called (${calls})`);
  assert.equal(errors.filter((e) => e.message === 'subscriber bug').length, calls);
  assert.equal(errors.filter((e) => e.message === 'handler bug').length, 1);
  r.dispose();
});

test('without an error handler, listener errors go to console.error', () => {
  const r = factory.createReducer();
  const logged = [];
  const orig = console.error;
  console.error = (...args) => logged.push(args);
  try {
    r.subscribe(() => { throw new Error('boom'); });
    r.apply(tools[0]);
  } finally {
    console.error = orig;
  }
  assert.equal(logged.length, 1);
  assert.equal(r.state.status, 'running');
  r.dispose();
});

test('subscribe/unsubscribe and getSnapshot work unbound (useSyncExternalStore)', () => {
  const r = factory.createReducer();
  const { subscribe, getSnapshot } = r;
  let n = 0;
  const unsubscribe = subscribe(() => n++);
  r.apply(tools[0]);
  assert.equal(getSnapshot(), r.state);
  assert.equal(getSnapshot(), getSnapshot(), 'stable between changes');
  unsubscribe();
  r.apply(tools[1]);
  assert.equal(n, 1);
  r.dispose();
});

test('custom events, state updates, diagnostics and change records', () => {
  const r = factory.createReducer();
  const custom = [];
  const diags = [];
  const changes = [];
  r.on('custom', (e) => custom.push(e));
  r.on('diagnostic', (d) => diags.push(d));
  const off = r.on('change', (c) => changes.push(c));
  const rec = r.apply('{"type":"CUSTOM","name":"progress","value":{"pct":50}}', 'message');
  r.apply({ type: 'CUSTOM', name: 'state_update', value: { a: 1 } });
  r.apply('{"type":"TEXT_MESSAGE_CONTENT","messageId":"nope","delta":"x"}');
  r.apply('{not json');
  r.apply({ type: 'SOMETHING_NEW' });
  off();
  r.apply({ type: 'CUSTOM', name: 'later', value: 1 });
  assert.deepStrictEqual(rec, { events: [{ type: 'custom', name: 'progress', value: { pct: 50 } }] });
  assert.deepStrictEqual(custom.slice(0, 2), [
    { type: 'custom', name: 'progress', value: { pct: 50 } },
    { type: 'state_update', state: { a: 1 } },
  ]);
  assert.equal(custom.length, 3);
  assert.deepStrictEqual(diags.map((d) => d.level), ['warning', 'error', 'warning']);
  assert.ok(diags.every((d) => typeof d.code === 'string' && typeof d.message === 'string'));
  assert.equal(changes.length, 5);
  assert.deepStrictEqual(r.state, r.snapshot(), 'custom events are not stored');
  const cyclic = {};
  cyclic.self = cyclic;
  assert.equal(r.apply(cyclic).diagnostics[0].code, 'bad_event');
  assert.throws(() => r.on('nope', () => {}), TypeError);
  r.dispose();
});

test('local actions: addUserMessage, addToolResult, fail, stop, reset, snapshot, restore, runInput, messages', () => {
  const r = factory.createReducer();
  let notified = 0;
  r.subscribe(() => notified++);
  r.addUserMessage('What is the weather?');
  const user = r.state.messages[0];
  assert.equal(user.role, 'user');
  assert.match(user.id, /^[0-9a-f-]{36}$/);
  r.addUserMessage([{ type: 'text', text: 'and tomorrow?' }], 'u2');
  assert.equal(r.state.messages[1].id, 'u2');
  assert.equal(r.state.messages[0], user, 'identity kept');

  const input = r.runInput({ tools: [{ name: 'get_weather', description: 'd', parameters: {} }], forwardedProps: { x: 1 } });
  assert.match(input.runId, /^[0-9a-f-]{36}$/);
  assert.equal(input.messages.length, 2);
  assert.equal(input.tools[0].name, 'get_weather');
  assert.deepStrictEqual(input.forwardedProps, { x: 1 });
  assert.deepStrictEqual(input.context, []);
  assert.deepStrictEqual(r.messages(), input.messages);

  for (const l of tools.slice(0, 9)) r.apply(l); // up to TOOL_CALL_END
  assert.equal(r.state.toolCalls[0].status, 'complete');
  r.addToolResult('call-1', { temp: 18 });
  assert.equal(r.state.toolCalls[0].result, '{"temp":18}');
  assert.equal(r.state.messages.at(-1).role, 'tool');

  assert.equal(r.state.status, 'running');
  r.stop();
  assert.equal(r.state.status, 'idle');
  assert.equal(r.state.isLoading, false);
  assert.equal(r.state.error, null);
  assert.deepStrictEqual(r.stop(), {}, 'stop when idle does nothing');

  r.fail('HTTP 503: Service Unavailable', 503);
  assert.equal(r.state.status, 'error');
  assert.deepStrictEqual(r.state.error, { message: 'HTTP 503: Service Unavailable', code: '503' });

  const saved = r.snapshot();
  const before = notified;
  r.reset();
  assert.deepStrictEqual(r.state.messages, []);
  assert.equal(r.state.status, 'idle');
  assert.equal(notified, before + 1);
  r.restore(saved);
  assert.deepStrictEqual(r.state, saved);
  r.restore(JSON.stringify(saved));
  assert.deepStrictEqual(r.state, saved);
  const bad = r.restore('{"messages":[{"id":1}]}');
  assert.equal(bad.diagnostics[0].level, 'error');
  assert.deepStrictEqual(r.state, saved, 'a bad snapshot changes nothing');
  assert.deepStrictEqual(r.state, r.snapshot());
  r.dispose();
});

test('options: strict, limits, deterministic ids, bad options', () => {
  const strict = factory.createReducer({ strict: true });
  const rec = strict.apply({ type: 'TEXT_MESSAGE_START', messageId: 'm' });
  assert.ok(rec.diagnostics?.some((d) => d.level === 'error'), 'strict mode reports the missing RUN_STARTED');
  const small = factory.createReducer({ maxEventBytes: 64 });
  assert.equal(small.apply({ type: 'RUN_STARTED', threadId: 't'.repeat(100), runId: 'r' }).diagnostics[0].code, 'too_large');
  const det = factory.createReducer({ deterministicIds: true });
  det.addUserMessage('hi');
  assert.doesNotMatch(det.state.messages[0].id, /^[0-9a-f]{8}-/);
  assert.throws(() => factory.createReducer({ strict: 'yes' }), (e) => e.code === 'bad_options');
  for (const r of [strict, small, det]) r.dispose();
});

test('dispose: later calls throw, other reducers go on', () => {
  const a = factory.createReducer();
  const b = factory.createReducer();
  a.dispose();
  a.dispose(); // idempotent
  assert.equal(a.disposed, true);
  assert.throws(() => a.apply(tools[0]), /disposed/);
  assert.throws(() => a.snapshot(), /disposed/);
  b.apply(tools[0]);
  assert.equal(b.state.status, 'running');
  b.dispose();
});

test('a panic inside the module is a diagnostic and the runtime keeps going', async () => {
  const core = await __internal.loadCore(wasmURL);
  const h = core.create('{}');
  core.apply(h, tools[0], '');
  // Lengths past the input buffer make the export panic (slice bounds).
  const res = core.result(core.x.apply(h, 10, 1 << 30));
  assert.equal(res.ok, false);
  const rec = JSON.parse(res.text);
  assert.equal(rec.diagnostics[0].code, 'panic');
  assert.equal(rec.diagnostics[0].level, 'error');
  assert.equal(rec.ops[0].path, '', 'a root replace resynchronises mirrors');
  assert.equal(rec.ops[0].value.status, 'running');
  assert.equal(core.exited, false);
  assert.equal(JSON.parse(core.apply(h, tools[1], '').text).ops[0].op, 'add');
  // A stale handle is a diagnostic too.
  const bad = JSON.parse(core.call('snapshot', 9999).text);
  assert.equal(bad.diagnostics[0].code, 'bad_handle');
});

test('after the Go runtime exits, every call throws a clear error', async () => {
  const f = await loadReducer(wasmURL);
  const r = f.createReducer();
  r.apply(tools[0]);
  const go = f._go;
  go.exited = true; // what wasm_exec.js sets when Go exits (os.Exit, a fatal error)
  try {
    assert.equal(f.exited, true);
    for (const call of [() => r.apply(tools[1]), () => r.feed('data: {}\n\n'), () => r.snapshot(), () => r.addUserMessage('x'), () => f.createReducer()]) {
      assert.throws(call, /agui reducer: the Go runtime has exited/);
    }
    assert.equal(r.state.status, 'running', 'the mirror keeps the last state');
    r.dispose(); // does not call into the dead module
  } finally {
    go.exited = false;
  }
});
