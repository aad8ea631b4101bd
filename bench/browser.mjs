// make bench, Chromium part: the same benchmark (core.mjs) in a page of
// headless Chromium (Debian's /usr/bin/chromium driven by playwright-core),
// served from 127.0.0.1 by a tiny server. The official client runs
// unbundled through an import map (importmap.mjs); the page is
// cross-origin isolated so performance.now() has 5 µs resolution, not
// 100 µs. Prints the table and writes bench/results-chromium.json.
//
//   node bench/browser.mjs [--quick] [--out FILE]
//   node bench/browser.mjs --reliability   (bench/reliability.mjs only; prints, writes nothing)

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { buildImportMap } from './importmap.mjs';
import { startServer } from './serve.mjs';
import { table, reliabilityLines } from './report.mjs';
import { executablePath, launchBenchChromium, openBenchPage } from './chromium.mjs';

const benchDir = dirname(fileURLToPath(import.meta.url));
const root = dirname(benchDir);

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const reliabilityOnly = args.includes('--reliability');
const outIdx = args.indexOf('--out');
const out = outIdx >= 0 ? args[outIdx + 1] : join(benchDir, 'results-chromium.json');

function page(importMap) {
  return `<!doctype html>
<meta charset="utf-8">
<title>agui bench</title>
<script type="importmap">${JSON.stringify(importMap)}</script>
<script type="module">
  import { runBench } from '/bench/core.mjs';
  import { runReliability, quickReliability } from '/bench/reliability.mjs';
  window.runBench = (opts) => runBench({
    ...opts,
    wasmURL: new URL('/web/dist/agui.wasm', location.href),
    now: () => performance.now(),
    log: (s) => console.log('[chromium] ' + s),
  });
  window.runReliability = (quick) => runReliability({
    ...(quick ? quickReliability : {}),
    wasmURL: new URL('/web/dist/agui.wasm', location.href),
    now: () => performance.now(),
    log: (s) => console.log('[chromium] ' + s),
  });
  window.benchReady = true;
</script>
`;
}

if (!existsSync(executablePath)) {
  console.error(`${executablePath} is missing: apt-get install chromium (or set CHROMIUM)`);
  process.exit(1);
}

const importMap = buildImportMap(['@ag-ui/client', 'rxjs'], join(benchDir, 'node_modules'), '/bench/node_modules');
const server = await startServer(root, { '/bench/page.html': page(importMap) });
const profile = await mkdtemp(join(tmpdir(), 'agui-bench-chromium-'));
let context;
const t0 = Date.now();
try {
  context = await launchBenchChromium(profile);
  const p = context.pages()[0] ?? await context.newPage();
  const problems = await openBenchPage(p, server.url, '/bench/page.html');
  const isolated = await p.evaluate(() => globalThis.crossOriginIsolated === true);
  if (reliabilityOnly) {
    const rel = await p.evaluate((q) => window.runReliability(q), quick);
    console.log(JSON.stringify(rel.restore));
    console.log(reliabilityLines(rel).map((l) => `- ${l}`).join('\n'));
    process.exitCode = problems.length ? 1 : 0;
    if (problems.length) console.log(`page problems: ${problems.join('; ')}`);
  } else {
    const res = await p.evaluate((o) => window.runBench(o), quick
      ? { lengths: [5, 25], reps: 2, memoryConversations: 3, memoryTurns: 10, parseBlocks: 10 }
      : {});
    res.reliability = await p.evaluate((q) => window.runReliability(q), quick);
    res.runtime = { name: 'chromium', version: context.browser()?.version() ?? (await p.evaluate(() => navigator.userAgent)), crossOriginIsolated: isolated };
    res.elapsedS = (Date.now() - t0) / 1000;
    if (problems.length) res.problems = problems;
    await writeFile(out, JSON.stringify(res, null, 2) + '\n');
    const ua = await p.evaluate(() => navigator.userAgent.match(/Chrome\/[\d.]+/)?.[0] ?? navigator.userAgent);
    console.log(table(res, `Chromium (${ua}, headless${isolated ? ', cross-origin isolated' : ''}), ${res.meta.reps} interleaved reps, medians`));
    console.log(`\nReliability (bench/reliability.mjs):\n${reliabilityLines(res.reliability).map((l) => `- ${l}`).join('\n')}`);
    if (problems.length) console.log(`\npage problems: ${problems.join('; ')}`);
    console.log(`\nwrote ${out.startsWith(benchDir) ? 'bench/' + out.slice(benchDir.length + 1) : out} (${res.elapsedS.toFixed(0)} s)`);
  }
} finally {
  await context?.close();
  await server.close();
  await rm(profile, { recursive: true, force: true });
}
