// make bench, the drop-in agent: @ag-ui/client 1.0.0's HttpAgent against the
// reducer's HttpAgent (web/ag-ui-reducer.js), both fed the same SSE bytes
// through their `fetch` option (agent-core.mjs), first in this Node process,
// then in a page of headless Chromium (served from 127.0.0.1 like
// browser.mjs's, the official client through the same import map), which
// also records the main thread's long tasks. Each runtime runs twice: in
// production mode, then in development mode (NODE_ENV=development: a child
// Node process, and a page that defines process.env before the modules
// load), where the official client clones and freezes per subscriber round
// and the drop-in freezes. Prints the tables and writes
// bench/results-agent.json; the bars are judged on the production rows.
//
//   node bench/agent.mjs [--quick] [--node-only] [--no-dev] [--out FILE]

import { mkdtemp, rm, writeFile, readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { tmpdir } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { spawn } from 'node:child_process';
import { buildImportMap } from './importmap.mjs';
import { startServer } from './serve.mjs';
import { agentTable } from './report.mjs';
import { withDev } from './agent-core.mjs';
import { executablePath, launchBenchChromium, openBenchPage } from './chromium.mjs';

const benchDir = dirname(fileURLToPath(import.meta.url));
const root = dirname(benchDir);
const args = process.argv.slice(2);
const quick = args.includes('--quick');
const outIdx = args.indexOf('--out');
const out = outIdx >= 0 ? args[outIdx + 1] : join(benchDir, 'results-agent.json');
const options = quick ? { lengths: [1, 5], subscribers: [1, 10], reps: 1 } : {};
// Development mode: the rows the bars read, and one subscriber at 1 turn.
const devOptions = quick ? options : { lengths: [1, 25, 100], subscribers: [1, 10] };
const devChild = args.includes('--dev-child'); // this process is the Node development run
const withDevRuns = !args.includes('--no-dev') && !devChild;

// Both clients warn about odd streams; these are well formed, and the
// compatibility boundary's notices are not what is measured.
process.env.SUPPRESS_TRANSFORMATION_WARNINGS = 'true';

if (typeof globalThis.gc !== 'function') {
  setFlagsFromString('--expose-gc');
  globalThis.gc = runInNewContext('gc');
}

async function inNode() {
  // Module load, reported apart from the runs: the official client, then
  // what the drop-in adds (its modules, and the wasm read, compiled and
  // started).
  const t0 = performance.now();
  const client = await import('@ag-ui/client');
  const rx = await import('rxjs');
  const t1 = performance.now();
  const { withReducer } = await import('../web/ag-ui-reducer.js');
  const { loadReducer } = await import('../web/agui.node.js');
  const factory = await loadReducer(pathToFileURL(join(root, 'web/dist/agui.wasm')));
  const t2 = performance.now();
  const { runAgentBench, sides } = await import('./agent-core.mjs');
  const res = await runAgentBench({
    ...(devChild ? devOptions : options),
    make: sides({ HttpAgent: client.HttpAgent, withReducer, ignoreElements: rx.ignoreElements, endWith: rx.endWith, factory }),
    now: () => performance.now(),
    log: (s) => console.error(`  [node${devChild ? ', development' : ''}] ${s}`),
  });
  res.load = { officialMs: t1 - t0, oursMs: t2 - t1 };
  res.runtime = { name: 'node', version: process.version };
  res.mode = process.env.NODE_ENV === 'development' ? 'development' : 'production';
  return res;
}

/** The Node development run: this script again, in a child with NODE_ENV=development. */
async function inNodeDev() {
  const dir = await mkdtemp(join(tmpdir(), 'agui-agent-dev-'));
  const file = join(dir, 'dev.json');
  try {
    const code = await new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--dev-child', '--out', file, ...(quick ? ['--quick'] : [])], {
        env: { ...process.env, NODE_ENV: 'development' },
        stdio: ['ignore', 'inherit', 'inherit'],
      });
      child.on('error', reject);
      child.on('exit', resolve);
    });
    if (code !== 0) throw new Error(`the development-mode run exited with ${code}`);
    return JSON.parse(await readFile(file, 'utf8'));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function page(importMap, opts, dev = false) {
  return `<!doctype html>
<meta charset="utf-8">
<title>agui drop-in agent bench</title>
<script type="importmap">${JSON.stringify(importMap)}</script>
${dev ? `<script>globalThis.process = { env: { NODE_ENV: 'development' } };</script>` : ''}
<script type="module">
  window.runIt = async () => {
    // The main thread's long tasks (over 50 ms), from the observer's buffer.
    let longest = 0;
    const observer = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) longest = Math.max(longest, e.duration);
    });
    observer.observe({ type: 'longtask' });
    const longTasks = {
      reset() { observer.takeRecords(); longest = 0; },
      longest() {
        for (const e of observer.takeRecords()) longest = Math.max(longest, e.duration);
        return longest;
      },
    };
    const t0 = performance.now();
    const client = await import('@ag-ui/client');
    const rx = await import('rxjs');
    const t1 = performance.now();
    const { withReducer } = await import('/web/ag-ui-reducer.js');
    const { loadReducer } = await import('/web/agui.js');
    const factory = await loadReducer(new URL('/web/dist/agui.wasm', location.href));
    const t2 = performance.now();
    const { runAgentBench, sides } = await import('/bench/agent-core.mjs');
    const res = await runAgentBench({
      ...${JSON.stringify(opts)},
      make: sides({ HttpAgent: client.HttpAgent, withReducer, ignoreElements: rx.ignoreElements, endWith: rx.endWith, factory }),
      now: () => performance.now(),
      log: (s) => console.log('[chromium${dev ? ', development' : ''}] ' + s),
      longTasks,
    });
    res.load = { officialMs: t1 - t0, oursMs: t2 - t1 };
    res.mode = ${dev ? "'development'" : "'production'"};
    return res;
  };
  window.benchReady = true;
</script>
`;
}

