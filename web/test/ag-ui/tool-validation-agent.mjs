// The drop-in agent's tool-argument validation (docs/tool-validation.md,
// docs/ag-ui-agent.md "Tool arguments") over HTTP, for either
// @ag-ui/client: tool-validation.test.mjs runs it against 1.0.0 and
// bench/ag-ui-059/tool-validation.test.mjs against 0.0.59. No timing.

import assert from 'node:assert/strict';
import { serve, recorder, normalise, quietly } from './diff.mjs';

export const TOOLS = [{
  name: 'get_weather',
  description: 'The weather in a city',
  parameters: {
    type: 'object',
    properties: { city: { type: 'string' }, unit: { enum: ['celsius', 'fahrenheit'] } },
    required: ['city'],
    additionalProperties: false,
  },
}];

const ENUM_ERROR = { path: '/unit', keyword: 'enum', message: 'must be one of celsius, fahrenheit' };

function call(id, parts, { end = true } = {}) {
  const out = [{ type: 'TOOL_CALL_START', toolCallId: id, toolCallName: 'get_weather', parentMessageId: 'a1' }];
  for (const delta of parts) out.push({ type: 'TOOL_CALL_ARGS', toolCallId: id, delta });
  if (end) out.push({ type: 'TOOL_CALL_END', toolCallId: id });
  return out;
}

const run = (runId, body) => [
  { type: 'RUN_STARTED', threadId: 'th', runId },
  { type: 'TEXT_MESSAGE_START', messageId: 'a1', role: 'assistant' },
  { type: 'TEXT_MESSAGE_CONTENT', messageId: 'a1', delta: 'Checking.' },
  { type: 'TEXT_MESSAGE_END', messageId: 'a1' },
  ...body,
  { type: 'RUN_FINISHED', threadId: 'th', runId },
];

/** Valid calls only. */
export const VALID = run('r-valid', [
  ...call('v1', ['{"city":"Pa', 'ris","unit":', '"celsius"}']),
  ...call('v2', ['{"city":"Rome"}']),
]);

/** MIXED with its ids renamed (a later run of the same conversation). */
const renamed = (events, suffix) => events.map((e) => {
  const out = { ...e };
  for (const k of ['runId', 'toolCallId', 'messageId', 'parentMessageId']) if (typeof out[k] === 'string') out[k] += suffix;
  return out;
});

/** A valid call; one invalid mid-stream (enum, at the delta that closes "kelvin"); one cut off
 *  (at its end); one missing a required member (at the delta that closes the object). */
export const MIXED = run('r-mixed', [
  ...call('ok', ['{"city":"Paris",', '"unit":"celsius"}']),
  ...call('bad', ['{"city":"Oslo",', '"unit":"kel', 'vin"', '}']),
  ...call('cut', ['{"city":"Ber']),
  ...call('req', ['{"unit":', '"fahrenheit"}']),
]);

/** A run that fails with a call's arguments still open. */
export const FAILED = [
  { type: 'RUN_STARTED', threadId: 'th', runId: 'r-failed' },
  ...call('open', ['{"city":"Li'], { end: false }),
  { type: 'RUN_ERROR', message: 'model overloaded' },
];

/** The rule CopilotKit 1.75's run handler applies after a run (core/run-handler.ts,
 *  processAgentResult): a frontend tool runs for each call of the run's new assistant
 *  messages that agent.messages holds no tool message for. */
function runFrontendTools(agent, newMessages, handler) {
  const ran = [];
  for (const m of newMessages) {
    if (m.role !== 'assistant') continue;
    for (const tc of m.toolCalls ?? []) {
      if (agent.messages.some((x) => x.role === 'tool' && x.toolCallId === tc.id)) continue;
      ran.push(tc.id);
      handler(tc);
    }
  }
  return ran;
}

const statuses = (agent) => Object.fromEntries((agent.reducerState?.toolCalls ?? []).map((t) => [t.id, t.argsStatus]));

