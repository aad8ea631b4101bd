// The demo's layout at a phone's, a tablet's and a laptop's size (headless
// Chromium against agui-demo): after a scripted conversation (text, a tool
// call with its result, shared state with sources, custom events), with the
// inspector open and closed, and after a reload, nothing is wider than the
// viewport, nothing hides part of its content without a scroll affordance
// (support/layout.mjs), the composer's textarea and Send line up, and each
// part reads well: the scenario select fits a phone, sources wrap beside
// their [n], the status text sits level with its dot, wrapped JSON keeps its
// indentation and ids break at hyphens, a tool result cut short says so,
// one word for a finished tool call, the inspector keeps its columns and
// lane labels whole, and a reload keeps the custom events and shows the
// thread in the inspector as loaded from the relay. Then the other
// scenarios (reasoning, parallel tools, tool arguments checked against
// their schemas, activity, an interrupt, an error)
// and every tab of the inspector, checked the same way.
//
// Needs `make wasm`; builds the server (go build) unless AGUI_DEMO_BIN.
// Screenshots go to test-output/layout-<width>-<step>.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium, startDemoServer } from '../support/chromium.mjs';
import { layoutProblems, composerProblems, textOffsetFrom, lineBreaks } from '../support/layout.mjs';
import { openDemo, converse, sendMessage, setInspector, narrow, frames, demoReady, tid } from '../support/demo-page.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const outDir = path.join(root, 'test-output');
const tmp = mkdtempSync(path.join(tmpdir(), 'agui-layout-e2e-'));
const TIMEOUT = 120_000;
export const SIZES = [[390, 844], [768, 1024], [1280, 800]];

let context;
let server;
let url;

before(async () => {
  if (!existsSync(path.join(root, 'web/dist/agui.wasm'))) throw new Error('web/dist/agui.wasm is missing: run `make wasm` first');
  mkdirSync(outDir, { recursive: true });
  let bin = process.env.AGUI_DEMO_BIN;
  if (!bin) {
    bin = path.join(tmp, 'agui-demo');
    execFileSync('go', ['build', '-o', bin, './cmd/agui-demo'], { cwd: root, stdio: 'inherit' });
  }
  server = await startDemoServer(bin, ['-addr', '127.0.0.1:0', '-speed', '0.05'], root);
  url = server.url;
  context = await launchChromium(path.join(tmp, 'profile'), { colorScheme: 'light' });
});

after(async () => {
  await context?.close();
  server?.proc.kill('SIGTERM');
  rmSync(tmp, { recursive: true, force: true });
});

/** The layout check and the composer's alignment, with a screenshot of the step. */
async function checkLayout(page, [w], step) {
  await page.screenshot({ path: path.join(outDir, `layout-${w}-${step}.png`) });
  assert.deepEqual(await layoutProblems(page), [], `${w}px, ${step}: no overflow, no clipping without a scroll affordance`);
  assert.deepEqual(await composerProblems(page, tid('input'), tid('send')), [], `${w}px, ${step}: the composer lines up`);
}

