// The JS mirror against the reducer: for every recorded stream the mirror
// kept from change records deep-equals snapshot(), event by event; the SSE
// form split anywhere folds to the same state; structural sharing keeps
// untouched objects; instances are independent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadReducer, __internal } from '../../entries/agui.node.js';
import { wasmURL, streams, stream, sseText, rng, randomSplit, normalise } from '../support/helpers.mjs';

const factory = await loadReducer(wasmURL);
const all = streams();

function fold(lines, options = { deterministicIds: true }) {
  const r = factory.createReducer(options);
  for (const l of lines) r.apply(l);
  return r;
}

test('streams are found', () => {
  assert.ok(all.filter((s) => s.dir.includes('testdata')).length >= 10, 'testdata/streams');
  assert.ok(all.filter((s) => s.dir.includes('corpus')).length >= 20, 'shared corpus');
});

for (const { name, dir, lines } of all) {
  test(`mirror equals snapshot after every event: ${name}`, () => {
    const r = factory.createReducer();
    try {
      const errors = [];
      r.on('diagnostic', (d) => { if (d.level === 'error') errors.push(d); });
      lines.forEach((line, i) => {
        r.apply(line);
        assert.deepStrictEqual(r.state, r.snapshot(), `after event ${i}: ${line.slice(0, 120)}`);
      });
      if (dir.includes('corpus')) assert.deepStrictEqual(errors, [], 'corpus streams reduce without error diagnostics');
    } finally {
      r.dispose();
    }
  });

  test(`SSE split at random byte boundaries folds the same: ${name}`, () => {
    const want = normalise(fold(lines).state);
    const bytes = new TextEncoder().encode(sseText(lines));
    for (const seed of [1, 2, 3]) {
      const r = factory.createReducer({ deterministicIds: true });
      const random = rng(seed * 7919 + lines.length);
      let records = 0;
      for (const chunk of randomSplit(bytes, random, seed === 1 ? 3 : 97)) records += r.feed(chunk).length;
      assert.ok(records > 0);
      assert.deepStrictEqual(r.state, r.snapshot(), `mirror, seed ${seed}`);
      assert.deepStrictEqual(normalise(r.state), want, `state, seed ${seed}`);
      r.dispose();
    }
  });
}

test('SSE split inside every multi-byte UTF-8 sequence, as bytes and as text', () => {
  const lines = [
    '{"type":"RUN_STARTED","threadId":"t","runId":"r"}',
    '{"type":"TEXT_MESSAGE_START","messageId":"m","role":"assistant"}',
    '{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"héllo wörld — 18°C ☔ 😀 日本語"}',
    '{"type":"TEXT_MESSAGE_END","messageId":"m"}',
    '{"type":"RUN_FINISHED","threadId":"t","runId":"r"}',
  ];
  const want = fold(lines).state;
  assert.equal(want.messages[0].content, 'héllo wörld — 18°C ☔ 😀 日本語');
  const text = sseText(lines);
  const bytes = new TextEncoder().encode(text);
  for (let cut = 1; cut < bytes.length; cut++) {
    const r = factory.createReducer();
    r.feed(bytes.subarray(0, cut));
    r.feed(bytes.subarray(cut));
    assert.deepStrictEqual(r.state, want, `cut at byte ${cut}`);
    r.dispose();
  }
  // Byte by byte, and text split at every UTF-16 unit but inside surrogate pairs.
  const r = factory.createReducer();
  for (let i = 0; i < bytes.length; i++) r.feed(bytes.subarray(i, i + 1));
  assert.deepStrictEqual(r.state, want);
  const t = factory.createReducer();
  for (const ch of text) t.feed(ch);
  assert.deepStrictEqual(t.state, want);
  r.dispose();
  t.dispose();
});

