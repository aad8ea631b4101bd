// The drop-in agent's benchmark code (agent-core.mjs), run for a few
// seconds for correctness only: both agents, fed the same SSE bytes through
// their fetch option, end with equal messages and state, and their
// subscribers read the same text. No timing is asserted (make bench
// measures; agent.mjs).
//
//   node --test bench/agent-bench.test.mjs   (needs make wasm and npm ci in bench/)

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HttpAgent } from '@ag-ui/client';
import { ignoreElements, endWith } from 'rxjs';
import { loadReducer } from '../web/agui.node.js';
import { withReducer } from '../web/ag-ui-reducer.js';
import { runAgentBench, sides, converse, canon } from './agent-core.mjs';
import { generate } from './gen.mjs';

process.env.SUPPRESS_TRANSFORMATION_WARNINGS = 'true';
const factory = await loadReducer(new URL('../web/dist/agui.wasm', import.meta.url));
const make = sides({ HttpAgent, withReducer, ignoreElements, endWith, factory });

test('agent bench: both agents fold the same SSE bytes alike, with 1 and 3 subscribers', async () => {
  const res = await runAgentBench({ make, lengths: [1, 2], subscribers: [1, 3], reps: 1, now: () => 0 });
  assert.equal(res.rows.length, 4);
  for (const r of res.rows) assert.ok(r.same, `${r.subscribers} subscriber(s), ${r.turns} turn(s): the agents differ`);
});

test('agent bench: the conversation is the one gen.mjs says N turns fold into; the floor folds nothing but carries the conversation', async () => {
  const conv = generate({ turns: 2, seed: 3 });
  const now = () => 0;
  const ours = await converse(make.ours, conv, { subscribers: 2, now });
  assert.equal(canon(ours.messages), canon(conv.messages(2)));
  assert.equal(canon(ours.state), canon(conv.state(2)));
  assert.ok(ours.sink.n > 0 && ours.sink.chars > 0, 'the subscribers read the messages');
  const floor = await converse(make.floor, conv, { subscribers: 2, now, carry: true });
  // Given before the last turn what the conversation held then; it folded nothing since.
  assert.equal(canon(floor.messages), canon(conv.messages(1)));
  assert.equal(canon(floor.state), canon(conv.state(1)));
  assert.equal(floor.sink.n, 0);
});
