// The demo (make run) with the inspector, in headless Chromium against the
// agui-demo server: at a phone's 390×844 and a laptop's 1280×800 the page
// fits (no element wider than the viewport, the composer visible) with
// screenshots in test-output/; the Inspect panel follows a chat, scrubs
// back and exports a recording; /inspect replays a dropped recording.
// Needs `make wasm` and playwright-core; builds the server (go build).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, readFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { launchChromium, startDemoServer } from '../support/chromium.mjs';
import { repoDir } from './serve.mjs';

const outDir = path.join(repoDir, 'test-output');
const tmp = mkdtempSync(path.join(tmpdir(), 'agui-inspector-demo-'));
const TIMEOUT = 60_000;
const tid = (id) => `[data-testid="${id}"]`;
let server, url, context;

before(async () => {
  mkdirSync(outDir, { recursive: true });
  let bin = process.env.AGUI_DEMO_BIN;
  if (!bin) {
    bin = path.join(tmp, 'agui-demo');
    execFileSync('go', ['build', '-o', bin, './cmd/agui-demo'], { cwd: repoDir, stdio: 'inherit' });
  }
  ({ proc: server, url } = await startDemoServer(bin, ['-addr', '127.0.0.1:0', '-speed', '0.05'], repoDir));
  context = await launchChromium(path.join(tmp, 'profile'), { colorScheme: 'light', acceptDownloads: true });
});

after(async () => {
  await context?.close();
  server?.kill('SIGTERM');
  rmSync(tmp, { recursive: true, force: true });
});

async function openPage(t, viewport, where = url) {
  const page = await context.newPage();
  await page.setViewportSize(viewport);
  const problems = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
  t.after(() => page.close());
  await page.goto(where);
  await page.evaluate(() => localStorage.clear());
  await page.reload();
  await page.waitForFunction(() => document.body.dataset.ready !== 'false', null, { timeout: TIMEOUT });
  page.problems = problems;
  return page;
}

async function send(page, text) {
  const runs = Number(await page.evaluate(() => document.body.dataset.runs));
  await page.fill(tid('input'), text);
  await page.click(tid('send'));
  await page.waitForFunction((k) => Number(document.body.dataset.runs) > k, runs, { timeout: TIMEOUT });
  await page.waitForTimeout(80);
}

/** Elements wider than the viewport or reaching past its right edge (visible ones). */
function overflow(page) {
  return page.evaluate(() => {
    const w = document.documentElement.clientWidth;
    const bad = [];
    const all = [...document.querySelectorAll('body *')];
    for (const e of all) {
      const r = e.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      const cs = getComputedStyle(e);
      if (cs.visibility === 'hidden' || cs.position === 'fixed' && cs.display === 'none') continue;
      // Inside a scrolling box, content may extend: only what the box itself shows counts.
      let clipped = false;
      for (let p = e.parentElement; p && p !== document.body; p = p.parentElement) {
        const o = getComputedStyle(p);
        if (/(auto|scroll|hidden)/.test(o.overflowX)) { clipped = true; break; }
      }
      if (!clipped && (r.right > w + 1 || r.left < -1)) bad.push(`${e.tagName.toLowerCase()}.${[...e.classList].join('.')} ${Math.round(r.left)}..${Math.round(r.right)}`);
    }
    return { bad: bad.slice(0, 10), scrollWidth: document.documentElement.scrollWidth, width: w };
  });
}

async function composerVisible(page) {
  return page.evaluate(() => {
    const r = document.querySelector('[data-testid="composer"]').getBoundingClientRect();
    const send = document.querySelector('[data-testid="send"]').getBoundingClientRect();
    return r.top >= 0 && r.bottom <= window.innerHeight + 1 && send.right <= window.innerWidth + 1 && send.width > 0;
  });
}

