// The drop-in's cold start in headless Chromium, as an app's production
// bundle has it (esbuild, @ag-ui/client 1.0.0 inside): the default reducer
// factory is asked for when the drop-in is imported, and the first run,
// which starts before it is ready, is folded by @ag-ui/client's apply step;
// the wasm is not requested while that run is in flight, but after it (on a
// page with no run, once the page is idle); once the factory is ready
// (compiled, started, warmed), the next run of the same agent is folded by
// the reducer, restored from the first run's messages. Subscribers and the
// agent end as with @ag-ui/client's HttpAgent. No timing.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { launchChromium } from '../support/chromium.mjs';
import { generate } from '../../../bench/gen.mjs';
import { normalise } from './diff.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const web = join(here, '../..');
const conv = generate({ turns: 2, seed: 17, textDeltas: 30, reasoningDeltas: 4, argDeltas: 6 });

const page = `<!doctype html><meta charset="utf-8">
<script type="module">
  const { HttpAgent, Official } = await import('/web/cold/app/test.js');
  // Records what subscribers see: every hook's name, and the messages and
  // state of every onMessagesChanged / onStateChanged.
  const recorder = (log) => new Proxy({}, {
    get(_, name) {
      if (typeof name !== 'string' || !name.startsWith('on')) return undefined;
      return (p) => { log.push(name === 'onMessagesChanged' || name === 'onStateChanged' ? [name, JSON.parse(JSON.stringify({ m: p.messages, s: p.state }))] : [name]); };
    },
  });
  const wasmRequest = () => performance.getEntriesByType('resource').find((e) => e.name.endsWith('/agui.wasm'));
  let firstRunEnd = null, requestedInRun = null;
  async function runs(Agent, between) {
    const log = [];
    const agent = new Agent({ url: '/agent/0', threadId: 'thread-1' });
    agent.subscribe(recorder(log));
    const reducer = [];
    for (let i = 0; i < 2; i++) {
      await between(i);
      agent.url = '/agent/' + i;
      const r = await agent.runAgent({ runId: 'run-' + i });
      if (i === 0 && Agent === HttpAgent) { firstRunEnd = performance.now(); requestedInRun = wasmRequest()?.startTime ?? null; }
      reducer.push(agent.reducerState !== undefined);
      log.push(['newMessages', r.newMessages.map((m) => m.id)]);
    }
    return { log, messages: agent.messages, state: agent.state, reducer };
  }
  // A probe agent's run on the reducer says the default factory is ready (bounded).
  async function untilReady() {
    for (let i = 0; i < 100; i++) {
      const probe = new HttpAgent({ url: '/agent/0', threadId: 'thread-probe' });
      await probe.runAgent({ runId: 'probe-' + i });
      if (probe.reducerState !== undefined) return true;
      await new Promise((r) => setTimeout(r, 100));
    }
    return false;
  }
  let ready = null;
  const ours = await runs(HttpAgent, async (i) => { if (i === 1) ready = await untilReady(); });
  const official = await runs(Official, async () => {});
  window.result = { ours, official, ready, requestedInRun, requestedAfterRun: (wasmRequest()?.startTime ?? -1) >= firstRunEnd };
</script>`;

// A page that imports the drop-in and starts no run: the wasm is requested
// once the page is idle, and the first run that starts once the factory is
// ready folds with the reducer (bounded waits).
const idlePage = `<!doctype html><meta charset="utf-8">
<script type="module">
  const { HttpAgent } = await import('/web/cold/app/test.js');
  const wasmRequest = () => performance.getEntriesByType('resource').find((e) => e.name.endsWith('/agui.wasm'));
  let requested = false;
  for (let i = 0; i < 100 && !requested; i++) {
    await new Promise((r) => setTimeout(r, 50));
    requested = wasmRequest() !== undefined;
  }
  // The factory's readiness, seen through the agents of a page that does not run before it.
  let reducer = false;
  for (let i = 0; i < 100 && !reducer; i++) {
    await new Promise((r) => setTimeout(r, 100));
    const agent = new HttpAgent({ url: '/agent/0', threadId: 'thread-idle' });
    await agent.runAgent({ runId: 'idle-' + i });
    reducer = agent.reducerState !== undefined;
  }
  window.result = { requested, reducer };
</script>`;

