// restore() takes a snapshot's UTF-8 bytes as fetched (loadThread passes
// them so), same-thread and in a worker: the same state as its text, the
// same diagnostic for a bad one, and observers see the text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MessageChannel } from 'node:worker_threads';
import { loadReducer, createWorkerHost } from '../../entries/agui.node.js';
import { serve } from '../../src/worker/entry.js';
import { wasmURL } from '../support/helpers.mjs';

const factory = await loadReducer(wasmURL);

function sample() {
  const r = factory.createReducer({ threadId: 't' });
  r.addUserMessage('héllo "quoted"\n😀', 'u1');
  r.setState({ n: 1, s: 'ü' });
  const text = JSON.stringify(r.snapshot());
  r.dispose();
  return text;
}

test('restore(bytes) is restore(text), and observers see the text', () => {
  const text = sample();
  const bytes = new TextEncoder().encode(text);
  const a = factory.createReducer({});
  const b = factory.createReducer({});
  a.restore(text);
  const seen = [];
  b.observe((input) => { if (input.kind === 'action') seen.push(input); });
  b.restore(bytes);
  assert.deepEqual(b.state, a.state);
  assert.equal(b.state.messages[0].content, 'héllo "quoted"\n😀');
  assert.deepEqual(seen.map((i) => [i.name, i.args]), [['restore', [text]]]);
  // A bad snapshot: the same diagnostic, the state unchanged.
  const bad = '{"messages":[1]}';
  const ra = a.restore(bad);
  const rb = b.restore(new TextEncoder().encode(bad));
  assert.deepEqual(rb.diagnostics, ra.diagnostics);
  assert.equal(rb.diagnostics[0].code, 'bad_snapshot');
  assert.deepEqual(b.state, a.state);
});

test('a worker reducer restores bytes too', async () => {
  const text = sample();
  const { port1, port2 } = new MessageChannel();
  serve(port1);
  const host = createWorkerHost({ worker: port2, wasmURL });
  try {
    const w = await host.createReducer({});
    await w.restore(new TextEncoder().encode(text));
    const a = factory.createReducer({});
    a.restore(text);
    assert.deepEqual(w.state, a.state);
  } finally {
    host.terminate();
    port1.close();
  }
});
