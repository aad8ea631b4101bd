// The drop-in HttpAgent's argument text of streaming tool calls
// (src/ag-ui/args-text.js): every version a subscriber reads
// (function.arguments, on every onMessagesChanged) equals the deltas applied
// so far, concatenated, as in @ag-ui/client's HttpAgent — whatever the
// network reads' sizes (one event, many, a read that ends mid-frame), across
// a cut and resumed response, and when a subscriber stops some deltas from
// being applied or replaces the messages mid-stream (the text the view
// built ahead from the queued deltas must then be dropped).

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import * as client from '@ag-ui/client';
import { quietly, loadDropIn } from './diff.mjs';

let HttpAgent;
before(async () => { ({ HttpAgent } = await loadDropIn()); });

/** A run with three interleaved tool calls (JSON arguments of ~n characters, 1–23-character deltas) and a streamed text message. */
function scenario(n = 3000, seed = 5) {
  let x = seed;
  const r = () => ((x = (x * 1103515245 + 12345) % 2147483648) / 2147483648);
  const events = [{ type: 'RUN_STARTED', threadId: 't', runId: 'run-1' }];
  events.push({ type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' });
  const texts = [];
  for (let c = 0; c < 3; c++) {
    let body = '';
    while (body.length < n) body += r() < 0.1 ? '\n"\\' : ' word' + Math.floor(r() * 100);
    texts.push({ id: `call_${c}`, text: JSON.stringify({ path: `f${c}.txt`, content: body }), at: 0 });
    events.push({ type: 'TOOL_CALL_START', toolCallId: `call_${c}`, toolCallName: 'write_file', parentMessageId: 'm1' });
  }
  for (let open = 3; open > 0;) {
    for (const t of texts) {
      if (t.at >= t.text.length) continue;
      const k = 1 + Math.floor(r() * 23);
      events.push({ type: 'TOOL_CALL_ARGS', toolCallId: t.id, delta: t.text.slice(t.at, t.at + k) });
      t.at += k;
      if (t.at >= t.text.length) open--;
      if (r() < 0.05) events.push({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'tok ' });
    }
  }
  events.push({ type: 'TEXT_MESSAGE_END', messageId: 'm1' });
  for (const t of texts) events.push({ type: 'TOOL_CALL_END', toolCallId: t.id });
  events.push({ type: 'RUN_FINISHED', threadId: 't', runId: 'run-1' });
  return events;
}

const enc = new TextEncoder();

/**
 * HttpAgent's fetch option: the frames (with ids e:<seq>) from Last-Event-ID
 * on, cut after cuts[n] frames on the n-th request, in network reads of
 * reads() bytes (a read may end mid-frame, mid-character even).
 */
function fakeFetch(events, { cuts = [], reads = () => 4096 } = {}) {
  let n = 0;
  return async (_url, init) => {
    const last = init?.headers?.['Last-Event-ID'];
    const from = last ? Number(last.split(':')[1]) : 0;
    const to = Math.min(events.length, cuts[n++] ?? events.length);
    const bytes = enc.encode(events.slice(from, to).map((e, i) => `id: e:${from + i + 1}\ndata: ${JSON.stringify(e)}\n\n`).join(''));
    let at = 0;
    const body = new ReadableStream({
      async pull(c) {
        await new Promise((r) => setImmediate(r));
        if (at < bytes.length) {
          const k = Math.max(1, reads());
          c.enqueue(bytes.slice(at, at + k));
          at += k;
        }
        if (at >= bytes.length) c.close();
      },
    });
    return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
  };
}

/** A preview reader: every tool call's arguments (and their last 64 characters) at every onMessagesChanged. */
function reader(log, hooks = {}) {
  return {
    ...hooks,
    onMessagesChanged({ messages }) {
      const seen = [];
      for (const m of messages) {
        for (const t of m.toolCalls ?? []) seen.push([t.id, t.function.arguments.slice(-64), t.function.arguments]);
        if (typeof m.content === 'string') seen.push([m.id, m.content]);
      }
      log.push(seen);
    },
  };
}

async function run(Agent, events, fetchOptions, hooks) {
  const log = [];
  const agent = new Agent({ url: 'http://args.invalid/agent', threadId: 't', fetch: fakeFetch(events, fetchOptions), resume: { delay: 0 } });
  agent.subscribe(reader(log, hooks));
  await agent.runAgent({ runId: 'run-1' });
  return { log, messages: JSON.parse(JSON.stringify(agent.messages)) };
}

/** Each version of each tool call's arguments is the concatenation of its first k deltas, k never going back, the last one all of them. */
function assertPrefixes(log, events) {
  const deltas = new Map();
  for (const e of events) if (e.type === 'TOOL_CALL_ARGS') deltas.set(e.toolCallId, [...(deltas.get(e.toolCallId) ?? []), e.delta]);
  const at = new Map();
  for (const seen of log) {
    for (const [id, tail, text] of seen) {
      if (!deltas.has(id)) continue;
      const ds = deltas.get(id);
      let k = at.get(id) ?? 0, s = ds.slice(0, k).join('');
      while (s.length < text.length && k < ds.length) s += ds[k++];
      assert.equal(text, s, `${id}: a version that is not the deltas so far`);
      assert.equal(tail, s.slice(-64));
      at.set(id, k);
    }
  }
  for (const [id, ds] of deltas) assert.equal(at.get(id), ds.length, `${id}: the whole text read last`);
}

const cases = [
  ['one read for the whole body', {}],
  ['a read per ~16 events', { reads: () => 1200 }],
  ['reads ending mid-frame (37 bytes)', { reads: () => 37 }],
  ['reads of 1 to 3,000 bytes', { reads: (() => { let i = 0; return () => [1, 3000, 250, 7, 911][i++ % 5]; })() }],
  ['cut three times and resumed from Last-Event-ID', { cuts: [40, 41, 300], reads: () => 700 }],
];

for (const [name, opts] of cases) {
  test(`tool call arguments read on every event equal the deltas so far: ${name}`, async () => {
    const events = scenario();
    const official = await quietly(() => run(client.HttpAgent, events, { reads: opts.reads }));
    const ours = await quietly(() => run(HttpAgent, events, opts));
    assertPrefixes(ours.log, events);
    assert.deepStrictEqual(ours.log, official.log);
    assert.deepStrictEqual(ours.messages, official.messages);
  });
}

test('a subscriber stops some deltas (onEvent stopPropagation): the text skips exactly those, as in HttpAgent', async () => {
  const events = scenario(1500, 9);
  let i = 0;
  const hooks = { onEvent: ({ event }) => (event.type === 'TOOL_CALL_ARGS' && i++ % 7 === 3 ? { stopPropagation: true } : undefined) };
  const official = await quietly(() => run(client.HttpAgent, events, { reads: () => 900 }, hooks));
  i = 0;
  const ours = await quietly(() => run(HttpAgent, events, { reads: () => 900 }, hooks));
  assert.deepStrictEqual(ours.log, official.log);
  assert.deepStrictEqual(ours.messages, official.messages);
});

test('a subscriber replaces the messages mid-stream (onEvent): later deltas append to its text, as in HttpAgent', async () => {
  const events = scenario(1500, 13);
  let i = 0;
  const hooks = {
    onEvent: ({ event, messages }) => {
      if (event.type !== 'TOOL_CALL_ARGS' || i++ % 97 !== 50) return undefined;
      // The first tool call's arguments so far replaced by a shorter text.
      return {
        messages: messages.map((m) => (m.toolCalls === undefined ? m : {
          ...m, toolCalls: m.toolCalls.map((t, j) => (j === 0 ? { ...t, function: { ...t.function, arguments: t.function.arguments.slice(0, 10) } } : t)),
        })),
      };
    },
  };
  const official = await quietly(() => run(client.HttpAgent, events, { reads: () => 900 }, hooks));
  i = 0;
  const ours = await quietly(() => run(HttpAgent, events, { reads: () => 900 }, hooks));
  assert.deepStrictEqual(ours.log, official.log);
  assert.deepStrictEqual(ours.messages, official.messages);
});

test('a streaming call\'s arguments read as a string property: spread, JSON, structuredClone, keys, assignment', async () => {
  const events = scenario(400, 3);
  let checked = 0;
  const hooks = {
    onToolCallArgsEvent: ({ messages, toolCallBuffer }) => {
      const t = messages.find((m) => m.toolCalls !== undefined).toolCalls[0];
      const text = t.function.arguments;
      assert.equal(typeof text, 'string');
      assert.equal(typeof toolCallBuffer, 'string');
      assert.deepStrictEqual(Object.keys(t.function), ['name', 'arguments']);
      assert.deepStrictEqual({ ...t.function }, { name: 'write_file', arguments: text });
      assert.equal(JSON.parse(JSON.stringify(t)).function.arguments, text);
      assert.equal(structuredClone(t).function.arguments, text);
      checked++;
    },
  };
  const ours = await quietly(() => run(HttpAgent, events, { reads: () => 500 }, hooks));
  assert.ok(checked > 10);
  const official = await quietly(() => run(client.HttpAgent, events, { reads: () => 500 }, hooks));
  assert.deepStrictEqual(ours.log, official.log);
  const agent = new HttpAgent({ url: 'http://args.invalid/agent', threadId: 't', fetch: fakeFetch(events) });
  await quietly(() => agent.runAgent({ runId: 'run-1' }));
  for (const m of agent.messages) {
    for (const t of m.toolCalls ?? []) {
      assert.equal(typeof t.function.arguments, 'string');
      if (Object.isFrozen(t.function)) continue; // development mode: frozen, as the official client's inputs
      // An ended call is plain data: a string property, no hidden version.
      assert.equal(typeof Object.getOwnPropertyDescriptor(t.function, 'arguments').value, 'string');
      assert.deepStrictEqual(Object.getOwnPropertySymbols(t.function), []);
      t.function.arguments = 'replaced'; // production: a plain property, as the official object's
      assert.equal(t.function.arguments, 'replaced');
      assert.equal(JSON.parse(JSON.stringify(t)).function.arguments, 'replaced');
    }
  }
});
