// Hostile input in headless Chromium (Debian's /usr/bin/chromium through
// playwright-core): a representative subset of web/test/unit/hostile.test.mjs
// through the module on the page's main thread and in a Web Worker, then a
// valid stream on the same instance. No page errors, right diagnostics,
// refused events change nothing, the next event folds, no prototype
// pollution.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchChromium } from '../support/chromium.mjs';
import { loadReducer } from '../../entries/agui.node.js';
import { wasmURL, stream, normalise } from '../support/helpers.mjs';
import { startServer } from '../support/server.mjs';

const VALID = stream('03_parallel_tools.jsonl').lines;

const BASE = [
  '{"type":"RUN_STARTED","threadId":"t","runId":"r1"}',
  '{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}',
  '{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"hello"}',
  '{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"f","parentMessageId":"m1"}',
  '{"type":"STATE_SNAPSHOT","snapshot":{"a":{"b":[1,2,3]},"n":1}}',
];
const NEXT = '{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"!"}';

// name, what to send, expected codes, whether the state must be unchanged.
const CASES = [
  { name: 'truncated JSON', event: '{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","del', codes: ['bad_json/error'], unchanged: true },
  { name: 'wrong field type', event: '{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":{"a":1}}', codes: ['bad_event/error'], unchanged: true },
  { name: 'not an object', event: '[1,2]', codes: ['bad_event/error'], unchanged: true },
  { name: '10 MB string', kind: 'big', codes: [], unchanged: false },
  { name: 'nesting 100,000 deep', kind: 'deep', codes: ['bad_json/error'], unchanged: true },
  { name: 'invalid UTF-8 bytes', kind: 'bytes', bytes: [...Buffer.from('{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"a'), 0xff, 0xfe, ...Buffer.from('"}')], codes: [], unchanged: false },
  { name: 'raw control character', event: '{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"a\u0001"}', codes: ['bad_json/error'], unchanged: true },
  { name: 'NaN', event: '{"type":"STATE_SNAPSHOT","snapshot":NaN}', codes: ['bad_json/error'], unchanged: true },
  { name: 'huge numbers', event: '{"type":"STATE_DELTA","delta":[{"op":"add","path":"/big","value":1e400}]}', codes: [], unchanged: false },
  { name: 'content for unknown id', event: '{"type":"TEXT_MESSAGE_CONTENT","messageId":"nope","delta":"x"}', codes: ['unknown_message/warning'], unchanged: true },
  { name: 'args for unknown call', event: '{"type":"TOOL_CALL_ARGS","toolCallId":"nope","delta":"{}"}', codes: ['unknown_tool_call/warning'], unchanged: true },
  { name: 'END twice', event: '{"type":"TOOL_CALL_END","toolCallId":"c1"}', codes: [], unchanged: false },
  { name: 'RESULT for unknown call', event: '{"type":"TOOL_CALL_RESULT","messageId":"r9","toolCallId":"nope","content":"x"}', codes: [], unchanged: false },
  { name: 'patch failing at its last op', event: '{"type":"STATE_DELTA","delta":[{"op":"replace","path":"/n","value":2},{"op":"remove","path":"/a/b/7"}]}', codes: ['patch_failed/error'], unchanged: true },
  { name: 'patch through __proto__', event: '{"type":"STATE_DELTA","delta":[{"op":"add","path":"/__proto__/polluted","value":true}]}', codes: ['patch_failed/error'], unchanged: true },
  { name: '__proto__ keys in state', event: '{"type":"STATE_SNAPSHOT","snapshot":{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":1}}}}', codes: [], unchanged: false },
  { name: '__proto__ keys in streamed args', event: '{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"{\\"__proto__\\":{\\"polluted\\":1}}"}', codes: [], unchanged: false },
  { name: 'cyclic object event', kind: 'cyclic', codes: ['bad_event/error'], unchanged: true },
  { name: 'SSE: truncated frame', feed: true, event: 'data: {"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","del\n\n', codes: ['bad_json/error'], unchanged: true },
  { name: 'SSE: unterminated frame at endStream', feed: true, event: 'data: {"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"lost"}', codes: [], unchanged: true },
];

