// The framework bindings in each framework's real production build: apps
// made from Vite's own templates (react-ts, svelte-ts, vue-ts) plus the
// "Frameworks" code (docs/frameworks.md), with the package installed from its packed
// tarball, served by the demo server and driven in headless Chromium. Each
// streams an answer with a tool call; the React app also counts renders.
//
// Each fixture's npm packages come from its committed package-lock.json
// (npm ci, skipped while node_modules matches the lockfile). The README's
// snippets are these fixtures' files: a test checks they match.
//
//   node --test web/test/frameworks/
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium, startDemoServer } from '../support/chromium.mjs';
import { run, install, installPackage, packageTarball } from '../support/fixture-install.mjs';
import { chat as chatIn } from '../support/chat.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const web = path.resolve(here, '../..');
const root = path.resolve(web, '..');
const tmp = mkdtempSync(path.join(tmpdir(), 'agui-frameworks-'));

let tarball;
let bin;
let context;
const servers = [];

before(async () => {
  if (!existsSync(path.join(web, 'dist/agui.wasm'))) throw new Error('web/dist/agui.wasm is missing: run `make wasm` first');
  // The tarball `make package` writes (test-frameworks depends on it).
  tarball = packageTarball(root);
  bin = process.env.AGUI_DEMO_BIN ?? path.join(tmp, 'agui-demo');
  if (!process.env.AGUI_DEMO_BIN) run('go', ['build', '-o', bin, './cmd/agui-demo'], root);
  context = await launchChromium(path.join(tmp, 'profile'));
});

after(async () => {
  await context?.close();
  for (const p of servers) p.kill();
  rmSync(tmp, { recursive: true, force: true });
});

/** The chat of support/chat.mjs in this file's browser. */
const chat = (url, options) => chatIn(context, url, options);

/** Installs, type-checks and builds the fixture; serves its dist/ with the demo agent. */
async function buildAndServe(fixture, checks, { out = 'dist' } = {}) {
  const dir = path.join(here, fixture);
  install(dir);
  installPackage(dir, tarball);
  for (const script of checks) run('npm', ['run', '--silent', script], dir);
  const dist = path.join(dir, out);
  const { proc, url } = await startDemoServer(bin, ['-addr', '127.0.0.1:0', '-speed', '0.02', '-scenario', 'tools', '-web', dist, '-csp', 'off'], root);
  servers.push(proc);
  return url;
}

test('React (vite react-ts): useAgent streams an answer with a tool call under StrictMode, in page and in worker mode', async (t) => {
  const url = await buildAndServe('react', ['build']);
  await chat(url);
  await chat(url, { worker: true });

  // Renders: messages already shown do not render again while another streams.
  const page = await context.newPage();
  try {
    await page.goto(`${url}#renders`);
    await page.waitForSelector('section[data-ready="true"]', { state: 'attached' });
    // send() resolves when the run has ended.
    const turn = async (text) => assert.equal(await page.evaluate((t) => window.send(t), text), 'completed');
    await turn('weather in Lisbon');
    const before = await page.evaluate(() => ({ ...window.renders }));
    const first = Object.keys(before);
    assert.ok(first.length >= 3, JSON.stringify(before));
    await turn('and tomorrow?');
    const afterTurn = await page.evaluate(() => ({ ...window.renders }));
    const streamed = Object.keys(afterTurn).filter((id) => !(id in before));
    assert.ok(streamed.length >= 2, 'the second turn added messages');
    // How often a streamed message re-renders depends on how the frames
    // were batched into reads and React commits (under load one read may
    // carry the whole answer), so it is reported, not asserted.
    t.diagnostic(`renders of the new messages: ${streamed.map((id) => afterTurn[id]).join(', ')}`);
    for (const id of first) assert.equal(afterTurn[id], before[id], `message ${id} rendered again while another streamed`);
  } finally {
    await page.close();
  }
});

test('React in a development build: StrictMode mounts, unmounts and mounts again; the chat still streams', async () => {
  const url = await buildAndServe('react', ['build:dev'], { out: 'dist-dev' });
  await chat(url);
});

test('Svelte 5 (vite svelte-ts): $agent from agentStore streams an answer with a tool call, in page and in worker mode', async () => {
  const url = await buildAndServe('svelte', ['check', 'build']);
  await chat(url);
  await chat(url, { worker: true });
});

test('Vue 3 (vite vue-ts): useAgent shallow refs stream an answer with a tool call, in page and in worker mode', async () => {
  const url = await buildAndServe('vue', ['build']);
  await chat(url);
  await chat(url, { worker: true });
});

test('Next.js (next build, static export, no configuration for the package): a client component with useAgent, prerendered empty, streams in the browser, in page and in worker mode', async () => {
  // No configuration and no copy of the package's files: next build
  // (Turbopack) emits agui.wasm and the worker from the package's
  // new URL(…, import.meta.url) forms, as Vite and webpack do.
  rmSync(path.join(here, 'next/public'), { recursive: true, force: true });
  const url = await buildAndServe('next', ['build'], { out: 'out' });
  const html = readFileSync(path.join(here, 'next/out/index.html'), 'utf8');
  assert.match(html, /<form[^>]*>.*<input/s, 'server rendering showed the empty chat');
  const media = readdirSync(path.join(here, 'next/out/_next/static/media'));
  assert.equal(media.filter((f) => f.endsWith('.wasm')).length, 1, `the build emitted the wasm once: ${media.join(', ')}`);
  await chat(url);
  await chat(url, { worker: true, ready: '[data-worker="true"]' });
});

test('the framework snippets of docs/frameworks.md are the fixtures\' files', () => {
  const page = readFileSync(path.join(root, 'docs/frameworks.md'), 'utf8');
  for (const file of ['react/src/Chat.tsx', 'svelte/src/Chat.svelte', 'vue/src/Chat.vue', 'next/app/Chat.tsx']) {
    const code = readFileSync(path.join(here, file), 'utf8').trim();
    assert.ok(page.includes(code), `docs/frameworks.md lacks ${file} verbatim`);
  }
});
