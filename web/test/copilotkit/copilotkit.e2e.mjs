// CopilotKit with the drop-in agent: a Vite react-ts app (this folder)
// using CopilotKit 1.74's React packages from npm (@copilotkit/react-core
// v2: CopilotKitProvider, CopilotChat, useAgent, useRenderTool,
// useInterrupt; @ag-ui/client 0.0.59 as CopilotKit pins it), given an
// AG-UI agent directly through the provider's agents__unsafe_dev_only (no
// CopilotKit runtime). Built for production (tsc -b, strict, checks the
// package's ag-ui.d.ts as the app uses it; vite build; and tsc --strict on
// ag-ui.d.ts and ag-ui-reducer.d.ts themselves), served by the demo
// server, driven in headless Chromium once with @ag-ui/client's HttpAgent
// (?agent=official) and once with the package's (the default): text, a
// tool call, shared state and an interrupt with its approval must render
// the same.
//
// The app's packages come from its package-lock.json (npm ci, skipped while
// node_modules matches), the package from the tarball `make package` packs.
//
//   make test-copilotkit      (or: make package && node --test web/test/copilotkit/)

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium, startDemoServer } from '../support/chromium.mjs';
import { run, install, installPackage, packageTarball } from '../support/fixture-install.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../../..');
const tmp = mkdtempSync(path.join(tmpdir(), 'agui-copilotkit-'));
const TIMEOUT = 60_000;

let context;
let server;
let url;

before(async () => {
  install(here);
  installPackage(here, packageTarball(root));
  run('npm', ['run', '--silent', 'build'], here);
  const bin = process.env.AGUI_DEMO_BIN || path.join(tmp, 'agui-demo');
  if (!process.env.AGUI_DEMO_BIN) run('go', ['build', '-o', bin, './cmd/agui-demo'], root);
  ({ proc: server, url } = await startDemoServer(bin, ['-addr', '127.0.0.1:0', '-speed', '0.02', '-web', path.join(here, 'dist'), '-csp', 'off'], root));
  context = await launchChromium(path.join(tmp, 'profile'));
});

after(async () => {
  await context?.close();
  server?.kill();
  rmSync(tmp, { recursive: true, force: true });
});

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/**
 * Three turns and an approval through CopilotKit's chat with one agent;
 * resolves to what rendered after each (run ids, which CopilotKit mints,
 * taken out).
 */
async function converse(agent) {
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  const shown = async () => (await page.evaluate(() => document.querySelector('main').innerText)).replace(UUID, 'uuid');
  const idle = () => page.waitForSelector('[data-testid="copilot-chat"][data-copilot-running="false"]', { state: 'attached', timeout: TIMEOUT });
  const send = async (text) => {
    await page.fill('textarea', text);
    await page.keyboard.press('Enter');
  };
  const seen = [];
  try {
    await page.goto(`${url}/?agent=${agent}`);
    assert.equal(await page.getAttribute('main', 'data-agent'), agent);
    await page.waitForSelector('textarea', { timeout: TIMEOUT });

    // Text and a tool call (useRenderTool's renderer, with its result).
    await send('What is the weather in Lisbon?');
    await page.waitForSelector('.tool-call[data-status="complete"]', { timeout: TIMEOUT });
    await page.waitForFunction(() => document.querySelector('main').innerText.includes('Next three days'), null, { timeout: TIMEOUT });
    await idle();
    seen.push(await shown());

    // Shared state (STATE_SNAPSHOT, STATE_DELTA), read through useAgent.
    await send('Research how WebAssembly memory works, with sources');
    await page.waitForFunction(() => document.querySelector('.shared-state').textContent.includes('"citations":{"msg_state_1'), null, { timeout: TIMEOUT });
    await idle();
    seen.push(await shown());

    // An interrupt (RUN_FINISHED with outcome interrupt), rendered by
    // useInterrupt; approving it resumes the run.
    await send('Please delete report-draft.txt');
    await page.waitForSelector('.interrupt .approve', { timeout: TIMEOUT });
    await idle();
    seen.push(await shown());
    await page.click('.interrupt .approve');
    await page.waitForFunction(() => document.querySelector('main').innerText.includes('deleted'), null, { timeout: TIMEOUT });
    await idle();
    await page.waitForFunction(() => document.querySelector('.interrupt') === null, null, { timeout: TIMEOUT });
    seen.push(await shown());
    return { seen, errors };
  } finally {
    await page.close();
  }
}

test('the package\'s ag-ui.d.ts and ag-ui-reducer.d.ts pass tsc --strict against @ag-ui/client 0.0.59', () => {
  // The app's tsconfig skips .d.ts checks (the template's skipLibCheck): the files themselves.
  run('npx', ['tsc', '--ignoreConfig', '--noEmit', '--strict', '--lib', 'ES2023,DOM', '--target', 'es2023', '--module', 'esnext',
    '--moduleResolution', 'bundler', 'node_modules/@agui-reducer/web/types/ag-ui.d.ts', 'node_modules/@agui-reducer/web/types/ag-ui-reducer.d.ts'], here);
});

test('CopilotKit 1.74 renders the same with the package\'s HttpAgent as with @ag-ui/client\'s', async () => {
  const official = await converse('official');
  const ours = await converse('reducer');
  // What the turns show: the tool call with its arguments and result, the state, the interrupt.
  assert.match(official.seen[0], /get_weather\(\{"location":"Lisbon, Portugal".*\) → \{"location": "Lisbon, PT"/s);
  assert.match(official.seen[1], /"status":"done"/);
  assert.match(official.seen[2], /Approval required for tool call: delete_file/);
  assert.ok(official.seen[3].includes('deleted'));
  assert.deepEqual(ours.seen, official.seen);
  assert.deepEqual(ours.errors, official.errors);
  assert.deepEqual(ours.errors, []);
});

test('CopilotKit 1.74 with the package\'s HttpAgent keeps its conversation across a reload (the demo server\'s relay, connectAgent)', async () => {
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  const shown = async () => (await page.evaluate(() => document.querySelector('main').innerText)).replace(UUID, 'uuid');
  try {
    await page.goto(`${url}/?agent=reducer&thread=1`);
    await page.waitForSelector('textarea', { timeout: TIMEOUT });
    await page.fill('textarea', 'What is the weather in Lisbon?');
    await page.keyboard.press('Enter');
    await page.waitForSelector('.tool-call[data-status="complete"]', { timeout: TIMEOUT });
    await page.waitForFunction(() => document.querySelector('main').innerText.includes('Next three days'), null, { timeout: TIMEOUT });
    await page.waitForSelector('[data-testid="copilot-chat"][data-copilot-running="false"]', { state: 'attached', timeout: TIMEOUT });
    const before = await shown();
    await page.reload();
    await page.waitForFunction(() => document.querySelector('main').innerText.includes('Next three days'), null, { timeout: TIMEOUT });
    await page.waitForSelector('.tool-call[data-status="complete"]', { timeout: TIMEOUT });
    await page.waitForTimeout(200);
    assert.equal(await shown(), before, 'the same conversation after the reload');
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
  }
});
