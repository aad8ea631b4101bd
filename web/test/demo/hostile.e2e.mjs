// The demo page is inert to hostile agent text (headless Chromium): the
// agui-demo server replays web/test/demo/hostile.jsonl (through its
// -scenario flag, so the recording stays out of the page's picker), whose
// text, citations, tool name, arguments and result, activity, steps, custom
// event, state and interrupt carry <script>, <img onerror>, <svg onload>,
// javascript: and data: URLs. The page runs with its Content-Security-Policy
// bypassed, so that only the rendering stands between the text and the DOM.
//
//   node --test web/test/demo/hostile.e2e.mjs     (needs make wasm, playwright-core)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium, startDemoServer } from '../support/chromium.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../../..');
const scenario = path.join(here, 'hostile.jsonl');
const tmp = mkdtempSync(path.join(tmpdir(), 'agui-demo-hostile-'));
const TIMEOUT = 60_000;

let context;
let server;
let url;

async function startServer(bin, args) {
  const started = await startDemoServer(bin, args, root);
  server = started.proc;
  return started.url;
}

before(async () => {
  if (!existsSync(path.join(root, 'web/dist/agui.wasm'))) throw new Error('web/dist/agui.wasm is missing: run `make wasm` first');
  let bin = process.env.AGUI_DEMO_BIN;
  if (!bin) {
    bin = path.join(tmp, 'agui-demo');
    execFileSync('go', ['build', '-o', bin, './cmd/agui-demo'], { cwd: root, stdio: 'inherit' });
  }
  url = await startServer(bin, ['-addr', '127.0.0.1:0', '-speed', '0', '-scenario', scenario]);
  context = await launchChromium(path.join(tmp, 'profile'), {
    bypassCSP: true,
    viewport: { width: 1360, height: 880 },
  });
});

after(async () => {
  await context?.close();
  server?.kill('SIGTERM');
  rmSync(tmp, { recursive: true, force: true });
});

const tid = (id) => `[data-testid="${id}"]`;

