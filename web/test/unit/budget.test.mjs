// The state budget through the wasm module: events that copy the root of
// the shared state into itself double it with every op. They are refused
// with too_large before the memory is spent, and the module's memory stays
// bounded (before the budget, one 1 KB event took the Go runtime to 4 GB
// and killed every reducer of the page).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadReducer } from '../../entries/agui.node.js';
import { wasmURL } from '../support/helpers.mjs';

const MiB = 1 << 20;
const snapshot = { type: 'STATE_SNAPSHOT', snapshot: { pad: 'x'.repeat(1000) } };
const copies = (n, from = 0) => ({
  type: 'STATE_DELTA',
  delta: Array.from({ length: n }, (_, i) => ({ op: 'copy', from: '', path: `/k${from + i}` })),
});
const codes = (rec) => (rec.diagnostics ?? []).map((d) => d.code);

test('one STATE_DELTA of 30 root copies is refused whole; memory stays bounded (default budget)', async () => {
  const factory = await loadReducer(wasmURL);
  const start = factory.memoryBytes();
  const r = factory.createReducer();
  r.apply(snapshot);
  const before = JSON.stringify(r.snapshot());
  const rec = r.apply(copies(30));
  assert.deepEqual(codes(rec), ['too_large']);
  assert.equal(JSON.stringify(r.snapshot()), before);
  assert.deepStrictEqual(r.state, r.snapshot());
  const grown = factory.memoryBytes() - start;
  assert.ok(grown < 64 * MiB, `wasm memory grew by ${(grown / MiB).toFixed(1)} MiB`);
  // The module and other reducers still work.
  const other = factory.createReducer();
  other.apply({ type: 'RUN_STARTED', threadId: 't', runId: 'r' });
  assert.equal(other.state.status, 'running');
  r.dispose();
  other.dispose();
});

test('one doubling per event stops at maxStateBytes; mirror equals snapshot()', async () => {
  const factory = await loadReducer(wasmURL);
  const start = factory.memoryBytes();
  const r = factory.createReducer({ maxStateBytes: MiB });
  r.apply(snapshot);
  let refused = 0;
  for (let i = 0; i < 20; i++) {
    const rec = r.apply(copies(1, i));
    if (codes(rec).includes('too_large')) refused++;
  }
  assert.ok(refused >= 10, `refused ${refused}`);
  assert.ok(JSON.stringify(r.snapshot().state).length <= MiB);
  assert.deepStrictEqual(r.state, r.snapshot());
  // What snapshot() produced, restore() takes back.
  const copy = factory.createReducer({ maxStateBytes: MiB });
  copy.restore(r.snapshot());
  assert.deepStrictEqual(copy.snapshot(), r.snapshot());
  const grown = factory.memoryBytes() - start;
  assert.ok(grown < 64 * MiB, `wasm memory grew by ${(grown / MiB).toFixed(1)} MiB`);
  r.dispose();
  copy.dispose();
});