for (const [name, viewport] of [['phone', { width: 390, height: 844 }], ['laptop', { width: 1280, height: 800 }]]) {
  test(`demo at ${viewport.width}×${viewport.height} (${name}): fits, composer visible, chat gets the room`, { timeout: TIMEOUT * 2 }, async (t) => {
    const page = await openPage(t, viewport);
    await page.screenshot({ path: path.join(outDir, `demo-${name}-intro.png`) });
    let o = await overflow(page);
    assert.deepEqual(o.bad, [], 'nothing past the right edge (intro)');
    assert.ok(o.scrollWidth <= o.width, `no horizontal scroll: ${o.scrollWidth} > ${o.width}`);
    assert.ok(await composerVisible(page), 'the composer is on screen');
    const header = await page.locator('header.topbar').boundingBox();
    const chat = await page.locator(tid('conversation')).boundingBox();
    assert.ok(header.height <= (name === 'phone' ? 60 : 70), `header ${header.height} px`);
    assert.ok(chat.height >= viewport.height * 0.6, `conversation ${chat.height} px of ${viewport.height}`);
    // Every suggestion chip is whole on screen.
    const chips = await page.locator('[data-suggest]').evaluateAll((bs) => bs.map((b) => { const r = b.getBoundingClientRect(); return [r.left, r.right]; }));
    for (const [l, r] of chips) assert.ok(l >= 0 && r <= viewport.width, `chip ${l}..${r}`);

    await send(page, "What's the weather in Lisbon? Use a tool.");
    await send(page, 'Think it through: 20 heads and 56 legs, how many chickens and rabbits?');
    await page.screenshot({ path: path.join(outDir, `demo-${name}-chat.png`) });
    o = await overflow(page);
    assert.deepEqual(o.bad, [], 'nothing past the right edge (chat)');
    assert.ok(await composerVisible(page), 'the composer is on screen after a chat');
    // The user's bubble on the right, its avatar beside it; one avatar per assistant turn.
    const user = await page.locator(`${tid('message')}[data-role="user"]`).first().evaluate((m) => {
      const b = m.querySelector('[data-testid="message-content"]').getBoundingClientRect();
      const a = m.querySelector('.avatar').getBoundingClientRect();
      return { bubbleRight: b.right, avatarLeft: a.left, mid: m.getBoundingClientRect().left + m.getBoundingClientRect().width / 2, bubbleLeft: b.left };
    });
    assert.ok(user.bubbleRight <= user.avatarLeft && user.avatarLeft - user.bubbleRight <= 16, `the bubble ends at its avatar: ${JSON.stringify(user)}`);
    const avatars = await page.locator(`${tid('message')}[data-role="assistant"]:not(.same-turn) .avatar`).count();
    const turns = await page.locator(`${tid('message')}[data-role="user"]`).count();
    assert.equal(avatars, turns, 'one visible assistant avatar per turn (reasoning and answer share it)');
    // Agent state: beside the chat on a laptop, a sheet on a phone.
    if (name === 'phone') {
      assert.ok(!(await page.isVisible(tid('state-panel'))));
      await page.click(tid('side-toggle'));
      assert.ok(await page.isVisible(tid('state-panel')));
      await page.screenshot({ path: path.join(outDir, `demo-${name}-state.png`) });
      await page.click(tid('side-close'));
    } else {
      assert.ok(await page.isVisible(tid('state-panel')));
    }
    // The inspector: full screen on a phone, beside the chat on a laptop.
    await page.click(tid('inspect-toggle'));
    await page.waitForTimeout(100);
    await page.screenshot({ path: path.join(outDir, `demo-${name}-inspect.png`) });
    o = await overflow(page);
    assert.deepEqual(o.bad, [], 'nothing past the right edge (inspect)');
    if (name === 'laptop') assert.ok(await composerVisible(page), 'the chat stays usable beside the inspector');
    assert.deepEqual(page.problems, []);
  });
}

