// The drop-in agent's subscriber rounds (web/src/ag-ui/subscribers.js): a
// round no subscriber has the hook for is answered at once, without a
// promise; a round with one calls every subscriber in order, awaiting each
// (those without the hook too, as @ag-ui/client's runSubscribersWithMutation
// does), adopts returned values and stops at stopPropagation. No timing.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runSubscribers, hasHook, NO_MUTATION } from '../../src/ag-ui/subscribers.js';

const exec = (hook, log) => (s, messages, state) => { log.push(s.name); return s[hook]?.({ messages, state }); };

test('a round without a hooked subscriber: NO_MUTATION at once, nobody called', () => {
  const log = [];
  const subs = [{ name: 'a', onMessagesChanged() {} }, { name: 'b' }];
  assert.equal(hasHook(subs, 'onEvent'), false);
  const r = runSubscribers(subs, 'onEvent', [], {}, exec('onEvent', log));
  assert.equal(r, NO_MUTATION, 'no promise');
  assert.deepEqual(log, []);
  assert.equal(runSubscribers([], 'onEvent', [], {}, exec('onEvent', log)), NO_MUTATION);
});

test('a round with a hooked subscriber awaits every subscriber in order, adopting what they return', async () => {
  const log = [];
  const m2 = [{ id: 'x', role: 'user', content: 'hi' }];
  const subs = [
    { name: 'internal' }, // no hook: still awaited, as by the official client
    { name: 'a', onEvent: ({ messages }) => { assert.deepEqual(messages, []); return { messages: m2 }; } },
    { name: 'b', onEvent: async ({ messages }) => { assert.equal(messages, m2, 'sees the replacement'); return { stopPropagation: true }; } },
    { name: 'c', onEvent: () => { throw new Error('not reached'); } },
  ];
  const r = runSubscribers(subs, 'onEvent', [], {}, exec('onEvent', log));
  assert.ok(r instanceof Promise);
  assert.deepEqual(log, ['internal'], 'the first subscriber is called at once, then the round yields');
  const m = await r;
  assert.deepEqual(log, ['internal', 'a', 'b']);
  assert.equal(m.messages, m2);
  assert.equal(m.stopPropagation, true);
  assert.equal(m.state, undefined);
});

test('a throwing subscriber is logged and skipped; a round that returns nothing is NO_MUTATION', async () => {
  const saved = console.error;
  const errors = [];
  console.error = (...a) => errors.push(a);
  try {
    const log = [];
    const subs = [{ name: 'a', onEvent: () => { throw new Error('boom'); } }, { name: 'b', onEvent: () => undefined }];
    assert.equal(await runSubscribers(subs, 'onEvent', [], {}, exec('onEvent', log)), NO_MUTATION);
    assert.deepEqual(log, ['a', 'b']);
    assert.equal(errors.length, 1);
  } finally {
    console.error = saved;
  }
});
