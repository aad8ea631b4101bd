// make bench, the drop-in's takeover: how long after the import the
// package's default reducer factory takes over when an app's runs follow
// each other with no pause from the import (docs/ag-ui-agent.md, "Cold
// start"). Node: fresh processes, each an app importing
// `@agui-reducer/web/ag-ui` and running 60 runs of 400 text tokens back to
// back against a loopback SSE server (web/test/ag-ui/takeover-app.mjs, the
// takeover test's app); Chromium: fresh browser contexts (empty caches), a
// page importing the drop-in's production bundle and doing the same, the
// wasm served with its brotli copy. Per process or page: the start of the
// first run the reducer folds (ms after the import began; the factory
// became ready between the previous run's start and it), and what the run
// in progress then cost beyond a cold run (the module's start, paid there
// once). Both agents must end equal (subscribers, results, messages,
// state). Bar: the reducer folds the runs that start 1 s after the import.
// Writes bench/results-takeover.json.
//
//   node bench/agent-takeover.mjs [--quick] [--node-only] [--reps N] [--out FILE]

import http from 'node:http';
import { execFile } from 'node:child_process';
import { mkdtempSync, mkdirSync, symlinkSync, rmSync, readdirSync, readFileSync, existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { median, spread } from './agent-core.mjs';
import { executablePath, launchBenchBrowser } from './chromium.mjs';

const benchDir = dirname(fileURLToPath(import.meta.url));
const root = dirname(benchDir);
const web = join(root, 'web');
const args = process.argv.slice(2);
const quick = args.includes('--quick');
const repsIdx = args.indexOf('--reps');
const REPS = repsIdx >= 0 ? Number(args[repsIdx + 1]) : quick ? 1 : 7;
const outIdx = args.indexOf('--out');
const out = outIdx >= 0 ? args[outIdx + 1] : join(benchDir, 'results-takeover.json');
const RUNS = 60;
const TOKENS = 400;
const BOUND_MS = 1000;
const appScript = readFileSync(join(web, 'test/ag-ui/takeover-app.mjs'), 'utf8');

/** One process's or page's runs → its row: the takeover, the stall, equality. */
function row({ startMs, folded, equal }) {
  const k = folded.indexOf(true);
  const dur = startMs.slice(1).map((t, i) => t - startMs[i]);
  const cold = dur.slice(0, Math.max(0, k - 1));
  const warm = dur.slice(k, k + 20);
  return {
    takeoverMs: k < 0 ? null : startMs[k],
    readyAfterMs: k <= 0 ? null : startMs[k - 1],
    firstRunMs: startMs[0],
    foldedFrom: k,
    coldRunMs: cold.length ? median(cold) : null,
    // The run in progress as the factory became ready: it paid for the runtime's start.
    switchRunMs: k > 0 ? dur[k - 1] : null,
    reducerRunMs: warm.length ? median(warm) : null,
    equal: equal === true,
    ...(equal === true ? {} : { difference: String(equal).slice(0, 500) }),
  };
}

function summary(rows) {
  const pick = (f) => rows.map(f).filter((v) => v !== null);
  const m = (f) => { const v = pick(f); return v.length ? { median: median(v), spread: spread(v) } : null; };
  return {
    reps: rows.length,
    takeoverMs: m((r) => r.takeoverMs),
    firstRunMs: m((r) => r.firstRunMs),
    coldRunMs: m((r) => r.coldRunMs),
    switchRunMs: m((r) => r.switchRunMs),
    reducerRunMs: m((r) => r.reducerRunMs),
    allTookOver: rows.every((r) => r.foldedFrom > 0),
    equal: rows.every((r) => r.equal),
    rows,
  };
}

// Node: an app's directory (the package and bench's @ag-ui/client 1.0.0, linked as npm lays them out).
function nodeApp() {
  const dir = mkdtempSync(join(tmpdir(), 'agui-takeover-bench-'));
  const nm = join(dir, 'node_modules');
  mkdirSync(join(nm, '@agui-reducer'), { recursive: true });
  symlinkSync(web, join(nm, '@agui-reducer/web'));
  for (const name of readdirSync(join(benchDir, 'node_modules'))) {
    if (!name.startsWith('.')) symlinkSync(join(benchDir, 'node_modules', name), join(nm, name));
  }
  writeFileSync(join(dir, 'app.mjs'), appScript);
  return dir;
}

async function inNode() {
  const dir = nodeApp();
  const rows = [];
  try {
    for (let i = 0; i < REPS; i++) {
      const text = await new Promise((resolve, reject) => execFile(process.execPath, ['--preserve-symlinks', 'app.mjs'], {
        cwd: dir, env: { ...process.env, NODE_PATH: '', TAKEOVER_RUNS: String(RUNS), TAKEOVER_TOKENS: String(TOKENS) }, timeout: 300_000, maxBuffer: 1 << 24,
      }, (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout))));
      rows.push(row(JSON.parse(text)[0]));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return summary(rows);
}

// Chromium: the drop-in's production bundle (esbuild, @ag-ui/client 1.0.0 inside), a loopback server.
const page = `<!doctype html><meta charset="utf-8">
<script type="module">
  const t0 = performance.now();
  const { HttpAgent, Official, factoryNow } = await import('/app.js');
  const HOOKS = ['onRunStartedEvent', 'onTextMessageStartEvent', 'onTextMessageEndEvent', 'onToolCallEndEvent',
    'onToolCallResultEvent', 'onStateSnapshotEvent', 'onRunFinishedEvent', 'onNewMessage', 'onNewToolCall', 'onRunFinalized'];
  async function runs(Agent, tag, t) {
    const log = [];
    let changes = 0;
    const sub = { onMessagesChanged: () => { changes++; } };
    for (const h of HOOKS) sub[h] = (p) => { const { agent, ...rest } = p; log.push([h, JSON.parse(JSON.stringify(rest))]); };
    const agent = new Agent({ url: '/agent/a/0', threadId: 'thread-a' });
    agent.subscribe(sub);
    const startMs = [], folded = [], results = [];
    for (let i = 0; i < ${RUNS}; i++) {
      agent.url = '/agent/a/' + i;
      startMs.push(performance.now() - t);
      const r = await agent.runAgent({ runId: 'a-run-' + i });
      folded.push(agent.reducerState !== undefined);
      results.push({ result: r.result ?? null, newMessages: r.newMessages.map((m) => m.id) });
    }
    await new Promise((r) => setTimeout(r, 0));
    // Keys sorted: the two agents build equal objects with keys in different orders.
    const canon = (v) => JSON.stringify(v, (_, x) => (x !== null && typeof x === 'object' && !Array.isArray(x)
      ? Object.fromEntries(Object.keys(x).sort().map((k) => [k, x[k]])) : x));
    return { startMs, folded, seen: canon({ results, log, changes, messages: agent.messages, state: agent.state }) };
  }
  const ours = await runs(HttpAgent, 'a', t0);
  const official = await runs(Official, 'a', performance.now());
  // The UUIDs the client mints (the compatibility boundary) numbered in order of appearance.
  const norm = (text) => { const ids = new Map(); return text.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, (u) => { if (!ids.has(u)) ids.set(u, ids.size); return 'uuid-' + ids.get(u); }); };
  window.result = { startMs: ours.startMs, folded: ours.folded, equal: norm(ours.seen) === norm(official.seen) || 'the agents differ' };
</script>`;

function events(tag, i) {
  const run = `${tag}-run-${i}`;
  const out = [{ type: 'RUN_STARTED', threadId: `thread-${tag}`, runId: run }];
  if (i % 5 === 4) {
    const id = `${tag}-tc-${i}`;
    out.push({ type: 'TOOL_CALL_START', toolCallId: id, toolCallName: 'lookup', parentMessageId: `${tag}-a-${i}` },
      { type: 'TOOL_CALL_ARGS', toolCallId: id, delta: '{"q":' }, { type: 'TOOL_CALL_ARGS', toolCallId: id, delta: `"item ${i}"}` },
      { type: 'TOOL_CALL_END', toolCallId: id }, { type: 'TOOL_CALL_RESULT', messageId: `${tag}-r-${i}`, toolCallId: id, content: `result ${i}` });
  }
  const m = `${tag}-m-${i}`;
  out.push({ type: 'TEXT_MESSAGE_START', messageId: m, role: 'assistant' });
  for (let k = 0; k < TOKENS; k++) out.push({ type: 'TEXT_MESSAGE_CONTENT', messageId: m, delta: `w${k % 97} ` });
  out.push({ type: 'TEXT_MESSAGE_END', messageId: m }, { type: 'STATE_SNAPSHOT', snapshot: { runs: i + 1 } },
    { type: 'RUN_FINISHED', threadId: `thread-${tag}`, runId: run });
  return out;
}

async function inChromium() {
  const { build } = await import(pathToFileURL(join(web, 'node_modules/esbuild/lib/main.js')).href);
  const r = await build({
    stdin: {
      contents: `export { HttpAgent } from ${JSON.stringify(join(web, 'src/ag-ui/drop-in.js'))};\n`
        + `export { factoryNow } from ${JSON.stringify(join(web, 'src/ag-ui/factory.js'))};\n`
        + "export { HttpAgent as Official } from '@ag-ui/client';",
      resolveDir: benchDir, loader: 'js',
    },
    bundle: true, format: 'esm', minify: true, write: false, platform: 'browser', target: 'es2022',
    define: { 'process.env.NODE_ENV': '"production"' }, nodePaths: [join(benchDir, 'node_modules')], logLevel: 'error',
  });
  const bundle = r.outputFiles[0].text;
  const wasmBr = readFileSync(join(web, 'dist/agui.wasm.br'));
  const server = http.createServer((req, res) => {
    const path = new URL(req.url, 'http://127.0.0.1').pathname;
    if (req.method === 'POST' && path.startsWith('/agent/')) {
      req.resume();
      req.on('end', () => {
        const [, , tag, i] = path.split('/');
        res.writeHead(200, { 'Content-Type': 'text/event-stream' });
        for (const e of events(tag, Number(i))) res.write(`data: ${JSON.stringify(e)}\n\n`);
        res.end();
      });
    } else if (path === '/') res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(page);
    else if (path === '/app.js') res.writeHead(200, { 'Content-Type': 'text/javascript' }).end(bundle);
    else if (path === '/dist/agui.wasm') res.writeHead(200, { 'Content-Type': 'application/wasm', 'Content-Encoding': 'br' }).end(wasmBr);
    else res.writeHead(path === '/favicon.ico' ? 204 : 404).end();
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const browser = await launchBenchBrowser();
  const rows = [];
  try {
    for (let i = 0; i < REPS; i++) {
      const context = await browser.newContext();
      const p = await context.newPage();
      const problems = [];
      p.on('pageerror', (e) => problems.push(e.message));
      p.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
      await p.goto(`http://127.0.0.1:${server.address().port}/`);
      await p.waitForFunction(() => window.result !== undefined, null, { timeout: 300_000 });
      if (problems.length) throw new Error(`takeover page: ${problems.join('; ')}`);
      rows.push(row(await p.evaluate(() => window.result)));
      await context.close();
    }
  } finally {
    await browser.close();
    server.close();
  }
  return summary(rows);
}

function report(name, s) {
  const f = (x) => (x === null ? '—' : `${x.median.toFixed(0)} [${x.spread.map((v) => v.toFixed(0)).join('–')}]`);
  const met = s.allTookOver && s.equal && s.takeoverMs !== null && s.rows.every((r) => r.takeoverMs <= BOUND_MS);
  console.log(`${name} (${s.reps} fresh ${name === 'Node' ? 'processes' : 'contexts'}, ${RUNS} runs × ${TOKENS} tokens back to back from the import):`);
  console.log(`  reducer folds from the run starting at ${f(s.takeoverMs)} ms after the import (first run at ${f(s.firstRunMs)} ms)`);
  console.log(`  run ms: cold ${f(s.coldRunMs)}, the run the runtime started in ${f(s.switchRunMs)}, on the reducer ${f(s.reducerRunMs)}`);
  console.log(`  agents end equal: ${s.equal ? 'yes' : 'NO'}; bar (every run from ${BOUND_MS} ms after the import on the reducer): ${met ? 'MET' : 'MISSED'}`);
  return { name: `takeover under back-to-back runs ≤ ${BOUND_MS} ms (${name})`, met, value: s.takeoverMs?.spread[1] ?? null };
}

const results = { node: await inNode() };
const bars = [report('Node', results.node)];
if (!args.includes('--node-only') && existsSync(executablePath)) {
  results.chromium = await inChromium();
  bars.push(report('Chromium', results.chromium));
}
results.bars = bars;
writeFileSync(out, JSON.stringify(results, null, 2) + '\n');
console.log(`wrote ${out.startsWith(benchDir) ? 'bench/' + out.slice(benchDir.length + 1) : out}`);
