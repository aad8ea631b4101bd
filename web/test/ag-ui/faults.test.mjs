// Parity of the drop-in HttpAgent (web/src/ag-ui/drop-in.js) with @ag-ui/client 1.0.0's
// HttpAgent under faults: both fed the same faulty responses — cut bodies
// (at a frame boundary, inside a frame, by a network error), oversized
// frames, concurrent runs, throwing subscribers, an abort mid-stream, HTTP
// errors, frames that are not events — end with equal agent.messages,
// agent.state, subscriber calls and errors. The responses carry no ids (a
// server without resume support), so the drop-in must behave as HttpAgent
// does. The responses come from a scripted fetch (config.fetch) that hands
// out one chunk per read, so both agents see the same chunks. No timing.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import * as client from '@ag-ui/client';
import * as proto from '@ag-ui/proto';
import { recorder, normalise, quietly, loadDropIn } from './diff.mjs';
import { generate, rng } from '../../../bench/gen.mjs';

const conv = generate({ turns: 1, seed: 21, textDeltas: 24, reasoningDeltas: 3, argDeltas: 5 });
const EVENTS = conv.turns[0].events;
const enc = new TextEncoder();
const frame = (e) => `data: ${JSON.stringify(e)}\n\n`;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const netError = () => new TypeError('terminated');
/** A chunk held until the chunks before it were applied (errors race the apply step otherwise). */
const later = (then) => ({ wait: () => sleep(15), then });

let HttpAgent;
before(async () => { ({ HttpAgent } = await loadDropIn()); });

/**
 * A fetch answering request n with script(n): {status, body, type} for an
 * HTTP error, {proto} for a protobuf body, {url} for the platform's fetch
 * of that URL, else {chunks, hang}: each read of the body gets the next
 * chunk (a string, bytes, {error} to fail the read, {wait, then}: the chunk
 * then once the promise wait() resolves); then the body ends, or with hang waits for an abort.
 * An abort of the request's signal fails the body's read with its reason.
 */
function scriptedFetch(script) {
  let n = 0;
  return async (_url, init) => {
    const a = script(n++, init);
    const signal = init?.signal;
    if (signal?.aborted) throw signal.reason;
    if (a.status) return new Response(a.body ?? '', { status: a.status, headers: { 'content-type': a.type ?? 'text/plain' } });
    if (a.url) return fetch(a.url, init); // the platform's fetch: it refuses the URL
    if (a.proto) return new Response(a.proto, { status: 200, headers: { 'content-type': proto.AGUI_MEDIA_TYPE } });
    // A response whose body reader hands out one chunk per read; a failed
    // read does not error a stream (whose cancel() would then reject:
    // HttpAgent's transport rethrows that, unhandled).
    let i = 0;
    const aborted = () => new Promise((_, reject) => signal?.addEventListener('abort', () => reject(signal.reason), { once: true }));
    const reader = {
      async read() {
        if (signal?.aborted) throw signal.reason;
        if (i >= a.chunks.length) return a.hang ? aborted() : { done: true, value: undefined };
        let x = a.chunks[i++];
        if (x?.wait) { await x.wait(); x = x.then; }
        if (signal?.aborted) throw signal.reason;
        if (x?.error) throw x.error;
        return { done: false, value: typeof x === 'string' ? enc.encode(x) : x };
      },
      cancel: async () => { i = a.chunks.length; },
      releaseLock() {},
    };
    return {
      ok: true, status: 200, statusText: 'OK',
      headers: new Headers({ 'content-type': 'text/event-stream' }),
      body: { getReader: () => reader },
      text: async () => '',
    };
  };
}

/** Runs make(fetch) → agent through runs (each: {params, subscriber?}) and records what a host observes. */
async function observe(make, script, { runs = [{}], concurrent = false, subscribers = [] } = {}) {
  const log = [];
  const agent = make({ url: 'http://127.0.0.1:9/agent', threadId: 't', fetch: scriptedFetch(script) });
  agent.subscribe(recorder(log));
  for (const s of subscribers) agent.subscribe(s(agent));
  const results = [];
  const perRun = runs.map(() => []);
  const one = async (r, i) => {
    try {
      const out = await agent.runAgent({ runId: `run-${i}`, ...r.params }, recorder(perRun[i]));
      results[i] = { result: out.result ?? null, newMessages: out.newMessages };
    } catch (err) {
      results[i] = { error: String(err?.message ?? err) };
    }
  };
  if (concurrent) await Promise.all(runs.map(one));
  else for (let i = 0; i < runs.length; i++) await one(runs[i], i);
  await sleep(0); // onRunFinalized is not awaited
  return normalise({ results, perRun, log: concurrent ? null : log, messages: agent.messages, state: agent.state });
}

