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
import { nodeMemory } from './node-memory.mjs';
import { allocSampler } from './alloc-account.mjs';

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

const warm = largeArgs({ bytes: 4_000, seed: 12 });
for (let i = 0; i < 3; i++) for (const s of ['official', 'ours']) await converseProbe(make[s], warm, { subscribers: 2, extra: [previewSubscriber], now });
const sampler = await allocSampler();
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
  let folded = null;
  const a = await sampler.account(async () => { folded = (await converseProbe(make[side], conv, opts)).reducerFolded; }, events);
  const parts = [['the agent', a.agentKB], ['the chat subscribers', a.subscribersKB], ['the preview reader', a.readerKB], ["the benchmark's network", a.networkKB]]
    .filter(([, v]) => v > 0).map(([k, v]) => `${k} ${v.toFixed(1)}`).join(', ');
  const places = Object.entries(a.agentPlacesKB).map(([p, v]) => `${p} ${v.toFixed(2)}`).join(', ');
  kb.sort((x, y) => x - y);
  console.log(`3 × ${row.bytes / 1000} KB, ${row.subscribers} subscriber(s)${row.reader ? ' + preview reader' : ''}: ${kb[1].toFixed(1)} (median of 3); sampled ${a.sampledKB.toFixed(1)}: ${parts}${folded === false ? ' (the sampled run was not folded by the reducer)' : ''}`);
  console.log(`  the agent's share by place: ${places}`);
}
sampler.close();
process.exit(0);
