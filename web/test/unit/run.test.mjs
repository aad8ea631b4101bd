// run() against a local SSE endpoint, and the worker protocol (agui-worker.js
// served over a MessageChannel, as a Web Worker would be).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { loadReducer, run, createWorkerHost, createWorkerReducer } from '../../entries/agui.node.js';
import { serve } from '../../src/worker/entry.js';
import { wasmURL, stream, sseText, randomSplit, rng, normalise } from '../support/helpers.mjs';
import { startServer } from '../support/server.mjs';

const factory = await loadReducer(wasmURL);
const server = await startServer();
after(() => server.close());

const NAME = 'ParallelToolCalls--WithParallelToolCalls_InvokesBothToolsAndStreamsResults-turn1.jsonl';

function solo(name) {
  const r = factory.createReducer({ deterministicIds: true });
  for (const l of stream(name).lines) r.apply(l);
  const s = normalise(r.state);
  r.dispose();
  return s;
}

test('run() POSTs a RunAgentInput and folds the SSE answer', async () => {
  const r = factory.createReducer({ deterministicIds: true });
  r.addUserMessage('hello', 'u1');
  let notified = 0;
  r.subscribe(() => notified++);
  const outcome = await r.run(`${server.url}/agent?stream=${encodeURIComponent(NAME)}&chunks=7`, undefined, { headers: { Authorization: 'Bearer t' } });
  assert.equal(outcome, 'completed');
  const req = server.requests.at(-1);
  assert.equal(req.headers.accept, 'text/event-stream');
  assert.equal(req.headers['content-type'], 'application/json');
  assert.equal(req.headers.authorization, 'Bearer t');
  const input = JSON.parse(req.body);
  assert.deepStrictEqual(Object.keys(input).sort(), ['context', 'forwardedProps', 'messages', 'protocolVersion', 'runId', 'state', 'threadId', 'tools']);
  assert.equal(input.protocolVersion, '1.0');
  assert.deepStrictEqual(input.messages, [{ id: 'u1', role: 'user', content: 'hello' }]);

  const want = solo(NAME);
  const got = normalise(r.state);
  assert.deepStrictEqual(got.messages.slice(1), want.messages, 'the answer after the user message');
  assert.deepStrictEqual(got.toolCalls, want.toolCalls);
  assert.equal(got.status, 'idle');
  assert.ok(notified > 1, 'subscribers see the stream as it arrives');
  assert.deepStrictEqual(r.state, r.snapshot());

  // The function form, with an explicit input.
  const r2 = factory.createReducer({ deterministicIds: true });
  assert.equal(await run(r2, `${server.url}/agent?stream=02_tool_call.jsonl`, { threadId: 't', runId: 'x', messages: [], state: {}, tools: [], context: [], forwardedProps: {} }), 'completed');
  assert.equal(JSON.parse(server.requests.at(-1).body).runId, 'x');
  assert.deepStrictEqual(normalise(r2.state), solo('02_tool_call.jsonl'));
  r.dispose();
  r2.dispose();
});

test('an HTTP error becomes fail() with the status code', async () => {
  const r = factory.createReducer();
  assert.equal(await r.run(`${server.url}/agent?status=503`), 'failed');
  assert.equal(r.state.status, 'error');
  assert.deepStrictEqual(r.state.error, { message: 'HTTP 503: Service Unavailable', code: '503' });
  r.dispose();
});

test('a network error becomes fail(message, "network")', async () => {
  const closed = await startServer();
  await closed.close();
  const r = factory.createReducer();
  assert.equal(await r.run(`${closed.url}/agent`), 'failed');
  assert.equal(r.state.status, 'error');
  assert.equal(r.state.error.code, 'network');
  assert.ok(r.state.error.message.length > 0);
  r.dispose();
});

