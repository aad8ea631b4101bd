// The drop-in's token lane (web/src/ag-ui/lane.js): a run's plain deltas go
// from its transport to its apply step past @ag-ui/client's stages only
// where those stages would pass them on unchanged. The Lane on its own
// (which events it takes), then streams at the lane's edges through the
// drop-in entry and @ag-ui/client 1.0.0's HttpAgent, warm and cold (the
// reducer not loaded), and random streams the same way: every subscriber
// call, result, error and the final messages must be equal.
//
//   node --test web/test/ag-ui/lane.test.mjs      (needs make wasm and npm ci in bench/)

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { HttpAgent } from '@ag-ui/client';
import { Lane } from '../../src/ag-ui/lane.js';
import { serve, observe, quietly, loadDropIn, runsOf, recorder, normalise } from './diff.mjs';
import { START, FINISH, MSG, TC, text, args, laneStreams } from './lane-streams.mjs';
import { randomStream } from './random-streams.mjs';

test('Lane: which events it takes', () => {
  const got = [];
  const lane = new Lane((e) => got.push(e));
  const takes = (e) => lane.take(e);
  assert.equal(takes(text('a')), false, 'no message open yet');
  lane.saw(START);
  lane.saw(MSG);
  assert.equal(takes(text('a')), true);
  assert.equal(takes({ type: 'TEXT_MESSAGE_CONTENT', timestamp: 5, messageId: 'm1', delta: 'b' }), true, 'an integer timestamp, in the schema order');
  assert.equal(takes({ type: 'TEXT_MESSAGE_CONTENT', timestamp: 1.5, messageId: 'm1', delta: 'b' }), false, 'a timestamp enforcement refuses');
  assert.equal(takes({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', timestamp: 5, delta: 'b' }), false, 'fields out of the schema order');
  assert.equal(takes({ delta: 'b', messageId: 'm1', type: 'TEXT_MESSAGE_CONTENT' }), false, 'fields out of the schema order');
  assert.equal(takes(text('b', { extra: 1 })), false, 'a field enforcement strips');
  assert.equal(takes(text(7)), false, 'a delta enforcement refuses');
  assert.equal(takes({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm2', delta: 'x' }), false, 'a message not open');
  assert.equal(takes(args('{')), false, 'a tool call not open');
  lane.saw(TC);
  assert.equal(takes(args('{')), true);
  lane.saw({ type: 'TOOL_CALL_END', toolCallId: 't1' });
  assert.equal(takes(args('}')), false, 'a tool call ended');
  lane.saw({ type: 'TEXT_MESSAGE_END', messageId: 'm1' });
  assert.equal(takes(text('c')), false, 'a message ended');
  lane.saw(MSG);
  lane.saw(FINISH);
  assert.equal(takes(text('c')), false, 'the run finished');
  assert.equal(takes({ type: 'REASONING_MESSAGE_CONTENT', messageId: 'r1', delta: 'r' }), false, 'a reasoning message not open');
  lane.saw({ ...START, runId: 'run-1' });
  lane.saw({ type: 'REASONING_MESSAGE_START', messageId: 'r1', role: 'reasoning' });
  assert.equal(takes({ type: 'REASONING_MESSAGE_CONTENT', messageId: 'r1', delta: 'r' }), true);
  lane.saw({ type: 'REASONING_MESSAGE_END', messageId: 'r1' });
  assert.equal(takes({ type: 'REASONING_MESSAGE_CONTENT', messageId: 'r1', delta: 's' }), false, 'a reasoning message ended');
  assert.equal(takes({ type: 'STATE_DELTA', delta: [] }), false, 'other events');
  assert.deepEqual(got.map((e) => e.delta), ['a', 'b', '{', 'r']);
  assert.equal(lane.taken, 4);
});

test('Lane: closes for the run on a chunk, a subagent\'s tag, or its end', () => {
  for (const [why, e] of [
    ['a chunk', { type: 'TEXT_MESSAGE_CHUNK', messageId: 'm9', delta: 'x' }],
    ['a subagent tag', { type: 'TEXT_MESSAGE_START', messageId: 'm9', role: 'assistant', subagentRunId: 's1' }],
  ]) {
    const lane = new Lane(() => {});
    lane.saw(START);
    lane.saw(MSG);
    assert.equal(lane.take(e), false);
    assert.equal(lane.take(text('a')), false, why);
  }
  const lane = new Lane(() => {});
  lane.saw(MSG);
  lane.close();
  assert.equal(lane.take(text('a')), false, 'closed');
});

const streams = laneStreams();
// Random streams, well formed (1–20) and not (21–30: the verifier refuses
// some, at some event), all three fields of their deltas in order.
for (let seed = 1; seed <= 30; seed++) streams.set(`random-${seed}`, runsOf(randomStream(seed, { loose: seed > 20 })));

let server, DropIn;
before(async () => {
  ({ HttpAgent: DropIn } = await loadDropIn());
  server = await serve(streams);
});
after(() => server.close());

for (const [key, runs] of streams) {
  test(`same as HttpAgent at the lane's edge: ${key}`, async () => {
    const official = await quietly(() => observe((c) => new HttpAgent(c), server, key, runs, { subscribers: 2 }));
    const ours = await quietly(() => observe((c) => new DropIn(c), server, key, runs, { subscribers: 2 }));
    assert.deepStrictEqual(ours, official);
  });
}

// Cold runs (the reducer factory not at hand): @ag-ui/client's own apply
// step folds, and the lane hands it the plain deltas.
for (const [key, runs] of streams) {
  test(`same as HttpAgent at the lane's edge, a cold run: ${key}`, async () => {
    const official = await quietly(() => observe((c) => new HttpAgent(c), server, key, runs, { subscribers: 2 }));
    const ours = await quietly(() => observe((c) => new DropIn({ ...c, reducer: new Promise(() => {}) }), server, key, runs, { subscribers: 2 }));
    assert.deepStrictEqual(ours, official);
  });
}

// The chain sees every event when it could change them: a middleware, a debug logger.
for (const [what, setup] of [
  ['a middleware', (agent, seen) => agent.use((input, next) => {
    return next.run(input).pipe((src) => new src.constructor((o) => src.subscribe({
      next: (e) => { seen.push(e.type); o.next(e.type === 'TEXT_MESSAGE_CONTENT' ? { ...e, delta: e.delta.toUpperCase() } : e); },
      error: (err) => o.error(err), complete: () => o.complete(),
    })));
  })],
]) {
  test(`the chain sees every delta with ${what}`, async () => {
    const key = 'plain';
    const runs = streams.get(key);
    const seen = { official: [], ours: [] };
    const make = (Agent, side) => (c) => { const a = new Agent(c); setup(a, seen[side]); return a; };
    const official = await quietly(() => observe(make(HttpAgent, 'official'), server, key, runs, { subscribers: 1 }));
    const ours = await quietly(() => observe(make(DropIn, 'ours'), server, key, runs, { subscribers: 1 }));
    assert.deepStrictEqual(ours, official);
    assert.deepStrictEqual(seen.ours, seen.official);
    assert.equal(seen.ours.filter((t) => t === 'TEXT_MESSAGE_CONTENT').length, 2);
    assert.equal(ours.messages[0].content, 'HELLO');
  });
}

// A property: for random streams (well formed or not) whose bodies arrive
// cut at random byte offsets (a read ends mid-frame, mid-character), the
// drop-in entry's subscribers see what HttpAgent's see, whether its runs
// are warm or cold. The lane's order with the stages' events is what a read
// boundary could disturb.
test('property: random streams in random reads, the drop-in entry as HttpAgent', async () => {
  const enc = new TextEncoder();
  const rand = (seed) => () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const observeReads = async (make, runs, r) => {
    const log = [];
    const bodies = runs.map((events) => enc.encode(events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('')));
    let k = 0;
    const fetch = async () => {
      const bytes = bodies[k++];
      const cuts = [0];
      while (cuts.at(-1) < bytes.length) cuts.push(Math.min(bytes.length, cuts.at(-1) + 1 + Math.floor(r() * 700)));
      let i = 0;
      const body = new ReadableStream({
        async pull(c) {
          await new Promise((res) => setTimeout(res, 0)); // each read in a task of its own
          c.enqueue(bytes.subarray(cuts[i], cuts[i + 1]));
          if (++i >= cuts.length - 1) c.close();
        },
      });
      return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
    };
    const agent = make({ url: 'http://127.0.0.1:9/', threadId: 'thread-r', fetch });
    agent.subscribe(recorder(log));
    const results = [];
    for (let i = 0; i < runs.length; i++) {
      try {
        const res = await agent.runAgent({ runId: `run-${i}` });
        results.push({ result: res.result ?? null, newMessages: res.newMessages });
      } catch (err) {
        results.push({ error: String(err?.message ?? err) });
      }
    }
    await new Promise((res) => setTimeout(res, 0));
    return normalise({ results, log, messages: agent.messages, state: agent.state });
  };
  for (let seed = 101; seed <= 160; seed++) {
    const runs = runsOf(randomStream(seed, { loose: seed % 4 === 0 }));
    const cold = seed % 3 === 0;
    const official = await quietly(() => observeReads((c) => new HttpAgent(c), runs, rand(seed)));
    const ours = await quietly(() => observeReads((c) => new DropIn(cold ? { ...c, reducer: new Promise(() => {}) } : c), runs, rand(seed)));
    assert.deepStrictEqual(ours, official, `seed ${seed}${cold ? ', cold' : ''}`);
  }
});