async function same(script, options) {
  const official = await quietly(() => observe((c) => new client.HttpAgent(c), script, options));
  const ours = await quietly(() => observe((c) => new HttpAgent(c), script, options));
  assert.deepStrictEqual(ours.results, official.results, 'runAgent results and errors');
  assert.deepStrictEqual(ours.messages, official.messages, 'agent.messages');
  assert.deepStrictEqual(ours.state, official.state, 'agent.state');
  assert.deepStrictEqual(ours.perRun, official.perRun, 'subscriber calls of each run');
  assert.deepStrictEqual(ours.log, official.log, 'subscriber calls of the agent');
  return ours;
}

/** The run's frames as chunks, cut into pieces at random places (seeded). */
function chunked(text, random, max = 200) {
  const out = [];
  for (let i = 0; i < text.length;) {
    const n = 1 + Math.floor(random() * max);
    out.push(text.slice(i, i + n));
    i += n;
  }
  return out;
}

test('cut bodies: at a frame boundary, inside a frame, by a network error — as HttpAgent', async () => {
  const random = rng(7);
  const all = EVENTS.map(frame).join('');
  for (let k = 0; k < 8; k++) {
    const at = 1 + Math.floor(random() * (all.length - 2));
    const boundary = all.lastIndexOf('\n\n', at) + 2;
    for (const cut of [boundary, at]) {
      // The fault (the end, a failed read) comes once what came before it
      // was applied: in HttpAgent a transport error overtakes the events
      // still being applied, however many came in the same read.
      const pieces = chunked(all.slice(0, cut), random);
      await same(() => ({ chunks: [...pieces, later('')] }));
      await same(() => ({ chunks: [...pieces, later({ error: netError() })] }));
    }
  }
});

test('oversized frames: the official limit and error; a large frame under it passes', async () => {
  const big = 'x'.repeat(11 * 1024 * 1024);
  const head = EVENTS.slice(0, 4).map(frame).join('');
  // Large reads: HttpAgent's parser rescans its buffer on every read.
  const piece = (s) => chunked(s, rng(3), 1 << 20);
  const [first, ...rest] = piece(`data: {"type":"CUSTOM","name":"n","value":"${big}"}\n\n${EVENTS.slice(4).map(frame).join('')}`);
  const over = await same(() => ({ chunks: [head, later(first), ...rest] }));
  assert.match(over.results[0].error, /SSE buffer size exceeded maximum limit of 10 MB/);
  const large = EVENTS.map((e) => (e.type === 'TEXT_MESSAGE_CONTENT' ? { ...e, delta: 'y'.repeat(1 << 18) } : e)).slice(0, 12);
  await same(() => ({ chunks: piece([...large, ...EVENTS.slice(12)].map(frame).join('')) }));
});

test('one 24 MiB line: the drop-in gives up at the official limit, reading it once', async () => {
  const line = `data: ${'z'.repeat(24 * 1024 * 1024)}`;
  const chunks = [];
  for (let i = 0; i < line.length; i += 1 << 16) chunks.push(line.slice(i, i + (1 << 16)));
  const agent = new HttpAgent({ url: 'http://127.0.0.1:9/agent', fetch: scriptedFetch(() => ({ chunks })) });
  await assert.rejects(quietly(() => agent.runAgent({ runId: 'r' })), /SSE buffer size exceeded maximum limit of 10 MB/);
});

test('frames that are not events, HTTP errors: the same errors', async () => {
  const head = EVENTS.slice(0, 5).map(frame).join('');
  for (const bad of ['data: {"type":\n\n', 'data: 42\n\n', 'data: null\n\n', 'data: {"no":"type"}\n\n', 'data:\n\n', 'data: [1]\n\n']) {
    await same(() => ({ chunks: [head, later(bad), EVENTS.slice(5).map(frame).join('')] }));
  }
  await same(() => ({ status: 500, body: '{"error": "down"}', type: 'application/json' }));
  await same(() => ({ status: 503, body: '{ "spaced": true }', type: 'text/plain' }));
  // CRLF and a comment between frames, a last frame without its blank line
  await same(() => ({ chunks: [': hello\n\n', EVENTS.slice(0, 6).map((e) => `data: ${JSON.stringify(e)}\r\n\r\n`).join('')] }));
  await same(() => ({ chunks: [EVENTS.map(frame).join('').slice(0, -2), later('')] }));
});

