// Headless Chromium (Debian's /usr/bin/chromium, driven by playwright-core):
// the module loaded over http by a page folds a corpus stream through run()
// against a local SSE endpoint, on the main thread and in a Web Worker.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchChromium } from '../support/chromium.mjs';
import { loadReducer } from '../../entries/agui.node.js';
import { wasmURL, stream, normalise } from '../support/helpers.mjs';
import { startServer } from '../support/server.mjs';

const STREAM = 'ParallelToolCalls--WithParallelToolCalls_InvokesBothToolsAndStreamsResults-turn1.jsonl';

let server;
let profile;
let context;
let page;
const problems = [];

async function solo(name) {
  const r = (await loadReducer(wasmURL)).createReducer({ deterministicIds: true });
  for (const l of stream(name).lines) r.apply(l);
  return normalise(r.state);
}

before(async () => {
  server = await startServer();
  profile = await mkdtemp(join(tmpdir(), 'agui-chromium-'));
  context = await launchChromium(profile);
  page = context.pages()[0] ?? await context.newPage();
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
  page.on('console', (msg) => { if (msg.type() === 'error') problems.push(`console: ${msg.text()}`); });
  page.on('response', (res) => {
    if (res.status() >= 400 && !res.url().includes('status=')) problems.push(`HTTP ${res.status()}: ${res.url()}`);
  });
  page.on('request', (req) => {
    if (!req.url().startsWith(server.url)) problems.push(`request outside 127.0.0.1: ${req.url()}`);
  });
  await page.goto(`${server.url}/test/browser/page.html`);
  await page.waitForFunction(() => window.aguiReady === true, null, { timeout: 30_000 });
});

after(async () => {
  await context?.close();
  await server?.close();
  if (profile) await rm(profile, { recursive: true, force: true });
});

test('page: run() on the main thread folds the corpus stream', async () => {
  const res = await page.evaluate((s) => window.aguiTest.mainThread(s), STREAM);
  assert.equal(res.outcome, 'completed');
  assert.deepStrictEqual(res.state, res.snapshot, 'mirror equals snapshot');
  const want = await solo(STREAM);
  const got = normalise(res.state);
  assert.equal(got.messages[0].content, 'hello from the page');
  assert.deepStrictEqual(got.messages.slice(1), want.messages);
  assert.deepStrictEqual(got.toolCalls, want.toolCalls);
  assert.equal(got.status, 'idle');
  assert.equal(got.isLoading, false);
  assert.ok(got.messages.at(-1).content.length > 0, 'final assistant text');
  assert.ok(res.notified > 1);
  const post = server.requests.findLast((r) => r.path === '/agent');
  assert.equal(JSON.parse(post.body).messages[0].content, 'hello from the page');
  assert.deepStrictEqual(problems, []);
});

test('page: a Web Worker reduces; the main thread keeps the mirror', async () => {
  const res = await page.evaluate(([s, lines]) => window.aguiTest.worker(s, lines), [STREAM, stream(STREAM).lines]);
  const want = await solo(STREAM);
  assert.equal(res.outcome, 'completed');
  assert.deepStrictEqual(res.afterRun.state, res.afterRun.snapshot);
  assert.deepStrictEqual(normalise(res.afterRun.state), want);
  assert.deepStrictEqual(res.applied.state, res.applied.snapshot);
  assert.deepStrictEqual(normalise(res.applied.state), want);
  assert.equal(res.afterRun.state.status, 'idle');
  assert.ok(res.notified > 1);
  assert.deepStrictEqual(res.aborted, { outcome: 'aborted', status: 'idle', error: null });
  assert.deepStrictEqual(problems, []);
});

test('page: an HTTP error becomes the error state', async () => {
  const res = await page.evaluate(() => window.aguiTest.httpError());
  assert.deepStrictEqual(res, { outcome: 'failed', status: 'error', error: { message: 'HTTP 502: Bad Gateway', code: '502' } });
  assert.deepStrictEqual(problems.filter((p) => !p.includes('502')), []);
});