test('CRLF and CR line endings, comments, event names and ArrayBuffer chunks', () => {
  const lines = stream('01_text_basic.jsonl').lines;
  const want = normalise(fold(lines).state);
  for (const eol of ['\r\n', '\r']) {
    const text = ': keep-alive' + eol + lines.map((l) => `event: message${eol}data: ${l}${eol}${eol}`).join('');
    const r = factory.createReducer();
    const bytes = new TextEncoder().encode(text);
    r.feed(bytes.buffer.slice(0, 10));
    r.feed(bytes.buffer.slice(10));
    assert.deepStrictEqual(normalise(r.state), want, JSON.stringify(eol));
    r.dispose();
  }
});

test('endStream() discards an unterminated event so the next response starts clean', () => {
  const r = factory.createReducer();
  r.feed('data: {"type":"RUN_STARTED","threadId":"t","runId":"r1"}\n');
  r.endStream();
  r.feed('\ndata: {"type":"RUN_STARTED","threadId":"t","runId":"r2"}\n\n');
  assert.equal(r.state.runId, 'r2');
  r.dispose();
});

test('untouched messages and tool calls keep their identity', () => {
  const { lines } = stream('03_parallel_tools.jsonl');
  const r = factory.createReducer();
  // Fold up to the last text delta, so that message is still streaming.
  const last = lines.findLastIndex((l) => JSON.parse(l).type === 'TEXT_MESSAGE_CONTENT');
  lines.slice(0, last + 1).forEach((l) => r.apply(l));
  const before = r.state;
  assert.ok(before.messages.length >= 3, 'several messages');
  assert.ok(before.toolCalls.length >= 2, 'several tool calls');
  const id = JSON.parse(lines[last]).messageId;
  const idx = before.messages.findIndex((m) => m.id === id);

  let notified = 0;
  const unsubscribe = r.subscribe(() => notified++);
  const rec = r.apply({ type: 'TEXT_MESSAGE_CONTENT', messageId: id, delta: ' more' });
  unsubscribe();
  assert.deepStrictEqual(rec.ops.map((o) => o.op), ['append']);
  const after = r.state;
  assert.equal(notified, 1);
  assert.notEqual(after, before, 'new root');
  assert.notEqual(after.messages, before.messages, 'new messages array');
  assert.notEqual(after.messages[idx], before.messages[idx], 'new touched message');
  assert.equal(after.messages[idx].content, before.messages[idx].content + ' more');
  after.messages.forEach((m, i) => { if (i !== idx) assert.equal(m, before.messages[i], `message ${i} keeps identity`); });
  assert.equal(after.toolCalls, before.toolCalls, 'toolCalls array untouched');
  assert.equal(after.state, before.state);
  assert.equal(after.steps, before.steps);
  assert.equal(before.messages[idx].content.endsWith(' more'), false, 'the old state is not mutated');

  // A tool-call delta touches that tool call only.
  r.apply({ type: 'TOOL_CALL_START', toolCallId: 'tc-new', toolCallName: 'lookup', parentMessageId: id });
  const mid = r.state;
  r.apply({ type: 'TOOL_CALL_ARGS', toolCallId: 'tc-new', delta: '{"q":"x' });
  const end = r.state;
  assert.equal(end.messages, mid.messages, 'messages untouched by tool args');
  const t = end.toolCalls.findIndex((c) => c.id === 'tc-new');
  end.toolCalls.forEach((c, i) => { if (i !== t) assert.equal(c, mid.toolCalls[i], `tool call ${i} keeps identity`); });
  assert.notEqual(end.toolCalls[t], mid.toolCalls[t]);
  assert.deepStrictEqual(end.toolCalls[t].args, { q: 'x' });
  assert.deepStrictEqual(r.state, r.snapshot());

  // An event that changes nothing keeps the whole state and notifies no one.
  const same = r.state;
  r.subscribe(() => assert.fail('no change, no notification'));
  r.apply({ type: 'RAW', event: {} });
  assert.equal(r.state, same);
  r.dispose();
});

