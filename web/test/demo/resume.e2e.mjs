// Resumable runs end to end: the agui-demo server (Go) cutting connections
// (-drop-after) and resuming them from Last-Event-ID, the page
// (resume.html) reconnecting with run(), in headless Chromium. The state a
// cut run ends with is compared with the state of the same run uncut.
//
// Needs `make wasm` and playwright-core; builds the server itself (or
// AGUI_DEMO_BIN). No timing is asserted.
//
//   node --test web/test/demo/resume.e2e.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium, startDemoServer } from '../support/chromium.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const tmp = mkdtempSync(path.join(tmpdir(), 'agui-resume-e2e-'));
const TIMEOUT = 120_000;
const PAGE = '/test/demo/resume.html';
// Short waits, and a budget that a loaded machine cannot exhaust by chance.
const RESUME = { delay: 50, maxDelay: 500, attempts: 20 };

let context;
const procs = [];
const urls = {};
let plain; // a server without resume support: no ids, the body cut half-way

before(async () => {
  if (!existsSync(path.join(root, 'web/dist/agui.wasm'))) throw new Error('web/dist/agui.wasm is missing: run `make wasm` first');
  let bin = process.env.AGUI_DEMO_BIN;
  if (!bin) {
    bin = path.join(tmp, 'agui-demo');
    execFileSync('go', ['build', '-o', bin, './cmd/agui-demo'], { cwd: root, stdio: 'inherit' });
  }
  const start = async (name, args) => {
    const { proc, url } = await startDemoServer(bin, ['-addr', '127.0.0.1:0', ...args], root);
    procs.push(proc);
    urls[name] = url;
  };
  await Promise.all([
    start('uncut', ['-speed', '0']),
    start('cutting', ['-speed', '0.02', '-drop-after', '3-15']),
    // Paced like a model, cut now and then: long enough to reload the page mid-run.
    start('slow', ['-speed', '0.5', '-drop-after', '20-40']),
    // Cuts, and stops a run as soon as its client drops: a resume gets its end.
    start('noLog', ['-speed', '0.02', '-drop-after', '10', '-resume-grace', '0']),
  ]);
  plain = await plainServer();
  context = await launchChromium(path.join(tmp, 'profile'));
});

after(async () => {
  await context?.close();
  for (const p of procs) p.kill('SIGTERM');
  await new Promise((r) => plain?.server.close(r));
  rmSync(tmp, { recursive: true, force: true });
});