test('Inspect panel: follows the chat, scrubs back to any event, exports the run', { timeout: TIMEOUT * 2 }, async (t) => {
  const page = await openPage(t, { width: 1280, height: 800 });
  await page.click(tid('inspect-toggle'));
  await send(page, "What's the weather in Lisbon? Use a tool.");
  const n = await page.evaluate(() => window.aguiDemo.inspector.session.entries.length);
  assert.ok(n > 20, `${n} entries`);
  // Scrub back: the state then has the user message and no answer yet.
  const back = await page.evaluate(() => {
    const i = window.aguiDemo.inspector;
    const k = i.session.entries.findIndex((e) => e.type === 'TOOL_CALL_START');
    const s = i.select(k);
    i.flush();
    return { k, messages: s.messages.length, status: s.status, tool: s.toolCalls[0]?.status, now: window.aguiDemo.reducer.state.messages.length };
  });
  assert.equal(back.status, 'running');
  assert.equal(back.tool, 'running');
  assert.ok(back.messages < back.now);
  // Keyboard in the panel.
  await page.locator('agui-inspector .timeline').focus();
  await page.keyboard.press('End');
  assert.equal(await page.evaluate(() => window.aguiDemo.inspector.selected), n - 1);
  await page.keyboard.press('ArrowUp');
  assert.equal(await page.evaluate(() => window.aguiDemo.inspector.selected), n - 2);
  await page.screenshot({ path: path.join(outDir, 'demo-inspect-panel.png') });
  // Export: a download of the recording.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.locator('agui-inspector').locator('button', { hasText: 'Export' }).click(),
  ]);
  const file = path.join(tmp, 'run.jsonl');
  await download.saveAs(file);
  const text = readFileSync(file, 'utf8');
  assert.equal(text, await page.evaluate(() => window.aguiDemo.inspector.exportRecording()));
  const lines = text.trimEnd().split('\n');
  assert.equal(JSON.parse(lines[0]).aguiRecording, 1);
  assert.equal(lines.length - 1, n);
  assert.ok(lines.some((l) => l.includes('"action":"addUserMessage"')));
  copyFileSync(file, path.join(outDir, 'demo-recording.jsonl'));
  assert.deepEqual(page.problems, []);
});

test('/inspect: a dropped recording replays and scrubs', { timeout: TIMEOUT * 2 }, async (t) => {
  const rec = path.join(outDir, 'demo-recording.jsonl');
  const page = await openPage(t, { width: 1280, height: 800 }, new URL('/inspect', url).href);
  assert.match(page.url(), /\/demo\/inspect\.html$/);
  assert.ok(await page.isVisible(tid('inspect-intro')));
  // The file input, then a real drop of the same file.
  await page.setInputFiles(tid('inspect-file'), rec);
  await page.waitForFunction(() => window.aguiInspect.inspector.session.entries.length > 20 && window.aguiInspect.inspector.session.mode === 'idle', null, { timeout: TIMEOUT });
  const text = readFileSync(rec, 'utf8');
  assert.equal(await page.evaluate(() => window.aguiInspect.inspector.exportRecording()), text, 'the same recording, byte for byte');
  await page.evaluate(() => window.aguiInspect.inspector.session.clear());
  const dt = await page.evaluateHandle((t) => {
    const d = new DataTransfer();
    d.items.add(new File([t], 'run.jsonl', { type: 'application/x-ndjson' }));
    return d;
  }, text);
  await page.dispatchEvent('agui-inspector', 'drop', { dataTransfer: dt });
  await page.waitForFunction((n) => window.aguiInspect.inspector.session.entries.length === n && window.aguiInspect.inspector.session.mode === 'idle', text.trimEnd().split('\n').length - 1, { timeout: TIMEOUT });
  await page.locator('agui-inspector .timeline').focus();
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowDown');
  const s = await page.evaluate(() => window.aguiInspect.inspector.stateAt(window.aguiInspect.inspector.selected));
  assert.equal(s.messages[0].role, 'user');
  await page.evaluate(() => { window.aguiInspect.inspector.select(30); window.aguiInspect.inspector.tab = 'lanes'; });
  await page.screenshot({ path: path.join(outDir, 'inspect-page.png') });
  // The docs' picture: mid-run, the tool call streaming its arguments, the conversation then.
  await page.evaluate(() => {
    const i = window.aguiInspect.inspector;
    const k = i.session.entries.findIndex((e) => e.type === 'TOOL_CALL_END');
    i.select(Math.max(0, k - 3));
    i.tab = 'conversation';
  });
  await page.screenshot({ path: path.join(outDir, 'inspect-page-conversation.png') });
  assert.deepEqual(page.problems, []);
});