test('two instances do not interfere', () => {
  const a = stream('02_tool_call.jsonl').lines;
  const b = stream('ParallelToolCalls--WithParallelToolCalls_InvokesBothToolsAndStreamsResults-turn1.jsonl').lines;
  const soloA = normalise(fold(a).state);
  const soloB = normalise(fold(b).state);
  const ra = factory.createReducer();
  const rb = factory.createReducer();
  const sa = new TextEncoder().encode(sseText(b));
  const chunks = randomSplit(sa, rng(42), 50);
  for (let i = 0; i < Math.max(a.length, chunks.length); i++) {
    if (i < a.length) ra.apply(a[i]);
    if (i < chunks.length) rb.feed(chunks[i]);
  }
  assert.deepStrictEqual(normalise(ra.state), soloA);
  assert.deepStrictEqual(normalise(rb.state), soloB);
  ra.reset();
  assert.deepStrictEqual(normalise(rb.state), soloB, 'reset of one leaves the other');
  ra.dispose();
  assert.deepStrictEqual(normalise(rb.snapshot()), soloB, 'dispose of one leaves the other');
  rb.dispose();
});

test('__proto__ keys stay own data and never reach Object.prototype', () => {
  const r = factory.createReducer();
  r.apply('{"type":"STATE_SNAPSHOT","snapshot":{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"a":{}}}');
  r.apply('{"type":"STATE_DELTA","delta":[{"op":"add","path":"/b","value":{"__proto__":{"polluted":true}}}]}');
  const rec = r.apply('{"type":"STATE_DELTA","delta":[{"op":"add","path":"/a/__proto__","value":{"polluted":true}}]}');
  assert.equal(rec.diagnostics[0].level, 'error', 'the reducer bans __proto__ paths, as fast-json-patch does');
  r.apply('{"type":"RUN_STARTED","threadId":"__proto__","runId":"constructor"}');
  r.apply('{"type":"TEXT_MESSAGE_START","messageId":"__proto__"}');
  r.apply('{"type":"TEXT_MESSAGE_CONTENT","messageId":"__proto__","delta":"x"}');
  assert.equal({}.polluted, undefined);
  assert.equal(Object.prototype.polluted, undefined);
  assert.equal(Object.getPrototypeOf(r.state.state), Object.prototype);
  assert.ok(Object.hasOwn(r.state.state, '__proto__'));
  assert.ok(Object.hasOwn(r.state.state.b, '__proto__'));
  assert.deepStrictEqual(r.state, r.snapshot());
  r.dispose();

  // Op paths through and onto "__proto__" keys (the mirror's own code path).
  const root = JSON.parse('{"o":{"__proto__":{"x":1}},"l":[]}');
  const ops = [
    { op: 'add', path: '/o/__proto__/y', value: 2 },
    { op: 'add', path: '/p', value: {} },
    { op: 'add', path: '/p/__proto__', value: { polluted: true } },
    { op: 'replace', path: '/constructor', value: { prototype: { polluted: true } } },
    { op: 'add', path: '/l/-', value: 'a' },
    { op: 'append', path: '/l/0', value: 'b' },
  ];
  const next = __internal.applyOps(root, ops, new WeakSet());
  assert.equal({}.polluted, undefined);
  assert.deepStrictEqual(Object.getOwnPropertyNames(next.o), ['__proto__']);
  assert.deepStrictEqual(next.o.__proto__, { x: 1, y: 2 });
  assert.ok(Object.hasOwn(next.p, '__proto__'));
  assert.equal(Object.getPrototypeOf(next.p), Object.prototype);
  assert.deepStrictEqual(next.l, ['ab']);
  assert.deepStrictEqual(root, JSON.parse('{"o":{"__proto__":{"x":1}},"l":[]}'), 'input untouched');
});

test('large events grow the input buffer (ASCII and multi-byte)', () => {
  const r = factory.createReducer();
  r.apply({ type: 'RUN_STARTED', threadId: 't', runId: 'r' });
  r.apply({ type: 'TEXT_MESSAGE_START', messageId: 'm' });
  const ascii = 'a'.repeat(300_000);
  const wide = '€😀'.repeat(100_000);
  r.apply({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: ascii });
  r.apply(JSON.stringify({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: wide }));
  r.feed(`data: ${JSON.stringify({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: wide })}\n\n`);
  assert.equal(r.state.messages[0].content, ascii + wide + wide);
  assert.deepStrictEqual(r.state, r.snapshot());
  r.dispose();
});

