// The drop-in agent against @ag-ui/client 0.0.48 (bench/ag-ui-048, its own
// lockfile): the release ag-ui #1644 reports, whose subscriber rounds clone
// the whole conversation for every subscriber, twice per event, and compare
// it by JSON.stringify (ag-ui #883; upstream moved to one clone per emitted
// mutation in ag-ui PR #1395, which 0.0.52+, 0.0.59 and 1.0.0 carry). The
// pipeline issue #14's bars describe: this run measures them against it,
// beside agent.mjs's run against 1.0.0. Node only.
//
// Sides: HttpAgent 0.0.48; the drop-in (withReducer over 1.0.0's HttpAgent:
// the drop-in supports 1.0 and 0.0.59, and an app moving to it also moves
// off 0.0.48); the floor of 1.0.0. Both agents read the same SSE bytes.
//
//   (cd bench/ag-ui-048 && npm ci) && node bench/agent-legacy.mjs [--quick] [--out FILE]   (writes bench/results-agent-legacy.json)

import { writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { agentTable } from './report.mjs';

const benchDir = dirname(fileURLToPath(import.meta.url));
const root = dirname(benchDir);
const args = process.argv.slice(2);
const quick = args.includes('--quick');
const outIdx = args.indexOf('--out');
const out = outIdx >= 0 ? args[outIdx + 1] : join(benchDir, 'results-agent-legacy.json');
const options = quick ? { lengths: [1, 5, 25], subscribers: [1, 10], reps: 1 } : {};

process.env.SUPPRESS_TRANSFORMATION_WARNINGS = 'true';
if (typeof globalThis.gc !== 'function') {
  setFlagsFromString('--expose-gc');
  globalThis.gc = runInNewContext('gc');
}

const t0 = performance.now();
let legacy;
try {
  // Its CommonJS build: the ES build's `import l from "fast-json-patch"`
  // gets no applyPatch under Node, and every STATE_DELTA fails there.
  legacy = createRequire(join(benchDir, 'ag-ui-048/package.json'))('@ag-ui/client');
} catch {
  console.error('bench/agent-legacy.mjs: @ag-ui/client 0.0.48 is not installed: cd bench/ag-ui-048 && npm ci');
  process.exit(2);
}
const t1 = performance.now();
const client = await import('@ag-ui/client');
const rx = await import('rxjs');
const { withReducer } = await import('../web/src/ag-ui/with-reducer.js');
const { loadReducer } = await import('../web/entries/agui.node.js');
const factory = await loadReducer(pathToFileURL(join(root, 'web/dist/agui.wasm')));
const t2 = performance.now();
const { runAgentBench, sides } = await import('./agent-core.mjs');

const current = sides({ HttpAgent: client.HttpAgent, withReducer, ignoreElements: rx.ignoreElements, endWith: rx.endWith, factory });
// 0.0.48's HttpAgent has no `fetch` option: it calls the global fetch, which
// this process lends it the bench's for its runs (one agent runs at a time).
const realFetch = globalThis.fetch;
class Legacy extends legacy.HttpAgent {
  constructor(config) {
    super(config);
    this.benchFetch = config.fetch;
  }

  run(input) {
    globalThis.fetch = this.benchFetch;
    try { return super.run(input); } finally { globalThis.fetch = realFetch; }
  }
}
const make = { ...current, official: (c) => new Legacy(c) };

const res = await runAgentBench({
  ...options,
  make,
  now: () => performance.now(),
  log: (s) => console.error(`  [node, vs 0.0.48] ${s}`),
});
// Module load: 0.0.48; the drop-in's modules with 1.0.0 under them and the wasm.
res.load = { officialMs: t1 - t0, oursMs: t2 - t1 };
res.runtime = { name: 'node', version: process.version, official: '@ag-ui/client 0.0.48' };
console.log(agentTable(res, `Node ${process.version}, HttpAgent of @ag-ui/client 0.0.48 against the drop-in`));
await writeFile(out, JSON.stringify(res, null, 2) + '\n');
console.error(`wrote ${out}`);
