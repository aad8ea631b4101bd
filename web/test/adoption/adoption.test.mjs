// The package added to apps the way their developers add it: each app of
// apps/ is pinned (exact versions) at a framework version the package's peer
// ranges claim, with a committed package-lock.json of the app alone (a test
// checks that every range starts at a version an app pins). Copied
// to a temporary folder, it is installed with npm ci, then the packed
// tarball (make package) with a plain `npm install <tgz>` (no
// --legacy-peer-deps, no --force). The install must exit 0 with no peer
// warning, leave the framework's version where it was, pass `npm ls --all`,
// and the app's strict TypeScript use of the binding (use/*.ts*) must
// type-check with the app's own TypeScript and framework types, and its
// use at run time in Node (use/*.run.mjs: React's server rendering, a Vue
// effect scope, Svelte's derived and get, an @ag-ui/client agent) must work
// with the app's framework. The React 18 app also
// builds README.md's "React" example for production with Vite and runs it in
// headless Chromium against the demo server, served by the demo server and
// through docs/demo.md's Vite proxy configuration (vite preview).
//
//   make package && node --test web/test/adoption/
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageTarball } from '../support/fixture-install.mjs';
import { launchChromium } from '../support/chromium.mjs';
import { startDemo } from '../support/demo-server.mjs';
import { chat } from '../support/chat.mjs';
import { codeBlock } from '../support/doc-blocks.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../../..');
const tmp = mkdtempSync(path.join(tmpdir(), 'agui-adoption-'));
const NPM = ['--prefer-offline', '--no-audit', '--no-fund'];

/** The app folders: <framework>-<version>, framework one of the keys of uses. */
const apps = readdirSync(path.join(here, 'apps')).sort();
/** Which use of the package an app type-checks, and the package whose version must not move. */
const uses = {
  react: { file: 'react.tsx', run: 'react.run.mjs', framework: 'react' },
  vue: { file: 'vue.ts', run: 'vue.run.mjs', framework: 'vue' },
  svelte: { file: 'svelte.ts', run: 'svelte.run.mjs', framework: 'svelte' },
  'ag-ui-client': { file: 'ag-ui.ts', run: 'ag-ui.run.mjs', framework: '@ag-ui/client' },
};

let tarball;
let context;
const stops = [];

before(() => {
  tarball = packageTarball(root);
});

after(async () => {
  await context?.close();
  for (const stop of stops) await stop();
  rmSync(tmp, { recursive: true, force: true });
});

/** Runs cmd; its output (stdout and stderr together: npm warns on stderr) and exit code. */
function sh(cmd, args, cwd) {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  if (r.error) throw r.error;
  return { code: r.status ?? 1, out: `${r.stdout}${r.stderr}` };
}

function must(cmd, args, cwd) {
  const { code, out } = sh(cmd, args, cwd);
  assert.equal(code, 0, `${cmd} ${args.join(' ')} (in ${cwd}) exited ${code}:\n${out}`);
  return out;
}

const versionIn = (dir, name) => JSON.parse(readFileSync(path.join(dir, 'node_modules', name, 'package.json'), 'utf8')).version;

/** The app copied to a temporary folder and its lockfile installed: its folder. */
function prepare(app) {
  const kind = app.slice(0, app.lastIndexOf('-'));
  const use = uses[kind];
  assert.ok(use, `apps/${app}: no use for ${kind} (the folder is <framework>-<version>)`);
  const dir = path.join(tmp, app);
  cpSync(path.join(here, 'apps', app), dir, { recursive: true });
  cpSync(path.join(here, 'tsconfig.json'), path.join(dir, 'tsconfig.json'));
  cpSync(path.join(here, 'use', use.file), path.join(dir, use.file.replace(/^[^.]+/, 'use')));
  cpSync(path.join(here, 'use', use.run), path.join(dir, 'run.mjs'));
  must('npm', ['ci', ...NPM, '--loglevel=error'], dir);
  return { dir, use };
}

test('each peer range of web/package.json starts at a version an app here pins, and every app\'s version is in its range', () => {
  const { peerDependencies } = JSON.parse(readFileSync(path.join(root, 'web/package.json'), 'utf8'));
  const pinned = apps.map((app) => {
    const use = uses[app.slice(0, app.lastIndexOf('-'))];
    return { app, name: use.framework, version: JSON.parse(readFileSync(path.join(here, 'apps', app, 'package.json'), 'utf8')).dependencies[use.framework] };
  });
  const parse = (v) => v.split('.').map(Number);
  for (const [name, range] of Object.entries(peerDependencies)) {
    const versions = pinned.filter((p) => p.name === name).map((p) => p.version);
    // The ranges are written as ^X.Y.Z || … or >=A <B (npm's semver is not a dependency here).
    const branches = range.split('||').map((b) => b.trim());
    const within = (v) => branches.some((b) => {
      const [x, y, z] = parse(v);
      let m = b.match(/^\^(\d+)\.(\d+)\.(\d+)$/);
      if (m) {
        const [X, Y, Z] = m.slice(1).map(Number);
        return x === X && (y > Y || (y === Y && z >= Z));
      }
      m = b.match(/^>=(\d+)\.(\d+)\.(\d+) <(\d+)$/);
      assert.ok(m, `${name}: cannot read the range ${b}`);
      const [X, Y, Z, top] = m.slice(1).map(Number);
      return x < top && (x > X || (x === X && (y > Y || (y === Y && z >= Z))));
    });
    for (const v of versions) assert.ok(within(v), `${name} ${v} (apps/) is outside the peer range ${range}`);
    for (const b of branches) {
      const floor = b.match(/(\d+)\.(\d+)\.\d+/)[0];
      const [X, Y] = parse(floor);
      assert.ok(versions.some((v) => parse(v)[0] === X && parse(v)[1] === Y && (X > 0 || v === floor)),
        `${name}: the range ${b} starts at ${floor}, and no app of apps/ pins ${X}.${Y}: add one, or raise the range`);
    }
  }
});

