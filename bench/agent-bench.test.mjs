// The drop-in agent's benchmark code (agent-core.mjs), run for a few
// seconds for correctness only: both agents, fed the same SSE bytes through
// their fetch option, end with equal messages and state, and their
// subscribers read the same text. No timing is asserted (make bench
// measures; agent.mjs).
//
//   node --test bench/agent-bench.test.mjs   (needs make wasm and npm ci in bench/)

import { test } from 'node:test';
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { HttpAgent } from '@ag-ui/client';
import { ignoreElements, endWith } from 'rxjs';
import { dropIn } from './agent-dropin.mjs';
import { runAgentBench, sides, converse, canon, medianPageRow, agentBars, largeBars } from './agent-core.mjs';
import { runLargeBench, largeArgs, previewSubscriber } from './agent-large.mjs';
import { generate } from './gen.mjs';
import { accountProfile, allocSampler, owner, OWNERS } from './alloc-account.mjs';

process.env.SUPPRESS_TRANSFORMATION_WARNINGS = 'true';
// The package's exported class, as agent.mjs measures it.
const make = sides({ HttpAgent, DropIn: await dropIn(), ignoreElements, endWith });

test('agent bench: both agents fold the same SSE bytes alike, with 1 and 3 subscribers', async () => {
  const res = await runAgentBench({ make, lengths: [1, 2], subscribers: [1, 3], reps: 1, now: () => 0 });
  assert.equal(res.rows.length, 4);
  for (const r of res.rows) assert.ok(r.same, `${r.subscribers} subscriber(s), ${r.turns} turn(s): the agents differ`);
});

test('agent bench: rows measured in several pages come down to the median page\'s row, the bar read from it', async () => {
  const now = performance.now.bind(performance);
  const pages = [];
  for (let i = 0; i < 3; i++) pages.push((await runAgentBench({ make, lengths: [1], subscribers: [1], reps: 2, now })).rows[0]);
  // Ratios set apart so that the median page is known: 0.9, 1.3, 1.1.
  pages.forEach((r, i) => { r.totalRatio = [0.9, 1.3, 1.1][i]; });
  const p = medianPageRow(pages);
  assert.equal(p.pages, 3);
  assert.deepEqual(p.perPage, [0.9, 1.3, 1.1]);
  assert.equal(p.totalRatio, 1.1);
  assert.equal(p.ours.totalMs, pages[2].ours.totalMs);
  assert.equal(p.official.reps, pages[2].official.reps);
  assert.equal(p.same, true);
  assert.equal(medianPageRow([pages[0], { ...pages[1], same: false }, pages[2]]).same, false);
  // Of two, the lower.
  assert.equal(medianPageRow([pages[1], pages[0]]).totalRatio, 0.9);
  // The longest task of any page.
  const lt = (o) => ({ official: o, ours: o + 1, floor: 0 });
  const q = medianPageRow([{ ...pages[0], longTaskMs: lt(10) }, { ...pages[1], longTaskMs: lt(60) }, { ...pages[2], longTaskMs: lt(20) }]);
  assert.deepEqual(q.longTaskMs, { official: 60, ours: 61, floor: 0 });
  const bar = agentBars([p]).find((x) => x.turns === 1 && x.subscribers === 1);
  assert.equal(bar.value, 1.1);
  assert.equal(bar.met, true);
  // One page pools to itself.
  assert.equal(medianPageRow([pages[0]]).totalRatio, 0.9);
});

test('agent bench: the conversation is the one gen.mjs says N turns fold into; the floor folds nothing but carries the conversation', async () => {
  const conv = generate({ turns: 2, seed: 3 });
  const now = () => 0;
  const ours = await converse(make.ours, conv, { subscribers: 2, now });
  assert.equal(canon(ours.messages), canon(conv.messages(2)));
  assert.equal(canon(ours.state), canon(conv.state(2)));
  assert.ok(ours.sink.n > 0 && ours.sink.chars > 0, 'the subscribers read the messages');
  const floor = await converse(make.floor, conv, { subscribers: 2, now, carry: true });
  // Given before the last turn what the conversation held then; it folded nothing since.
  assert.equal(canon(floor.messages), canon(conv.messages(1)));
  assert.equal(canon(floor.state), canon(conv.state(1)));
  assert.equal(floor.sink.n, 0);
});

