// The npm package in real builds (make test-bundlers): each fixture app
// (web/test/bundlers/<tool>: the tool's own starting template plus the
// README's code, app/main.ts) gets the packed tarball (make package) with
// `npm install <tarball>`, is built by its tool with no configuration for the
// package, and is opened in headless Chromium in main-thread and worker
// mode against the demo server (cmd/agui-demo, scenario "tools"): the page
// must render the streamed answer and its tool call.
//
//   - vite-dev: `vite` (the dev server); the agent is the demo server, with
//     -cors for the dev server's origin;
//   - vite: `vite build`, served by `vite preview`, likewise;
//   - esbuild: `esbuild … --loader:.wasm=file`, served by the demo server
//     (-web), same origin;
//   - webpack: webpack 5's generated project, `npm run build`, likewise;
//   - plain: no bundler, an import map to the installed package.
//
// Installs are cached: a fixture's `npm ci` runs when its lockfile is newer
// than its node_modules, the tarball is installed when it changed. The
// download size of each build (JS and wasm, gzip -9 and brotli -q 11) is
// printed and written to test-output/bundle-sizes.json.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync, brotliCompressSync, constants } from 'node:zlib';
import { launchChromium, startDemoServer } from '../support/chromium.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../../..');
const pkg = JSON.parse(readFileSync(path.join(root, 'web/package.json'), 'utf8'));
const tarball = path.join(root, 'build', `${pkg.name.replace(/^@/, '').replace('/', '-')}-${pkg.version}.tgz`);
const tmp = mkdtempSync(path.join(tmpdir(), 'agui-bundlers-'));
const outDir = path.join(root, 'test-output');
const TIMEOUT = 60_000;

const procs = [];
let context;
let demoBin;
const apps = {}; // fixture → {url, agent}
const sizes = {};
const builds = {}; // build → {js, wasm}: the files measured

/** Runs a command; its output is shown only when it fails. */
function run(cmd, args, cwd) {
  try {
    execFileSync(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
  } catch (err) {
    throw new Error(`${cmd} ${args.join(' ')} (in ${cwd}) failed:\n${err.stdout}${err.stderr}`);
  }
}

function mtime(p) { return existsSync(p) ? statSync(p).mtimeMs : -1; }

/** npm ci from the committed lockfile when needed, then the tarball when it changed. */
function install(dir) {
  const lock = path.join(dir, 'package-lock.json');
  const installed = path.join(dir, 'node_modules', '.package-lock.json');
  const stamp = path.join(dir, 'node_modules', '.agui-tarball');
  if (mtime(installed) < mtime(lock)) { // npm ci empties node_modules, stamp included
    run('npm', ['ci', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], dir); // fails with npm's message
  }
  const sum = createHash('sha256').update(readFileSync(tarball)).digest('hex');
  if (!existsSync(stamp) || readFileSync(stamp, 'utf8') !== sum) {
    run('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--loglevel=error', tarball], dir);
    writeFileSync(stamp, sum);
  }
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
  });
}