/** An AG-UI endpoint without ids that sends half of a scenario, then ends the body (CORS open). */
async function plainServer() {
  const lines = readFileSync(path.join(root, 'testdata/scenarios/tools.jsonl'), 'utf8').split('\n').filter(Boolean);
  const requests = [];
  const server = http.createServer(async (req, res) => {
    const cors = { 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Headers': 'Content-Type, Last-Event-ID' };
    if (req.method === 'OPTIONS') { res.writeHead(204, cors).end(); return; }
    for await (const _ of req); // eslint-disable-line no-unused-vars
    requests.push(req.headers['last-event-id'] ?? null);
    res.writeHead(200, { ...cors, 'Content-Type': 'text/event-stream' });
    res.end(lines.slice(0, lines.length >> 1).map((l) => `data: ${l}\n\n`).join(''));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, requests, url: `http://127.0.0.1:${server.address().port}/agent` };
}

async function openPage(t, base) {
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  t.after(() => page.close());
  await page.goto(base + PAGE);
  await page.evaluate(() => sessionStorage.clear());
  await page.reload();
  await page.waitForFunction(() => document.body.dataset.ready === 'true', null, { timeout: TIMEOUT });
  page.problems = problems;
  return page;
}

/** A run of scenario on the page. */
function runOn(page, endpoint, scenario, options = {}) {
  return page.evaluate(([e, s, o]) => window.aguiTest.run(e, s, o), [endpoint, scenario, options]);
}

/** The state without what differs between two pages: the thread id, the SSE cursor, measured durations. */
function comparable(state) {
  const { lastEventId, threadId, ...rest } = state;
  const text = JSON.stringify(rest).split(threadId).join('THREAD');
  return JSON.parse(text, (k, v) => (k === 'reasoningDurationMs' ? 0 : v));
}

for (const scenario of ['tools', 'state']) {
  test(`${scenario}: cut several times at random frames, the page ends with the state of the uncut run`, { timeout: TIMEOUT }, async (t) => {
    const a = await openPage(t, urls.uncut);
    const b = await openPage(t, urls.cutting);
    const uncut = await a.evaluate((s) => {
      const r = window.aguiTest.reducer;
      return r.run('/agent', r.runInput({ runId: 'run-e2e', forwardedProps: { scenario: s } })).then((outcome) => ({ outcome, state: r.snapshot(), lastRun: r.lastRun }));
    }, scenario);
    const cut = await b.evaluate(([s, resume]) => {
      const r = window.aguiTest.reducer;
      return r.run('/agent', r.runInput({ runId: 'run-e2e', forwardedProps: { scenario: s } }), { resume })
        .then((outcome) => ({ outcome, state: r.snapshot(), lastRun: r.lastRun }));
    }, [scenario, RESUME]);
    assert.equal(uncut.outcome, 'completed');
    assert.equal(uncut.lastRun.reconnects, 0);
    assert.equal(cut.outcome, 'completed');
    assert.ok(cut.lastRun.reconnects >= 2, `cut ${cut.lastRun.reconnects} times`);
    assert.deepStrictEqual(comparable(cut.state), comparable(uncut.state));
    assert.deepEqual(b.problems, []);
  });
}

test('a page reloaded mid-run restores its saved state and resumes the run', { timeout: TIMEOUT }, async (t) => {
  const page = await openPage(t, urls.slow);
  page.evaluate((resume) => window.aguiTest.run('/agent', 'text', { resume }), RESUME).catch(() => {}); // never settles: the page goes away
  // Some frames folded (and saved), the run not over.
  await page.waitForFunction(() => {
    const s = window.aguiTest.reducer.state;
    return s.lastEventId && Number(s.lastEventId.split(':').pop()) >= 25 && s.status === 'running';
  }, null, { timeout: TIMEOUT });
  const before = JSON.parse(await page.evaluate(() => sessionStorage.getItem('agui-resume-test:state')));
  assert.equal(before.status, 'running');
  await page.reload();
  await page.waitForFunction(() => document.body.dataset.ready === 'true', null, { timeout: TIMEOUT });
  const resumed = await page.evaluate(() => window.aguiTest.resumed);
  assert.ok(resumed, 'the reloaded page resumed');
  assert.equal(resumed.outcome, 'completed');
  assert.equal(resumed.state.status, 'idle');

  const ref = await openPage(t, urls.uncut);
  const uncut = await ref.evaluate((runId) => {
    const r = window.aguiTest.reducer;
    return r.run('/agent', r.runInput({ runId, forwardedProps: { scenario: 'text' } })).then(() => r.snapshot());
  }, resumed.state.runId);
  const norm = (s) => comparable({ ...s, threadId: 'THREAD' });
  assert.deepStrictEqual(norm(resumed.state).messages.map((m) => m.content), norm(uncut).messages.map((m) => m.content));
  assert.deepStrictEqual(comparable(resumed.state), comparable({ ...uncut, threadId: resumed.state.threadId }));
});

test('a run the server stopped: the run ends in error with the server\'s reason', { timeout: TIMEOUT }, async (t) => {
  const page = await openPage(t, urls.noLog);
  const r = await runOn(page, '/agent', 'tools', { resume: RESUME });
  assert.equal(r.state.status, 'error');
  if (r.state.error.code === 'relay_run_abandoned') {
    // The demo server (the relay) ends a run it stops with a RUN_ERROR frame
    // of its own, which the resume gets (docs/resume.md).
    assert.equal(r.outcome, 'completed');
  } else {
    // A server that refuses the resume instead (docs/resume.md).
    assert.equal(r.outcome, 'failed');
    assert.ok(['run_stopped', 'resume_unavailable'].includes(r.state.error.code), r.state.error.code);
    assert.match(r.state.error.message, /^resume failed: /);
  }
  assert.ok(r.reconnects.length >= 1); // the rest produced before the stop may come first
});

test('a server without ids (no resume support) ends as before: incomplete, no reconnect', { timeout: TIMEOUT }, async (t) => {
  const page = await openPage(t, urls.uncut);
  const r = await runOn(page, plain.url, 'tools');
  assert.equal(r.outcome, 'incomplete');
  assert.equal(r.state.status, 'running');
  assert.equal(r.lastRun.reason, 'no_event_ids');
  assert.equal(r.reconnects.length, 0);
  assert.deepStrictEqual(plain.requests, [null]);
});