for (const app of apps) {
  test(`${app}: npm install <tarball> beside the app's framework, npm ls, tsc --strict of the binding's use, the binding run in Node`, { timeout: 600_000 }, async (t) => {
    const { dir, use } = prepare(app);
    const pinned = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')).dependencies[use.framework];
    assert.equal(versionIn(dir, use.framework), pinned, 'npm ci installed the pinned version');
    if (app === 'react-18.3.1') {
      // README.md's "React" example, as shown, is the app's component.
      writeFileSync(path.join(dir, 'src/Chat.tsx'), `${codeBlock('README.md', { section: 'React', lang: 'tsx' }).code}\n`);
    }

    const { code, out } = sh('npm', ['install', ...NPM, tarball], dir);
    assert.equal(code, 0, `npm install <tarball> failed:\n${out}`);
    const warned = out.split('\n').filter((l) => /peer|ERESOLVE|conflict|invalid|override/i.test(l));
    assert.deepEqual(warned, [], `npm install <tarball> warned about peers:\n${out}`);
    for (const l of out.split('\n').filter((l) => /^npm (warn|error)/.test(l))) t.diagnostic(`npm install <tarball>: ${l}`);
    assert.equal(versionIn(dir, use.framework), pinned, `npm install moved ${use.framework}`);
    assert.equal(JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')).dependencies[use.framework], pinned);
    assert.ok(readFileSync(path.join(dir, 'node_modules/@agui-reducer/web/package.json'), 'utf8').includes('"@agui-reducer/web"'));
    must('npm', ['ls', '--all'], dir);
    must(path.join(dir, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.json'], dir);
    const ran = must(process.execPath, ['run.mjs'], dir).trim();
    t.diagnostic(`${use.framework} ${pinned}: installed, npm ls clean, tsc --strict clean; ${ran}`);

    if (app === 'react-18.3.1') await react18(dir, t);
  });
}

/** The React 18 app's production build, run from the demo server and through Vite's proxy. */
async function react18(dir, t) {
  must(path.join(dir, 'node_modules/.bin/vite'), ['build', '--logLevel', 'warn'], dir);
  context ??= await launchChromium(path.join(tmp, 'profile'));

  // Served by the demo server with its recorded agent (same origin).
  const served = await startDemo(['-speed', '0.02', '-scenario', 'tools', '-web', path.join(dir, 'dist'), '-csp', 'off', '-store', 'memory:']);
  stops.push(served.stop);
  await chat(context, served.url);
  t.diagnostic('README.md\'s React example, built by Vite against React 18.3.1, streamed an answer with each tool result once');

  // docs/demo.md's Vite configuration, as shown, pointed at this demo server
  // (its port instead of 8080): vite preview serves the build and proxies
  // /agent (preview.proxy defaults to server.proxy).
  const shown = codeBlock('docs/demo.md', { section: 'A front end served elsewhere', lang: 'ts', contains: 'proxy' }).code;
  const demoOrigin = new URL(served.url).origin;
  assert.ok(shown.includes("'http://127.0.0.1:8080'"), 'the proxy targets the demo server\'s default address');
  writeFileSync(path.join(dir, 'vite.proxy.config.ts'), shown.replaceAll("'http://127.0.0.1:8080'", `'${demoOrigin}'`));
  const preview = await vitePreview(dir, 'vite.proxy.config.ts');
  stops.push(preview.stop);
  await chat(context, preview.url);
  t.diagnostic('the same build through docs/demo.md\'s Vite proxy streamed an answer');

  // Vite's string form ('/agent': URL) sets changeOrigin: the demo sees
  // another Host than the page's Origin and refuses the run (403
  // cross_origin), as docs/demo.md says.
  writeFileSync(path.join(dir, 'vite.string.config.ts'),
    `import { defineConfig } from 'vite';\nexport default defineConfig({ server: { proxy: { '/agent': '${demoOrigin}' } } });\n`);
  const stringForm = await vitePreview(dir, 'vite.string.config.ts');
  stops.push(stringForm.stop);
  const res = await fetch(`${stringForm.url}agent`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream', Origin: new URL(stringForm.url).origin },
    body: JSON.stringify({ threadId: 't', runId: 'r', messages: [], tools: [], context: [], state: {}, forwardedProps: {} }),
  });
  assert.equal(res.status, 403);
  assert.equal((await res.json()).code, 'cross_origin');
}

/** vite preview of dir's dist with config on a free port; resolves to {url, stop}. */
function vitePreview(dir, config) {
  const proc = spawn(path.join(dir, 'node_modules/.bin/vite'), ['preview', '--config', config, '--host', '127.0.0.1', '--port', '0', '--strictPort=false'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
  let log = '';
  proc.stderr.on('data', (d) => { log += d; });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { proc.kill('SIGKILL'); reject(new Error(`vite preview did not start:\n${log}`)); }, 60_000);
    proc.stdout.on('data', (d) => {
      log += d;
      const m = log.match(/Local:\s+(http:\/\/127\.0\.0\.1:\d+\/)/);
      if (m) {
        clearTimeout(timer);
        resolve({ url: m[1], stop: () => new Promise((r) => { if (proc.exitCode !== null) r(); else { proc.once('exit', r); proc.kill('SIGTERM'); } }) });
      }
    });
    proc.on('exit', (code) => { clearTimeout(timer); reject(new Error(`vite preview exited (${code}):\n${log}`)); });
  });
}
