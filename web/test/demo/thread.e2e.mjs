// The demo page keeps its conversation across a reload (headless Chromium
// against agui-demo, whose relay keeps the threads; docs/relay.md): reloaded
// mid-run, the page shows the conversation, attaches to the live run, and
// ends with the state of the uninterrupted run (each message once);
// reloaded after the run, it shows the conversation as it was; with the
// server gone, the browser's copy (IndexedDB) still paints it. Prints the
// time from reload to the conversation painted (never asserted).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium, startDemoServer } from '../support/chromium.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const tmp = mkdtempSync(path.join(tmpdir(), 'agui-thread-e2e-'));
const TIMEOUT = 120_000;
const tid = (id) => `[data-testid="${id}"]`;

let context;
let bin;
const procs = [];
let url; // paced: a tool run lasts a few seconds, long enough to reload mid-run

before(async () => {
  if (!existsSync(path.join(root, 'web/dist/agui.wasm'))) throw new Error('web/dist/agui.wasm is missing: run `make wasm` first');
  bin = process.env.AGUI_DEMO_BIN;
  if (!bin) {
    bin = path.join(tmp, 'agui-demo');
    execFileSync('go', ['build', '-o', bin, './cmd/agui-demo'], { cwd: root, stdio: 'inherit' });
  }
  const s = await startDemoServer(bin, ['-addr', '127.0.0.1:0', '-speed', '0.4'], root);
  procs.push(s.proc);
  url = s.url;
  context = await launchChromium(path.join(tmp, 'profile'));
});

after(async () => {
  await context?.close();
  for (const p of procs) p.kill('SIGTERM');
  rmSync(tmp, { recursive: true, force: true });
});

async function openPage(t, base = url) {
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
  t.after(() => page.close());
  await page.goto(base);
  await ready(page);
  page.problems = problems;
  return page;
}

async function ready(page) {
  await page.waitForFunction(() => document.body.dataset.ready === 'true', null, { timeout: TIMEOUT });
}

async function type(page, text, scenario) {
  await page.selectOption(tid('scenario'), scenario);
  await page.fill(tid('input'), text);
  await page.click(tid('send'));
}

async function waitRuns(page, n) {
  await page.waitForFunction((k) => Number(document.body.dataset.runs) >= k, n, { timeout: TIMEOUT });
}

/** The conversation without ids (runs of another page get other ids), and the agent state. */
const shown = (page) => page.evaluate(() => {
  const s = window.aguiDemo.reducer.state;
  return {
    messages: s.messages.map((m) => ({ role: m.role, content: m.content, tools: (m.toolCalls || []).map((c) => [c.function?.name, c.function?.arguments]) })),
    state: s.state,
    status: s.status,
  };
});

const ids = (page) => page.evaluate(() => window.aguiDemo.reducer.state.messages.map((m) => m.id));
const domMessages = (page) => page.locator(tid('message')).count();

/** The thread as the relay has it (the page's own key). */
const relayThread = (page) => page.evaluate(async () => {
  const { id, key } = window.aguiDemo.thread;
  const res = await fetch(`/threads/${encodeURIComponent(id)}`, { headers: { 'X-Agui-Thread-Key': key } });
  return res.json();
});

test('reload mid-run: the conversation at once, then the live run, ending as the uninterrupted run; reload after: the conversation', { timeout: TIMEOUT * 2 }, async (t) => {
  // The uninterrupted conversation, in a page of its own.
  const whole = await openPage(t);
  await type(whole, 'hello', 'text');
  await waitRuns(whole, 1);
  await type(whole, 'weather please', 'tools');
  await waitRuns(whole, 2);
  const want = await shown(whole);
  const wantDOM = await domMessages(whole);

  const page = await openPage(t);
  await type(page, 'hello', 'text');
  await waitRuns(page, 1);
  await type(page, 'weather please', 'tools');
  // Mid-run: the tool run has begun streaming.
  await page.waitForFunction(() => {
    const s = window.aguiDemo.reducer.state;
    return s.status === 'running' && s.messages.length >= 3;
  }, null, { timeout: TIMEOUT });
  const before = (await shown(page)).messages.length;

  const t0 = Date.now();
  await page.reload();
  // Painted: both user turns shown (from the browser's copy or the relay).
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="message"]').length >= 2
    && window.aguiDemo?.reducer?.state.messages.filter((m) => m.role === 'user').length === 2, null, { timeout: TIMEOUT, polling: 'raf' });
  const paint = Date.now() - t0;
  await ready(page);
  const attachedMid = await page.evaluate(() => window.aguiDemo.reducer.state.status);
  // The live run, to its end.
  await page.waitForFunction(() => document.body.dataset.attached !== undefined, null, { timeout: TIMEOUT });
  assert.equal(await page.evaluate(() => document.body.dataset.attached), 'completed');
  assert.equal(await page.evaluate(() => document.body.dataset.thread), 'relay');
  await page.waitForTimeout(50);
  const got = await shown(page);
  assert.ok(got.messages.length >= before, `${got.messages.length} messages, ${before} before the reload`);
  assert.deepEqual(got, want, 'the final state is the uninterrupted run\'s');
  const pageIds = await ids(page);
  assert.equal(new Set(pageIds).size, pageIds.length, 'each message once');
  assert.equal(await domMessages(page), wantDOM, 'the page shows what the uninterrupted page shows');
  // The custom events: the run streamed again from its start brings its own again; each is listed once.
  assert.deepEqual(await page.locator('[data-testid="custom-event-name"]').allTextContents(),
    await whole.locator('[data-testid="custom-event-name"]').allTextContents());
  const relay = await relayThread(page);
  assert.deepEqual(relay.messages.map((m) => m.id), pageIds, 'the page and the relay agree, id for id');
  // The inspector: the thread as loaded from the relay, then the live run's events, ending where the page is.
  const seen = await page.evaluate(() => {
    const { session } = window.aguiDemo.inspector;
    const last = session.entries.length - 1;
    return {
      first: [session.entries[0]?.name, session.entries[0]?.note],
      types: session.entries.slice(1).map((e) => e.type),
      restores: session.entries.filter((e) => e.name === 'restore').length,
      messages: session.stateAt(last).messages.map((m) => m.id),
    };
  });
  assert.deepEqual(seen.first, ['restore', 'loaded from the relay']);
  assert.equal(seen.restores, 1, 'one restore, marked');
  assert.ok(seen.types.includes('RUN_STARTED') && seen.types.includes('RUN_FINISHED'), `the live run's events follow: ${seen.types.slice(0, 5)}…`);
  assert.deepEqual(seen.messages, pageIds, 'the inspector ends where the page does');
  console.log(`# reload mid-run: conversation painted ${paint} ms after the reload (status then: ${attachedMid}); ${got.messages.length} messages at the end`);

  // Reload after the run: the conversation as it was, and it goes on.
  const t1 = Date.now();
  await page.reload();
  await page.waitForFunction((n) => window.aguiDemo?.reducer?.state.messages.length === n, pageIds.length, { timeout: TIMEOUT, polling: 'raf' });
  const paint2 = Date.now() - t1;
  await ready(page);
  assert.deepEqual(await shown(page), want);
  assert.deepEqual(await ids(page), pageIds);
  console.log(`# reload after the run: conversation painted ${paint2} ms after the reload`);
  await type(page, 'again', 'text');
  await waitRuns(page, 1);
  assert.equal((await shown(page)).messages.filter((m) => m.role === 'user').length, 3);
  assert.deepEqual(page.problems, []);
  assert.deepEqual(whole.problems, []);
});