test('agent bench, large arguments: both agents end equal, with and without the preview reader, which reads every event', async () => {
  const rows = await runLargeBench({
    make, now: () => performance.now(), reps: 1, collect: () => {}, tick: () => new Promise((r) => setTimeout(r, 0)),
    scenarios: [{ bytes: 2_000, subscribers: 2, reader: false }, { bytes: 2_000, subscribers: 1, reader: true }],
  });
  assert.equal(rows.length, 2);
  for (const r of rows) assert.ok(r.same, `${r.subscribers} subscriber(s), reader ${r.reader}: the agents differ`);
  // The conversation: the history, then one assistant message holding the three calls with their whole arguments.
  const conv = largeArgs({ bytes: 2_000 });
  const ours = await converse(make.ours, conv, { subscribers: 1, now: () => 0 });
  assert.equal(ours.messages.length, 51);
  const calls = ours.messages[50].toolCalls;
  assert.equal(calls.length, 3);
  for (const t of calls) assert.equal(JSON.parse(t.function.arguments).content.length, 2_000);
});

test('agent-alloc.mjs: a row\'s allocation per event, and the sampled account of who made it (the reader\'s share only with a reader)', () => {
  const out = execFileSync(process.execPath, [fileURLToPath(new URL('./agent-alloc.mjs', import.meta.url)), '--rows', '4:2:1,4:1:0'], { encoding: 'utf8' });
  const all = out.trim().split('\n');
  const lines = all.filter((l) => !l.startsWith('  '));
  assert.equal(lines[0], 'the drop-in: JS allocation per event, KB');
  // Each row is followed by where the agent's share was allocated.
  assert.equal(all.filter((l) => l.startsWith('  the agent\'s share by place: ')).length, 2);
  const withReader = lines[1].match(/^3 × 4 KB, 2 subscriber\(s\) \+ preview reader: ([\d.]+) \(median of 3\); sampled ([\d.]+): the agent ([\d.]+), the chat subscribers ([\d.]+), the preview reader ([\d.]+)/);
  assert.ok(withReader, lines[1]);
  const [, , sampled, ...parts] = withReader.map(Number);
  assert.ok(parts.every((x) => x > 0), lines[1]);
  assert.ok(parts.reduce((a, b) => a + b, 0) <= sampled + 0.3, lines[1]);
  assert.match(lines[2], /^3 × 4 KB, 1 subscriber\(s\): [\d.]+ \(median of 3\); sampled [\d.]+: the agent [\d.]+/);
  assert.doesNotMatch(lines[2], /preview reader/);
});

test('agent-alloc.mjs: rows it cannot read are refused with a message, before anything runs', () => {
  for (const rows of ['32:10', '32:x:1', '0:1:1', '32:1:2', '']) {
    const r = spawnSync(process.execPath, [fileURLToPath(new URL('./agent-alloc.mjs', import.meta.url)), '--rows', rows], { encoding: 'utf8' });
    assert.equal(r.status, 2, rows);
    assert.match(r.stderr, /--rows takes KB:subscribers:reader triples/, rows);
    assert.equal(r.stdout, '', rows);
  }
});

