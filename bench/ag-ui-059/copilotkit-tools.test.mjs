// CopilotKit's own client (@copilotkit/core 1.75, which runs frontend tools
// after a run) with the drop-in agent, over HTTP: the frontend tool's schema
// (zod, sent by CopilotKit as input.tools) validates the calls while they
// stream, and onInvalidToolCall's {result} keeps CopilotKit from running the
// tool on arguments that break it. No timing.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as client from '@ag-ui/client';
import { CopilotKitCore } from '@copilotkit/core';
import { z } from 'zod';
import { loadReducer } from '../../web/entries/agui.node.js';
import { withReducer } from '../../web/src/ag-ui/with-reducer.js';
import { withResume } from '../../web/src/ag-ui/resume.js';
import { serve, quietly } from '../../web/test/ag-ui/diff.mjs';
import { MIXED } from '../../web/test/ag-ui/tool-validation-agent.mjs';

const Ours = withResume(withReducer(client.HttpAgent), { transformHttpEventStream: client.transformHttpEventStream, EventType: client.EventType });
// CopilotKit's follow-up run after a tool it ran: the model's answer.
const FOLLOW_UP = [{ type: 'RUN_STARTED', threadId: 'th', runId: 'r-follow' }, { type: 'RUN_FINISHED', threadId: 'th', runId: 'r-follow' }];

let server, factory;
before(async () => {
  factory = await loadReducer(new URL('../../web/dist/agui.wasm', import.meta.url));
  server = await serve(new Map([['mixed', [MIXED, FOLLOW_UP]]]));
});
after(() => server.close());

/** One CopilotKit chat turn: runAgent with a get_weather frontend tool; what ran and what the agent holds. */
async function turn(onInvalidToolCall) {
  const told = [];
  const sentTools = [];
  const sentMessages = [];
  const agent = new Ours({
    url: server.url('mixed', 0), threadId: 'th', reducer: factory,
    onInvalidToolCall: (info) => {
      told.push(info.toolCall.id);
      return onInvalidToolCall(info);
    },
  });
  let runs = 0;
  agent.subscribe({
    onRunInitialized: ({ input }) => {
      sentTools.push(input.tools);
      sentMessages.push(input.messages);
      agent.url = server.url('mixed', Math.min(runs++, 1));
    },
  });
  const ran = [];
  const core = new CopilotKitCore({
    agents__unsafe_dev_only: { default: agent },
    tools: [{
      name: 'get_weather',
      description: 'The weather in a city',
      parameters: z.object({ city: z.string(), unit: z.enum(['celsius', 'fahrenheit']).optional() }).strict(),
      handler: async (args, { toolCall }) => {
        ran.push([toolCall.id, args]);
        return 'sunny';
      },
    }],
  });
  await quietly(() => core.runAgent({ agent }));
  const results = Object.fromEntries(agent.messages.filter((m) => m.role === 'tool').map((m) => [m.toolCallId, m.content]));
  const statuses = Object.fromEntries(agent.reducerState.toolCalls.map((t) => [t.id, t.argsStatus]));
  return { told, ran, runs, results, statuses, sentTools, sentMessages };
}

test('CopilotKit 1.75: its frontend tool\'s schema validates the calls; without a refusal it runs them all', async () => {
  const t = await turn(() => undefined);
  assert.equal(t.sentTools[0][0].name, 'get_weather');
  assert.deepEqual(t.statuses, { ok: 'valid', bad: 'invalid', cut: 'invalid', req: 'invalid' });
  assert.deepEqual(t.told, ['bad', 'cut', 'req']);
  // CopilotKit itself runs the handler on arguments its own schema refuses.
  assert.deepEqual(t.ran.map(([id]) => id), ['ok', 'bad', 'req']);
  assert.deepEqual(t.ran[1][1], { city: 'Oslo', unit: 'kelvin' });
  assert.match(t.results.cut, /^Error: /, 'the cut arguments fail its JSON.parse');
});

test('CopilotKit 1.75: a call onInvalidToolCall refuses is answered with its error and not run', async () => {
  const t = await turn(({ errors }) => ({ result: { error: 'invalid arguments', details: errors } }));
  assert.deepEqual(t.told, ['bad', 'cut', 'req']);
  assert.deepEqual(t.ran, [['ok', { city: 'Paris', unit: 'celsius' }]]);
  assert.equal(t.results.ok, 'sunny');
  for (const id of ['bad', 'cut', 'req']) assert.equal(JSON.parse(t.results[id]).error, 'invalid arguments', id);
  assert.deepEqual(JSON.parse(t.results.bad).details, [{ path: '/unit', keyword: 'enum', message: 'must be one of celsius, fahrenheit' }]);
  assert.equal(t.runs, 2, 'the follow-up run CopilotKit starts after the tool it ran');
  // The follow-up run sends the refusals to the model.
  assert.deepEqual(t.sentMessages[1].filter((m) => m.role === 'tool').map((m) => m.toolCallId).sort(), ['bad', 'cut', 'ok', 'req']);
});
