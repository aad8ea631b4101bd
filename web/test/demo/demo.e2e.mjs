// End-to-end test of the demo: the agui-demo server (Go) serving the page and
// replaying recorded AG-UI runs as text/event-stream, the page (web/demo)
// reducing them with the wasm module in headless Chromium.
//
// Needs `make wasm` (web/dist/agui.wasm) and playwright-core; builds the
// server itself (go build). Screenshots go to test-output/demo-<scenario>.png.
//
//   node --test web/test/demo/
//
// Environment: CHROMIUM (default /usr/bin/chromium), AGUI_DEMO_BIN (a
// prebuilt server). The docs' pictures are make docs-screenshots'.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium, startDemoServer } from '../support/chromium.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const outDir = path.join(root, 'test-output');
const tmp = mkdtempSync(path.join(tmpdir(), 'agui-demo-e2e-'));
const TIMEOUT = 60_000;

let context;
const servers = [];

/** Starts the server and resolves to the URL it prints. */
async function startServer(bin, args) {
  const { proc, url } = await startDemoServer(bin, args, root);
  servers.push(proc);
  return url;
}

let url; // speed 0.05: runs take a fraction of a second
let slowURL; // speed 1: paced like a model, for the stop button
let corsURL; // another origin that allows the page's with -cors

before(async () => {
  if (!existsSync(path.join(root, 'web/dist/agui.wasm'))) {
    throw new Error('web/dist/agui.wasm is missing: run `make wasm` first');
  }
  mkdirSync(outDir, { recursive: true });
  let bin = process.env.AGUI_DEMO_BIN;
  if (!bin) {
    bin = path.join(tmp, 'agui-demo');
    execFileSync('go', ['build', '-o', bin, './cmd/agui-demo'], { cwd: root, stdio: 'inherit' });
  }
  [url, slowURL] = await Promise.all([
    startServer(bin, ['-addr', '127.0.0.1:0', '-speed', '0.05']),
    startServer(bin, ['-addr', '127.0.0.1:0', '-speed', '1']),
  ]);
  corsURL = await startServer(bin, ['-addr', '127.0.0.1:0', '-speed', '0.05', '-cors', new URL(url).origin]);
  context = await launchChromium(path.join(tmp, 'profile'), {
    viewport: { width: 1360, height: 880 },
    colorScheme: 'light',
  });
});

after(async () => {
  await context?.close();
  for (const p of servers) p.kill('SIGTERM');
  rmSync(tmp, { recursive: true, force: true });
});

const tid = (id) => `[data-testid="${id}"]`;

