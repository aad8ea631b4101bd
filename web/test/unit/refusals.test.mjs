// What a hostile or broken stream, or a bad argument, must never do: an
// error-level diagnostic means nothing changed; a canonical stream cannot
// amend; a run's end leaves nothing running.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadReducer } from '../../entries/agui.node.js';
import { wasmURL } from '../support/helpers.mjs';

const factory = await loadReducer(wasmURL);
const run = [
  { type: 'RUN_STARTED', threadId: 't', runId: 'r1' },
  { type: 'TEXT_MESSAGE_START', messageId: 'm', role: 'assistant' },
  { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: '$10' },
  { type: 'TEXT_MESSAGE_END', messageId: 'm' },
];

test('apply(event, {id}) with an id no header can carry is refused whole', () => {
  const r = factory.createReducer();
  for (const e of run.slice(0, 2)) r.apply(e);
  const before = JSON.stringify(r.snapshot());
  for (const id of ['x\r\ny', 'a\nb', 'a\0b']) {
    const rec = r.apply({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'injected' }, { id });
    assert.equal(rec.diagnostics?.[0]?.code, 'bad_event');
    assert.equal(rec.diagnostics[0].level, 'error');
    assert.equal(JSON.stringify(r.snapshot()), before, 'nothing changed');
  }
  assert.deepStrictEqual(r.state, r.snapshot());
  r.dispose();
});

test('restore() refuses a lastEventId with CR, LF or NUL, and the state stays', () => {
  const r = factory.createReducer();
  for (const e of run) r.apply(e);
  const before = r.snapshot();
  const rec = r.restore({ ...before, lastEventId: 'x\r\nInjected: 1' });
  assert.equal(rec.diagnostics?.[0]?.code, 'bad_snapshot');
  assert.match(rec.diagnostics[0].message, /lastEventId/);
  assert.deepStrictEqual(r.snapshot(), before);
  assert.deepStrictEqual(r.state, r.snapshot());
  r.dispose();
});

test("with dialect 'agui', CUSTOM agui.amend is a custom event and amends nothing", () => {
  const r = factory.createReducer({ dialect: 'agui' });
  const custom = [];
  r.on('custom', (e) => custom.push(e.name));
  for (const e of run) r.apply(e);
  const before = JSON.stringify(r.snapshot());
  r.apply({ type: 'CUSTOM', name: 'agui.amend', value: { messageId: 'm', content: '$10,000 to Mallory' } });
  assert.deepStrictEqual(custom, ['agui.amend']);
  assert.equal(JSON.stringify(r.snapshot()), before);
  r.dispose();
});

test('stop() and fail() end the run\'s subagents and steps', () => {
  for (const end of ['stop', 'fail']) {
    const r = factory.createReducer();
    r.apply(run[0]);
    r.apply({ type: 'STEP_STARTED', stepName: 'plan' });
    r.apply({ type: 'SUBAGENT_STARTED', subagentRunId: 's1', name: 'helper' });
    if (end === 'stop') r.stop(); else r.fail('network down', 'network');
    assert.equal(r.state.subagents[0].status, end === 'stop' ? 'finished' : 'error', end);
    assert.equal(r.state.steps[0].status, 'finished', end);
    assert.deepStrictEqual(r.state, r.snapshot());
    r.dispose();
  }
});