test('abort ends the run cleanly: no error, the run stops', async () => {
  const r = factory.createReducer();
  const ctrl = new AbortController();
  let started;
  const running = new Promise((resolve) => { started = resolve; });
  r.subscribe(() => { if (r.state.messages.length > 0) started(); });
  const p = r.run(`${server.url}/agent?stream=${encodeURIComponent(NAME)}&mode=hang`, undefined, { signal: ctrl.signal });
  await running;
  assert.equal(r.state.status, 'running');
  ctrl.abort();
  assert.equal(await p, 'aborted');
  assert.equal(r.state.status, 'idle');
  assert.equal(r.state.isLoading, false);
  assert.equal(r.state.error, null);
  assert.ok(r.state.messages.every((m) => !m.streaming));
  // Aborted before it starts.
  assert.equal(await r.run(`${server.url}/agent`, undefined, { signal: AbortSignal.abort() }), 'aborted');
  // The next run starts with a fresh SSE parser.
  assert.equal(await r.run(`${server.url}/agent?stream=01_text_basic.jsonl`), 'completed');
  assert.equal(r.state.status, 'idle');
  assert.deepStrictEqual(r.state, r.snapshot());
  r.dispose();
});

test('a body that ends mid-run resolves "incomplete" and leaves the state as sent', async () => {
  const r = factory.createReducer();
  assert.equal(await r.run(`${server.url}/agent?stream=01_text_basic.jsonl&mode=truncated`), 'incomplete');
  assert.equal(r.state.status, 'running');
  r.dispose();
});

test('one run at a time per reducer; dispose aborts a run', async () => {
  const r = factory.createReducer();
  const p = r.run(`${server.url}/agent?stream=01_text_basic.jsonl&mode=hang`);
  await assert.rejects(r.run(`${server.url}/agent`), /already in progress/);
  await new Promise((resolve) => setTimeout(resolve, 30));
  r.dispose();
  assert.equal(await p, 'aborted');
});

// --- the worker protocol, in process -------------------------------------

function channelHost() {
  const { port1, port2 } = new MessageChannel();
  serve(port2);
  const host = createWorkerHost({ worker: port1, wasmURL });
  return { host, close: () => { host.terminate(); port2.close(); } };
}

