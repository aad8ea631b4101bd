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
import { dropIn } from './agent-dropin.mjs';
import { runAgentBench, sides, converse, canon } from './agent-core.mjs';
import { runLargeBench, largeArgs } from './agent-large.mjs';
import { generate } from './gen.mjs';

process.env.SUPPRESS_TRANSFORMATION_WARNINGS = 'true';
// The package's exported class, as agent.mjs measures it.
const make = sides({ HttpAgent, DropIn: await dropIn(), ignoreElements, endWith });

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

test('agent bench, large arguments: both agents end equal, with and without the preview reader, which reads every event', async () => {
  const rows = await runLargeBench({
    make, now: () => performance.now(), reps: 1, collect: () => {}, tick: () => new Promise((r) => setTimeout(r, 0)),
    scenarios: [{ bytes: 2_000, subscribers: 2, reader: false }, { bytes: 2_000, subscribers: 1, reader: true }],
  });
  assert.equal(rows.length, 2);
  for (const r of rows) assert.ok(r.same, `${r.subscribers} subscriber(s), reader ${r.reader}: the agents differ`);
  // The conversation: the history, then one assistant message holding the three calls with their whole arguments.
  const conv = largeArgs({ bytes: 2_000 });
  const ours = await converse(make.ours, conv, { subscribers: 1, now: () => 0 });
  assert.equal(ours.messages.length, 51);
  const calls = ours.messages[50].toolCalls;
  assert.equal(calls.length, 3);
  for (const t of calls) assert.equal(JSON.parse(t.function.arguments).content.length, 2_000);
});
