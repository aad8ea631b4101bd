// make docs-screenshots: the documentation's pictures of the demo, taken
// from the current page in headless Chromium against agui-demo, and the
// hash of the sources they show, recorded beside them in
// docs/screenshots.json. go test ./docs/ (make test) fails when those
// sources change and the pictures were not taken again; the PNG bytes
// themselves differ from machine to machine (fonts), so pixels are never
// compared.
//
//   docs/demo.png       the chat after a tool call and a research answer
//                       with citations, the agent state beside it
//   docs/inspector.png  the same conversation with the Inspect panel open
//                       beside the chat: the tool result picked, the lanes
//   docs/tool-validation-demo.png
//                       the tool-validation scenario: a call whose
//                       arguments break its tool's schema, a valid retry,
//                       a call whose arguments were cut off
//
// Needs `make wasm` and web/node_modules; builds the server unless
// AGUI_DEMO_BIN. Run from anywhere: node web/test/demo/screenshots.mjs
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium, startDemoServer } from '../support/chromium.mjs';
import { openDemo, sendMessage, setInspector, frames } from '../support/demo-page.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** What the pictures show: the page, the inspector, the script and the recorded runs it plays. */
export const SOURCES = [
  'web/demo/*',
  'web/src/inspector/*.js',
  'web/test/demo/screenshots.mjs',
  'web/test/support/demo-page.mjs',
  'testdata/scenarios/tools.jsonl',
  'testdata/scenarios/state.jsonl',
  'testdata/scenarios/tool-validation.jsonl',
];
export const PICTURES = ['docs/demo.png', 'docs/inspector.png', 'docs/tool-validation-demo.png'];
export const RECORD = 'docs/screenshots.json';

/** The files of patterns (a directory and a name with * in it), sorted by path. */
export function expand(patterns, base = root) {
  const out = new Set();
  for (const p of patterns) {
    const dir = path.posix.dirname(p);
    const name = path.posix.basename(p);
    if (!name.includes('*')) { out.add(p); continue; }
    const re = new RegExp(`^${name.split('*').map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('[^/]*')}$`);
    for (const f of readdirSync(path.join(base, dir))) {
      if (re.test(f) && !f.startsWith('.') && statSync(path.join(base, dir, f)).isFile()) out.add(`${dir}/${f}`);
    }
  }
  return [...out].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** sha256 of the manifest "sha256(content)  path\n" of each file, as sha256sum writes it. */
export function sourcesHash(patterns, base = root) {
  const manifest = expand(patterns, base)
    .map((f) => `${createHash('sha256').update(readFileSync(path.join(base, f))).digest('hex')}  ${f}\n`).join('');
  return createHash('sha256').update(manifest).digest('hex');
}

async function main() {
  if (!existsSync(path.join(root, 'web/dist/agui.wasm'))) throw new Error('web/dist/agui.wasm is missing: run `make wasm` first');
  const tmp = mkdtempSync(path.join(tmpdir(), 'agui-screenshots-'));
  let bin = process.env.AGUI_DEMO_BIN;
  if (!bin) {
    bin = path.join(tmp, 'agui-demo');
    execFileSync('go', ['build', '-o', bin, './cmd/agui-demo'], { cwd: root, stdio: 'inherit' });
  }
  // Paced a little, so that the lanes show durations.
  const server = await startDemoServer(bin, ['-addr', '127.0.0.1:0', '-speed', '0.3'], root);
  const context = await launchChromium(path.join(tmp, 'profile'), { colorScheme: 'light', deviceScaleFactor: 1 });
  try {
    // The chat: a tool call, then a research answer with its sources, the agent state beside.
    const page = await openDemo(context, server.url, { viewport: { width: 1360, height: 1320 } });
    await sendMessage(page, "What's the weather in Lisbon? Use a tool.", { scenario: 'tools' });
    await sendMessage(page, 'Research how WebAssembly memory works, with sources', { scenario: 'state' });
    await page.evaluate(() => {
      const c = document.querySelector('[data-testid="conversation"]');
      c.scrollTop = c.scrollHeight; // the end of the conversation, as a user sees it after the answer
      document.activeElement?.blur();
    });
    await page.waitForTimeout(800); // the state panel's change highlight fades
    await page.screenshot({ path: path.join(root, 'docs/demo.png') });

    // The inspector beside the chat: the tool result picked, the swimlanes of the runs.
    await page.setViewportSize({ width: 1440, height: 860 });
    await setInspector(page, true);
    await page.evaluate(() => {
      const i = window.aguiDemo.inspector;
      const k = i.session.entries.findIndex((e) => e.type === 'TOOL_CALL_RESULT');
      i.select(k);
      i.tab = 'lanes';
      i.shadowRoot.querySelector('.scroll').scrollTop = Math.max(0, k * 22 - 90); // the picked row among its neighbours
      document.activeElement?.blur();
      // The chat from its start: the question, the tool call whose result is picked.
      document.querySelector('[data-testid="conversation"]').scrollTop = 0;
    });
    await frames(page);
    await page.waitForTimeout(300);
    await page.screenshot({ path: path.join(root, 'docs/inspector.png') });
    if (page.problems.length) throw new Error(`the page reported problems:\n${page.problems.join('\n')}`);

    // Tool arguments checked against the tools' schemas: the three verdicts, from the question on.
    const checks = await openDemo(context, server.url, { viewport: { width: 1360, height: 1180 } });
    await sendMessage(checks, 'Check the weather in Oslo and save a packing note', { scenario: 'tool-validation' });
    await checks.evaluate(() => {
      document.querySelector('[data-testid="conversation"]').scrollTop = 0;
      document.activeElement?.blur();
    });
    await frames(checks);
    await checks.waitForTimeout(300);
    await checks.screenshot({ path: path.join(root, 'docs/tool-validation-demo.png') });
    if (checks.problems.length) throw new Error(`the page reported problems:\n${checks.problems.join('\n')}`);
  } finally {
    await context.close();
    server.proc.kill('SIGTERM');
    rmSync(tmp, { recursive: true, force: true });
  }
  const record = {
    comment: 'Written by make docs-screenshots (web/test/demo/screenshots.mjs) with the pictures; go test ./docs/ fails when the sources change and the pictures are not taken again.',
    pictures: PICTURES,
    sources: SOURCES,
    sha256: sourcesHash(SOURCES),
  };
  writeFileSync(path.join(root, RECORD), `${JSON.stringify(record, null, 2)}\n`);
  for (const p of PICTURES) console.log(`${p}: ${statSync(path.join(root, p)).size} bytes`);
  console.log(`${RECORD}: sources ${record.sha256.slice(0, 12)}…`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err) => { console.error(err); process.exit(1); });
}