/** Starts a long-running command and resolves once url answers. */
async function serve(cmd, args, cwd, url) {
  const proc = spawn(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], detached: false });
  procs.push(proc);
  let log = '';
  proc.stdout.on('data', (d) => { log += d; });
  proc.stderr.on('data', (d) => { log += d; });
  for (let i = 0; i < 300; i++) {
    if (proc.exitCode !== null) throw new Error(`${cmd} ${args.join(' ')} exited:\n${log}`);
    try {
      const res = await fetch(url);
      if (res.ok) return proc;
    } catch { /* not listening yet */ }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not answer:\n${log}`);
}

async function demo(args) {
  const { proc, url } = await startDemoServer(demoBin, ['-addr', '127.0.0.1:0', '-speed', '0', '-scenario', 'tools', '-csp', 'off', ...args], root);
  procs.push(proc);
  return url.replace(/\/$/, '');
}

function files(dir, re) {
  const out = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...files(p, re));
    else if (re.test(e.name)) out.push(p);
  }
  return out;
}

const packageWasm = readFileOr(path.join(root, 'web/dist/agui.wasm'));
function readFileOr(p) { return existsSync(p) ? readFileSync(p) : null; }

/** JS and wasm bytes a build's page downloads: raw, gzip -9, brotli -q 11. */
function measure(name, dir, skip = /^$/) {
  const count = (list) => {
    const t = { files: list.length, raw: 0, gzip: 0, brotli: 0 };
    for (const f of list) {
      const b = readFileSync(f);
      t.raw += b.length;
      t.gzip += gzipSync(b, { level: 9 }).length;
      // The package's own .br copy when the build emitted the wasm unchanged
      // (brotli -q 11 of 3 MB takes seconds).
      if (packageWasm && b.equals(packageWasm) && existsSync(path.join(root, 'web/dist/agui.wasm.br'))) {
        t.brotli += statSync(path.join(root, 'web/dist/agui.wasm.br')).size;
      } else {
        t.brotli += brotliCompressSync(b, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: b.length } }).length;
      }
    }
    return t;
  };
  const js = files(dir, /\.m?js$/).filter((f) => !skip.test(path.basename(f)));
  const wasm = files(dir, /\.wasm$/);
  sizes[name] = { js: count(js), wasm: count(wasm) };
  builds[name] = { js, wasm };
}

before(async () => {
  if (!existsSync(tarball)) throw new Error(`${tarball} is missing: run make package first`);
  mkdirSync(outDir, { recursive: true });
  demoBin = process.env.AGUI_DEMO_BIN;
  if (!demoBin) {
    demoBin = path.join(tmp, 'agui-demo');
    run('go', ['build', '-o', demoBin, './cmd/agui-demo'], root);
  }
  for (const f of ['vite', 'esbuild', 'webpack', 'plain']) install(path.join(here, f));

  // Builds.
  const vite = path.join(here, 'vite');
  run('npx', ['tsc'], vite); // the README's code type-checks (tsc --strict in the template's tsconfig)
  // The package's types themselves (the template's tsconfig skips .d.ts checks).
  run('npx', ['tsc', '--ignoreConfig', '--noEmit', '--strict', '--lib', 'ES2023,DOM', '--target', 'es2023', '--module', 'esnext',
    '--moduleResolution', 'bundler', 'node_modules/@agui-reducer/web/types/agui.d.ts', 'node_modules/@agui-reducer/web/types/worker.d.ts'], vite);
  run('npx', ['vite', 'build', '--logLevel', 'warn'], vite);
  measure('vite', path.join(vite, 'dist'));
  const esb = path.join(here, 'esbuild');
  rmSync(path.join(esb, 'dist'), { recursive: true, force: true });
  run('npm', ['run', '--silent', 'build'], esb);
  measure('esbuild', path.join(esb, 'dist'));
  const wp = path.join(here, 'webpack');
  rmSync(path.join(wp, 'dist'), { recursive: true, force: true });
  run('npm', ['run', '--silent', 'build'], wp);
  measure('webpack', path.join(wp, 'dist'), /^(service-worker|workbox-)/);
  const plain = path.join(here, 'plain');
  run('npm', ['run', '--silent', 'build'], plain); // copies the package next to the page
  measure('plain', path.join(plain, 'vendor/agui-reducer-web'), /^(agui\.node|[a-z]+\.esbuild|agui-worker\.source)\.js$/);

  // For comparison: the official client (bench/'s @ag-ui/client 1.0.0, when
  // installed), an HttpAgent run bundled and minified by esbuild.
  const bench = path.join(root, 'bench');
  if (existsSync(path.join(bench, 'node_modules/@ag-ui/client'))) {
    const esbuild = (await import(pathToFileURL(path.join(root, 'web/node_modules/esbuild/lib/main.js')).href)).default;
    const official = path.join(tmp, 'official');
    await esbuild.build({
      stdin: { contents: "import { HttpAgent } from '@ag-ui/client'; new HttpAgent({ url: '/agent' }).runAgent();", resolveDir: bench },
      bundle: true, format: 'esm', minify: true, platform: 'browser', outfile: path.join(official, 'official.js'), logLevel: 'error',
    });
    measure('@ag-ui/client', official);
    delete builds['@ag-ui/client'];
  }

  // Servers: the Vite servers on their own ports, the agent on the demo
  // server (-cors for their origins); the other builds served by the demo
  // server itself (-web), same origin.
  const [devPort, previewPort] = [await freePort(), await freePort()];
  const devURL = `http://127.0.0.1:${devPort}`;
  const previewURL = `http://127.0.0.1:${previewPort}`;
  const agentServer = await demo(['-cors', `${devURL},${previewURL}`]);
  const viteBin = path.join(vite, 'node_modules/.bin/vite');
  await Promise.all([
    serve(viteBin, ['--host', '127.0.0.1', '--port', String(devPort), '--strictPort'], vite, devURL),
    serve(viteBin, ['preview', '--host', '127.0.0.1', '--port', String(previewPort), '--strictPort'], vite, previewURL),
  ]);
  apps['vite-dev'] = { url: `${devURL}/`, agent: `${agentServer}/agent` };
  apps.vite = { url: `${previewURL}/`, agent: `${agentServer}/agent` };
  for (const [name, dir] of [['esbuild', esb], ['webpack', path.join(wp, 'dist')], ['plain', plain]]) {
    apps[name] = { url: `${await demo(['-web', dir])}/`, agent: '/agent' };
  }
  context = await launchChromium(path.join(tmp, 'profile'));
});

