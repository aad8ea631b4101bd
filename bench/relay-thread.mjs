// make bench, the relay's thread load in the web package: a 10,000-message
// thread (5,000 turns of the demo's recorded text run, 690,000 events, 59 MB
// of SSE) loaded from a real relay with loadThread, against replaying the
// same thread's events through the web reducer as a client without
// snapshots must (the history fetched as SSE and fed to the reducer as it
// arrives). Each is timed to the first painted state: the reducer's state
// readable, its messages there for a subscriber. Prints the figures and
// writes bench/results-relay.json (medians, ratios from the same run).
//
//   node bench/relay-thread.mjs [--reps N] [--out FILE]
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
import { loadReducer, loadThread, threadHeaders, threadURL } from '../web/entries/agui.node.js';

if (typeof globalThis.gc !== 'function') { // as bench/node.mjs
  setFlagsFromString('--expose-gc');
  globalThis.gc = runInNewContext('gc');
}

const args = process.argv.slice(2);
const opt = (name, dflt) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : dflt; };
const reps = Number(opt('--reps', 3));
const out = opt('--out', fileURLToPath(new URL('./results-relay.json', import.meta.url)));
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Builds the relay's test binary and starts TestServeThreadLoad: {info, stop()}. */
export async function startThreadServer() {
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

/** The median of reps timings of f (awaited), each after a collection. */
async function median(f) {
  const ts = [];
  for (let i = 0; i < reps; i++) {
    globalThis.gc();
    const t = performance.now();
    await f();
    ts.push(performance.now() - t);
  }
  ts.sort((a, b) => a - b);
  return ts[Math.floor(ts.length / 2)];
}

const factory = await loadReducer(new URL('../web/dist/agui.wasm', import.meta.url));
const server = await startThreadServer();
try {
  const { info } = server;
  const hdrs = threadHeaders(info.threadKey);
  const want = info.messages;
  const check = (r, n, what) => {
    const got = r.state.messages.length;
    if (got !== n) throw new Error(`${what}: ${got} messages, want ${n}`);
  };

  // Replaying: the history fetched as SSE, each chunk fed as it arrives.
  const replay = async () => {
    const r = factory.createReducer({});
    const res = await fetch(info.history);
    const reader = res.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      r.feed(value);
    }
    r.endStream();
    check(r, want, 'replay');
    return r;
  };
  // loadThread: GET /threads/t?view=reducer and restore (the default).
  const full = async () => {
    const r = factory.createReducer({});
    await loadThread(r, info.agent, info.threadId, { threadKey: info.threadKey });
    check(r, want, 'loadThread');
    return r;
  };
  // The tail first: ?view=reducer&tail=1 restored, the last messages.
  const tail = async () => {
    const r = factory.createReducer({});
    const res = await fetch(`${threadURL(info.agent, info.threadId)}?view=reducer&tail=1`, { headers: hdrs });
    r.restore(await res.text());
    if (r.state.messages.length === 0) throw new Error('tail: no messages');
    return r;
  };
  // loadThread with tail: the first paint is the tail's; the promise
  // resolves with the whole thread.
  let firstPaint = 0;
  const tailFirst = async () => {
    const r = factory.createReducer({});
    const t = performance.now();
    const first = new Promise((resolve) => {
      const off = r.subscribe(() => { if (r.state.messages.length > 0) { off(); resolve(performance.now() - t); } });
    });
    await loadThread(r, info.agent, info.threadId, { threadKey: info.threadKey, tail: true });
    check(r, want, 'loadThread tail');
    firstPaint += await first;
    return r;
  };

  // The results agree: the restored conversation is the replayed one.
  const a = await replay();
  const b = await full();
  const view = (r) => JSON.stringify(r.state.messages.map((m) => [m.id, m.role, m.content]));
  if (view(a) !== view(b)) throw new Error('loadThread and the replay disagree');
  a.dispose(); b.dispose();

  const tReplay = await median(async () => (await replay()).dispose());
  const tFull = await median(async () => (await full()).dispose());
  const tTail = await median(async () => (await tail()).dispose());
  firstPaint = 0;
  const tTailFirstAll = await median(async () => (await tailFirst()).dispose());
  const tTailFirst = firstPaint / reps; // the mean of the first paints
  const res = {
    date: new Date().toISOString().slice(0, 10),
    runtime: { name: 'node', version: process.version, v8: process.versions.v8 },
    thread: { messages: want, events: info.events, historyBytes: info.historyBytes, snapshotBytes: info.snapshotBytes },
    reps,
    ms: { replayFetched: tReplay, loadThread: tFull, tailRestore: tTail, loadThreadTailFirstPaint: tTailFirst, loadThreadTailAll: tTailFirstAll },
    x: {
      loadThread: tReplay / tFull,
      tailRestore: tReplay / tTail,
      loadThreadTailFirstPaint: tReplay / tTailFirst,
    },
  };
  writeFileSync(out, JSON.stringify(res, null, 2) + '\n');
  const f = (ms) => `${ms.toFixed(1)} ms`;
  console.log(`Node ${process.version}: a ${want.toLocaleString('en')}-message thread (${info.events.toLocaleString('en')} events, ${(info.historyBytes / 1e6).toFixed(1)} MB of SSE; snapshot ${(info.snapshotBytes / 1e6).toFixed(1)} MB), medians of ${reps}`);
  console.log(`  replaying the fetched SSE through the reducer  ${f(tReplay)}`);
  console.log(`  loadThread (GET ?view=reducer + restore)       ${f(tFull)}  ${res.x.loadThread.toFixed(1)}×`);
  console.log(`  first paint, ?view=reducer&tail=1 + restore   ${f(tTail)}  ${res.x.tailRestore.toFixed(1)}×`);
  console.log(`  loadThread {tail: true}: first paint ${f(tTailFirst)} (${res.x.loadThreadTailFirstPaint.toFixed(1)}×), whole thread ${f(tTailFirstAll)}`);
  console.log(`wrote ${path.relative(process.cwd(), out)}`);
} finally {
  await server.stop();
}

