// The drop-in's memory while tool-call arguments stream (the large-arguments
// scenario of agent.mjs): the official view remembers only the latest
// object of a running tool call, so that what a reader of the arguments
// made (a flat copy of the text per delta) is not kept by the view until a
// full collection. No timing or heap size is asserted.
//
//   node --test bench/agent-memory.test.mjs   (needs make wasm)

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadReducer } from '../web/entries/agui.node.js';
import { OfficialView } from '../web/src/ag-ui/view.js';
import { largeArgs } from './agent-large.mjs';

const factory = await loadReducer(new URL('../web/dist/agui.wasm', import.meta.url));

test('official view: a streaming tool call\'s earlier objects are not remembered, its latest and finished ones are', () => {
  const r = factory.createReducer({ dialect: 'agui' });
  const view = new OfficialView();
  const seen = new Map(); // tool call id → its mirror objects, in order
  for (const e of largeArgs({ history: 0, bytes: 400 }).turns[0].events) {
    r.apply(e);
    view.update(r.state);
    for (const m of view.messages) for (const t of m.toolCalls ?? []) t.function.arguments.slice(-64); // a preview reader
    for (const t of r.state.toolCalls) {
      const list = seen.get(t.id) ?? [];
      if (list.at(-1) !== t) list.push(t);
      seen.set(t.id, list);
    }
  }
  assert.equal(seen.size, 3);
  for (const [id, list] of seen) {
    assert.ok(list.length > 10, `${id} streamed in many deltas`);
    const last = list.at(-1);
    assert.equal(last.status, 'complete');
    assert.ok(view.tcCache.has(last), `${id}: the finished tool call is remembered`);
    const kept = list.slice(0, -1).filter((t) => view.tcCache.has(t));
    assert.deepEqual(kept.map((t) => t.argsText.length), [], `${id}: earlier objects still remembered`);
  }
  assert.equal(view.tcLatest.size, 0, 'no running tool call left');
});