after(async () => {
  await context?.close();
  for (const p of procs) p.kill();
  rmSync(tmp, { recursive: true, force: true });
  if (Object.keys(sizes).length > 0) {
    writeFileSync(path.join(outDir, 'bundle-sizes.json'), JSON.stringify(sizes, null, 2) + '\n');
    const kb = (n) => `${(n / 1024).toFixed(1)} KiB`;
    console.log('download size per build (JS | wasm), gzip -9 / brotli -q 11:');
    for (const [name, s] of Object.entries(sizes)) {
      console.log(`  ${name.padEnd(13)} JS ${kb(s.js.raw)} raw, ${kb(s.js.gzip)} gz, ${kb(s.js.brotli)} br (${s.js.files} files) | wasm ${kb(s.wasm.raw)} raw, ${kb(s.wasm.gzip)} gz, ${kb(s.wasm.brotli)} br`);
    }
  }
});

test('node: the installed package loads its wasm with no argument (the node condition)', () => {
  const out = execFileSync('node', ['--input-type=module', '-e',
    "const { loadReducer } = await import('@agui-reducer/web'); const r = (await loadReducer()).createReducer(); r.apply({type: 'RUN_STARTED', threadId: 't', runId: 'r'}); console.log(r.state.status);"],
  { cwd: path.join(here, 'vite'), encoding: 'utf8' });
  assert.equal(out.trim(), 'running');
});

