// Tool-call arguments validated against the tools' schemas as they stream
// (docs/tool-validation.md): the state the JS mirror shows, with the tools
// given at creation, by setTools(), by runInput() and by run()'s input.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { loadReducer, createWorkerHost } from '../../entries/agui.node.js';
import { serve } from '../../src/worker/entry.js';
import { wasmURL } from '../support/helpers.mjs';

const weather = {
  name: 'get_weather',
  description: 'Weather for a city',
  parameters: {
    type: 'object',
    properties: {
      city: { type: 'string' },
      unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
      days: { type: 'integer', minimum: 1, maximum: 14 },
    },
    required: ['city'],
    additionalProperties: false,
  },
};

const call = (deltas, end = true) => [
  { type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'get_weather' },
  ...deltas.map((delta) => ({ type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta })),
  ...(end ? [{ type: 'TOOL_CALL_END', toolCallId: 'c1' }] : []),
];

test('an invalid value is in the state at the event that completes it; safeArgs holds what is complete and valid', async () => {
  const factory = await loadReducer(wasmURL);
  const r = factory.createReducer({ tools: [weather] });
  const seen = [];
  for (const ev of call(['{"city":"Paris","unit":"kel', 'vin","days":3', '}'])) {
    r.apply(ev);
    const tc = r.state.toolCalls[0];
    seen.push({ status: tc.argsStatus, errors: tc.argsErrors, safe: tc.safeArgs });
  }
  assert.equal(seen[1].status, 'streaming');
  assert.deepEqual(seen[1].safe, { city: 'Paris' });
  assert.equal(seen[2].status, 'invalid');
  assert.deepEqual(seen[2].errors, [{ path: '/unit', keyword: 'enum', message: 'must be one of celsius, fahrenheit' }]);
  assert.deepEqual(seen[2].safe, { city: 'Paris' }, '"3" may still become "30": not yet complete');
  assert.deepEqual(seen[3].safe, { city: 'Paris', days: 3 });
  assert.equal(r.state.toolCalls[0].status, 'complete');
  assert.equal(r.state.toolCalls[0].argsStatus, 'invalid');
  r.dispose();
});

test('pattern and patternProperties are checked in the WebAssembly module', async () => {
  const factory = await loadReducer(wasmURL);
  const dated = {
    name: 'get_weather',
    parameters: {
      type: 'object',
      properties: { date: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' } },
      patternProperties: { '^x-': { type: 'integer' } },
      additionalProperties: false,
    },
  };
  const verdict = (args) => {
    const r = factory.createReducer({ tools: [dated] });
    for (const ev of call([args])) r.apply(ev);
    const { argsStatus, argsErrors } = r.state.toolCalls[0];
    r.dispose();
    return { argsStatus, keywords: (argsErrors ?? []).map((e) => `${e.path} ${e.keyword}`) };
  };
  assert.deepEqual(verdict('{"date":"2026-11-30","x-n":2}'), { argsStatus: 'valid', keywords: [] });
  assert.deepEqual(verdict('{"date":"30/11/2026"}'), { argsStatus: 'invalid', keywords: ['/date pattern'] });
  assert.deepEqual(verdict('{"x-n":"two"}'), { argsStatus: 'invalid', keywords: ['/x-n type'] });
  assert.deepEqual(verdict('{"y":1}'), { argsStatus: 'invalid', keywords: ['/y additionalProperties'] });
});

test('numbers compare exactly in the WebAssembly module, as decimals', async () => {
  const factory = await loadReducer(wasmURL);
  const measured = {
    name: 'get_weather',
    parameters: {
      type: 'object',
      properties: { dose: { type: 'number', multipleOf: 0.0001 }, level: { type: 'number', maximum: 3 } },
    },
  };
  const verdict = (args) => {
    const r = factory.createReducer({ tools: [measured] });
    for (const ev of call([args])) r.apply(ev);
    const { argsStatus, argsErrors } = r.state.toolCalls[0];
    r.dispose();
    return { argsStatus, keywords: (argsErrors ?? []).map((e) => `${e.path} ${e.keyword}`) };
  };
  assert.deepEqual(verdict('{"dose":0.0075,"level":3}'), { argsStatus: 'valid', keywords: [] });
  assert.deepEqual(verdict('{"dose":0.00755}'), { argsStatus: 'invalid', keywords: ['/dose multipleOf'] });
  // No float64 tells 3.0000000000000001 from 3.
  assert.deepEqual(verdict('{"level":3.0000000000000001}'), { argsStatus: 'invalid', keywords: ['/level maximum'] });
});

test('truncated arguments: status error, argsStatus invalid (truncated), never complete', async () => {
  const factory = await loadReducer(wasmURL);
  const r = factory.createReducer();
  for (const ev of call(['{"city":"Par'])) r.apply(ev);
  const tc = r.state.toolCalls[0];
  assert.equal(tc.status, 'error');
  assert.equal(tc.argsStatus, 'invalid');
  assert.equal(tc.argsErrors[0].keyword, 'truncated');
  assert.deepEqual(tc.args, {});
  r.dispose();
});

test('the schemas come from setTools(), runInput() and run()\'s input; an unknown tool is unchecked', async () => {
  const factory = await loadReducer(wasmURL);
  const bad = call(['{"city":"Paris","days":30}']);
  const statusAfter = (r) => { for (const ev of bad) r.apply(ev); return r.state.toolCalls[0].argsStatus; };

  assert.equal(statusAfter(factory.createReducer()), 'unchecked');
  const a = factory.createReducer();
  a.setTools([weather]);
  assert.equal(statusAfter(a), 'invalid');
  assert.throws(() => a.setTools({}), TypeError);
  const b = factory.createReducer();
  b.runInput({ tools: [weather] });
  assert.equal(statusAfter(b), 'invalid');

  // run(): the input's tools, the stream without them.
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      for (const ev of [{ type: 'RUN_STARTED', threadId: 't', runId: 'r' }, ...bad, { type: 'RUN_FINISHED', threadId: 't', runId: 'r' }]) {
        res.write(`data: ${JSON.stringify(ev)}\n\n`);
      }
      res.end();
    });
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  try {
    const c = factory.createReducer();
    const input = c.runInput();
    input.tools = [weather];
    await c.run(`http://127.0.0.1:${server.address().port}/`, JSON.stringify(input));
    assert.equal(c.state.toolCalls[0].argsStatus, 'invalid');
    assert.deepEqual(c.state.toolCalls[0].argsErrors.map((e) => e.keyword), ['maximum']);
  } finally {
    server.close();
  }
});

