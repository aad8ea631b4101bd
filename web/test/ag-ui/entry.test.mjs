// <package>/ag-ui and <package>/ag-ui-reducer as an app under Node imports
// them: by name, through the package's "exports", next to its own
// @ag-ui/client. The "node" condition must pick the entries that load the
// wasm with node:fs, so an agent given no reducer factory works (the
// browser entry would fetch a file: URL, which Node's fetch refuses).
//
//   node --test web/test/ag-ui/entry.test.mjs   (needs make wasm and npm ci in bench/)

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, mkdirSync, symlinkSync, rmSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const web = path.resolve(here, '../..');
let app;

before(() => {
  // An app's node_modules: the package (web/) and @ag-ui/client 1.0.0 with its dependencies.
  app = mkdtempSync(path.join(tmpdir(), 'agui-entry-'));
  const nm = path.join(app, 'node_modules');
  mkdirSync(path.join(nm, '@agui-reducer'), { recursive: true }); // bench/ has none of its own
  symlinkSync(web, path.join(nm, '@agui-reducer/web'));
  for (const name of readdirSync(path.join(here, 'node_modules'))) {
    if (!name.startsWith('.')) symlinkSync(path.join(here, 'node_modules', name), path.join(nm, name));
  }
});
after(() => rmSync(app, { recursive: true, force: true }));

/** Runs an ES module in the app (symlinks kept, as npm's own layout would be). */
function runInApp(code) {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--preserve-symlinks', '--input-type=module', '-e', code], {
      cwd: app, env: { ...process.env, NODE_PATH: '', SUPPRESS_TRANSFORMATION_WARNINGS: 'true' }, timeout: 120_000,
    }, (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout.trim())));
  });
}

test('exports: ./ag-ui and ./ag-ui-reducer have a "node" condition before "default"', () => {
  const pkg = JSON.parse(readFileSync(path.join(web, 'package.json'), 'utf8'));
  for (const [sub, file] of [['./ag-ui', './entries/ag-ui.node.js'], ['./ag-ui-reducer', './entries/ag-ui-reducer.node.js']]) {
    const conds = Object.keys(pkg.exports[sub]);
    assert.equal(pkg.exports[sub].node, file);
    assert.ok(conds.indexOf('node') < conds.indexOf('default'), `${sub}: node before default`);
    assert.ok(pkg.files.some((f) => f === file.slice(2) || (f.endsWith('/') && file.slice(2).startsWith(f))), `${file} is published`);
  }
});

test('under Node, <package>/ag-ui runs an agent with the default reducer factory', async () => {
  const out = await runInApp(`
    import { HttpAgent, ReducerAgent } from '@agui-reducer/web/ag-ui';
    import * as client from '@ag-ui/client';
    const events = [
      { type: 'RUN_STARTED', threadId: 't', runId: 'r' },
      { type: 'TEXT_MESSAGE_START', messageId: 'm', role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'hello' },
      { type: 'TEXT_MESSAGE_END', messageId: 'm' },
      { type: 'RUN_FINISHED', threadId: 't', runId: 'r' },
    ];
    const body = events.map((e) => 'data: ' + JSON.stringify(e) + '\\n\\n').join('');
    const fetch = async () => new Response(body, { headers: { 'content-type': 'text/event-stream' } });
    // The first run starts while the wasm loads (@ag-ui/client's apply step
    // folds it, cold-start.test.mjs); a run once the factory is ready, the reducer.
    const cold = new HttpAgent({ url: 'http://x.invalid/', threadId: 't', fetch });
    await cold.runAgent({ runId: 'r' });
    let agent = cold;
    for (let i = 0; i < 200 && agent.reducerState === undefined; i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      agent = new HttpAgent({ url: 'http://x.invalid/', threadId: 't', fetch });
      await agent.runAgent({ runId: 'r' });
    }
    console.log(JSON.stringify({
      cold: cold.messages,
      messages: agent.messages,
      http: agent instanceof client.HttpAgent,
      abstract: ReducerAgent.prototype instanceof client.AbstractAgent,
      reducer: agent.reducerState !== undefined,
    }));
  `);
  assert.deepEqual(JSON.parse(out), {
    cold: [{ id: 'm', role: 'assistant', content: 'hello' }],
    messages: [{ id: 'm', role: 'assistant', content: 'hello' }],
    http: true, abstract: true, reducer: true,
  });
});

test('under Node, <package>/ag-ui-reducer gives withReducer with the Node loader', async () => {
  const out = await runInApp(`
    import { withReducer } from '@agui-reducer/web/ag-ui-reducer';
    import { AbstractAgent } from '@ag-ui/client';
    import { Observable } from 'rxjs';
    class Echo extends withReducer(AbstractAgent) {
      run(input) {
        return new Observable((o) => {
          for (const e of [
            { type: 'RUN_STARTED', threadId: input.threadId, runId: input.runId },
            { type: 'STATE_SNAPSHOT', snapshot: { n: 1 } },
            { type: 'RUN_FINISHED', threadId: input.threadId, runId: input.runId },
          ]) o.next(e);
          o.complete();
        });
      }
    }
    const agent = new Echo({ threadId: 't' });
    await agent.runAgent({ runId: 'r' });
    console.log(JSON.stringify(agent.state));
  `);
  assert.deepEqual(JSON.parse(out), { n: 1 });
});