async function inChromium() {
  const importMap = buildImportMap(['@ag-ui/client', 'rxjs'], join(benchDir, 'node_modules'), '/bench/node_modules');
  const server = await startServer(root, {
    '/bench/agent-page.html': page(importMap, options),
    '/bench/agent-page-dev.html': page(importMap, devOptions, true),
  });
  const profile = await mkdtemp(join(tmpdir(), 'agui-agent-bench-'));
  let context;
  try {
    context = await launchBenchChromium(profile);
    // One page per mode: each loads its modules afresh (the drop-in reads
    // NODE_ENV when its modules load).
    const run = async (path) => {
      const p = await context.newPage();
      const problems = await openBenchPage(p, server.url, path);
      const res = await p.evaluate(() => window.runIt());
      res.runtime = { name: 'chromium', version: await p.evaluate(() => navigator.userAgent.match(/Chrome\/[\d.]+/)?.[0] ?? navigator.userAgent) };
      if (problems.length) res.problems = problems;
      await p.close();
      return res;
    };
    const res = await run('/bench/agent-page.html');
    if (withDevRuns) res.dev = await run('/bench/agent-page-dev.html');
    return res;
  } finally {
    await context?.close();
    await server.close();
    await rm(profile, { recursive: true, force: true });
  }
}

if (devChild) {
  await writeFile(out, JSON.stringify(await inNode()));
  process.exit(0);
}

const t0 = Date.now();
const results = { node: await inNode() };
if (withDevRuns) {
  results.node.dev = await inNodeDev();
  withDev(results.node.bars, results.node.dev.rows);
}
console.log(agentTable(results.node, `Node ${process.version}`));
if (!args.includes('--node-only')) {
  if (!existsSync(executablePath)) {
    console.error(`${executablePath} is missing: apt-get install chromium (or set CHROMIUM)`);
    process.exit(1);
  }
  results.chromium = await inChromium();
  if (results.chromium.dev) withDev(results.chromium.bars, results.chromium.dev.rows);
  console.log('');
  console.log(agentTable(results.chromium, `Chromium ${results.chromium.runtime.version.replace('Chrome/', '')}, headless`));
}
results.elapsedS = (Date.now() - t0) / 1000;
await writeFile(out, JSON.stringify(results, null, 2) + '\n');
console.log(`\nwrote ${out.startsWith(benchDir) ? 'bench/' + out.slice(benchDir.length + 1) : out} (${results.elapsedS.toFixed(0)} s)`);
