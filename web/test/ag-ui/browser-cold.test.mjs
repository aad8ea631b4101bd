// The drop-in's cold start in headless Chromium, as an app's production
// bundle has it (esbuild, @ag-ui/client 1.0.0 inside): the default reducer
// factory is asked for when the drop-in is imported, and the runs that
// start before it is ready are folded by @ag-ui/client's apply step. Runs
// that follow each other with no pause from the import: the factory becomes
// ready meanwhile (fetched, compiled, started, warmed), and every run that
// starts once it is ready is folded by the reducer, restored from the
// earlier runs' messages; subscribers and the agent end as with
// @ag-ui/client's HttpAgent. A page with no run requests the wasm once it
// is idle. No timing.

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
// Run i: a turn of a generated conversation (reasoning, text, tool calls), then a text of 400 deltas.
const conv = generate({ turns: 4, seed: 17, textDeltas: 30, reasoningDeltas: 4, argDeltas: 6 });
function runEvents(i) {
  const turn = conv.turns[i % conv.turns.length].events.map((e) => (e.messageId !== undefined && e.type !== 'TOOL_CALL_RESULT' ? { ...e, messageId: `${e.messageId}-${i}` } : e));
  const ids = (e) => (e.toolCallId !== undefined ? { ...e, toolCallId: `${e.toolCallId}-${i}`, ...(e.parentMessageId ? { parentMessageId: `${e.parentMessageId}-${i}` } : {}) } : e);
  const events = turn.map(ids).map((e) => (e.type === 'TOOL_CALL_RESULT' ? { ...e, messageId: `${e.messageId}-${i}` } : e));
  const end = events.pop();
  const m = `long-${i}`;
  events.push({ type: 'TEXT_MESSAGE_START', messageId: m, role: 'assistant' });
  for (let k = 0; k < 400; k++) events.push({ type: 'TEXT_MESSAGE_CONTENT', messageId: m, delta: `w${k % 97} ` });
  events.push({ type: 'TEXT_MESSAGE_END', messageId: m }, end);
  return events.map((e) => (e.type === 'RUN_STARTED' || e.type === 'RUN_FINISHED' ? { ...e, runId: `run-${i}` } : e));
}

const RUNS_MAX = 400; // a bound: the factory is ready long before
const page = `<!doctype html><meta charset="utf-8">
<script type="module">
  const { HttpAgent, Official, factoryNow } = await import('/web/cold/app/test.js');
  // Records the lifecycle hooks with their arguments (no per-token hook).
  const HOOKS = ['onRunStartedEvent', 'onTextMessageStartEvent', 'onTextMessageEndEvent', 'onToolCallEndEvent',
    'onToolCallResultEvent', 'onStateSnapshotEvent', 'onRunFinishedEvent', 'onNewMessage', 'onNewToolCall', 'onRunFinalized'];
  const recorder = (log) => {
    const sub = { onMessagesChanged: () => { log.changes++; } };
    for (const h of HOOKS) sub[h] = (p) => { const { agent, ...rest } = p; log.calls.push([h, JSON.parse(JSON.stringify(rest))]); };
    return sub;
  };
  // Runs back to back from the import, until 3 runs after the first one folded by the reducer (at most ${RUNS_MAX}), or n runs.
  async function runs(Agent, n) {
    const log = { calls: [], changes: 0 };
    const agent = new Agent({ url: '/agent/0', threadId: 'thread-1' });
    agent.subscribe(recorder(log));
    const readyAtStart = [], folded = [], newMessages = [];
    for (let i = 0; n === undefined ? i < ${RUNS_MAX} && folded.lastIndexOf(false) >= i - 3 : i < n; i++) {
      agent.url = '/agent/' + i;
      readyAtStart.push(factoryNow(null)?.factory !== undefined);
      const r = await agent.runAgent({ runId: 'run-' + i });
      folded.push(agent.reducerState !== undefined);
      newMessages.push(r.newMessages.map((m) => m.id));
    }
    await new Promise((r) => setTimeout(r, 0));
    return { readyAtStart, folded, seen: JSON.parse(JSON.stringify({ log, newMessages, messages: agent.messages, state: agent.state })) };
  }
  let ours, official;
  try {
    ours = await runs(HttpAgent);
    official = await runs(Official, ours.folded.length);
  } catch (err) {
    window.result = { error: String(err?.stack ?? err) };
    throw err;
  }
  window.result = { ours: { readyAtStart: ours.readyAtStart, folded: ours.folded }, seen: [ours.seen, official.seen], runs: ours.folded.length };
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
      contents: `export { HttpAgent } from ${JSON.stringify(join(web, 'src/ag-ui/drop-in.js'))};\nexport { factoryNow } from ${JSON.stringify(join(web, 'src/ag-ui/factory.js'))};\n`
        + "export { HttpAgent as Official } from '@ag-ui/client';",
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
      const events = runEvents(Number(path.slice(7)));
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

test('in Chromium, runs back to back from the import: the reducer folds every run that starts once it is ready, and subscribers see the same as with HttpAgent', async () => {
  const page = context.pages()[0] ?? await context.newPage();
  const problems = [];
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
  page.on('console', (msg) => { if (msg.type() === 'error') problems.push(`console: ${msg.text()}`); });
  await page.goto(`http://127.0.0.1:${server.address().port}/`);
  await page.waitForFunction(() => window.result !== undefined, null, { timeout: 120_000 });
  const { ours, seen, runs, error } = await page.evaluate(() => window.result);
  assert.equal(error, undefined);
  assert.deepEqual(problems, []);
  const first = ours.readyAtStart.indexOf(true);
  assert.ok(first > 0 && first < runs, `the factory became ready during the runs (first ready at run ${first} of ${runs})`);
  assert.ok(ours.readyAtStart.slice(first).every(Boolean));
  assert.equal(ours.folded[0], false, 'run 0 cold');
  assert.deepEqual(ours.folded.slice(first), ours.folded.slice(first).map(() => true), 'every run from the first ready one on folded by the reducer');
  assert.ok(ours.folded.slice(ours.folded.indexOf(true)).every(Boolean), 'the switch is once');
  assert.deepEqual(normalise(seen[0]), normalise(seen[1]), 'what subscribers saw, the results, messages and state equal HttpAgent\'s');
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
