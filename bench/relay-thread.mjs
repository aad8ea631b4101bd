// make bench, the relay's thread load in the web package: a 10,000-message
// thread (5,000 turns of the demo's recorded text run, 690,000 events, 59 MB
// of SSE) loaded from a real relay with loadThread, against replaying the
// same thread's events through the web reducer as a client without
// snapshots must (the history fetched as SSE and fed to the reducer as it
// arrives). Each is timed to the first painted state: the reducer's state
// readable, its messages there for a subscriber. Prints the figures and
// writes bench/results-relay.json (medians, ratios from the same run).
//
//   node bench/relay-thread.mjs [--reps N] [--node-only] [--out FILE]
//
// Then the same in a page of headless Chromium (relay-thread.html; not
// with --node-only).
//
// The relay and the history are served by relay's TestServeThreadLoad (this
// script builds the relay package's test binary and runs it).
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import * as web from '../web/entries/agui.node.js';
import { measureThreadLoad } from './relay-thread-core.mjs';

if (typeof globalThis.gc !== 'function') { // as bench/node.mjs
  setFlagsFromString('--expose-gc');
  globalThis.gc = runInNewContext('gc');
}

const args = process.argv.slice(2);
const opt = (name, dflt) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : dflt; };
const reps = Number(opt('--reps', 3));
const chromium = !args.includes('--node-only');
const out = opt('--out', fileURLToPath(new URL('./results-relay.json', import.meta.url)));
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Builds the relay's test binary and starts TestServeThreadLoad: {info, stop()}. */
async function startThreadServer() {
  const dir = mkdtempSync(path.join(tmpdir(), 'relay-thread-'));
  const bin = path.join(dir, 'relay.test');
  execFileSync('go', ['test', '-c', '-o', bin, './relay/'], { cwd: repoRoot, stdio: ['ignore', 'inherit', 'inherit'] });
  const proc = spawn(bin, ['-test.run', '^TestServeThreadLoad$', '-test.timeout', '15m'], {
    cwd: path.join(repoRoot, 'relay'), env: { ...process.env, AGUI_RELAY_BENCH_SERVE: '1' }, stdio: ['pipe', 'pipe', 'inherit'],
  });
  const stop = () => new Promise((r) => {
    rmSync(dir, { recursive: true, force: true });
    if (proc.exitCode !== null) return r();
    proc.once('exit', r);
    proc.stdin.end(); // the server's signal to stop
    setTimeout(() => proc.kill('SIGKILL'), 5000).unref();
  });
  const info = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => { proc.kill('SIGKILL'); reject(new Error('the thread server did not start')); }, 120_000);
    let text = '';
    proc.stdout.on('data', (d) => {
      text += d;
      const m = text.match(/bench-serve (\{.*\})\n/);
      if (m) { clearTimeout(timer); resolve(JSON.parse(m[1])); }
    });
    proc.on('exit', (code) => { clearTimeout(timer); reject(new Error(`the thread server exited (${code}): ${text}`)); });
  });
  return { info, stop };
}

const server = await startThreadServer();
try {
  const { info } = server;
  const node = await measureThreadLoad({
    web, info, reps,
    wasmURL: new URL('../web/dist/agui.wasm', import.meta.url),
    gc: () => globalThis.gc(),
    now: () => performance.now(),
  });
  const res = {
    date: new Date().toISOString().slice(0, 10),
    runtime: { name: 'node', version: process.version, v8: process.versions.v8 },
    thread: { messages: info.messages, events: info.events, historyBytes: info.historyBytes, snapshotBytes: info.snapshotBytes },
    reps,
    ...node,
  };
  print(res);
  if (chromium) {
    res.chromium = await inChromium(info);
    print(res.chromium);
  }
  writeFileSync(out, JSON.stringify(res, null, 2) + '\n');
  console.log(`wrote ${path.relative(process.cwd(), out)}`);
} finally {
  await server.stop();
}

function print(r) {
  const f = (ms) => `${ms.toFixed(1)} ms`;
  const t = r.thread ?? {};
  console.log(`${r.runtime.name} ${r.runtime.version}${t.messages ? `: a ${t.messages.toLocaleString('en')}-message thread (${t.events.toLocaleString('en')} events, ${(t.historyBytes / 1e6).toFixed(1)} MB of SSE; snapshot ${(t.snapshotBytes / 1e6).toFixed(1)} MB)` : ''}, medians of ${reps}`);
  console.log(`  replaying the fetched SSE through the reducer  ${f(r.ms.replayFetched)}`);
  console.log(`  loadThread {tail: false} (?view=reducer)       ${f(r.ms.loadThread)}  ${r.x.loadThread.toFixed(1)}×`);
  console.log(`  first paint, ?view=reducer&tail=1 + restore   ${f(r.ms.tailRestore)}  ${r.x.tailRestore.toFixed(1)}×`);
  console.log(`  loadThread (tail first): first paint ${f(r.ms.loadThreadTailFirstPaint)} (${r.x.loadThreadTailFirstPaint.toFixed(1)}×), whole thread ${f(r.ms.loadThreadTailAll)}`);
}

// The same in a page of headless Chromium served by the thread server
// (one origin: the relay, the history, web/ and bench/).
async function inChromium(info) {
  const { launchBenchBrowser, openBenchPage } = await import('./chromium.mjs');
  const browser = await launchBenchBrowser();
  try {
    const page = await browser.newPage();
    const problems = await openBenchPage(page, info.origin, '/bench/relay-thread.html');
    const r = await page.evaluate(([i, n]) => window.runThreadBench(i, n), [info, reps]);
    if (problems.length > 0) throw new Error(`the page: ${problems.join('; ')}`);
    const version = browser.version();
    return { runtime: { name: 'chromium', version }, ...r };
  } finally {
    await browser.close();
  }
}
