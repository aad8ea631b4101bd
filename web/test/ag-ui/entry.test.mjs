// <package>/ag-ui and <package>/ag-ui-reducer as an app under Node imports
// them: by name, through the package's "exports", next to its own
// @ag-ui/client. The "node" condition must pick the entries that load the
// wasm with node:fs, so an agent given no reducer factory works (the
// browser entry would fetch a file: URL, which Node's fetch refuses).
//
//   node --test web/test/ag-ui/entry.test.mjs   (needs make wasm and npm ci in bench/)

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { nodeApp, web } from './node-app.mjs';

let app;
before(() => { app = nodeApp('agui-entry-'); });
after(() => app.remove());

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
  const out = await app.run(`
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
  const out = await app.run(`
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
