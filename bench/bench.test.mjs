// Quick correctness check of the benchmark (not a timing): the official
// @ag-ui/client pipeline and our reducer fold the same generated 3-turn
// stream into the same conversation, and both match what gen.mjs says the
// turns fold into (which the benchmark uses to start the official reducer
// at turn N). Needs `make wasm` and `cd bench && npm ci`.
//
//   node --test bench/*.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generate, eventsOf } from './gen.mjs';
import { officialAgent, officialRun } from './official.mjs';
import { buildImportMap } from './importmap.mjs';
import { loadReducer } from '../web/entries/agui.node.js';

const wasmURL = new URL('../web/dist/agui.wasm', import.meta.url);

test('gen: deterministic, turns shaped as the issue describes', () => {
  const a = generate({ turns: 3, seed: 7 });
  const b = generate({ turns: 3, seed: 7 });
  assert.deepEqual(eventsOf(a), eventsOf(b));
  assert.notDeepEqual(eventsOf(a), eventsOf(generate({ turns: 3, seed: 8 })));
  // A longer conversation starts with the same turns.
  assert.deepEqual(generate({ turns: 5, seed: 7 }).turns.slice(0, 3), a.turns);
  for (const { events } of a.turns) {
    const count = (type) => events.filter((e) => e.type === type).length;
    assert.ok(Math.abs(count('REASONING_MESSAGE_CONTENT') - 20) <= 3, 'about 20 reasoning deltas');
    assert.ok(Math.abs(count('TEXT_MESSAGE_CONTENT') - 200) <= 20, 'about 200 text deltas');
    assert.ok(Math.abs(count('TOOL_CALL_ARGS') - 20) <= 4, 'about 20 argument deltas');
    assert.equal(count('TOOL_CALL_RESULT'), 1);
    assert.equal(count('CUSTOM'), 1);
    const delta = events.find((e) => e.type === 'STATE_DELTA');
    assert.equal(delta.delta.length, 3);
    for (const e of events) {
      if (e.type.endsWith('_CONTENT') || e.type === 'TOOL_CALL_ARGS') assert.ok(e.delta.length >= 1 && e.delta.length <= 8, e.delta);
    }
  }
});

test('official and ours fold a 3-turn stream into the same conversation', async () => {
  const conv = generate({ turns: 3 });

  const agent = officialAgent();
  for (const t of conv.turns) await officialRun(agent, conv.threadId, t.runId, t.events);

  const factory = await loadReducer(wasmURL);
  const ours = factory.createReducer({});
  let notified = 0;
  ours.subscribe(() => { notified++; });
  for (const e of eventsOf(conv)) ours.apply(JSON.stringify(e));

  // Same messages (text, reasoning, tool calls with their arguments, tool
  // results), compared in the official Message[] shape; key order aside.
  assert.deepStrictEqual(ours.messages(), agent.messages);
  assert.deepStrictEqual(ours.state.state, agent.state);
  // And both are what the generator says 3 turns fold into.
  assert.deepStrictEqual(agent.messages, conv.messages(3));
  assert.deepStrictEqual(agent.state, conv.state(3));

  // The mirror holds the same: assistant text and tool calls.
  const mirror = ours.state;
  const texts = mirror.messages.filter((m) => m.role === 'assistant' && m.content).map((m) => m.content);
  assert.deepStrictEqual(texts, agent.messages.filter((m) => m.role === 'assistant').map((m) => m.content));
  assert.deepStrictEqual(
    mirror.toolCalls.map((c) => [c.id, c.name, c.argsText, JSON.stringify(c.args)]),
    agent.messages.filter((m) => m.toolCalls).flatMap((m) => m.toolCalls.map((c) => [c.id, c.function.name, c.function.arguments, c.function.arguments])),
  );
  assert.deepStrictEqual(mirror, ours.snapshot(), 'mirror equals the snapshot');
  assert.ok(notified > 600);
  ours.dispose();
});

test('the official reducer starts at turn N from what N-1 turns fold into', async () => {
  const conv = generate({ turns: 3 });
  const agent = officialAgent(conv.messages(2), conv.state(2));
  await officialRun(agent, conv.threadId, conv.turns[2].runId, conv.turns[2].events);
  assert.deepStrictEqual(agent.messages, conv.messages(3));
  assert.deepStrictEqual(agent.state, conv.state(3));
});

test('import map: @ag-ui/client and its dependencies resolve to ESM files', () => {
  const map = buildImportMap(['@ag-ui/client', 'rxjs'], new URL('./node_modules', import.meta.url).pathname, '/bench/node_modules');
  for (const spec of ['@ag-ui/client', 'rxjs', 'rxjs/operators', '@ag-ui/core', 'fast-json-patch', 'zod/v4']) {
    assert.match(map.imports[spec], /^\/bench\/node_modules\/.+\.(m?js)$/, spec);
  }
});

test('runBench end to end on a tiny conversation: every figure is there (no timing asserted)', async () => {
  const { runBench } = await import('./core.mjs');
  const res = await runBench({
    wasmURL, lengths: [2, 3], reps: 1, oursReps: 2, parseBlocks: 1, memoryConversations: 2, memoryTurns: 2,
  });
  assert.deepStrictEqual(res.lengths.map((r) => r.turns), [2, 3]);
  for (const row of res.lengths) {
    assert.equal(row.oursWindowTurns, 2);
    assert.ok(row.oursWindowEvents > row.windowEvents, 'two turns of events');
    for (const side of ['official', 'ours', 'oursEvent']) {
      assert.ok(row[side].perEventUs > 0 && Number.isFinite(row[side].perEventUs), `${side} per-event cost`);
      assert.ok(row[side].totalMs > 0, `${side} total`);
    }
    assert.equal(row.official.windowMs.length, 1);
    assert.equal(row.ours.windowMs.length, 2);
    assert.equal(row.oursEvent.windowMs.length, 2);
    assert.equal(row.ours.consumer, 'frame');
    assert.equal(row.oursEvent.consumer, 'event');
  }
  assert.ok(res.textContent.applyUs > 0 && res.textContent.parseUs > 0);
  assert.equal(res.memory.afterEach.length, 2);
  assert.ok(res.bars.some((b) => b.bar.includes('JSON.parse')));
});

test('reliability benchmarks end to end, tiny sizes: every figure is there (no timing asserted)', async () => {
  const { runReliability, quickReliability, citedTurns } = await import('./reliability.mjs');
  // The cited conversation: one citation per turn, for the turn's answer.
  const turns = citedTurns(3);
  for (const texts of turns) {
    const events = texts.map((t) => JSON.parse(t));
    const answer = events.find((e) => e.type === 'TEXT_MESSAGE_START').messageId;
    const cites = events.filter((e) => e.type === 'STATE_DELTA' && e.delta[0].path.startsWith('/citations/'));
    assert.equal(cites.length, 1);
    assert.equal(cites[0].delta[0].path, `/citations/${answer}`);
  }
  const res = await runReliability({ wasmURL, ...quickReliability });
  assert.equal(res.citations.perTenthUs.length, 10);
  assert.ok(res.citations.perTenthUs.every((x) => x > 0 && Number.isFinite(x)));
  assert.ok(Number.isFinite(res.citations.lastOverFirst));
  assert.ok(res.restore.ms > 0 && res.restore.wasmMs > 0);
  for (const c of ['event', 'frame']) assert.ok(res.wideState[c].wideUs > 0 && res.wideState[c].smallUs > 0);
});