let server, context, profile, bundle;

before(async () => {
  const { build } = await import(pathToFileURL(join(web, 'node_modules/esbuild/lib/main.js')).href);
  const r = await build({
    stdin: {
      contents: `export { HttpAgent } from ${JSON.stringify(join(web, 'src/ag-ui/drop-in.js'))};\nexport { HttpAgent as Official } from '@ag-ui/client';`,
      resolveDir: here, loader: 'js',
    },
    bundle: true, format: 'esm', minify: true, write: false, platform: 'browser', target: 'es2022',
    define: { 'process.env.NODE_ENV': '"production"' }, nodePaths: [join(here, 'node_modules')], logLevel: 'error',
  });
  bundle = r.outputFiles[0].text;
  const wasm = await readFile(join(web, 'dist/agui.wasm'));
  server = http.createServer(async (req, res) => {
    const path = new URL(req.url, 'http://127.0.0.1').pathname;
    if (req.method === 'POST' && path.startsWith('/agent/')) {
      for await (const _ of req) { /* the input */ }
      const events = conv.turns[Number(path.slice(7))]?.events;
      if (events === undefined) { res.writeHead(404).end(); return; }
      res.writeHead(200, { 'Content-Type': 'text/event-stream', Connection: 'close' });
      res.end(events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join(''));
    } else if (path === '/') {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(page);
    } else if (path === '/idle') {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(idlePage);
    } else if (path === '/web/cold/app/test.js') {
      res.writeHead(200, { 'Content-Type': 'text/javascript' }).end(bundle);
    } else if (path === '/web/dist/agui.wasm') {
      res.writeHead(200, { 'Content-Type': 'application/wasm' }).end(wasm);
    } else {
      res.writeHead(path === '/favicon.ico' ? 204 : 404).end();
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  profile = await mkdtemp(join(tmpdir(), 'agui-cold-'));
  context = await launchChromium(profile);
});

after(async () => {
  await context?.close();
  await new Promise((r) => server?.close(r) ?? r());
  if (profile) await rm(profile, { recursive: true, force: true });
});

test('in Chromium, the first run folds with the official apply step while the wasm loads, the next with the reducer, and subscribers see the same as with HttpAgent', async () => {
  const page = context.pages()[0] ?? await context.newPage();
  const problems = [];
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
  page.on('console', (msg) => { if (msg.type() === 'error') problems.push(`console: ${msg.text()}`); });
  await page.goto(`http://127.0.0.1:${server.address().port}/`);
  await page.waitForFunction(() => window.result !== undefined, null, { timeout: 120_000 });
  const { ours, official, ready, requestedInRun, requestedAfterRun } = await page.evaluate(() => window.result);
  assert.deepEqual(problems, []);
  assert.equal(ready, true, 'the default factory became ready');
  assert.equal(requestedInRun, null, 'the wasm was not requested while the first run was in flight');
  assert.equal(requestedAfterRun, true, 'the wasm was requested after the first run');
  assert.deepEqual(ours.reducer, [false, true], 'run 0 cold, run 1 on the reducer');
  assert.deepEqual(normalise({ log: ours.log, messages: ours.messages, state: ours.state }),
    normalise({ log: official.log, messages: official.messages, state: official.state }));
});

test('in Chromium, a page that starts no run requests the wasm once it is idle, and a later run folds with the reducer', async () => {
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
  page.on('console', (msg) => { if (msg.type() === 'error') problems.push(`console: ${msg.text()}`); });
  await page.goto(`http://127.0.0.1:${server.address().port}/idle`);
  await page.waitForFunction(() => window.result !== undefined, null, { timeout: 120_000 });
  const { requested, reducer } = await page.evaluate(() => window.result);
  await page.close();
  assert.deepEqual(problems, []);
  assert.equal(requested, true, 'the wasm was requested with no run');
  assert.equal(reducer, true, 'a run folded with the reducer');
});
