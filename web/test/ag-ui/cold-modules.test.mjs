// What the drop-in's import loads under Node (src/ag-ui/factory.js):
// importing <package>/ag-ui resolves none of the reducer's modules
// (factory-load.js, src/reducer/ but the resume policy the transport uses,
// src/state/), and a run started as the import resolves is cold; they are
// imported when the default factory starts loading (a task after the
// import), and the reducer then takes over, the runs following each other
// with no pause. The modules an app's process resolves are recorded, in
// order, by a resolve hook; a marker module imported right after the
// drop-in separates the import's from the factory's. No timing.
//
//   node --test web/test/ag-ui/cold-modules.test.mjs   (needs make wasm and npm ci in web/test/ag-ui)

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { nodeApp } from './node-app.mjs';

let app;
before(() => { app = nodeApp('agui-cold-modules-'); });
after(() => app.remove());

test('under Node, importing <package>/ag-ui resolves none of the reducer\'s modules and a run started then is cold; the factory imports them, then the reducer takes over', async () => {
  const out = await app.run(`
    import { register } from 'node:module';
    import { MessageChannel } from 'node:worker_threads';
    const { port1, port2 } = new MessageChannel();
    const resolved = [];
    port1.on('message', (url) => resolved.push(url));
    port1.unref();
    const hook = 'let port; export function initialize(d) { port = d.port; } '
      + 'export async function resolve(s, c, next) { const r = await next(s, c); port.postMessage(r.url); return r; }';
    register('data:text/javascript,' + encodeURIComponent(hook), { data: { port: port2 }, transferList: [port2] });
    // The hook's messages arrive in tasks of their own: a few turns of the event loop.
    const settle = async () => { for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 10)); };
    const reducerSide = (urls = resolved) => urls.filter((u) => /\\/src\\/(reducer\\/(?!resume\\.js)|state\\/)|\\/factory-load\\.js$/.test(u)).map((u) => u.replace(/^.*\\/web\\//, ''));

    const { HttpAgent } = await import('@agui-reducer/web/ag-ui');
    await import('data:text/javascript,export default "marker"');
    const events = [
      { type: 'RUN_STARTED', threadId: 't', runId: 'r' },
      { type: 'TEXT_MESSAGE_START', messageId: 'm', role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'hello' },
      { type: 'TEXT_MESSAGE_END', messageId: 'm' },
      { type: 'RUN_FINISHED', threadId: 't', runId: 'r' },
    ];
    const body = events.map((e) => 'data: ' + JSON.stringify(e) + '\\n\\n').join('');
    // A response a task later, as from a network (a loop that never yields
    // to the event loop would starve the module's reading too).
    const fetch = async () => {
      await new Promise((r) => setImmediate(r));
      return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
    };
    const cold = new HttpAgent({ url: 'http://x.invalid/', threadId: 't', fetch });
    await cold.runAgent({ runId: 'r' });
    let agent = cold;
    for (let i = 0; i < 2000 && agent.reducerState === undefined; i++) {
      agent = new HttpAgent({ url: 'http://x.invalid/', threadId: 't', fetch });
      await agent.runAgent({ runId: 'r' });
    }
    await settle();
    const marker = resolved.findIndex((u) => u.startsWith('data:text/javascript,export default'));
    const atImport = reducerSide(resolved.slice(0, marker));
    await settle();
    console.log(JSON.stringify({
      marker: marker > 0, atImport,
      cold: cold.reducerState !== undefined,
      reducer: agent.reducerState !== undefined,
      loaded: ['src/ag-ui/factory-load.js', 'src/reducer/reducer.js', 'src/state/mirror.js'].filter((f) => reducerSide().includes(f)),
    }));
  `);
  assert.deepEqual(JSON.parse(out), {
    marker: true, atImport: [], cold: false, reducer: true,
    loaded: ['src/ag-ui/factory-load.js', 'src/reducer/reducer.js', 'src/state/mirror.js'],
  });
});