test('each build emits the wasm once and no Node-only module', () => {
  for (const [name, { js, wasm }] of Object.entries(builds)) {
    assert.equal(wasm.length, 1, `${name}: ${wasm.length} .wasm files`);
    for (const f of js) {
      // An import of one (static, dynamic or require), not any string that
      // happens to read "url" (an AG-UI part's source type is one).
      assert.doesNotMatch(readFileSync(f, 'utf8'), /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*)["'`](node:[a-z_/]+|fs|fs\/promises|path|url)["'`]/, `${name}: ${path.basename(f)} imports a Node module`);
    }
  }
});

// The bindings import src/agent/agent.js, not the main entry: each has its own
// "module" condition (entries/<binding>.esbuild.js), so that an esbuild app that
// imports only a binding still gets the wasm emitted and found. Svelte's
// binding needs no framework package to bundle; React's and Vue's have the
// same entries (checked in package.json).
test('esbuild: an app that imports only a binding emits the wasm', async () => {
  const esb = path.join(here, 'esbuild');
  const esbuild = (await import(pathToFileURL(path.join(esb, 'node_modules/esbuild/lib/main.js')).href)).default;
  const out = path.join(tmp, 'binding-only');
  await esbuild.build({
    stdin: { contents: "import { agentStore } from '@agui-reducer/web/svelte'; agentStore({ url: '/agent' }).subscribe(() => {});", resolveDir: esb },
    bundle: true, format: 'esm', minify: true, platform: 'browser', outdir: out, loader: { '.wasm': 'file' }, logLevel: 'error',
  });
  assert.equal(files(out, /\.wasm$/).length, 1, 'the wasm is emitted');
  const installed = JSON.parse(readFileSync(path.join(esb, 'node_modules/@agui-reducer/web/package.json'), 'utf8'));
  for (const b of ['react', 'svelte', 'vue']) assert.equal(installed.exports[`./${b}`].module, `./entries/${b}.esbuild.js`);
});

// A wasm module that cannot be fetched: the page shows the LoadError (its
// URL and status), never a blank page.
for (const name of ['vite', 'esbuild', 'webpack', 'plain']) {
  for (const mode of ['main', 'worker']) {
    test(`${name}, ${mode === 'main' ? 'main thread' : 'worker'}: a wasm that answers 404 shows the load error`, { timeout: TIMEOUT }, async () => {
      const { url, agent } = apps[name];
      const page = await context.newPage();
      await page.route(/\.wasm$/, (route) => route.fulfill({ status: 404, body: 'not found' }));
      try {
        await page.goto(`${url}?mode=${mode}&agent=${encodeURIComponent(agent)}`);
        await page.waitForSelector('#app[data-outcome]', { timeout: TIMEOUT - 10_000 });
        assert.equal(await page.getAttribute('#app', 'data-outcome'), 'load_failed');
        assert.match(await page.textContent('#app'), /^Could not load the reducer from http:\/\/127\.0\.0\.1:\d+\/\S+\.wasm \(HTTP 404\)\.$/);
      } finally {
        await page.close();
      }
    });
  }
}

for (const name of ['vite-dev', 'vite', 'esbuild', 'webpack', 'plain']) {
  for (const mode of ['main', 'worker']) {
    test(`${name}, ${mode === 'main' ? 'main thread' : 'worker'}: renders the streamed answer and its tool call`, { timeout: TIMEOUT }, async () => {
      const { url, agent } = apps[name];
      const page = await context.newPage();
      const problems = [];
      page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
      // (a failed request is reported by the response handler, with its URL)
      page.on('console', (msg) => { if (msg.type() === 'error' && !/^Failed to load resource/.test(msg.text())) problems.push(`console: ${msg.text()}`); });
      page.on('response', (res) => { if (res.status() >= 400) problems.push(`HTTP ${res.status()} ${res.url()}`); });
      try {
        await page.goto(`${url}?mode=${mode}&agent=${encodeURIComponent(agent)}`);
        await page.waitForSelector('#app[data-outcome]', { timeout: TIMEOUT - 10_000 });
        const outcome = await page.getAttribute('#app', 'data-outcome');
        const text = await page.textContent('#app');
        assert.equal(outcome, 'completed', `outcome ${outcome}: ${text}\n${problems.join('\n')}`);
        assert.match(text, /user: What's the weather in Paris\?/);
        assert.match(text, /assistant: Let me look up the current conditions/);
        assert.match(text, /°C/, 'the answer streamed to its end');
        const tool = await page.textContent('.tool.complete');
        assert.match(tool, /^get_weather\(\{"location": "Lisbon, Portugal"/);
        assert.doesNotMatch(tool, /→ …$/, 'the tool call has its result');
        assert.deepEqual(problems.filter((p) => !/favicon/.test(p)), []);
      } finally {
        await page.close();
      }
    });
  }
}