test('throwing subscribers: the same calls, messages and errors', async () => {
  const hooks = ['onTextMessageContentEvent', 'onEvent', 'onRunStartedEvent', 'onMessagesChanged', 'onToolCallEndEvent', 'onRunFinishedEvent'];
  for (const hook of hooks) {
    const thrower = () => {
      let n = 0;
      return { [hook]: () => { if (++n === 3 || hook.startsWith('onRun')) throw new Error(`${hook} threw`); } };
    };
    await same(() => ({ chunks: chunked(EVENTS.map(frame).join(''), rng(5)) }), { subscribers: [thrower] });
  }
});

test('abort mid-stream (agent.abortRun from a subscriber): the same end', async () => {
  for (const at of [3, 10, 20]) {
    const aborter = (agent) => {
      let n = 0;
      return { onEvent: () => { if (++n === at) agent.abortRun(); } };
    };
    // One frame per read, each once the one before was applied; then the
    // body waits: the abort ends it.
    await same(() => ({ chunks: EVENTS.slice(0, 25).map((e) => later(frame(e))), hang: true }), { subscribers: [aborter] });
  }
  // Aborted before the response came.
  await same(() => ({ chunks: EVENTS.map(frame) }), {
    subscribers: [(agent) => ({ onRunInitialized: () => { agent.abortRun(); } })],
  });
});

test('concurrent runs of one agent: each run its own answer, agent.messages the last run\'s, as HttpAgent', async () => {
  const answerOf = (i) => [
    { type: 'RUN_STARTED', threadId: 't', runId: `run-${i}` },
    { type: 'TEXT_MESSAGE_START', messageId: `m${i}`, role: 'assistant' },
    ...Array.from({ length: 20 }, () => ({ type: 'TEXT_MESSAGE_CONTENT', messageId: `m${i}`, delta: `w${i} ` })),
    { type: 'TEXT_MESSAGE_END', messageId: `m${i}` },
    { type: 'STATE_SNAPSHOT', snapshot: { run: i } },
    { type: 'RUN_FINISHED', threadId: 't', runId: `run-${i}` },
  ];
  const script = () => {
    let firstDone;
    const done = new Promise((r) => { firstDone = r; });
    return (n) => {
      const frames = answerOf(n).map(frame);
      if (n === 0) return { chunks: [...frames, { wait: () => sleep(0).then(firstDone), then: '' }] };
      // The second run ends after the first: its last frame waits for it.
      return { chunks: [...frames.slice(0, -1), { wait: () => done.then(() => sleep(30)), then: frames.at(-1) }] };
    };
  };
  const official = await quietly(() => observe((c) => new client.HttpAgent(c), script(), { runs: [{}, {}], concurrent: true }));
  const ours = await quietly(() => observe((c) => new HttpAgent(c), script(), { runs: [{}, {}], concurrent: true }));
  assert.deepStrictEqual(ours.messages, official.messages, 'agent.messages');
  assert.equal(ours.messages.map((m) => m.content ?? '').join('').length, 60, 'one answer, not the two interleaved');
  assert.deepStrictEqual(ours.state, official.state, 'agent.state');
  assert.deepStrictEqual(ours.results, official.results, 'runAgent results');
  assert.deepStrictEqual(ours.perRun, official.perRun, 'subscriber calls of each run');
});

// What the drop-in adds to HttpAgent, resuming, stays bounded: one
// runAgent() makes at most 1 + resume.maxReconnects requests whatever the
// server claims is progress, a reconnect answered with a new run fails the
// run, and a saved cursor that cannot be sent is refused before any request.
test('resuming is bounded: requests of one run, a new run on every request, a cursor that cannot be sent', async () => {
  const idFrames = (n, from, to) => EVENTS.slice(from, to).map((e, i) => `id: r${n}:${from + i + 1}\n${frame(e)}`).join('');
  let requests = 0;
  const progress = (n) => { requests++; return { chunks: [idFrames(n, n, n + 1)] }; }; // one new frame each time, never the end
  const agent = new HttpAgent({ url: 'http://127.0.0.1:9/agent', threadId: 't', fetch: scriptedFetch(progress), resume: { delay: 0, attempts: 1, maxReconnects: 7 } });
  await quietly(() => agent.runAgent({ runId: 'run-0' }).catch(() => {}));
  assert.equal(requests, 8);
  assert.equal(agent.lastRun.reason, 'reconnects_exhausted');

  requests = 0;
  const fresh = (n) => { requests++; return { chunks: [idFrames(n, 0, 6).replaceAll(EVENTS[0].runId, `minted-${n}`)] }; };
  const b = new HttpAgent({ url: 'http://127.0.0.1:9/agent', threadId: 't', fetch: scriptedFetch(fresh), resume: { delay: 0 } });
  await assert.rejects(quietly(() => b.runAgent({ runId: 'run-0' })), (err) => err.code === 'resume_restarted' || /started the run again/.test(err.message));
  assert.equal(requests, 2);

  requests = 0;
  const c = new HttpAgent({ url: 'http://127.0.0.1:9/agent', threadId: 't', lastEventId: 'r0:3\r\nX-Forged: 1', fetch: scriptedFetch(progress), resume: { delay: 0 } });
  await assert.rejects(quietly(() => c.connectAgent({ runId: 'run-0' })), /CR, LF or NUL/);
  assert.equal(requests, 0);
});

