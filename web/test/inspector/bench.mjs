// The inspector with 100,000 events, in headless Chromium (make
// bench-inspector): how long folding them takes, how long a jump to an
// event takes (checkpoint restore + replay + the state built + the panes
// rendered), and the longest main-thread task while the timeline scrolls
// through them. Prints the figures and writes test-output/bench-inspector.json;
// no figure fails anything.
//
//   node web/test/inspector/bench.mjs [events=100000] [checkpointEvery=1000]
import { mkdtemp, rm, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchChromium } from '../support/chromium.mjs';
import { startServer, repoDir } from './serve.mjs';

const EVENTS = Number(process.argv[2] ?? 100_000);
const EVERY = Number(process.argv[3] ?? 1000);

const server = await startServer();
const profile = await mkdtemp(join(tmpdir(), 'agui-inspector-bench-'));
const context = await launchChromium(profile, { viewport: { width: 1280, height: 800 } });
try {
  const page = context.pages()[0] ?? await context.newPage();
  await page.goto(`${server.url}/web/test/inspector/page.html`);
  await page.waitForFunction(() => window.ready === true, null, { timeout: 30_000 });
  const res = await page.evaluate(async ({ EVENTS, EVERY }) => {
    const { inspector } = window.t;
    await inspector.ready({ reducerOptions: { deterministicIds: true } });
    const s = inspector.session;
    s.checkpointEvery = EVERY;
    s.clear();
    // A long conversation: turns of a user message, a streamed answer, a tool call, a state delta.
    const t0 = performance.now();
    let n = 0, turn = 0, t = 0;
    const add = (o) => { s.addEvent(JSON.stringify(o), { t: (t += 2) }); n++; };
    while (n < EVENTS) {
      const run = `run-${turn}`, m = `m-${turn}`, tc = `tc-${turn}`;
      add({ type: 'RUN_STARTED', threadId: 'thread', runId: run });
      add({ type: 'TEXT_MESSAGE_START', messageId: m, role: 'assistant' });
      for (let k = 0; k < 40 && n < EVENTS; k++) add({ type: 'TEXT_MESSAGE_CONTENT', messageId: m, delta: `token ${k} ` });
      add({ type: 'TEXT_MESSAGE_END', messageId: m });
      add({ type: 'TOOL_CALL_START', toolCallId: tc, toolCallName: 'search', parentMessageId: m });
      for (let k = 0; k < 8; k++) add({ type: 'TOOL_CALL_ARGS', toolCallId: tc, delta: k === 0 ? '{"q":"' : k === 7 ? '"}' : 'abc' });
      add({ type: 'TOOL_CALL_END', toolCallId: tc });
      add({ type: 'TOOL_CALL_RESULT', toolCallId: tc, messageId: `r-${turn}`, content: 'result '.repeat(10) });
      add({ type: 'STATE_DELTA', delta: [{ op: 'add', path: `/t${turn % 50}`, value: turn }] });
      add({ type: 'RUN_FINISHED', threadId: 'thread', runId: run });
      turn++;
    }
    const foldMs = performance.now() - t0;
    inspector.flush();
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const total = s.entries.length;
    // Jumps: random events, each from wherever the previous jump left the time-travel reducer.
    let seed = 42;
    const rand = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
    const stateMs = [], selectMs = [];
    inspector.tab = 'conversation';
    for (let k = 0; k < 200; k++) {
      const i = Math.floor(rand() * total);
      let a = performance.now();
      s.stateAt(i);
      stateMs.push(performance.now() - a);
      const j = Math.floor(rand() * total);
      a = performance.now();
      inspector.select(j);
      selectMs.push(performance.now() - a);
    }
    // Scrolling: the timeline scrolled through every event in steps, a frame each, long tasks observed
    // (from a fresh task: the jumps above ran in one).
    await new Promise((r) => setTimeout(r, 200));
    const longTasks = [];
    const po = new PerformanceObserver((list) => { for (const e of list.getEntries()) longTasks.push(e.duration); });
    po.observe({ type: 'longtask', buffered: false });
    const sc = inspector.shadowRoot.querySelector('.scroll');
    const frames = [];
    let last = performance.now();
    const steps = 400;
    for (let k = 0; k <= steps; k++) {
      sc.scrollTop = (sc.scrollHeight - sc.clientHeight) * (k / steps);
      await new Promise((r) => requestAnimationFrame(r));
      const now = performance.now();
      frames.push(now - last);
      last = now;
    }
    // And a flick: many small scrolls within one frame.
    for (let k = 0; k < 60; k++) {
      sc.scrollTop += 2200;
      await new Promise((r) => requestAnimationFrame(r));
    }
    await new Promise((r) => setTimeout(r, 100));
    po.disconnect();
    const q = (xs, p) => { const v = [...xs].sort((a, b) => a - b); return v[Math.min(v.length - 1, Math.floor(p * v.length))]; };
    const r2 = (x) => Math.round(x * 100) / 100;
    return {
      events: total, checkpointEvery: EVERY, checkpoints: s.checkpoints.length,
      foldMs: Math.round(foldMs), foldPerEventUs: r2((foldMs / total) * 1000),
      stateAtMs: { median: r2(q(stateMs, 0.5)), p95: r2(q(stateMs, 0.95)), max: r2(Math.max(...stateMs)) },
      selectMs: { median: r2(q(selectMs, 0.5)), p95: r2(q(selectMs, 0.95)), max: r2(Math.max(...selectMs)) },
      scroll: { frames: frames.length, frameMsP95: r2(q(frames, 0.95)), frameMsMax: r2(Math.max(...frames)), longTasks: longTasks.length, longestTaskMs: longTasks.length ? r2(Math.max(...longTasks)) : 0 },
      rowsInDom: inspector.shadowRoot.querySelectorAll('.row').length,
      heapMB: performance.memory ? Math.round(performance.memory.usedJSHeapSize / 1e6) : null,
    };
  }, { EVENTS, EVERY });
  res.userAgent = await page.evaluate(() => navigator.userAgent);
  console.log(JSON.stringify(res, null, 2));
  await mkdir(join(repoDir, 'test-output'), { recursive: true });
  await writeFile(join(repoDir, 'test-output/bench-inspector.json'), JSON.stringify(res, null, 2) + '\n');
} finally {
  await context.close();
  await server.close();
  await rm(profile, { recursive: true, force: true });
}
