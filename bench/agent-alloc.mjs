// Where the large-arguments rows' JS allocation goes (Node): for each row of
// agent-large.mjs's scenario (3 tool calls × bytes, 1 or 10 chat subscribers,
// with or without the preview reader), the bytes allocated per event as
// agent.mjs measures them (heap growth plus what each collection freed), and
// V8's sampling heap profiler's account of one more run (collected objects
// included), by who allocated: the benchmark's chat subscribers (their
// onMessagesChanged), the preview reader (its reads, and the flat copies of
// the argument text its reads make), the benchmark's fake network, and the
// agent (everything else: its transport, the apply step, the reducer's JS
// side, @ag-ui/client's code it runs). A diagnostic, not a bar.
//
//   node bench/agent-alloc.mjs [--official] [--rows 32:10:1,100:1:0,...]
//   (bytes in KB : subscribers : reader 0/1; default: agent.mjs's six rows)

import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Session } from 'node:inspector/promises';
import { nodeMemory } from './node-memory.mjs';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc');
process.env.SUPPRESS_TRANSFORMATION_WARNINGS = 'true';

const args = process.argv.slice(2);
const side = args.includes('--official') ? 'official' : 'ours';
const rowsAt = args.indexOf('--rows');
const rows = (rowsAt >= 0 ? args[rowsAt + 1] ?? '' : '100:1:0,100:10:0,100:1:1,100:10:1,32:1:1,32:10:1').split(',').map((r) => {
  const parts = r.split(':');
  const [kb, subscribers, reader] = parts.map(Number);
  if (parts.length !== 3 || !(kb >= 1) || !Number.isInteger(subscribers) || subscribers < 1 || (reader !== 0 && reader !== 1)) {
    console.error(`agent-alloc.mjs: --rows takes KB:subscribers:reader triples (KB ≥ 1, subscribers ≥ 1, reader 0 or 1), comma-separated; not ${JSON.stringify(r)}`);
    process.exit(2);
  }
  return { bytes: kb * 1000, subscribers, reader: reader === 1 };
});

const client = await import('@ag-ui/client');
const rx = await import('rxjs');
const DropIn = await (await import('./agent-dropin.mjs')).dropIn();
const { sides, converseProbe } = await import('./agent-core.mjs');
const { largeArgs, previewSubscriber } = await import('./agent-large.mjs');
const make = sides({ HttpAgent: client.HttpAgent, DropIn, ignoreElements: rx.ignoreElements, endWith: rx.endWith });
const now = () => performance.now();

/** Who allocated a sample, from its stack (outermost first). */
function owner(stack) {
  let who = null;
  for (const cf of stack) {
    if (cf.url.endsWith('/bench/agent-large.mjs') && cf.functionName === 'onMessagesChanged') return 'the preview reader';
    if (cf.url.endsWith('/bench/agent-core.mjs') && (cf.functionName === 'onMessagesChanged' || cf.functionName === 'onStateChanged')) who = 'the chat subscribers';
  }
  if (who !== null) return who;
  const top = stack[stack.length - 1];
  return top !== undefined && /\/bench\/[^/]+\.mjs$/.test(top.url) ? "the benchmark's network" : 'the agent';
}

const warm = largeArgs({ bytes: 4_000, seed: 12 });
for (let i = 0; i < 3; i++) for (const s of ['official', 'ours']) await converseProbe(make[s], warm, { subscribers: 2, extra: [previewSubscriber], now });
const session = new Session();
session.connect();
await session.post('HeapProfiler.enable');
console.log(`${side === 'ours' ? 'the drop-in' : 'HttpAgent'}: JS allocation per event, KB`);
for (const row of rows) {
  const conv = largeArgs({ bytes: row.bytes });
  const events = conv.turns[0].events.length;
  const opts = { subscribers: row.subscribers, extra: row.reader ? [previewSubscriber] : [], now };
  const kb = [];
  for (let i = 0; i < 3; i++) {
    gc();
    await converseProbe(make[side], warm, { subscribers: 1, extra: [previewSubscriber], now });
    const r = await converseProbe(make[side], conv, { ...opts, probe: nodeMemory() });
    kb.push(r.allocatedBytes / 1024 / events);
  }
  gc();
  await converseProbe(make[side], warm, { subscribers: 1, extra: [previewSubscriber], now });
  await session.post('HeapProfiler.startSampling', { samplingInterval: 128, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  await converseProbe(make[side], conv, opts);
  const { profile } = await session.post('HeapProfiler.stopSampling');
  const by = new Map();
  const walk = (node, stack) => {
    const st = [...stack, node.callFrame];
    if (node.selfSize > 0) { const k = owner(st); by.set(k, (by.get(k) ?? 0) + node.selfSize); }
    for (const c of node.children) walk(c, st);
  };
  walk(profile.head, []);
  const sampled = [...by.values()].reduce((a, b) => a + b, 0);
  const parts = ['the agent', 'the chat subscribers', 'the preview reader', "the benchmark's network"]
    .filter((k) => by.has(k)).map((k) => `${k} ${(by.get(k) / 1024 / events).toFixed(1)}`).join(', ');
  kb.sort((a, b) => a - b);
  console.log(`3 × ${row.bytes / 1000} KB, ${row.subscribers} subscriber(s)${row.reader ? ' + preview reader' : ''}: ${kb[1].toFixed(1)} (median of 3); sampled ${(sampled / 1024 / events).toFixed(1)}: ${parts}`);
}
session.disconnect();
process.exit(0);