/** Opens the page on a fresh origin state; fails the test on page errors. */
async function openPage(t, base = url) {
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
  page.on('response', (r) => { if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`); });
  t.after(async () => {
    await page.close();
  });
  await page.goto(base);
  await page.evaluate(() => localStorage.clear()); // settings another test chose
  await page.reload();
  await page.waitForFunction(() => document.body.dataset.ready !== 'false', null, { timeout: TIMEOUT });
  assert.equal(await page.evaluate(() => document.body.dataset.ready), 'true',
    `the reducer loaded: ${await page.textContent(tid('error-banner'))}`);
  page.problems = problems;
  return page;
}

/** Types a message, sends it, and waits for the run to end. */
async function send(page, text, { scenario } = {}) {
  if (scenario) await page.selectOption(tid('scenario'), scenario);
  const runs = Number(await page.evaluate(() => document.body.dataset.runs));
  await page.fill(tid('input'), text);
  await page.click(tid('send'));
  await waitRuns(page, runs + 1);
}

async function waitRuns(page, n) {
  await page.waitForFunction((k) => Number(document.body.dataset.runs) >= k, n, { timeout: TIMEOUT });
  await page.waitForTimeout(50); // one more frame: the render is rAF-batched
}

async function shot(page, name) {
  await page.screenshot({ path: path.join(outDir, `demo-${name}.png`) });
}

const status = (page) => page.getAttribute(tid('run-status'), 'data-status');
const lastAssistantText = (page) => page.locator(`${tid('message')}[data-role="assistant"] ${tid('message-content')}`).last().textContent();
const stateJSON = async (page) => JSON.parse(await page.textContent(tid('state-panel')));

function noProblems(page) {
  assert.deepEqual(page.problems, [], 'no page errors or console errors (CSP included)');
}

test('text: streamed answer, steps and a custom event; user text is not HTML', { timeout: TIMEOUT }, async (t) => {
  const page = await openPage(t);
  await send(page, 'Hello <img src=x data-x=1> <b>there</b>');
  assert.equal(await status(page), 'idle');
  assert.match(await lastAssistantText(page), /I'm a recorded AG-UI agent\. .*interrupt\)\.$/s);
  const user = page.locator(`${tid('message')}[data-role="user"] ${tid('message-content')}`);
  assert.equal(await user.textContent(), 'Hello <img src=x data-x=1> <b>there</b>');
  assert.equal(await page.locator(`${tid('messages')} img, ${tid('messages')} b`).count(), 0, 'no markup from text');
  assert.deepEqual(await page.locator(`${tid('steps')} ${tid('step')}`).evaluateAll((ls) => ls.map((l) => [l.textContent, l.dataset.status])),
    [['respond', 'finished']]);
  assert.equal(await page.locator(tid('custom-event-name')).first().textContent(), 'suggestions');
  assert.ok(await page.isHidden(tid('error-banner')));
  assert.match(await page.textContent(tid('info-tokens')), /42 in · 96 out/);
  await shot(page, 'text');
  noProblems(page);
});

test('reasoning: collapsible block with its duration, then the answer', { timeout: TIMEOUT }, async (t) => {
  const page = await openPage(t);
  await send(page, 'Think it through: 20 heads and 56 legs, how many chickens and rabbits?');
  assert.equal(await status(page), 'idle');
  const summary = await page.textContent(tid('reasoning-summary'));
  assert.match(summary, /^Thought for \d+(\.\d)? s$/);
  assert.equal(await page.getAttribute(tid('reasoning'), 'open'), null, 'folded once done');
  // Markdown: the bold heading is a <strong>, not asterisks.
  assert.match(await page.textContent(tid('reasoning-text')), /^Solving the heads\/legs problem/);
  assert.equal(await page.textContent(`${tid('reasoning-text')} strong`), 'Solving the heads/legs problem');
  assert.match(await lastAssistantText(page), /Answer: 12 chickens and 8 rabbits\./);
  await page.click(tid('reasoning-summary'));
  assert.notEqual(await page.getAttribute(tid('reasoning'), 'open'), null);
  await shot(page, 'reasoning');
  noProblems(page);
});

test('tools: streamed arguments, status and result', { timeout: TIMEOUT }, async (t) => {
  const page = await openPage(t);
  await send(page, "What's the weather in Lisbon? Use a tool.");
  const card = page.locator(tid('tool-call'));
  assert.equal(await card.count(), 1);
  assert.equal(await card.locator(tid('tool-name')).textContent(), 'get_weather');
  assert.equal(await card.locator(tid('tool-status')).textContent(), 'complete', 'the state\'s word, as the inspector says it');
  assert.deepEqual(JSON.parse(await card.locator(tid('tool-args')).textContent()),
    { location: 'Lisbon, Portugal', unit: 'celsius', days: 3, include: ['hourly', 'uv_index'] });
  assert.match(await card.locator(tid('tool-args')).textContent(), /^\{\n {2}"location": "Lisbon, Portugal",/, 'pretty-printed');
  const result = JSON.parse(await card.locator(tid('tool-result')).textContent());
  assert.equal(result.current.condition, 'Sunny');
  assert.match(await lastAssistantText(page), /^It's 21 °C and sunny in Lisbon right now/);
  assert.match(await lastAssistantText(page), /Thu: light rain, 14–19 °C$/);
  assert.equal(await page.locator(tid('step')).count(), 3);
  assert.ok(await page.locator(tid('custom-event-name'), { hasText: 'tool_metrics' }).count());
  await shot(page, 'tools');
  noProblems(page);
});

test('parallel-tools: two cards under one message, both results', { timeout: TIMEOUT }, async (t) => {
  const page = await openPage(t);
  await send(page, 'Weather in Paris and the time in Tokyo, in parallel');
  const cards = page.locator(tid('tool-call'));
  assert.equal(await cards.count(), 2);
  assert.deepEqual(await cards.locator(tid('tool-name')).allTextContents(), ['get_weather', 'get_current_time']);
  assert.deepEqual(await cards.locator(tid('tool-status')).allTextContents(), ['complete', 'complete']);
  assert.match(await cards.nth(0).locator(tid('tool-result')).textContent(), /"Conditions": "sunny"/);
  assert.match(await cards.nth(1).locator(tid('tool-result')).textContent(), /"Timezone": "Asia\/Tokyo"/);
  assert.equal(await page.locator(`${tid('message')}:has(${tid('tool-call')})`).count(), 1, 'one owning message');
  assert.match(await lastAssistantText(page), /Tokyo: 2026-06-18 18:30/);
  await shot(page, 'parallel-tools');
  noProblems(page);
});

test('state: shared state panel and citations as links (http(s) only)', { timeout: TIMEOUT }, async (t) => {
  const page = await openPage(t);
  await send(page, 'How does it work?', { scenario: 'state' }); // chosen by the picker
  assert.equal(await status(page), 'idle');
  const st = await stateJSON(page);
  assert.equal(st.research.status, 'done');
  assert.equal(st.research.progress, 1);
  assert.equal(st.research.sources.length, 3);
  assert.equal(Object.keys(st.citations).length, 1);

  const msg = page.locator(`${tid('message')}:has(${tid('citation')})`);
  assert.equal(await msg.count(), 1);
  assert.match(await msg.locator(tid('message-content')).textContent(), /^A WebAssembly module works on a linear memory/);
  assert.deepEqual(await msg.locator(`${tid('citation')} a`).evaluateAll((as) => as.map((a) => a.getAttribute('href'))), [
    'https://webassembly.github.io/spec/core/syntax/modules.html#memories',
    'https://developer.mozilla.org/en-US/docs/WebAssembly/JavaScript_interface/Memory',
    'https://go.dev/wiki/WebAssembly',
  ]);
  assert.equal(await msg.locator(`${tid('citation')} a`).first().textContent(), 'WebAssembly Core Specification: Memories');
  assert.equal(await msg.locator(`${tid('citation')} a`).first().getAttribute('rel'), 'noopener noreferrer nofollow');
  // The doi: citation is shown as text, not followed.
  assert.equal(await msg.locator(tid('citation-text')).textContent(), 'Bringing the Web up to Speed with WebAssembly (PLDI 2017)');
  assert.equal(await page.locator('a[href^="doi:"], a[href^="javascript:"]').count(), 0);
  assert.deepEqual(await page.locator(tid('step')).allTextContents(), ['search', 'write']);
  await shot(page, 'state');
  noProblems(page);
});

test('activity: a plan message updated by deltas', { timeout: TIMEOUT }, async (t) => {
  const page = await openPage(t);
  await send(page, 'Deploy the demo to staging and show the plan');
  const act = page.locator(tid('activity'));
  assert.equal(await act.count(), 1);
  assert.equal(await act.locator(tid('activity-type')).textContent(), 'PLAN');
  assert.equal(await act.locator(tid('activity-title')).textContent(), 'Deploy agui-demo to staging');
  assert.deepEqual(await act.locator(tid('activity-step')).evaluateAll((ls) => ls.map((l) => l.dataset.status)),
    ['done', 'done', 'done', 'done']);
  assert.equal(await act.locator('progress').getAttribute('value'), '100');
  assert.match(await act.textContent(), /web\/dist\/agui\.wasm \+ \.br \+ \.gz/);
  assert.match(await lastAssistantText(page), /^Staging is live/);
  assert.ok(await page.locator(tid('custom-event-name'), { hasText: 'deployment' }).count());
  await shot(page, 'activity');
  noProblems(page);
});

test('error: RUN_ERROR mid-run shows the banner with message and code', { timeout: TIMEOUT }, async (t) => {
  const page = await openPage(t);
  await send(page, 'Summarise the quarterly report (this one ends in an error)');
  assert.equal(await status(page), 'error');
  assert.ok(await page.isVisible(tid('error-banner')));
  assert.match(await page.textContent(tid('error-message')), /The model provider is overloaded \(HTTP 529\)/);
  assert.equal(await page.textContent(tid('error-code')), 'MODEL_OVERLOADED');
  assert.match(await lastAssistantText(page), /^Sure, here's a summary of the quarterly report\. .* driven mostly by$/);
  assert.equal(await page.locator(`${tid('message')}.streaming`).count(), 0, 'streaming stopped');
  await shot(page, 'error');

  // The next run clears the error.
  await send(page, 'hello again');
  assert.equal(await status(page), 'idle');
  assert.ok(await page.isHidden(tid('error-banner')));
  noProblems(page);
});

test('interrupt: approval requested, approved, resumed', { timeout: TIMEOUT }, async (t) => {
  const page = await openPage(t);
  await send(page, 'Delete report-draft.txt');
  assert.equal(await status(page), 'idle');
  assert.ok(await page.isVisible(tid('interrupt')));
  assert.equal(await page.textContent(tid('interrupt-message')), 'Approval required for tool call: delete_file');
  assert.equal(await page.textContent(tid('tool-name')), 'delete_file');
  assert.deepEqual(JSON.parse(await page.textContent(tid('tool-args'))), { filename: 'report-draft.txt' });
  await shot(page, 'interrupt');

  const runs = Number(await page.evaluate(() => document.body.dataset.runs));
  await page.click(tid('interrupt-approve'));
  await waitRuns(page, runs + 1);
  assert.equal(await status(page), 'idle');
  assert.ok(await page.isHidden(tid('interrupts')));
  assert.match(await page.textContent(tid('tool-result')), /File 'report-draft\.txt' deleted successfully\./);
  assert.equal(await page.locator(tid('tool-call')).count(), 1, 'the resume answered the same call');
  assert.match(await lastAssistantText(page), /has been deleted\.$/);
  await shot(page, 'interrupt-approved');
  noProblems(page);
});

test('conversation: turns continue one thread; the stop button aborts a run', { timeout: TIMEOUT }, async (t) => {
  const page = await openPage(t, slowURL);
  await page.fill(tid('input'), 'Think about chickens and rabbits');
  await page.click(tid('send'));
  await page.waitForFunction(() => (document.querySelector('[data-testid="reasoning-text"]')?.textContent.length ?? 0) > 20, null, { timeout: TIMEOUT });
  assert.equal(await status(page), 'running');
  assert.equal(await page.textContent(tid('reasoning-summary')), 'Thinking…');
  assert.notEqual(await page.getAttribute(tid('reasoning'), 'open'), null, 'open while it streams');
  assert.ok(await page.isEnabled(tid('stop')));
  await page.click(tid('stop'));
  await waitRuns(page, 1);
  assert.equal(await status(page), 'idle', 'stop ends the run');
  assert.equal(await page.textContent(`${tid('run-status')} .status-label`), 'idle · stopped');
  assert.equal(await page.getAttribute(tid('step'), 'data-status'), 'stopped');
  assert.ok(await page.isEnabled(tid('send')));
  const thread = await page.textContent(tid('info-thread'));
  await shot(page, 'stopped');

  await page.goto(`${url}?scenario=tools`); // the fast server, picker from the URL
  await page.waitForFunction(() => document.body.dataset.ready === 'true');
  assert.equal(await page.inputValue(tid('scenario')), 'tools');
  await send(page, 'first');
  await send(page, 'second');
  assert.equal(await page.locator(tid('tool-call')).count(), 2, 'ids of the second turn do not collide');
  assert.equal(await page.locator(`${tid('message')}[data-role="user"]`).count(), 2);
  const threads = await page.textContent(tid('info-thread'));
  assert.ok(threads && threads !== '—');
  assert.notEqual(thread, '');
  noProblems(page);
});

test('streaming: text and tool arguments grow live, paced like a model', { timeout: TIMEOUT }, async (t) => {
  const page = await openPage(t, slowURL);
  // Sample the DOM on every frame while the run streams.
  await page.evaluate(() => {
    window.seen = { args: [], status: new Set(), text: new Set() };
    const tick = () => {
      const args = document.querySelector('[data-testid="tool-args"]')?.textContent;
      if (args && args !== window.seen.args.at(-1)) window.seen.args.push(args);
      const st = document.querySelector('[data-testid="tool-status"]')?.textContent;
      if (st) window.seen.status.add(st);
      const msg = document.querySelectorAll('[data-testid="message-content"]');
      if (msg.length > 1) window.seen.text.add(msg[msg.length - 1].textContent.length);
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  const start = Date.now();
  await send(page, "What's the weather in Lisbon? Use a tool.");
  const elapsed = Date.now() - start;
  const seen = await page.evaluate(() => ({
    args: window.seen.args, status: [...window.seen.status], text: window.seen.text.size,
  }));
  assert.ok(elapsed > 1500, `paced: the run took ${elapsed} ms`);
  assert.ok(seen.args.length >= 5, `arguments grew in ${seen.args.length} steps`);
  const partial = seen.args.find((a) => a.includes('Lisbon') && !a.includes('uv_index'));
  assert.ok(partial, 'a partial argument object was shown');
  assert.match(partial, /^\{\n {2}"location": "Lisbon/, 'pretty-printed while streaming');
  // The card's phases in order: arguments streaming, then running until the result, then complete.
  assert.deepEqual(seen.status.filter((x) => x !== 'running'), ['streaming arguments', 'complete']);
  assert.ok(seen.status.every((x) => ['streaming arguments', 'running', 'complete'].includes(x)), seen.status.join());
  assert.ok(seen.text > 10, `text grew in ${seen.text} steps`);
  noProblems(page);
});

test('tool-validation: an invalid call says why while it streams; a call cut off is never complete', { timeout: TIMEOUT }, async (t) => {
  const page = await openPage(t, slowURL);
  // Every state the cards go through, as the DOM shows it (a mutation
  // observer: each render is seen, however quick the run).
  await page.evaluate(() => {
    window.seen = [];
    const look = () => {
      document.querySelectorAll('[data-testid="tool-call"]').forEach((card, i) => {
        const check = card.querySelector('[data-testid="tool-check"]');
        const row = [i, card.querySelector('[data-testid="tool-status"]').textContent, check.hidden ? '' : check.dataset.kind, check.hidden ? '' : check.textContent];
        const prev = window.seen.findLast((x) => x[0] === i);
        if (!prev || prev.join('\u0000') !== row.join('\u0000')) window.seen.push(row);
      });
    };
    new MutationObserver(look).observe(document.querySelector('[data-testid="messages"]'), { subtree: true, childList: true, characterData: true, attributes: true });
  });
  await send(page, 'Check the weather in Oslo and save a packing note', { scenario: 'tool-validation' });
  assert.equal(await status(page), 'idle');
  const cards = page.locator(tid('tool-call'));
  assert.equal(await cards.count(), 3);

  // The first call: unit and days break get_weather's schema.
  const bad = cards.nth(0);
  assert.equal(await bad.getAttribute('data-args'), 'invalid');
  assert.equal(await bad.locator(tid('tool-check')).getAttribute('data-kind'), 'invalid');
  assert.deepEqual(await bad.locator(tid('args-error')).evaluateAll((ls) => ls.map((l) => [l.querySelector('code')?.textContent, l.textContent, l.dataset.keyword])),
    [['unit', 'unit must be one of celsius, fahrenheit', 'enum'], ['days', 'days must be at most 7', 'maximum']]);
  assert.match(await bad.locator(tid('tool-check')).textContent(), /^Invalid arguments:/);
  assert.deepEqual(JSON.parse(await bad.locator(tid('tool-args')).textContent()), { location: 'Oslo, Norway', unit: 'kelvin', days: 10 }, 'the arguments as sent');
  assert.deepEqual(await bad.locator(`${tid('tool-args')} .ln[data-bad]`).allTextContents(), ['  "unit": "kelvin",\n', '  "days": 10\n'], 'the refused members marked');
  assert.equal(await page.locator(`${tid('tool-args')} .ln[data-bad]`).count(), 2, 'on that card only');
  assert.equal(await bad.locator(tid('tool-status')).textContent(), 'complete', 'the tool answered (with an error)');

  // The second: valid.
  const good = cards.nth(1);
  assert.equal(await good.getAttribute('data-args'), 'ok');
  assert.equal(await good.locator(tid('tool-check')).textContent(), 'Arguments match the tool’s schema');
  assert.equal(await good.locator(tid('args-error')).count(), 0);
  assert.equal(await good.locator(tid('tool-status')).textContent(), 'complete');

  // The third: cut off, shown as it came, never complete.
  const cut = cards.nth(2);
  assert.equal(await cut.getAttribute('data-args'), 'cut');
  assert.equal(await cut.locator(tid('tool-status')).textContent(), 'arguments cut off');
  assert.match(await cut.locator(tid('tool-check')).textContent(), /^Arguments cut off/);
  assert.match(await cut.locator(tid('tool-args')).textContent(), /^\{"title": "Oslo packing list", "text": "Rain on Thursday .* warm layers and$/);
  assert.ok(await cut.locator(tid('tool-result')).isHidden());

  const seen = await page.evaluate(() => window.seen);
  const of = (i) => seen.filter((x) => x[0] === i);
  // While the first call's arguments streamed, its card already said what was wrong.
  assert.ok(of(0).some(([, badge, kind, text]) => badge === 'streaming arguments' && kind === 'invalid' && text.includes('unit must be one of celsius, fahrenheit')),
    `the error shown while streaming: ${JSON.stringify(of(0))}`);
  assert.ok(of(1).some(([, badge, kind, text]) => badge === 'streaming arguments' && kind === 'pending' && text === 'Arguments valid so far'), 'the retry: valid so far while it streams');
  // The third never said complete nor valid.
  assert.ok(of(2).length > 0);
  assert.ok(of(2).every(([, badge, kind]) => ['streaming arguments', 'arguments cut off'].includes(badge) && ['pending', 'cut'].includes(kind)), JSON.stringify(of(2)));
  await shot(page, 'tool-validation');
  noProblems(page);
});

test('endpoint: an HTTP error from the endpoint becomes the error banner', { timeout: TIMEOUT }, async (t) => {
  const page = await openPage(t);
  await page.fill(tid('endpoint'), '/no-such-agent');
  await page.dispatchEvent(tid('endpoint'), 'change');
  await send(page, 'hello');
  assert.equal(await status(page), 'error');
  assert.match(await page.textContent(tid('error-message')), /^HTTP 405/);
  assert.equal(await page.textContent(tid('error-code')), '405');
  await page.click(tid('error-close'));
  assert.ok(await page.isHidden(tid('error-banner')));
  // The endpoint is remembered; the next run goes to the demo agent again.
  await page.reload();
  await page.waitForFunction(() => document.body.dataset.ready === 'true');
  assert.equal(await page.inputValue(tid('endpoint')), '/no-such-agent');
  await page.fill(tid('endpoint'), '/agent');
  await page.dispatchEvent(tid('endpoint'), 'change');
});

test('cross-origin: an agent on another origin works when its -cors names the page, not otherwise', { timeout: TIMEOUT }, async (t) => {
  const page = await openPage(t);
  await page.fill(tid('endpoint'), `${corsURL}agent`);
  await page.dispatchEvent(tid('endpoint'), 'change');
  await send(page, 'hello', { scenario: 'tools' });
  assert.equal(await status(page), 'idle', await page.textContent(tid('error-message')));
  assert.match(await lastAssistantText(page), /Lisbon/);
  noProblems(page);

  // The slow server has no -cors: the browser's preflight is refused.
  await page.fill(tid('endpoint'), `${slowURL}agent`);
  await page.dispatchEvent(tid('endpoint'), 'change');
  await send(page, 'hello', { scenario: 'text' });
  assert.equal(await status(page), 'error');
  await page.fill(tid('endpoint'), '/agent');
  await page.dispatchEvent(tid('endpoint'), 'change');
});

test('endpoint link: ?endpoint= switches agents only once the user agrees', { timeout: TIMEOUT }, async (t) => {
  const page = await context.newPage();
  t.after(() => page.close());
  const dialogs = [];
  let answer = 'dismiss';
  page.on('dialog', (d) => { dialogs.push(d.message()); return answer === 'accept' ? d.accept() : d.dismiss(); });
  const ready = () => page.waitForFunction(() => document.body.dataset.ready === 'true', null, { timeout: TIMEOUT });
  await page.goto(url);
  await page.evaluate(() => localStorage.clear());

  const elsewhere = 'http://127.0.0.1:9/other-agent';
  await page.goto(`${url}?endpoint=${encodeURIComponent(elsewhere)}`);
  await ready();
  assert.equal(dialogs.length, 1, 'asked once');
  assert.match(dialogs[0], /other-agent/, 'the question names the agent');
  assert.equal(await page.inputValue(tid('endpoint')), '/agent', 'declined: still the demo agent');

  answer = 'accept';
  await page.reload();
  await ready();
  assert.equal(dialogs.length, 2);
  assert.equal(await page.inputValue(tid('endpoint')), elsewhere, 'accepted: the linked agent');

  // A link to the agent already in use asks nothing.
  await page.goto(`${url}?endpoint=/agent`);
  await ready();
  assert.equal(dialogs.length, 2);
  assert.equal(await page.inputValue(tid('endpoint')), '/agent');
});

test('overview screenshot', { timeout: TIMEOUT }, async (t) => {
  const page = await openPage(t);
  await page.setViewportSize({ width: 1360, height: 1260 });
  await send(page, "What's the weather in Lisbon? Use a tool.");
  await send(page, 'Research how WebAssembly memory works, with sources');
  await page.locator(tid('message')).nth(1).evaluate((m) => m.scrollIntoView({ block: 'start' }));
  await page.evaluate(() => { document.querySelector('[data-testid="conversation"]').scrollTop -= 12; });
  await page.waitForTimeout(700); // the state panel's change highlight fades
  await shot(page, 'overview');
  noProblems(page);
});