const PROTO = [
  '{"type":"TEXT_MESSAGE_START","messageId":"m","role":"assistant","metadata":{"__proto__":{"polluted":1}}}',
  '{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"f","parentMessageId":"m"}',
  '{"type":"TOOL_CALL_ARGS","toolCallId":"c","delta":"{\\"__pro"}',
  '{"type":"TOOL_CALL_ARGS","toolCallId":"c","delta":"to__\\":{\\"polluted\\":1}}"}',
  '{"type":"STATE_SNAPSHOT","snapshot":{"__proto__":{"polluted":1}}}',
];

let server;
let profile;
let context;
let page;
const problems = [];

before(async () => {
  server = await startServer();
  profile = await mkdtemp(join(tmpdir(), 'agui-chromium-hostile-'));
  context = await launchChromium(profile);
  page = context.pages()[0] ?? await context.newPage();
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
  page.on('console', (msg) => { if (msg.type() === 'error') problems.push(`console: ${msg.text()}`); });
  page.on('crash', () => problems.push('page crashed'));
  page.on('dialog', (d) => { problems.push(`dialog: ${d.message()}`); d.dismiss().catch(() => {}); });
  await page.goto(`${server.url}/test/browser/hostile.html`);
  await page.waitForFunction(() => window.hostileReady === true, null, { timeout: 30_000 });
});

after(async () => {
  await context?.close();
  await server?.close();
  if (profile) await rm(profile, { recursive: true, force: true });
});

async function expected() {
  const r = (await loadReducer(wasmURL)).createReducer({ deterministicIds: true });
  for (const l of VALID) r.apply(l);
  return normalise(r.state);
}

for (const where of ['mainThread', 'worker']) {
  test(`Chromium ${where}: hostile events, then a valid stream on the same instance`, { timeout: 120_000 }, async () => {
    const res = await page.evaluate(([w, ...args]) => window.hostileTest[w](...args), [where, CASES, BASE, NEXT, VALID]);
    assert.equal(res.results.length, CASES.length);
    for (const [i, r] of res.results.entries()) {
      const c = CASES[i];
      assert.deepStrictEqual(r.codes, c.codes, `${c.name}: diagnostics`);
      if (c.unchanged) assert.ok(r.unchanged, `${c.name}: state unchanged`);
      assert.ok(r.mirrorOK, `${c.name}: mirror equals snapshot`);
      assert.ok(r.nextOK, `${c.name}: the next event folds`);
      assert.ok(r.mirrorAfterNext, `${c.name}: mirror after the next event`);
    }
    for (const r of res.results) if (r.ms > 200) console.log(`# ${where} ${r.name}: ${r.ms.toFixed(0)} ms`);
    assert.deepStrictEqual(normalise(res.state), normalise(res.snapshot));
    assert.deepStrictEqual(normalise(res.state), await expected());
    assert.equal(res.restoreCode, 'bad_snapshot');
    assert.equal(res.polluted, undefined);
    assert.equal(res.protoChanged, false);
    assert.deepStrictEqual(problems, []);
  });
}

test('Chromium: __proto__ keys are own data properties of the page mirror', async () => {
  const res = await page.evaluate((events) => window.hostileTest.proto(events), PROTO);
  assert.deepStrictEqual(res, {
    stateOwn: true, stateProto: true, argsOwn: true, metadataOwn: true, mirrorOK: true, polluted: undefined, protoChanged: false,
  });
  assert.deepStrictEqual(problems, []);
});

test('Chromium: limits given to createReducer are enforced, same thread and worker', async () => {
  const res = await page.evaluate(() => window.hostileTest.limits());
  const want = ['too_large/error', 'too_large/error', 'bad_json/error'];
  assert.deepStrictEqual(res, { main: want, worker: want });
  assert.deepStrictEqual(problems, []);
});