test('alloc-account.mjs: each sample has one owner, from its stack, and the owners\' shares add up to what was sampled', () => {
  const bench = (name, fn) => ({ url: `file:///repo/bench/${name}`, functionName: fn });
  const web = (name, fn) => ({ url: `file:///repo/web/src/${name}`, functionName: fn });
  const agui = { url: 'file:///repo/bench/node_modules/@ag-ui/client/dist/index.mjs', functionName: 'x' };
  assert.equal(owner([bench('agent-core.mjs', 'converseProbe'), web('ag-ui/run.js', 'step'), agui, bench('agent-core.mjs', 'onMessagesChanged')]), 'subscribers');
  assert.equal(owner([web('ag-ui/run.js', 'step'), bench('agent-core.mjs', 'onMessagesChanged'), bench('agent-large.mjs', 'onMessagesChanged')]), 'reader');
  assert.equal(owner([bench('agent-core.mjs', 'converseProbe'), web('ag-ui/run.js', 'step')]), 'agent');
  assert.equal(owner([web('ag-ui/run.js', 'step'), bench('agent-core.mjs', 'pull')]), 'network');
  // A profile tree: root → run (agent, 1,000 bytes) → subscriber (300) → reader (200); root → pull (network, 100).
  const node = (callFrame, selfSize, children = []) => ({ callFrame, selfSize, children });
  const profile = {
    head: node({ url: '', functionName: '(root)' }, 0, [
      node(web('ag-ui/run.js', 'step'), 600, [
        node(web('ag-ui/view.js', 'build'), 400),
        node(bench('agent-core.mjs', 'onMessagesChanged'), 300, [node(bench('agent-large.mjs', 'onMessagesChanged'), 200)]),
      ]),
      node(bench('agent-core.mjs', 'pull'), 100),
    ]),
  };
  const a = accountProfile(profile, 1 / 1024);
  assert.deepEqual([a.agentKB, a.subscribersKB, a.readerKB, a.networkKB, a.sampledKB], [1000, 300, 200, 100, 1600]);
  assert.deepEqual(a.agentPlacesKB, { 'ag-ui/run.js': 600, 'ag-ui/view.js': 400 });
});

test('alloc-account.mjs: a sampled run of the drop-in, its shares adding up; the bar reads the agent\'s own share', async () => {
  const conv = largeArgs({ bytes: 4_000 });
  const events = conv.turns[0].events.length;
  const sampler = await allocSampler();
  try {
    for (const reader of [false, true]) {
      let r;
      const a = await sampler.account(async () => { r = await converse(make.ours, conv, { subscribers: 2, extra: reader ? [previewSubscriber] : [], now: () => 0 }); }, events);
      assert.equal(r.messages.length, 51);
      const sum = OWNERS.reduce((x, k) => x + a[`${k}KB`], 0);
      assert.ok(Math.abs(sum - a.sampledKB) < 1e-9, `${sum} against ${a.sampledKB}`);
      const places = Object.values(a.agentPlacesKB).reduce((x, y) => x + y, 0);
      assert.ok(Math.abs(places - a.agentKB) < 1e-9, `${places} against ${a.agentKB}`);
      assert.ok(a.agentKB > 0 && a.subscribersKB > 0, JSON.stringify(a));
      assert.equal(a.readerKB > 0, reader, JSON.stringify(a));
    }
  } finally {
    sampler.close();
  }
  // The bar is read from the agent's share of the worst row, not from the whole process's figure.
  const row = (agentKB, measured) => ({ subscribers: 10, reader: true, bytes: 100_000, same: true, official: { peakHeapMB: 1 }, ours: { lastTenthUs: 1, firstTenthUs: 1, peakHeapMB: 1, allocatedPerEventKB: measured, account: { agentKB } } });
  const bar = largeBars([row(5, 21), row(7, 14)], 'node').find((b) => /allocated per event/.test(b.bar));
  assert.equal(bar.value, 7);
  assert.equal(bar.met, true);
  assert.equal(largeBars([row(13, 14)], 'node').find((b) => /allocated per event/.test(b.bar)).met, false);
  // With a reader, the whole process's allocation (the reader's included on both sides) against HttpAgent's.
  const withOfficial = (measured, official) => { const r = row(5, measured); r.official.allocatedPerEventKB = official; return r; };
  assert.equal(largeBars([withOfficial(21, 300)], 'node').find((b) => /JS allocation per event ≤ HttpAgent's/.test(b.bar)).met, true);
  assert.equal(largeBars([withOfficial(21, 20)], 'node').find((b) => /JS allocation per event ≤ HttpAgent's/.test(b.bar)).met, false);
  assert.equal(largeBars([row(5, 21)], 'node').some((b) => /JS allocation per event ≤ HttpAgent's/.test(b.bar)), false);
});