// The mirror queues change ops and applies them when the state is read
// (agui.js, Mirror): whatever the reading pattern, a read sees exactly the
// reducer's state, old states stay as they were, and untouched parts keep
// their identity across reads.

for (const { name, lines } of all.filter((s) => s.dir.includes('testdata')).slice(0, 8)) {
  test(`reads at random intervals see the snapshot, and old states never change: ${name}`, () => {
    for (const seed of [1, 2]) {
      const r = factory.createReducer();
      const random = rng(seed * 31 + lines.length);
      const kept = []; // [state, its JSON when read]
      let version = r.version;
      lines.forEach((line, i) => {
        r.apply(line);
        if (random() < 0.15 || i === lines.length - 1) {
          const s = r.state;
          assert.deepStrictEqual(s, r.snapshot(), `seed ${seed}, read after event ${i}`);
          kept.push([s, JSON.stringify(s)]);
        }
        assert.ok(r.version >= version, 'version never goes back');
        version = r.version;
      });
      for (const [s, json] of kept) assert.equal(JSON.stringify(s), json, 'a state once read is never mutated');
      r.dispose();
    }
  });
}

test('unread appends to several messages build once, copying each touched message once', () => {
  const r = factory.createReducer();
  r.apply({ type: 'RUN_STARTED', threadId: 't', runId: 'r' });
  for (const id of ['a', 'b', 'c']) r.apply({ type: 'TEXT_MESSAGE_START', messageId: id, role: 'assistant' });
  r.apply({ type: 'REASONING_MESSAGE_START', messageId: 'think', role: 'reasoning' });
  const before = r.state;
  const v0 = r.version;
  let notified = 0;
  r.subscribe(() => notified++);
  const want = { a: '', b: '', think: '' };
  for (let i = 0; i < 300; i++) {
    const id = ['a', 'b', 'think'][i % 3];
    const delta = `${i % 10}é`;
    want[id] += delta;
    if (id === 'think') r.apply({ type: 'REASONING_MESSAGE_CONTENT', messageId: id, delta });
    else r.apply({ type: 'TEXT_MESSAGE_CONTENT', messageId: id, delta });
  }
  assert.equal(notified, 300, 'one notification per event');
  assert.equal(r.version, v0 + 300, 'one version per change');
  const after = r.state;
  assert.equal(r.state, after, 'reading again builds nothing');
  const byId = (s, id) => s.messages.find((m) => m.id === id);
  assert.equal(byId(after, 'a').content, want.a);
  assert.equal(byId(after, 'b').content, want.b);
  assert.equal(byId(after, 'think').reasoning, want.think);
  assert.equal(byId(after, 'c'), byId(before, 'c'), 'an untouched message keeps its identity');
  assert.equal(after.toolCalls, before.toolCalls);
  assert.equal(byId(before, 'a').content, '', 'the old state is not mutated');
  assert.deepStrictEqual(after, r.snapshot());
  r.dispose();
});

test('a mirror never read stays exact past the pending-op bound', () => {
  const r = factory.createReducer();
  r.apply({ type: 'RUN_STARTED', threadId: 't', runId: 'r' });
  r.apply({ type: 'STATE_SNAPSHOT', snapshot: { n: 0, log: [] } });
  let text = '';
  for (let i = 0; i < 5000; i++) {
    if (i % 500 === 0) r.apply({ type: 'TEXT_MESSAGE_START', messageId: `m${i}`, role: 'assistant' });
    const delta = `w${i} `;
    text += delta;
    r.apply({ type: 'TEXT_MESSAGE_CONTENT', messageId: `m${i - (i % 500)}`, delta });
    if (i % 97 === 0) r.apply({ type: 'STATE_DELTA', delta: [{ op: 'replace', path: '/n', value: i }, { op: 'add', path: '/log/-', value: i }] });
  }
  const s = r.state;
  assert.equal(s.messages.length, 10);
  assert.equal(s.messages.map((m) => m.content).join(''), text);
  assert.equal(s.state.log.length, Math.ceil(5000 / 97));
  assert.deepStrictEqual(s, r.snapshot());
  r.dispose();
});

