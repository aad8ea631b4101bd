// The drop-in HttpAgent's connect path against agui-relay, with
// @ag-ui/client 0.0.59 (CopilotKit 1.74's): after a reload (a new agent,
// same threadId) connectAgent() shows the thread, and mid-run attaches to
// the live run and ends as the uninterrupted agent. See
// web/test/ag-ui/relay.test.mjs (1.0.0). No timing.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as client from '@ag-ui/client';
import { loadReducer } from '../../web/entries/agui.node.js';
import { withReducer, setReducerFactory } from '../../web/src/ag-ui/with-reducer.js';
import { withResume } from '../../web/src/ag-ui/resume.js';
import { normalise, quietly } from '../../web/test/ag-ui/diff.mjs';
import { startDemo, startRelay } from '../../web/test/support/demo-server.mjs';

const HttpAgent = withResume(withReducer(client.HttpAgent), { transformHttpEventStream: client.transformHttpEventStream });
const KEY = 'X-Agui-Thread-Key';
let demo;
let relay;

before(async () => {
  setReducerFactory(await loadReducer(new URL('../../web/dist/agui.wasm', import.meta.url)));
  demo = await startDemo(['-speed', '0.1']);
  relay = await startRelay(`${demo.url}agent`);
});
after(async () => { await relay?.stop(); await demo?.stop(); });

async function turn(agent, text, scenario) {
  agent.addMessage({ id: `u-${Math.random().toString(36).slice(2)}`, role: 'user', content: text });
  return agent.runAgent({ forwardedProps: { scenario } });
}

test('0.0.59 is the client under test', () => {
  assert.ok(!('maxProtocolVersion' in client.AbstractAgent.prototype));
});

test('0.0.59: connectAgent() after a reload, and mid-run', async () => {
  const a = new HttpAgent({ url: `${relay.url}agent`, threadId: 'relay-059' });
  await quietly(() => turn(a, 'hello', 'text'));
  const b = new HttpAgent({ url: `${relay.url}agent`, threadId: 'relay-059', headers: { [KEY]: a.headers[KEY] } });
  await quietly(() => b.connectAgent());
  assert.deepStrictEqual(normalise(b.messages), normalise(a.messages));

  const running = quietly(() => turn(a, 'a tool please', 'tools'));
  for (let i = 0; i < 300 && !a.messages.some((m) => m.role === 'assistant' && m.toolCalls?.length); i++) await new Promise((r) => setTimeout(r, 20));
  assert.ok(a.isRunning, 'mid-run');
  const c = new HttpAgent({ url: `${relay.url}agent`, threadId: 'relay-059', headers: { [KEY]: a.headers[KEY] } });
  await quietly(() => c.connectAgent());
  await running;
  assert.deepStrictEqual(normalise(c.messages), normalise(a.messages));
  assert.deepStrictEqual(c.state, a.state);
});