for (const size of SIZES) {
  const [w, h] = size;
  test(`layout at ${w}×${h}: the scripted conversation, the inspector open and closed, a reload`, { timeout: TIMEOUT }, async (t) => {
    const page = await openDemo(context, url, { viewport: { width: w, height: h } });
    t.after(() => page.close());
    const phone = await narrow(page);

    // The settings (folded behind ⚙ on a phone): the scenario select fits.
    if (phone) await page.click(tid('settings-toggle'));
    const select = await page.locator(tid('scenario')).boundingBox();
    assert.ok(select.x >= 0 && select.x + select.width <= w, `the scenario select (${select.x}…${select.x + select.width}) fits ${w}px`);
    await checkLayout(page, size, 'settings');
    if (phone) await page.click(tid('settings-toggle'));

    await converse(page);
    await checkLayout(page, size, 'chat');

    // The status pill's text is level with its dot.
    const off = await textOffsetFrom(page, `${tid('run-status')} .status-label`, `${tid('run-status')} .dot`);
    assert.ok(Math.abs(off) <= 1, `the status text is ${off}px off its dot's centre`);

    // Sources: [n] in its column, on the title's first line; titles start at one x.
    const cites = await page.locator(tid('citation')).evaluateAll((lis) => lis.map((li) => {
      const idx = li.querySelector('.cite-index').getBoundingClientRect();
      const body = li.querySelector('.cite-body');
      const first = body.firstElementChild.getClientRects()[0];
      return { idxTop: idx.top, idxBottom: idx.bottom, idxLeft: idx.left, bodyLeft: body.getBoundingClientRect().left, firstTop: first.top, firstBottom: first.bottom };
    }));
    assert.equal(cites.length, 4);
    for (const c of cites) {
      assert.ok(c.idxTop < c.firstBottom && c.idxBottom > c.firstTop, `[n] on its title's first line: ${JSON.stringify(c)}`);
    }
    assert.equal(new Set(cites.map((c) => Math.round(c.bodyLeft))).size, 1, 'every title starts at one x');
    assert.equal(new Set(cites.map((c) => Math.round(c.idxLeft))).size, 1, 'every [n] starts at one x');
    // The host follows its title in the same flow (never alone under some and beside others).
    const hosts = await page.locator(`${tid('citation')} .cite-host`).evaluateAll((hs) => hs.map((x) => x.parentElement.classList.contains('cite-body')));
    assert.deepEqual(hosts, [true, true, true, true]);

    // One word for a finished tool call: the card's.
    const card = page.locator(tid('tool-call'));
    assert.equal(await card.locator(tid('tool-status')).textContent(), 'complete');

    // The tool result is cut short and says so: it fades and offers "Show all", which shows all of it.
    const result = card.locator(tid('tool-result'));
    assert.equal(await result.getAttribute('data-overflowing'), 'true');
    assert.match(await result.getAttribute('data-more'), /down/);
    assert.notEqual(await result.evaluate((x) => getComputedStyle(x).maskImage), 'none', 'the result fades at its foot');
    const more = card.locator(`.tool-result ${tid('show-all')}`);
    assert.ok(await more.isVisible());
    await more.click();
    await frames(page);
    assert.equal(await result.evaluate((x) => x.scrollHeight <= x.clientHeight + 1), true, 'Show all shows all');
    assert.equal(await more.textContent(), 'Show less');
    await more.click();
    await frames(page);
    // Cut between two lines, not through one.
    const cut = await result.evaluate((x) => {
      const cs = getComputedStyle(x);
      return (x.clientHeight - parseFloat(cs.paddingTop) - parseFloat(cs.paddingBottom)) / parseFloat(cs.lineHeight);
    });
    assert.ok(Math.abs(cut - Math.round(cut)) < 0.08, `the result box holds ${cut} lines`);

    // The agent state (a sheet on a phone): wrapped JSON lines keep their indentation; ids break at hyphens.
    if (phone) { await page.click(tid('side-toggle')); await frames(page); }
    await checkLayout(page, size, 'state');
    const wrapped = await page.locator(`${tid('state-panel')} .ln`).evaluateAll((lines) => lines.map((ln) => {
      // From the first non-space character to the end (a URL's parts are text nodes between <wbr>s).
      const text = ln.firstChild;
      const start = text.data.length - text.data.trimStart().length;
      const r = document.createRange();
      r.setStart(text, start);
      r.setEnd(ln, ln.childNodes.length);
      const rects = [...r.getClientRects()].filter((x) => x.width > 0);
      const lines = [];
      for (const x of rects) if (!lines.length || x.top > lines[lines.length - 1].top + 2) lines.push(x);
      return { text: ln.textContent.trim().slice(0, 30), first: lines[0]?.left, rest: lines.slice(1).map((x) => x.left) };
    }));
    const continued = wrapped.filter((l) => l.rest.length);
    assert.ok(continued.length > 0, 'some line of the state wraps at this width');
    for (const l of continued) for (const x of l.rest) assert.ok(x > l.first, `a wrapped line (${l.text}) goes on right of where it began`);
    // A URL too long for the box wraps after one of its parts (a slash), not inside one.
    for (const ln of await page.locator(`${tid('state-panel')} .ln`, { hasText: '"url"' }).all()) {
      const breaks = await lineBreaks(page, ln);
      assert.ok(breaks.every((c) => /[\s/#?&:-]/.test(c)), `a URL wraps between its parts (or at a hyphen): ${JSON.stringify(breaks)}`);
    }
    const runBreaks = await lineBreaks(page, tid('info-run'));
    assert.ok(runBreaks.every((c) => c === '-'), `the run id breaks after hyphens only: ${JSON.stringify(runBreaks)}`);
    for (const v of await page.locator(`${tid('custom-log')} .log-value`).all()) {
      const breaks = await lineBreaks(page, v);
      assert.ok(breaks.every((c) => /[\s,:]/.test(c)), `a custom event's JSON wraps between values: ${JSON.stringify(breaks)}`);
    }
    assert.equal(await page.textContent(tid('custom-count')), '2');
    const stateCut = await page.locator(tid('state-panel')).evaluate((x) => {
      const cs = getComputedStyle(x);
      return (x.clientHeight - parseFloat(cs.paddingTop) - parseFloat(cs.paddingBottom)) / parseFloat(cs.lineHeight);
    });
    assert.ok(Math.abs(stateCut - Math.round(stateCut)) < 0.08, `the state box holds ${stateCut} lines`);
    if (phone) { await page.click(tid('side-close')); await frames(page); }

    // The inspector open: the composer (beside it, or under it on a phone) still lines up.
    await setInspector(page, true);
    await page.waitForTimeout(200);
    await checkLayout(page, size, 'inspector');
    const inspector = page.locator(tid('inspector'));
    // The same word for the finished tool call.
    await inspector.evaluate((x) => { x.tab = 'conversation'; x.flush(); });
    assert.deepEqual(await inspector.locator('.tc .badge').allTextContents(), ['complete']);
    if (w >= 1280) {
      // Room for every column, and whole lane labels.
      assert.ok(await inspector.locator('.thead .col-ids').isVisible(), 'the ids column at 1280px');
      assert.ok(await inspector.locator('.thead .col-size').isVisible(), 'the size column at 1280px');
      await inspector.evaluate((x) => { x.tab = 'lanes'; x.flush(); });
      const labels = await inspector.locator('.lane[data-kind="run"] .lane-label').evaluateAll((ls) => ls.map((l) => ({
        text: l.textContent, lines: Math.round(l.getBoundingClientRect().height / parseFloat(getComputedStyle(l).lineHeight)),
        clipped: l.scrollWidth > l.clientWidth + 1,
      })));
      assert.equal(labels.length, 3);
      for (const l of labels) {
        assert.match(l.text, /^run[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, 'the whole run id');
        assert.equal(l.lines, 1, `${l.text} on one line`);
        assert.equal(l.clipped, false);
      }
      await checkLayout(page, size, 'lanes');
    }
    // Beside the chat (on a phone and a tablet it covers it): a message sent with the inspector
    // open (the composer narrower), then the inspector closed: the textarea is one line again,
    // level with Send.
    if (!phone) {
      await sendMessage(page, 'How does it work?', { scenario: 'state' });
      await checkLayout(page, size, 'sent-inspector');
    }
    await setInspector(page, false);
    await checkLayout(page, size, 'closed');

    // A reload: the same custom events; the inspector starts at the thread as loaded from the relay.
    const messages = await page.evaluate(() => window.aguiDemo.reducer.state.messages.length);
    const names = await page.locator(tid('custom-event-name')).allTextContents();
    await page.reload();
    await demoReady(page);
    await page.waitForFunction(() => document.body.dataset.thread === 'relay');
    assert.equal(await page.textContent(tid('custom-count')), '2', 'the custom events the thread brought');
    assert.deepEqual(await page.locator(tid('custom-event-name')).allTextContents(), names);
    await setInspector(page, true);
    await inspector.evaluate((x) => { x.tab = 'conversation'; x.flush(); });
    const entries = await inspector.evaluate((x) => x.session.entries.map((e) => [e.kind, e.name, e.note]));
    assert.deepEqual(entries, [['action', 'restore', 'loaded from the relay']], 'one entry: the thread as the relay holds it');
    assert.match(await inspector.locator('.row .type').first().textContent(), /loaded from the relay/);
    assert.equal(await inspector.evaluate((x) => x.stateAt(0).messages.length), messages, 'its state is the thread');
    assert.equal(await inspector.locator('[data-view="conversation"] .msg').count(), messages);
    await checkLayout(page, size, 'reloaded');
    await setInspector(page, false);
    assert.deepEqual(page.problems, []);
  });
}

for (const size of SIZES) {
  const [w, h] = size;
  test(`layout at ${w}×${h}: the other scenarios (reasoning, parallel tools, tool validation, activity, interrupt, error) and every inspector tab`, { timeout: TIMEOUT }, async (t) => {
    const page = await openDemo(context, url, { viewport: { width: w, height: h } });
    t.after(() => page.close());
    await sendMessage(page, 'Think it through: 20 heads and 56 legs', { scenario: 'reasoning' });
    await page.click(tid('reasoning-summary')); // the reasoning unfolded
    await checkLayout(page, size, 'reasoning');
    await sendMessage(page, 'Weather in Paris and the time in Tokyo, in parallel', { scenario: 'parallel-tools' });
    assert.deepEqual(await page.locator(tid('tool-status')).allTextContents(), ['complete', 'complete']);
    await checkLayout(page, size, 'parallel-tools');
    await sendMessage(page, 'Check the weather in Oslo and save a packing note', { scenario: 'tool-validation' });
    assert.deepEqual((await page.locator(tid('tool-status')).allTextContents()).slice(2), ['complete', 'complete', 'arguments cut off']);
    assert.deepEqual(await page.locator(tid('tool-check')).evaluateAll((ls) => ls.filter((l) => !l.hidden).map((l) => l.dataset.kind)), ['invalid', 'ok', 'cut']);
    await page.locator('[data-args="invalid"]').scrollIntoViewIfNeeded(); // its errors in view
    await checkLayout(page, size, 'tool-validation');
    await sendMessage(page, 'Deploy the demo to staging and show the plan', { scenario: 'activity' });
    await checkLayout(page, size, 'activity');
    await sendMessage(page, 'Delete report-draft.txt', { scenario: 'interrupt' });
    assert.ok(await page.isVisible(tid('interrupt')));
    await checkLayout(page, size, 'interrupt');
    await sendMessage(page, 'Summarise the quarterly report', { scenario: 'error' });
    assert.ok(await page.isVisible(tid('error-banner')));
    await checkLayout(page, size, 'error');
    if (await narrow(page)) {
      await page.click(tid('side-toggle'));
      await checkLayout(page, size, 'error-state');
      await page.click(tid('side-close'));
    }
    await setInspector(page, true);
    // The event that made a tool call's arguments invalid, selected: its row marked, its errors in the event tab.
    assert.equal(await page.locator(tid('inspector')).evaluate((x) => {
      const i = x.session.entries.findIndex((e) => e.argsInvalid);
      x.select(i);
      return x.session.entries[i].argsInvalid[0].errors[0].keyword;
    }), 'enum');
    for (const tab of ['conversation', 'state', 'event', 'diff', 'lanes']) {
      await page.locator(tid('inspector')).evaluate((x, name) => { x.tab = name; x.flush(); }, tab);
      await checkLayout(page, size, `inspector-${tab}`);
    }
    assert.deepEqual(page.problems, []);
  });
}