test('demo: hostile agent text renders as text; links only for http(s)', { timeout: TIMEOUT }, async (t) => {
  const page = await context.newPage();
  t.after(() => page.close());
  const problems = [];
  const dialogs = [];
  const requests = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
  page.on('dialog', (d) => { dialogs.push(d.message()); d.dismiss().catch(() => {}); });
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(url);
  await page.waitForFunction(() => document.body.dataset.ready !== 'false', null, { timeout: TIMEOUT });
  assert.equal(await page.evaluate(() => document.body.dataset.ready), 'true');
  // Injected handlers would set this; a tripwire on the page's own objects too.
  await page.evaluate(() => {
    window.__pwned = undefined;
    window.__elementsBefore = document.querySelectorAll('script, img, iframe, svg, object, embed, style, link').length;
  });
  const scripts = await page.locator('script').count();

  const runs = Number(await page.evaluate(() => document.body.dataset.runs));
  await page.fill(tid('input'), 'Hello <img src=x onerror="window.__pwned=\'user\'">');
  await page.click(tid('send'));
  await page.waitForFunction((k) => Number(document.body.dataset.runs) > k, runs, { timeout: TIMEOUT });
  await page.waitForTimeout(300); // rAF-batched render; any injected handler would have fired

  // The run arrived: messages, the tool card, activity, citations, the interrupt.
  const texts = await page.locator(`${tid('message')}[data-role="assistant"] ${tid('message-content')}`).allTextContents();
  const hostile = texts.find((x) => x.startsWith('Hostile text: '));
  assert.ok(hostile, `assistant text rendered: ${JSON.stringify(texts)}`);
  for (const s of [
    "<script>window.__pwned='script';alert('script')</script>",
    `<img src=x onerror="window.__pwned='img';alert('img')">`,
    `<a href="javascript:window.__pwned='a';alert('a')">click me</a>`,
    `<iframe src="javascript:alert('iframe')"></iframe>`,
    `<svg onload="window.__pwned='svg';alert('svg')"></svg>`,
    '<style>body{display:none}</style>',
    "[md](javascript:alert('md'))",
    '&lt;escaped&gt; &amp;',
  ]) assert.ok(hostile.includes(s), `literal text: ${s}`);
  assert.equal(await page.locator(`${tid('message')}[data-role="user"] ${tid('message-content')}`).textContent(),
    `Hello <img src=x onerror="window.__pwned='user'">`);

  // No element was made from agent text, anywhere on the page.
  const made = await page.evaluate(() => ({
    inMessages: document.querySelectorAll('[data-testid="messages"] :is(script, img, iframe, svg, object, embed, style, link, b, a[href^="javascript" i], a[href^="data" i])').length,
    total: document.querySelectorAll('script, img, iframe, svg, object, embed, style, link').length,
    before: window.__elementsBefore,
    handlers: [...document.querySelectorAll('*')].filter((e) => [...e.attributes].some((a) => /^on/i.test(a.name))).map((e) => e.outerHTML.slice(0, 80)),
    pwned: window.__pwned,
  }));
  assert.equal(made.inMessages, 0, 'no markup inside the message list');
  assert.equal(made.total, made.before, 'no new script/img/iframe/svg/style/link elements on the page');
  assert.deepStrictEqual(made.handlers, [], 'no inline event handler attributes');
  assert.equal(made.pwned, undefined, 'no injected handler ran');
  assert.equal(await page.locator('script').count(), scripts);
  assert.deepStrictEqual(dialogs, [], 'no dialog');

  // Citations: links only for absolute http(s) URLs; the rest is text with no href.
  const cites = await page.locator(tid('citation')).evaluateAll((lis) => lis.map((li) => ({
    text: li.textContent,
    hrefs: [...li.querySelectorAll('[href]')].map((a) => a.getAttribute('href')),
    links: li.querySelectorAll('a').length,
  })));
  assert.equal(cites.length, 10, JSON.stringify(cites));
  const linked = cites.filter((c) => c.links > 0);
  assert.deepStrictEqual(linked.map((c) => c.hrefs), [['https://example.com/ok?q=%3Cb%3Ex%3C/b%3E'], ['http://example.org/']]);
  for (const c of cites) for (const h of c.hrefs) assert.match(h, /^https?:\/\//);
  for (const s of ["javascript:window.__pwned='cite1';alert('cite1')", "JAVASCRIPT:alert('cite2')", `<img src=x onerror="window.__pwned='cite-title';alert('cite-title')">`,
    "data:text/html,<script>alert('cite5')</script>", "vbscript:msgbox('cite7')", '//evil.example/x', '<b>https ok</b>']) {
    assert.ok(cites.some((c) => c.text.includes(s)), `citation shown as text: ${s}`);
  }
  assert.equal(await page.locator(`${tid('citation')} a[href^="javascript" i], ${tid('citation')} a[href^="data" i]`).count(), 0);

  // Tool name, arguments and result are text.
  assert.equal(await page.textContent(tid('tool-name')), `<img src=x onerror="window.__pwned='toolname';alert('toolname')">`);
  const args = await page.textContent(tid('tool-args'));
  assert.ok(args.includes("<script>window.__pwned='args';alert('args')</script>"), args);
  assert.ok(args.includes("javascript:alert('args-url')"));
  const result = await page.textContent(tid('tool-result'));
  assert.equal(result, `<img src=x onerror="window.__pwned='result';alert('result')"><script>alert('result2')</script>`);
  // Activity, steps, custom event log, shared state and the interrupt.
  assert.equal(await page.textContent(tid('activity-title')), `<img src=x onerror="window.__pwned='activity';alert('activity')">`);
  assert.equal(await page.textContent(tid('activity-type')), '<b>PLAN</b>');
  assert.ok((await page.textContent(`${tid('activity')}`)).includes("<script>alert('step1')</script>"));
  assert.ok((await page.textContent(tid('steps'))).includes(`<img src=x onerror="window.__pwned='step';alert('step')">`));
  assert.ok((await page.textContent(tid('custom-log'))).includes("<script>alert('custom')</script>"));
  assert.ok((await page.textContent(tid('state-panel'))).includes("<script>window.__pwned='state';alert('state')</script>"));
  assert.equal(await page.textContent(tid('interrupt-message')), "<script>alert('interrupt-message')</script>");

  // Nothing was fetched from agent text (img src=x, //evil.example, data:).
  const base = new URL(url).origin;
  assert.deepStrictEqual(requests.filter((r) => !r.startsWith(base)), []);
  assert.deepStrictEqual(requests.filter((r) => /\/x$|evil/.test(r)), []);
  assert.deepStrictEqual(problems, [], 'no page errors');
  // And the recording really is hostile (a guard against it being edited into harmlessness).
  const rec = readFileSync(scenario, 'utf8');
  for (const s of ['<script>', 'onerror=', 'javascript:', 'JAVASCRIPT:', ' javascript:', 'data:text/html', 'DATA:']) assert.ok(rec.includes(s), s);
});