test('transcript: a tool card awaits approval, then says rejected, and the rejection is noted', { timeout: TIMEOUT }, async (t) => {
  const page = await openPage(t, { width: 1280, height: 800 });
  await send(page, 'Delete report-draft.txt');
  const card = page.locator(tid('tool-call'));
  assert.equal(await card.locator(tid('tool-status')).textContent(), 'awaiting approval');
  const runs = Number(await page.evaluate(() => document.body.dataset.runs));
  await page.click(tid('interrupt-reject'));
  await page.waitForFunction((k) => Number(document.body.dataset.runs) > k, runs, { timeout: TIMEOUT });
  await page.waitForTimeout(80);
  assert.equal(await card.locator(tid('tool-status')).textContent(), 'rejected');
  assert.equal(await page.textContent(tid('note')), 'You rejected “delete_file”.');
  await page.screenshot({ path: path.join(outDir, 'demo-rejected.png') });
  assert.deepEqual(page.problems, []);
});

test('transcript: a state-only step shows the typing indicator with its name', { timeout: TIMEOUT }, async (t) => {
  const slow = await startDemoServer(process.env.AGUI_DEMO_BIN ?? path.join(tmp, 'agui-demo'), ['-addr', '127.0.0.1:0', '-speed', '1'], repoDir);
  t.after(() => slow.proc.kill('SIGTERM'));
  const page = await openPage(t, { width: 1280, height: 800 }, slow.url);
  await page.evaluate(() => {
    window.seenTyping = new Set();
    const tick = () => {
      const el = document.querySelector('[data-testid="typing"]');
      if (el && el.isConnected) window.seenTyping.add(el.textContent);
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  await send(page, 'Research how WebAssembly memory works, with sources');
  const seen = await page.evaluate(() => [...window.seenTyping]);
  assert.ok(seen.some((x) => x.includes('Working: search')), JSON.stringify(seen));
  assert.equal(await page.locator(tid('typing')).count(), 0, 'gone once the run ended');
  assert.deepEqual(page.problems, []);
});

test('transcript: a cut stream is noted where it happened, and is not a custom event', { timeout: TIMEOUT }, async (t) => {
  const cut = await startDemoServer(process.env.AGUI_DEMO_BIN ?? path.join(tmp, 'agui-demo'), ['-addr', '127.0.0.1:0', '-speed', '0.05', '-drop-after', '25'], repoDir);
  t.after(() => cut.proc.kill('SIGTERM'));
  const page = await openPage(t, { width: 1280, height: 800 }, cut.url);
  await send(page, "What's the weather in Lisbon? Use a tool.");
  const notes = await page.locator(tid('note')).allTextContents();
  assert.equal(notes.length, 1, JSON.stringify(notes));
  assert.match(notes[0], /^Connection lost and resumed: reconnected (once|\d+ times), no event lost\.$/);
  const custom = await page.locator(tid('custom-event-name')).allTextContents();
  assert.ok(!custom.some((x) => /reconnect/i.test(x)), JSON.stringify(custom));
  assert.equal(await page.locator(tid('tool-status')).textContent(), 'complete');
  const entries = await page.evaluate(() => window.aguiDemo.inspector.session.entries.filter((e) => e.kind === 'reconnect').length);
  assert.ok(entries >= 1, 'the inspector lists the reconnects');
  // The cut bodies themselves are what the browser reports.
  assert.deepEqual(page.problems.filter((p) => !p.includes('ERR_INCOMPLETE_CHUNKED_ENCODING')), []);
});
