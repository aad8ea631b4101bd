// The apply step of the drop-in agent (web/ag-ui-reducer.js) against
// @ag-ui/client 1.0.0's defaultApplyEvents, without transport and
// verification: the golden streams (some of which the verifier rejects
// before their interesting part), the corpus and generated streams, chunk-
// expanded, folded by both with the same recording subscribers. No timing.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import * as client from '@ag-ui/client';
import { from } from 'rxjs';
import { loadReducer } from '../web/agui.js';
import { withReducer, setReducerFactory } from '../web/ag-ui-reducer.js';
import { observeApply, runsOf, streamsIn, quietly } from './ag-ui-diff.mjs';
import { randomStream } from './ag-ui-gen.mjs';

const Ours = withReducer(client.HttpAgent);
const streams = new Map();
for (const s of streamsIn(new URL('../testdata/streams/', import.meta.url))) streams.set(s.name, runsOf(s.events));
for (const s of streamsIn(new URL('../../shared/corpus/', import.meta.url))) streams.set('corpus/' + s.name, runsOf(s.events));
for (let seed = 1; seed <= 40; seed++) streams.set(`random-${seed}`, runsOf(randomStream(seed)));

before(async () => {
  setReducerFactory(await loadReducer(new URL('../web/dist/agui.wasm', import.meta.url)));
});

// Streams whose outcome differs for a documented reason (docs/ag-ui-agent.md, "Differences").
export const KNOWN = new Map([]);

for (const [key, runs] of streams) {
  test(`apply step same as defaultApplyEvents: ${key}`, { todo: KNOWN.get(key) }, async () => {
    const official = await quietly(() => observeApply((c) => new client.HttpAgent(c), client, from, runs, { subscribers: 2 }));
    const ours = await quietly(() => observeApply((c) => new Ours(c), client, from, runs, { subscribers: 2 }));
    assert.deepStrictEqual(ours.results, official.results, 'results');
    assert.deepStrictEqual(ours.messages, official.messages, 'agent.messages');
    assert.deepStrictEqual(ours.state, official.state, 'agent.state');
    assert.deepStrictEqual(ours.pendingInterrupts, official.pendingInterrupts, 'pendingInterrupts');
    for (let i = 0; i < Math.min(ours.log.length, official.log.length); i++) assert.deepStrictEqual(ours.log[i], official.log[i], `subscriber call ${i}`);
    assert.equal(ours.log.length, official.log.length, 'number of subscriber calls');
  });
}
