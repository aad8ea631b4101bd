// Memory through the wasm module: a 100,000-event stream, then 20
// conversations with reset() between, then 20 reducers created and
// disposed. WebAssembly memory never shrinks, so the assertion is that it
// stops growing: once the Go heap has the room a conversation needs, later
// conversations reuse it. The readings are printed (README, "Robustness").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadReducer } from '../../entries/agui.node.js';
import { wasmURL, rng } from '../support/helpers.mjs';

const MiB = 1 << 20;
const mib = (n) => (n / MiB).toFixed(1);

/**
 * A realistic stream of about `count` events: runs of streamed text, tool
 * calls with streamed arguments and results, reasoning, state deltas and
 * custom events. Ids are unique per run (prefix p).
 */
function* conversation(count, p, random) {
  let n = 0;
  let run = 0;
  const words = ['the', 'reducer', 'folds', 'events', 'into', 'state', 'quickly', 'and', 'safely', '—', 'über', '😀'];
  const word = () => ` ${words[Math.floor(random() * words.length)]}`;
  const emit = (e) => { n++; return JSON.stringify(e); };
  yield emit({ type: 'STATE_SNAPSHOT', snapshot: { progress: 0, items: [], notes: {} } });
  while (n < count) {
    const runId = `${p}-run${run++}`;
    yield emit({ type: 'RUN_STARTED', threadId: `${p}-thread`, runId });
    const m = `${runId}-m`;
    yield emit({ type: 'REASONING_MESSAGE_START', messageId: `${m}-r`, role: 'reasoning' });
    for (let i = 0; i < 5; i++) yield emit({ type: 'REASONING_MESSAGE_CONTENT', messageId: `${m}-r`, delta: word() });
    yield emit({ type: 'REASONING_MESSAGE_END', messageId: `${m}-r` });
    yield emit({ type: 'TEXT_MESSAGE_START', messageId: m, role: 'assistant' });
    for (let i = 0; i < 30; i++) yield emit({ type: 'TEXT_MESSAGE_CONTENT', messageId: m, delta: word() });
    yield emit({ type: 'TEXT_MESSAGE_END', messageId: m });
    const c = `${runId}-c`;
    yield emit({ type: 'TOOL_CALL_START', toolCallId: c, toolCallName: 'search', parentMessageId: m });
    const args = JSON.stringify({ query: `q ${run}`, limit: 10, filters: { lang: 'en', tags: ['a', 'b'] } });
    for (let i = 0; i < args.length; i += 6) yield emit({ type: 'TOOL_CALL_ARGS', toolCallId: c, delta: args.slice(i, i + 6) });
    yield emit({ type: 'TOOL_CALL_END', toolCallId: c });
    yield emit({ type: 'TOOL_CALL_RESULT', messageId: `${c}-res`, toolCallId: c, content: `{"hits":${run % 50}}` });
    yield emit({ type: 'STATE_DELTA', delta: [{ op: 'replace', path: '/progress', value: run }, { op: 'add', path: '/items/-', value: { run, ok: true } }] });
    if (run % 4 === 0) yield emit({ type: 'STATE_DELTA', delta: [{ op: 'remove', path: '/items/0' }] });
    yield emit({ type: 'CUSTOM', name: 'progress', value: { pct: run % 100 } });
    yield emit({ type: 'STEP_STARTED', stepName: 'answer' });
    yield emit({ type: 'STEP_FINISHED', stepName: 'answer' });
    yield emit({ type: 'RUN_FINISHED', threadId: `${p}-thread`, runId });
  }
}

test('wasm memory stops growing: 100,000 events, then 20 conversations with reset()', () => {
  return (async () => {
    const factory = await loadReducer(wasmURL);
    assert.equal(typeof factory.memoryBytes(), 'number');
    const start = factory.memoryBytes();
    const r = factory.createReducer({ deterministicIds: true });
    const random = rng(42);
    let events = 0;
    let diagnostics = 0;
    const t0 = performance.now();
    const checkpoints = [];
    for (const e of conversation(100_000, 'big', random)) {
      const rec = r.apply(e);
      if (rec.diagnostics) diagnostics++;
      if (++events % 20_000 === 0) checkpoints.push(`${events / 1000}k: ${mib(factory.memoryBytes())}`);
    }
    const bigMs = performance.now() - t0;
    assert.ok(events >= 100_000);
    assert.equal(diagnostics, 0, 'the generated stream is valid');
    assert.ok(r.state.messages.length > 3000);
    const afterBig = factory.memoryBytes();

    const PER = 10_000;
    const readings = [];
    for (let i = 0; i < 20; i++) {
      r.reset();
      assert.equal(r.state.messages.length, 0);
      for (const e of conversation(PER, `c${i}`, random)) r.apply(e);
      readings.push(factory.memoryBytes());
    }
    assert.deepStrictEqual(r.state, r.snapshot(), 'mirror still equals the reducer');

    // And reducers created and disposed.
    const created = [];
    for (let i = 0; i < 20; i++) {
      const x = factory.createReducer();
      for (const e of conversation(PER, `d${i}`, random)) x.apply(e);
      x.dispose();
      created.push(factory.memoryBytes());
    }

    console.log(`memory: start ${mib(start)} MiB; 100,000-event stream (${events} events, ${(bigMs / 1000).toFixed(1)} s): ${checkpoints.join(', ')} MiB; after it ${mib(afterBig)} MiB`);
    console.log(`memory after each of 20 conversations of ${PER} events with reset() (MiB): ${readings.map(mib).join(' ')}`);
    console.log(`memory after each of 20 reducers created, fed ${PER} events, disposed (MiB): ${created.map(mib).join(' ')}`);
    console.log(`JS heap used: ${mib(process.memoryUsage().heapUsed)} MiB`);

    // Plateau: wasm memory never shrinks, so it must stop growing. The last
    // ten readings stay within one step of the Go heap's growth (1 MiB) of
    // the largest of readings 5–10: when the runtime's GC runs (finalizers
    // included) varies, so one step up can come late, while a leak of what
    // a conversation holds (several MiB each) exceeds it.
    const STEP = 1 * MiB;
    for (const [series, what] of [[readings, 'conversation'], [created, 'reducer']]) {
      const plateau = Math.max(...series.slice(4, 10));
      for (const [i, b] of series.entries()) if (i >= 10) assert.ok(b <= plateau + STEP, `${what} ${i + 1}: ${mib(b)} MiB > ${mib(plateau)} MiB + 1 MiB`);
    }
    // Conversations ten times smaller than the first fit in what it left.
    assert.ok(readings.at(-1) <= afterBig * 1.25, `${mib(readings.at(-1))} MiB after the conversations, ${mib(afterBig)} MiB after the big stream`);
    r.dispose();
  })();
});
