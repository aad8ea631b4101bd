// Every threadId a page can use loads back through the URLs the package
// builds (threadURL for loadThread, threadsURL for the drop-in agent's
// connect), against agui-relay (built by the test) in front of the demo
// server: dots, slashes, percent signs, unicode, a lone surrogate, 10 KB.
// "." and ".." — which a URL normalises away however they are encoded —
// are refused by the relay when the run is made, and by the builders.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { loadReducer, loadThread, newThreadKey, threadHeaders, threadURL } from '../../entries/agui.node.js';
import { threadsURL } from '../../src/ag-ui/connect.js';
import { wasmURL } from '../support/helpers.mjs';
import { startDemo, startRelay } from '../support/demo-server.mjs';

const factory = await loadReducer(wasmURL);
let demo;
let relay;

before(async () => {
  demo = await startDemo(['-speed', '0']);
  relay = await startRelay(`${demo.url}agent`);
});
after(async () => { await relay?.stop(); await demo?.stop(); });

const ids = ['...', './a', 'a/..', '../x', '/', 'a/b', '//', '%', '%2F', '%2e%2E', 'a%20b', '?x=1#y', 'a b', '+&=;',
  '\\', '日本語 🙂', '\u202e\t', '"quoted"', 'lone \ud800 surrogate', 'x'.repeat(10 << 10), '日'.repeat(3000)];

test('every threadId loads back through threadURL and threadsURL', async () => {
  const url = `${relay.url}agent`;
  const key = newThreadKey();
  for (const id of ids) {
    const label = JSON.stringify(id.length > 24 ? `${id.slice(0, 8)}… (${id.length})` : id);
    const a = factory.createReducer({ threadId: id });
    a.addUserMessage(`hello ${id.length}`);
    assert.equal(await a.run(url, a.runInput({ forwardedProps: { scenario: 'text' } }), { headers: threadHeaders(key) }), 'completed', label);

    const b = factory.createReducer({});
    const res = await loadThread(b, url, id, { threadKey: key, tail: false });
    assert.equal(res.found, true, label);
    assert.deepEqual(b.state.messages.map((m) => m.content), a.state.messages.map((m) => m.content), label);

    const r = await fetch(threadsURL(url, id), { headers: { ...threadHeaders(key), Accept: 'text/event-stream' } });
    const body = await r.text();
    assert.equal(r.status, 200, `${label}: ${body.slice(0, 200)}`);
    assert.match(body, /MESSAGES_SNAPSHOT/, label);
  }
});

test('"." and ".." are refused by the relay and by the builders', async () => {
  const url = `${relay.url}agent`;
  for (const id of ['.', '..']) {
    const r = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...threadHeaders(newThreadKey()) },
      body: JSON.stringify({ threadId: id, runId: 'r', messages: [{ id: 'u', role: 'user', content: 'hi' }] }),
    });
    assert.equal(r.status, 400);
    assert.equal((await r.json()).code, 'bad_thread_id');
    assert.throws(() => threadURL(url, id), TypeError);
    assert.equal(threadsURL(url, id), null);
  }
});
