// agent-cpu.mjs's side-by-side in Chromium: the main thread's CPU time
// (CDP Performance.getMetrics ThreadTime) per conversation of agent-core.mjs's
// converse(), HttpAgent 1.0.0, the exported drop-in HttpAgent and the floor,
// in blocks of K conversations with the sides alternating; also the wall time
// per conversation (median) and the renderer process's CPU time (all its
// threads: compilers, collector). Less sensitive to a loaded machine than
// agent.mjs's wall clock; for before/after comparisons, not a bar.
//
//   node bench/agent-cpu-chromium.mjs [blocks=10] [K=10] [turns=1]
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { buildImportMap } from './importmap.mjs';
import { startServer } from './serve.mjs';
import { launchBenchChromium, openBenchPage } from './chromium.mjs';
const benchDir = dirname(fileURLToPath(import.meta.url));
const root = join(benchDir, '..');
const blocks = Number(process.argv[2] ?? 10), K = Number(process.argv[3] ?? 10), turns = Number(process.argv[4] ?? 1);
const importMap = buildImportMap(['@ag-ui/client', 'rxjs'], join(benchDir, 'node_modules'), '/bench/node_modules');
const html = `<!doctype html><meta charset="utf-8"><script type="importmap">${JSON.stringify(importMap)}</script>
<script type="module">
window.prep = async () => {
  const client = await import('@ag-ui/client');
  const rx = await import('rxjs');
  const { HttpAgent: DropIn } = await import('/web/src/ag-ui/drop-in.js');
  const { sides, converse } = await import('/bench/agent-core.mjs');
  const { generate } = await import('/bench/gen.mjs');
  const make = sides({ HttpAgent: client.HttpAgent, DropIn, ignoreElements: rx.ignoreElements, endWith: rx.endWith });
  const conv = generate({ turns: ${turns}, seed: 7 + ${turns} });
  const now = () => performance.now();
  window.go = async (side, n) => { const t = []; for (let i = 0; i < n; i++) { const r = await converse(make[side], conv, { subscribers: 1, now, carry: side === 'floor' }); t.push(r.totalMs); } return t; };
  const warm = generate({ turns: 5, seed: 1 });
  for (let i = 0; i < 3; i++) for (const s of ['official','ours','floor']) await converse(make[s], warm, { subscribers: 1, now, carry: s === 'floor' });
};
window.benchReady = true;
</script>`;
const server = await startServer(root, { '/bench/cpu.html': html });
const profile = await mkdtemp(join(tmpdir(), 'bscpu-'));
const ctx = await launchBenchChromium(profile);
const p = await ctx.newPage();
await openBenchPage(p, server.url, '/bench/cpu.html');
await p.evaluate(() => window.prep());
const cdp = await ctx.newCDPSession(p);
await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
const met = async () => Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]));
const proc = { official: [], ours: [], floor: [] };
const sides = ['official', 'ours', 'floor'];
const cpu = { official: [], ours: [], floor: [] }, wall = { official: [], ours: [], floor: [] };
for (let b = 0; b < blocks; b++) {
  for (const s of b % 2 ? [...sides].reverse() : sides) {
    const m0 = await met();
    const w = await p.evaluate(([s, n]) => window.go(s, n), [s, K]);
    const m1 = await met();
    cpu[s].push((m1.ThreadTime - m0.ThreadTime) * 1000 / K); proc[s].push((m1.ProcessTime - m0.ProcessTime) * 1000 / K); wall[s].push(...w);
  }
}
const med = (a) => { const s = [...a].sort((x, y) => x - y); return s[s.length >> 1]; };
for (const s of sides) console.log(s.padEnd(9), 'CPU ms/conv median', med(cpu[s]).toFixed(2), 'min', Math.min(...cpu[s]).toFixed(2), '| wall per-conv median', med(wall[s]).toFixed(2), '| process CPU', med(proc[s]).toFixed(2));
console.log('ratio official/ours CPU', (med(cpu.official) / med(cpu.ours)).toFixed(2), 'wall', (med(wall.official) / med(wall.ours)).toFixed(2));
await ctx.close(); await server.close();
await rm(profile, { recursive: true, force: true });
process.exit(0);
