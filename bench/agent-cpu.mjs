// A quick side-by-side of the drop-in agent's benchmark in CPU time (Node):
// the same converse() as agent-core.mjs, the agents alternating, each
// conversation's process CPU time summed per side. Less sensitive to a
// shared machine than the wall clock; for profiling (node --cpu-prof) and
// before/after comparisons, not a bar.
//
//   node bench/agent-cpu.mjs [turns=1] [subscribers=1] [reps=40] [sides=official,ours,floor]

import { pathToFileURL } from 'node:url';
import { HttpAgent } from '@ag-ui/client';
import { ignoreElements, endWith } from 'rxjs';
import { loadReducer } from '../web/entries/agui.node.js';
import { withReducer } from '../web/src/ag-ui/with-reducer.js';
import { sides, converse } from './agent-core.mjs';
import { generate } from './gen.mjs';

process.env.SUPPRESS_TRANSFORMATION_WARNINGS = 'true';
const [turns = 1, subs = 1, reps = 40] = process.argv.slice(2, 5).map(Number);
const names = (process.argv[5] ?? 'official,ours,floor').split(',');
const factory = await loadReducer(process.env.AGUI_WASM ? new URL('file://' + process.env.AGUI_WASM) : new URL('../web/dist/agui.wasm', import.meta.url));
const make = sides({ HttpAgent, withReducer, ignoreElements, endWith, factory });
const conv = generate({ turns, seed: 7 + turns });
const events = conv.turns.reduce((a, t) => a + t.events.length, 0);
const lastEvents = conv.turns.at(-1).events.length;
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
const now = () => performance.now();
const warm = generate({ turns: 5, seed: 1 });
for (let i = 0; i < 3; i++) for (const s of names) await converse(make[s], warm, { subscribers: 1, now, carry: s === 'floor' });
const tot = Object.fromEntries(names.map((s) => [s, { cpu: 0, last: [] }]));
for (let r = 0; r < reps; r++) {
  const order = r % 2 ? [...names].reverse() : names;
  for (const s of order) {
    const c0 = cpu();
    const res = await converse(make[s], conv, { subscribers: subs, now, carry: s === 'floor' });
    tot[s].cpu += cpu() - c0;
    tot[s].last.push(res.turnMs.at(-1));
  }
}
const med = (a) => { const s = [...a].sort((x, y) => x - y); return s[s.length >> 1]; };
for (const s of names) {
  console.log(`${s.padEnd(8)} CPU ${(tot[s].cpu * 1000 / reps / events).toFixed(1)} µs/event (whole conversation); last turn wall median ${(med(tot[s].last) * 1000 / lastEvents).toFixed(1)} µs/event, best ${(Math.min(...tot[s].last) * 1000 / lastEvents).toFixed(1)}`);
}
if (tot.official && tot.ours) console.log(`ratio HttpAgent/ours CPU ${(tot.official.cpu / tot.ours.cpu).toFixed(2)}×, last-turn median ${(med(tot.official.last) / med(tot.ours.last)).toFixed(2)}×`);