test('a worker reducer takes tools too (setTools, createReducer options)', async () => {
  const { port1, port2 } = new MessageChannel();
  serve(port2);
  const host = createWorkerHost({ worker: port1, wasmURL });
  try {
    for (const [opts, viaSet] of [[{ tools: [weather] }, false], [{}, true]]) {
      const r = await host.createReducer(opts);
      if (viaSet) assert.equal(await r.setTools([weather]), undefined);
      for (const ev of call(['{"city":"Paris","unit":"kelvin"}'])) await r.apply(ev);
      assert.equal(r.state.toolCalls[0].argsStatus, 'invalid');
      assert.equal(r.state.toolCalls[0].argsErrors[0].path, '/unit');
      r.dispose();
    }
    // run()'s input tools reach the worker's reducer before the run.
    const bad = call(['{"city":"Paris","days":30}']);
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'Content-Type': 'text/event-stream' });
        for (const ev of bad) res.write(`data: ${JSON.stringify(ev)}\n\n`);
        res.end();
      });
    });
    await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
    try {
      const r = await host.createReducer();
      const input = await r.runInput();
      await r.run(`http://127.0.0.1:${server.address().port}/`, { ...input, tools: [weather] });
      assert.equal(r.state.toolCalls[0].argsStatus, 'invalid');
      r.dispose();
    } finally {
      server.close();
    }
  } finally {
    host.terminate();
    port1.close();
    port2.close();
  }
});

test('observers (the inspector) see the tools: setTools() and a run\'s input tools as a setTools action', async () => {
  const factory = await loadReducer(wasmURL);
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      res.end(`data: ${JSON.stringify({ type: 'RUN_STARTED', threadId: 't', runId: 'r' })}\n\n`);
    });
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const url = `http://127.0.0.1:${server.address().port}/`;
  const { port1, port2 } = new MessageChannel();
  serve(port2);
  const host = createWorkerHost({ worker: port1, wasmURL });
  try {
    for (const r of [factory.createReducer(), await host.createReducer()]) {
      const seen = [];
      r.observe((input) => { if (input.kind === 'action' && input.name === 'setTools') seen.push(input.args[0]); });
      await r.setTools([weather]);
      await r.run(url, { ...(await r.runInput()), tools: [{ ...weather, name: 'other' }] });
      assert.deepEqual(seen.map((tools) => tools.map((t) => t.name)), [['get_weather'], ['other']]);
      r.dispose();
    }
  } finally {
    host.terminate?.();
    port1.close();
    server.close();
  }
});