test('worker reducers: apply, feed, actions and run mirror the same state', async () => {
  const { host, close } = channelHost();
  try {
    const [a, b] = await Promise.all([host.createReducer({ deterministicIds: true }), host.createReducer({ deterministicIds: true })]);
    assert.equal(a.state.status, 'idle');
    const lines = stream(NAME).lines;
    const applied = await Promise.all(lines.map((l) => a.apply(l)));
    assert.equal(applied.length, lines.length);
    assert.deepStrictEqual(normalise(a.state), solo(NAME));
    assert.deepStrictEqual(a.state, await a.snapshot());

    const custom = [];
    b.on('custom', (e) => custom.push(e));
    const bytes = new TextEncoder().encode(sseText(stream('10_steps_custom_raw.jsonl').lines));
    for (const c of randomSplit(bytes, rng(7), 40)) b.feed(c); // not awaited: ordered anyway
    await b.endStream();
    assert.deepStrictEqual(normalise(b.state), solo('10_steps_custom_raw.jsonl'));
    assert.ok(custom.length > 0, 'custom events reach the main thread');

    const before = a.state;
    await a.addUserMessage('next question', 'u9');
    assert.equal(a.state.messages.at(-1).id, 'u9');
    a.state.messages.slice(0, -1).forEach((m, i) => assert.equal(m, before.messages[i]));
    const input = await a.runInput();
    assert.equal(input.messages.at(-1).id, 'u9');
    assert.deepStrictEqual(await a.messages(), input.messages);
    await a.fail('down', 'x');
    assert.equal(a.state.status, 'error');
    const saved = await a.snapshot();
    await a.reset();
    assert.deepStrictEqual(a.state.messages, []);
    await a.restore(saved);
    assert.deepStrictEqual(a.state, saved);

    // run(): fetch and SSE parsing happen in the worker.
    const c = await createWorkerReducer({ deterministicIds: true }, { host });
    let notified = 0;
    c.subscribe(() => notified++);
    assert.equal(await c.run(`${server.url}/agent?stream=02_tool_call.jsonl&chunks=9`), 'completed');
    assert.deepStrictEqual(normalise(c.state), solo('02_tool_call.jsonl'));
    assert.ok(notified > 1);
    assert.equal(await c.run(`${server.url}/agent?status=500`), 'failed');
    assert.deepStrictEqual(c.state.error, { message: 'HTTP 500: Internal Server Error', code: '500' });

    const ctrl = new AbortController();
    const running = new Promise((resolve) => c.subscribe(() => { if (c.state.status === 'running') resolve(); }));
    // A run id this reducer has not folded yet (a replayed run is skipped).
    const p = c.run(`${server.url}/agent?stream=04_reasoning.jsonl&mode=hang`, undefined, { signal: ctrl.signal });
    await running;
    ctrl.abort();
    assert.equal(await p, 'aborted');
    assert.equal(c.state.status, 'idle');
    assert.deepStrictEqual(c.state, await c.snapshot());

    // Disposing a reducer aborts its run in the worker.
    const d = await host.createReducer();
    const dRunning = new Promise((resolve) => d.subscribe(() => { if (d.state.status === 'running') resolve(); }));
    const pd = d.run(`${server.url}/agent?stream=04_reasoning.jsonl&mode=hang`);
    await dRunning;
    d.dispose();
    assert.equal(await pd, 'aborted');

    // A view into a bigger buffer sends only its bytes.
    const e = await host.createReducer();
    const big = new Uint8Array(1 << 20);
    const frame = new TextEncoder().encode('data: {"type":"RUN_STARTED","threadId":"t","runId":"v"}\n\n');
    big.set(frame, 1000);
    await e.feed(big.subarray(1000, 1000 + frame.length));
    assert.equal(e.state.runId, 'v');
    e.dispose();

    a.dispose();
    await assert.rejects(a.apply(lines[0]), /disposed/);
    assert.equal((await b.snapshot()).status, b.state.status, 'other reducers go on');
  } finally {
    close();
  }
});

test('worker reducers: streamed tokens given as JSON text fold as on the page\'s thread (records and state)', async () => {
  const { host, close } = channelHost();
  try {
    const w = await host.createReducer({ deterministicIds: true });
    const r = factory.createReducer({ deterministicIds: true });
    const texts = [
      { type: 'RUN_STARTED', threadId: 't', runId: 'r' },
      { type: 'TEXT_MESSAGE_START', messageId: 'm"1', role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm"1', delta: 'a "b" \\ é😀\n' },
      { type: 'REASONING_MESSAGE_START', messageId: 'z', role: 'reasoning' },
      { type: 'REASONING_MESSAGE_CONTENT', messageId: 'z', delta: 'hm' },
      { type: 'TOOL_CALL_START', toolCallId: 'c', toolCallName: 'f', parentMessageId: 'm"1' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 'c', delta: '{"path":"a/b' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 'c', delta: '.txt","n":[1,' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'nope', delta: 'x' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm"1', delta: '' },
    ].map((e) => JSON.stringify(e));
    for (const t of texts) assert.deepStrictEqual(await w.apply(t), r.apply(t), t);
    assert.deepStrictEqual(w.state, r.state);
    assert.deepStrictEqual(w.state, await w.snapshot());
    r.dispose();
  } finally {
    close();
  }
});

test('worker: a failed load rejects calls', async () => {
  const { port1, port2 } = new MessageChannel();
  serve(port2);
  const host = createWorkerHost({ worker: port1, wasmURL: new URL('./missing.wasm', wasmURL) });
  try {
    await assert.rejects(host.createReducer(), /missing|ENOENT|no such file/);
  } finally {
    host.terminate();
    port2.close();
  }
});