/**
 * Registers the scenarios as node:test tests; client is the @ag-ui/client
 * module, Ours the drop-in class over it (with its transport).
 */
export function toolValidationTests(test, client, Ours, label, loadFactory) {
  let server;
  const streams = new Map([['valid', [VALID, VALID.map((e) => (e.runId ? { ...e, runId: 'r-valid-2' } : e))]], ['mixed', [MIXED, renamed(MIXED, '-2')]], ['failed', [FAILED]]]);
  test.before(async () => { server = await serve(streams); });
  test.after(() => server.close());

  test(`${label}: the run's tools reach the reducer; statuses and errors at the events that decide them; the hook told once per invalid call`, async () => {
    const told = [];
    const agent = new Ours({
      url: server.url('mixed', 0), threadId: 'th',
      onInvalidToolCall: ({ toolCall, errors, event, agent: a }) => {
        assert.equal(a, agent);
        told.push({ id: toolCall.id, errors, event: event.type === 'TOOL_CALL_ARGS' ? [event.type, event.delta] : [event.type], status: toolCall.argsStatus });
      },
    });
    // Before each event: the state the previous one left.
    const trace = [];
    agent.subscribe({ onEvent: ({ event }) => { trace.push([event.type, event.delta ?? null, statuses(agent)]); } });
    await agent.runAgent({ runId: 'r-mixed', tools: TOOLS });

    const before = (type, delta) => trace.find(([t, d]) => t === type && d === delta)[2];
    // ok: streaming while its arguments arrive, valid at its end.
    assert.equal(before('TOOL_CALL_ARGS', '"unit":"celsius"}').ok, 'streaming');
    assert.equal(before('TOOL_CALL_START', null).ok, undefined);
    // bad: streaming through "kel (a unit may still follow), invalid at the delta that closes "kelvin".
    assert.equal(before('TOOL_CALL_ARGS', 'vin"').bad, 'streaming');
    assert.equal(before('TOOL_CALL_ARGS', '}').bad, 'invalid');
    // cut: streaming until its end, invalid (truncated) from the end.
    assert.equal(before('TOOL_CALL_ARGS', '{"unit":').cut, 'invalid');
    assert.equal(before('TOOL_CALL_ARGS', '{"unit":').ok, 'valid');
    assert.equal(before('TOOL_CALL_ARGS', '"fahrenheit"}').req, 'streaming');

    const tcs = Object.fromEntries(agent.reducerState.toolCalls.map((t) => [t.id, t]));
    assert.equal(tcs.ok.argsStatus, 'valid');
    assert.equal(tcs.ok.argsErrors, undefined);
    assert.deepEqual(tcs.ok.safeArgs, { city: 'Paris', unit: 'celsius' });
    assert.equal(tcs.bad.argsStatus, 'invalid');
    assert.deepEqual(tcs.bad.argsErrors, [ENUM_ERROR]);
    assert.deepEqual(tcs.bad.safeArgs, { city: 'Oslo' });
    assert.equal(tcs.cut.argsStatus, 'invalid');
    assert.equal(tcs.cut.status, 'error');
    assert.deepEqual(tcs.cut.argsErrors.map((e) => e.keyword), ['truncated']);
    assert.equal(tcs.req.argsStatus, 'invalid');
    assert.deepEqual(tcs.req.argsErrors.map((e) => [e.path, e.keyword]), [['', 'required']]);

    assert.deepEqual(told.map((t) => t.id), ['bad', 'cut', 'req'], 'once per invalid call, in order');
    assert.deepEqual(told[0], { id: 'bad', errors: [ENUM_ERROR], event: ['TOOL_CALL_ARGS', 'vin"'], status: 'invalid' });
    assert.deepEqual(told[1].event, ['TOOL_CALL_END']);
    assert.deepEqual(told[1].errors.map((e) => e.keyword), ['truncated']);
    // required: at the delta that closes the object.
    assert.deepEqual(told[2].event, ['TOOL_CALL_ARGS', '"fahrenheit"}']);
    assert.deepEqual(told[2].errors.map((e) => e.keyword), ['required']);

    // The verdicts stay with the calls when the host assigns agent.messages
    // (CopilotKit adds the user's message before a run: a restore).
    agent.addMessage({ id: 'u2', role: 'user', content: 'and now?' });
    agent.url = server.url('valid', 0);
    await agent.runAgent({ runId: 'r-valid', tools: TOOLS });
    const after = Object.fromEntries(agent.reducerState.toolCalls.map((t) => [t.id, t]));
    assert.equal(after.bad.argsStatus, 'invalid');
    assert.deepEqual(after.bad.argsErrors, [ENUM_ERROR]);
    assert.equal(after.cut.argsStatus, 'invalid');
    assert.equal(after.ok.argsStatus, 'valid');
    assert.equal(after.v1.argsStatus, 'valid');
    assert.equal(told.length, 3, 'a later run tells nothing again');
  });

  test(`${label}: a cold run is not validated; the run the reducer takes over at gets its tools`, async () => {
    let ready;
    const pending = new Promise((r) => { ready = r; });
    const told = [];
    const agent = new Ours({ url: server.url('mixed', 0), threadId: 'th', reducer: pending, onInvalidToolCall: ({ toolCall }) => { told.push(toolCall.id); } });
    await agent.runAgent({ runId: 'r-mixed', tools: TOOLS });
    assert.equal(agent.reducerState, undefined, 'cold: @ag-ui/client folded it');
    assert.deepEqual(told, []);
    ready(await loadFactory());
    await new Promise((r) => setTimeout(r, 0));
    agent.url = server.url('mixed', 1);
    await agent.runAgent({ runId: 'r-mixed-2', tools: TOOLS });
    const st = statuses(agent);
    // The cold run's calls, restored from agent.messages, carry no verdict; the reducer's run's do.
    assert.deepEqual(st, {
      ok: undefined, bad: undefined, cut: undefined, req: undefined,
      'ok-2': 'valid', 'bad-2': 'invalid', 'cut-2': 'invalid', 'req-2': 'invalid',
    });
    assert.deepEqual(told, ['bad-2', 'cut-2', 'req-2']);
  });

  test(`${label}: without the run's tools, calls are unchecked (truncation still caught)`, async () => {
    const agent = new Ours({ url: server.url('mixed', 0), threadId: 'th' });
    await agent.runAgent({ runId: 'r-mixed' });
    const st = statuses(agent);
    assert.deepEqual(st, { ok: 'unchecked', bad: 'unchecked', cut: 'invalid', req: 'unchecked' });
  });

  test(`${label}: subscribers see what HttpAgent shows them, valid and invalid calls alike (the hook only tells)`, async () => {
    for (const key of ['valid', 'mixed']) {
      const scenario = async (make) => {
        const log = [];
        const agent = make({ url: server.url(key, 0), threadId: 'th' });
        agent.subscribe(recorder(log));
        const results = [];
        for (let i = 0; i < streams.get(key).length; i++) {
          agent.url = server.url(key, i);
          const r = await agent.runAgent({ runId: `run-${i}`, tools: TOOLS });
          results.push(r);
        }
        await new Promise((r) => setTimeout(r, 0));
        // partialToolCallArgs is each client's own (docs/ag-ui-agent.md, Differences).
        for (const [, p] of log) delete p.partialToolCallArgs;
        return normalise({ log, results, messages: agent.messages, state: agent.state });
      };
      const official = await quietly(() => scenario((c) => new client.HttpAgent(c)));
      let told = 0;
      const ours = await quietly(() => scenario((c) => new Ours({ ...c, onInvalidToolCall: () => { told++; } })));
      assert.deepStrictEqual(ours, official, key);
      assert.equal(told, key === 'mixed' ? 6 : 0, 'three invalid calls per mixed run');
    }
  });

  test(`${label}: a refused frontend tool gets the error result and is not run; the valid one runs`, async () => {
    const agent = new Ours({
      url: server.url('mixed', 0), threadId: 'th',
      onInvalidToolCall: ({ errors }) => ({ result: { error: 'invalid arguments', details: errors } }),
    });
    const changed = [];
    agent.subscribe({ onMessagesChanged: ({ messages }) => { changed.push(messages.filter((m) => m.role === 'tool').map((m) => m.toolCallId)); } });
    const { newMessages } = await agent.runAgent({ runId: 'r-mixed', tools: TOOLS });
    const tools = agent.messages.filter((m) => m.role === 'tool');
    assert.deepEqual(tools.map((m) => [m.id, m.toolCallId]), [['result-bad', 'bad'], ['result-cut', 'cut'], ['result-req', 'req']]);
    assert.deepEqual(JSON.parse(tools[0].content), { error: 'invalid arguments', details: [ENUM_ERROR] });
    assert.equal(JSON.parse(tools[1].content).details[0].keyword, 'truncated');
    assert.ok(changed.some((ids) => ids.includes('req')), 'onMessagesChanged saw the answers');
    assert.deepEqual(newMessages.filter((m) => m.role === 'tool').map((m) => m.toolCallId), ['bad', 'cut', 'req']);
    const handled = [];
    const ran = runFrontendTools(agent, newMessages, (tc) => handled.push(JSON.parse(tc.function.arguments)));
    assert.deepEqual(ran, ['ok']);
    assert.deepEqual(handled, [{ city: 'Paris', unit: 'celsius' }]);
    const st = Object.fromEntries(agent.reducerState.toolCalls.map((t) => [t.id, t]));
    assert.equal(st.bad.result, tools[0].content);
    // The next run's input carries the answers to the model.
    let sent;
    agent.url = server.url('valid', 0);
    agent.subscribe({ onRunInitialized: ({ input }) => { sent = input.messages; } });
    await agent.runAgent({ runId: 'r-valid', tools: TOOLS });
    assert.deepEqual(sent.filter((m) => m.role === 'tool').map((m) => m.toolCallId), ['bad', 'cut', 'req']);
  });

  test(`${label}: a run that fails with a call open: the call is invalid (truncated), the hook told at RUN_ERROR, a refusal answers it`, async () => {
    const told = [];
    const agent = new Ours({
      url: server.url('failed', 0), threadId: 'th',
      onInvalidToolCall: ({ toolCall, errors, event }) => {
        told.push([toolCall.id, event.type, errors.map((e) => e.keyword)]);
        return { result: 'Error: the arguments were cut off' };
      },
    });
    await quietly(() => agent.runAgent({ runId: 'r-failed', tools: TOOLS }).catch(() => {}));
    assert.deepEqual(told, [['open', 'RUN_ERROR', ['truncated']]]);
    const tc = agent.reducerState.toolCalls[0];
    assert.equal(tc.argsStatus, 'invalid');
    assert.notEqual(tc.status, 'running');
    assert.deepEqual(agent.messages.filter((m) => m.role === 'tool').map((m) => [m.toolCallId, m.content]), [['open', 'Error: the arguments were cut off']]);
  });

  test(`${label}: a hook that throws is logged and the run goes on`, async () => {
    const agent = new Ours({ url: server.url('mixed', 0), threadId: 'th', onInvalidToolCall: () => { throw new Error('boom'); } });
    const errors = [];
    const orig = console.error;
    console.error = (...a) => errors.push(a.join(' '));
    try {
      await agent.runAgent({ runId: 'r-mixed', tools: TOOLS });
    } finally {
      console.error = orig;
    }
    assert.equal(errors.filter((e) => e.includes('onInvalidToolCall') && e.includes('boom')).length, 3);
    assert.equal(agent.messages.filter((m) => m.role === 'tool').length, 0);
  });
}