test('a change record that does not apply is reported after the read that finds it, and a snapshot replaces the mirror', async () => {
  const r = factory.createReducer();
  r.apply({ type: 'RUN_STARTED', threadId: 't', runId: 'r' });
  r.apply({ type: 'TEXT_MESSAGE_START', messageId: 'm', role: 'assistant' });
  r.apply({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'hi' });
  const errors = [];
  r.on('error', (e) => errors.push(e.message));
  let depth = 0;
  let maxDepth = 0;
  let notified = 0;
  r.subscribe(() => {
    notified++;
    depth++;
    maxDepth = Math.max(maxDepth, depth);
    void r.state; // a subscriber that reads, as React's getSnapshot check does
    depth--;
  });
  // A record the reducer never sent (the mirror and the reducer disagree).
  r._commit([{ ops: [{ op: 'append', path: '/messages/7/content', value: 'x' }] }]);
  assert.equal(maxDepth, 1, 'the resync found by the subscriber\'s read does not call it again from inside');
  assert.deepStrictEqual(r.state, r.snapshot(), 'the read answered with the snapshot');
  assert.deepStrictEqual(errors, [], 'reported after the read, not inside it');
  const before = notified;
  await Promise.resolve();
  assert.equal(errors.length, 1);
  assert.match(errors[0], /did not apply .*resynchronising/);
  assert.equal(notified, before + 1, 'subscribers hear of the resync after the read');
  assert.equal(maxDepth, 1);
  assert.equal(r.state.messages[0].content, 'hi');
  r.apply({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: ' there' });
  assert.equal(r.state.messages[0].content, 'hi there', 'and goes on');
  r.dispose();
});

test('a disagreement found in the middle of a batch resynchronises once the batch is queued', () => {
  const sse = (evs) => evs.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('');
  // A 'change' handler that reads mid-batch, and the pending-op bound
  // reached mid-batch: both build while feed() is still queueing records
  // the reducer has already folded.
  for (const how of ['handler', 'bound']) {
    const r = factory.createReducer();
    const errors = [];
    r.on('error', (e) => errors.push(e));
    r.apply({ type: 'RUN_STARTED', threadId: 't', runId: 'r' });
    r.apply({ type: 'TEXT_MESSAGE_START', messageId: 'a', role: 'assistant' });
    r.apply({ type: 'TEXT_MESSAGE_START', messageId: 'b', role: 'assistant' });
    r.state.messages.pop(); // a caller mutated the state: mirror and reducer disagree
    if (how === 'handler') r.on('change', () => { void r.state.messages.length; });
    const evs = [
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'b', delta: 'one ' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'a', delta: 'two ' },
    ];
    for (let i = 0; i < (how === 'bound' ? 1100 : 3); i++) evs.push({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'a', delta: 'x' });
    r.feed(sse(evs));
    assert.ok(errors.length >= 1, `${how}: reported`);
    assert.deepStrictEqual(r.state, r.snapshot(), `${how}: each record once, none lost`);
    r.apply({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'a', delta: '!' });
    assert.deepStrictEqual(r.state, r.snapshot(), `${how}: and after`);
    r.dispose();
  }
});

test('version: changes with the state, not without; getVersion is bound', () => {
  const r = factory.createReducer();
  const { getVersion } = r;
  const v0 = getVersion();
  r.apply({ type: 'RAW', event: {} });
  assert.equal(getVersion(), v0, 'no change, same version');
  r.apply({ type: 'RUN_STARTED', threadId: 't', runId: 'r' });
  assert.ok(getVersion() > v0);
  const v1 = r.version;
  const s = r.state;
  assert.equal(r.version, v1, 'reading does not change it');
  r.reset();
  assert.ok(r.version > v1);
  assert.notEqual(r.state, s);
  r.dispose();
});