test('the relay unreachable, a reload paints the browser\'s copy; new chat starts another thread', { timeout: TIMEOUT }, async (t) => {
  const page = await openPage(t);
  await type(page, 'hello', 'text');
  await waitRuns(page, 1);
  const first = await page.evaluate(() => window.aguiDemo.thread.id);
  const want = await shown(page);
  await page.waitForTimeout(100); // the copy is written at the run's end
  // The relay cannot be reached (the page itself still loads).
  await page.route('**/threads/**', (route) => route.abort('internetdisconnected'));
  const t0 = Date.now();
  await page.reload();
  await page.waitForFunction((n) => window.aguiDemo?.reducer?.state.messages.length === n, want.messages.length, { timeout: TIMEOUT, polling: 'raf' });
  console.log(`# relay unreachable: the browser's copy painted ${Date.now() - t0} ms after the reload`);
  await ready(page);
  assert.deepEqual(await shown(page), want);
  assert.deepEqual(await page.evaluate(() => window.aguiDemo.inspector.session.entries.map((e) => e.note)), ["loaded from the browser's copy"],
    'the inspector says where the conversation came from');
  await page.unroute('**/threads/**');

  // New chat: another thread, empty, and it stays so across a reload.
  await page.click(tid('new-chat'));
  await page.waitForFunction(() => window.aguiDemo.reducer.state.messages.length === 0, null, { timeout: TIMEOUT });
  const b = await page.evaluate(() => window.aguiDemo.thread.id);
  assert.notEqual(b, first, 'a new thread');
  await page.reload();
  await ready(page);
  await page.waitForTimeout(100);
  assert.equal(await page.evaluate(() => window.aguiDemo.thread.id), b);
  assert.equal((await shown(page)).messages.length, 0, 'the new chat, empty, not the old one');
  await type(page, 'hello again', 'text');
  await waitRuns(page, 1);
  await page.reload();
  await ready(page);
  assert.equal(await page.evaluate(() => document.body.dataset.thread), 'relay');
  assert.equal((await shown(page)).messages.length, 2);
});

test('reload mid-run after a custom event: the run streamed again lists it once, and the panel keeps the earlier runs\' events', { timeout: TIMEOUT }, async (t) => {
  const page = await openPage(t);
  await type(page, 'hello', 'text');
  await waitRuns(page, 1);
  await type(page, 'weather please', 'tools');
  // The tool run's custom event came; the run goes on (its answer streams).
  await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="custom-event-name"]')].some((n) => n.textContent === 'tool_metrics')
    && window.aguiDemo.reducer.state.status === 'running', null, { timeout: TIMEOUT, polling: 'raf' });
  await page.reload();
  await ready(page);
  await page.waitForFunction(() => document.body.dataset.attached !== undefined, null, { timeout: TIMEOUT });
  assert.equal(await page.evaluate(() => document.body.dataset.attached), 'completed');
  await page.waitForTimeout(50);
  assert.deepEqual(await page.locator('[data-testid="custom-event-name"]').allTextContents(), ['tool_metrics', 'suggestions'], 'newest first, each once');
  assert.equal(await page.textContent('[data-testid="custom-count"]'), '2');
  assert.deepEqual(page.problems, []);
});