test('a protobuf response goes through HttpAgent\'s own transport', async () => {
  const simple = [
    { type: 'RUN_STARTED', threadId: 't', runId: 'run-0' },
    { type: 'TEXT_MESSAGE_START', messageId: 'm', role: 'assistant' },
    { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'Hello' },
    { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: ' world' },
    { type: 'TEXT_MESSAGE_END', messageId: 'm' },
    { type: 'RUN_FINISHED', threadId: 't', runId: 'run-0' },
  ];
  const parts = simple.map((e) => {
    const m = proto.encode(e);
    const out = new Uint8Array(4 + m.length);
    new DataView(out.buffer).setUint32(0, m.length);
    out.set(m, 4);
    return out;
  });
  const body = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  parts.reduce((at, p) => { body.set(p, at); return at + p.length; }, 0);
  const ours = await same(() => ({ proto: body }));
  assert.equal(ours.messages.at(-1).content, 'Hello world');
});

test('bad arguments: a URL that does not parse, an input JSON cannot encode — the same errors, and the agent runs again', async () => {
  const ok = () => ({ chunks: [EVENTS.map(frame).join('')] });
  const badURL = (n) => (n === 0 ? { url: 'http://[bad' } : ok());
  const cyclic = { a: 1 };
  cyclic.self = cyclic;
  for (const [script, runs] of [
    [badURL, [{}, {}]],
    [ok, [{ params: { forwardedProps: cyclic } }, {}]],
  ]) {
    const official = await quietly(() => observe((c) => new client.HttpAgent(c), script, { runs }));
    const ours = await quietly(() => observe((c) => new HttpAgent(c), script, { runs }));
    assert.deepStrictEqual(ours, official);
    assert.ok(ours.results[0].error, 'the first run fails');
    assert.ok(!ours.results[1].error, 'the next run completes');
  }
});

test('concurrent resumed runs keep their own cursors', async () => {
  const answerOf = (run) => [
    { type: 'RUN_STARTED', threadId: 't', runId: run },
    { type: 'TEXT_MESSAGE_START', messageId: `m-${run}`, role: 'assistant' },
    ...Array.from({ length: 6 }, (_, i) => ({ type: 'TEXT_MESSAGE_CONTENT', messageId: `m-${run}`, delta: `${run}.${i} ` })),
    { type: 'TEXT_MESSAGE_END', messageId: `m-${run}` },
    { type: 'RUN_FINISHED', threadId: 't', runId: run },
  ];
  const sent = [];
  const script = (_n, init) => {
    const body = JSON.parse(init.body);
    const cursor = init.headers['Last-Event-ID'] ?? null;
    sent.push([body.runId, cursor]);
    const events = answerOf(body.runId);
    const from = cursor ? Number(cursor.split(':')[1]) : 0;
    const to = cursor ? events.length : 4; // each first response is cut after 4 frames
    return { chunks: events.slice(from, to).map((e, i) => later(`id: ${body.runId}:${from + i + 1}\n${frame(e)}`)) };
  };
  const agent = new HttpAgent({ url: 'http://127.0.0.1:9/agent', threadId: 't', fetch: scriptedFetch(script), resume: { delay: 0 } });
  await quietly(() => Promise.all(['run-a', 'run-b'].map((runId) => agent.runAgent({ runId }))));
  assert.deepStrictEqual(sent.filter(([, c]) => c !== null).sort(), [['run-a', 'run-a:4'], ['run-b', 'run-b:4']]);
  // agent.messages is the copy of the run that emitted last (as HttpAgent's): one whole answer.
  const [only] = agent.messages;
  assert.equal(agent.messages.length, 1);
  assert.match(only.content, /^(run-[ab])\.0 \1\.1 \1\.2 \1\.3 \1\.4 \1\.5 $/);
});
