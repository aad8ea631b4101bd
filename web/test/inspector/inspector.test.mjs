// <agui-inspector> in headless Chromium: attached to live reducers (page
// and worker, apply() and run()), to agents and to recordings; time travel
// gives, at every event of the golden streams, the state the reducer's
// snapshot() had then; filters; export → import → export byte for byte;
// keyboard navigation. Needs `make wasm` and playwright-core (web/).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchChromium } from '../support/chromium.mjs';
import { startServer, repoDir, jsonlLines } from './serve.mjs';

let server, profile, context, page;
const problems = [];

before(async () => {
  server = await startServer();
  profile = await mkdtemp(join(tmpdir(), 'agui-inspector-'));
  context = await launchChromium(profile, { viewport: { width: 1280, height: 800 } });
  page = context.pages()[0] ?? await context.newPage();
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
  page.on('console', (msg) => { if (msg.type() === 'error' && !msg.text().startsWith('Failed to load resource')) problems.push(`console: ${msg.text()}`); });
  page.on('response', (r) => { if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`); });
  await page.goto(`${server.url}/web/test/inspector/page.html`);
  await page.waitForFunction(() => window.ready === true, null, { timeout: 30_000 });
});

after(async () => {
  await context?.close();
  await server?.close();
  if (profile) await rm(profile, { recursive: true, force: true });
});

/** The golden streams: testdata/streams, testdata/scenarios, reducer/testdata/agui10. */
async function goldenStreams() {
  const out = [];
  for (const dir of ['testdata/streams', 'testdata/scenarios', 'reducer/testdata/agui10']) {
    for (const f of (await readdir(join(repoDir, dir))).filter((f) => f.endsWith('.jsonl')).sort()) {
      out.push({ name: `${dir}/${f}`, lines: jsonlLines(await readFile(join(repoDir, dir, f), 'utf8')) });
    }
  }
  return out;
}

test('time travel: at every event of every golden stream, the state the reducer had then', async () => {
  const streams = await goldenStreams();
  assert.ok(streams.length >= 40, `${streams.length} streams`);
  const failed = [];
  for (const s of streams) {
    for (const every of [1, 3, 1000]) {
      const bad = await page.evaluate(async ([lines, every]) => {
        const { snaps } = await window.t.foldObserved(lines, { checkpointEvery: every });
        if (window.t.inspector.session.entries.length !== lines.length) return [{ i: -1, got: `${window.t.inspector.session.entries.length} entries` }];
        return window.t.checkTravel(snaps);
      }, [s.lines, every]);
      if (bad.length) failed.push(`${s.name} (checkpoint every ${every}): ${JSON.stringify(bad[0])}`);
    }
  }
  assert.deepEqual(failed, []);
  assert.deepEqual(problems, []);
});

test('live: run() on the page and in a worker, and an agent (createAgent), are followed as they stream', async () => {
  const stream = 'testdata/streams/03_parallel_tools.jsonl';
  const lines = jsonlLines(await readFile(join(repoDir, stream), 'utf8'));
  const res = await page.evaluate(async (stream) => {
    const { inspector, factory, createWorkerReducer, createAgent, timeless } = window.t;
    const out = {};
    // Page reducer: addUserMessage, then run() feeding the SSE body in chunks.
    const r = factory.createReducer({ deterministicIds: true });
    await inspector.attach(r, { reducerOptions: { deterministicIds: true } });
    r.addUserMessage('hello');
    out.page = await r.run(`/agent?stream=${stream}`, undefined, {});
    const n = inspector.session.entries.length;
    out.pageEntries = inspector.session.entries.map((e) => e.kind === 'event' ? e.type : `${e.kind}:${e.name}`);
    out.pageSame = JSON.stringify(timeless(inspector.stateAt(n - 1))) === JSON.stringify(timeless(r.snapshot()));
    out.pageIds = inspector.session.entries.filter((e) => e.kind === 'event').map((e) => e.id);
    // Worker reducer.
    const w = await createWorkerReducer({ deterministicIds: true });
    await inspector.attach(w, { reducerOptions: { deterministicIds: true } });
    await w.addUserMessage('hi worker');
    out.worker = await w.run(`/agent?stream=${stream}`);
    await new Promise((r) => setTimeout(r, 50));
    const wn = inspector.session.entries.length;
    out.workerEvents = inspector.session.entries.filter((e) => e.kind === 'event').length;
    out.workerSame = JSON.stringify(timeless(inspector.stateAt(wn - 1))) === JSON.stringify(timeless(await w.snapshot()));
    // An agent, attached before it has loaded.
    const agent = createAgent({ url: `/agent?stream=${stream}`, deterministicIds: true });
    await inspector.attach(agent, { reducerOptions: { deterministicIds: true } });
    await agent.send('from the agent');
    const an = inspector.session.entries.length;
    out.agentEntries = an;
    out.agentSame = JSON.stringify(timeless(inspector.stateAt(an - 1))) === JSON.stringify(timeless(agent.reducer.snapshot()));
    inspector.flush();
    out.rows = inspector.shadowRoot.querySelectorAll('.row:not([hidden])').length;
    return out;
  }, stream);
  assert.equal(res.page, 'completed');
  assert.equal(res.pageEntries[0], 'action:addUserMessage');
  assert.ok(res.pageEntries.includes('action:setLastEventId'), 'run() resets the cursor');
  assert.equal(res.pageEntries.filter((t) => !t.includes(':')).length, lines.length, 'one entry per SSE frame');
  assert.equal(res.pageEntries.at(-1), 'end:endStream');
  assert.deepEqual(res.pageIds, lines.map((_, i) => String(i + 1)), 'the SSE ids');
  assert.ok(res.pageSame, 'the inspector folds what the page reducer folded');
  assert.equal(res.worker, 'completed');
  assert.equal(res.workerEvents, lines.length);
  assert.ok(res.workerSame, 'the inspector folds what the worker reducer folded');
  assert.ok(res.agentEntries > lines.length);
  assert.ok(res.agentSame, 'the agent');
  assert.ok(res.rows > 5, 'rows are rendered');
  assert.deepEqual(problems, []);
});

test('recordings: export → import → export gives the same bytes; .jsonl and SSE captures replay; a range becomes a fixture', async () => {
  const stream = 'testdata/streams/07_shared_state_citations.jsonl';
  const text = await readFile(join(repoDir, stream), 'utf8');
  const res = await page.evaluate(async ({ stream, text }) => {
    const { inspector, factory, timeless } = window.t;
    const r = factory.createReducer({ deterministicIds: true });
    await inspector.attach(r, { reducerOptions: { deterministicIds: true } });
    r.addUserMessage('research');
    await r.run(`/agent?stream=${stream}`);
    r.apply('{"type":"CUSTOM","name":"raw text", "value": 1}'); // not canonical JSON: kept as data
    r.apply({ type: 'RUN_STARTED', threadId: 't', runId: 'r9' }, { event: 'agui', id: 'x-1' });
    const first = inspector.exportRecording();
    const states = inspector.session.entries.map((_, i) => JSON.stringify(timeless(inspector.stateAt(i))));
    await inspector.load(first);
    const second = inspector.exportRecording();
    const same = inspector.session.entries.every((_, i) => JSON.stringify(timeless(inspector.stateAt(i))) === states[i]);
    // A plain .jsonl of events, at 10×; then the same as an SSE capture.
    await inspector.load(text, { speed: 10 });
    const jsonl = inspector.session.entries.length;
    const fixture = inspector.fixture(0, jsonl - 1);
    const sse = text.split('\n').filter((l) => l.trim()).map((l, i) => `id: ${i}\nevent: agui\ndata: ${l}\n\n`).join('');
    await inspector.load(new Blob([sse]), { speed: 'full' });
    const sseEntries = inspector.session.entries.map((e) => [e.name, e.id]);
    inspector.select(2);
    inspector.select(5, { mark: true });
    const range = inspector.fixture();
    return { first, second, same, jsonl, fixture, sseEntries, range };
  }, { stream, text });
  assert.equal(res.second, res.first, 'byte for byte');
  assert.ok(res.same, 'the same states after import');
  const head = JSON.parse(res.first.split('\n')[0]);
  assert.equal(head.aguiRecording, 1);
  const lines = res.first.trimEnd().split('\n').slice(1).map((l) => JSON.parse(l));
  assert.ok(lines.some((l) => l.action === 'addUserMessage'));
  assert.ok(lines.some((l) => l.data === '{"type":"CUSTOM","name":"raw text", "value": 1}'));
  assert.ok(lines.some((l) => l.id === 'x-1' && l.name === 'agui'));
  assert.ok(lines.every((l) => typeof l.t === 'number'));
  const events = jsonlLines(text);
  assert.equal(res.jsonl, events.length);
  assert.equal(res.fixture, events.join('\n') + '\n');
  assert.deepEqual(res.sseEntries, events.map((_, i) => ['agui', String(i)]));
  assert.equal(res.range, events.slice(2, 6).join('\n') + '\n');
  assert.deepEqual(problems, []);
});

test('startFrom: the entries start again from the state now, as one marked restore(); following goes on; a recording keeps the mark', async () => {
  const stream = 'testdata/streams/07_shared_state_citations.jsonl';
  const res = await page.evaluate(async ({ stream }) => {
    const { inspector, factory, timeless } = window.t;
    const r = factory.createReducer({ deterministicIds: true });
    await inspector.attach(r, { reducerOptions: { deterministicIds: true } });
    r.addUserMessage('research');
    await r.run(`/agent?stream=${stream}`);
    const before = inspector.session.entries.length;
    const saved = r.snapshot();
    // A page that loads its thread while attached: two restores, then startFrom.
    r.reset();
    r.restore(JSON.stringify(saved));
    r.restore(JSON.stringify(saved));
    inspector.startFrom('loaded from the relay');
    const marked = inspector.session.entries.map((e) => [e.kind, e.name, e.note ?? null]);
    const atMark = JSON.stringify(timeless(inspector.stateAt(0))) === JSON.stringify(timeless(r.snapshot()));
    r.addUserMessage('and then?');
    const after = inspector.session.entries.map((e) => e.name);
    const followed = JSON.stringify(timeless(inspector.stateAt(1))) === JSON.stringify(timeless(r.snapshot()));
    inspector.flush();
    const row = inspector.shadowRoot.querySelector('.row .type').textContent;
    const rec = inspector.exportRecording();
    await inspector.load(rec);
    const again = inspector.session.entries[0].note;
    const same = JSON.stringify(timeless(inspector.stateAt(1))) === JSON.stringify(timeless(r.snapshot()));
    return { before, marked, atMark, after, followed, row, again, same, line: rec.split('\n')[1] };
  }, { stream });
  assert.ok(res.before > 10);
  assert.deepEqual(res.marked, [['action', 'restore', 'loaded from the relay']], 'one entry, marked');
  assert.ok(res.atMark, 'its state is the reducer\'s then');
  assert.deepEqual(res.after, ['restore', 'addUserMessage'], 'what comes after is followed');
  assert.ok(res.followed);
  assert.equal(res.row, '⟲ loaded from the relay');
  assert.equal(JSON.parse(res.line).note, 'loaded from the relay');
  assert.equal(res.again, 'loaded from the relay', 'import keeps the mark');
  assert.ok(res.same, 'and the states');
  assert.deepEqual(problems, []);
});

test('filters: by type, message, tool call, run, step and subagent', async () => {
  const res = await page.evaluate(async () => {
    const { inspector } = window.t;
    const lines = [];
    const add = (o) => lines.push(JSON.stringify(o));
    add({ type: 'RUN_STARTED', threadId: 't', runId: 'r1' });
    add({ type: 'STEP_STARTED', stepName: 'plan' });
    add({ type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' });
    add({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'hi' });
    add({ type: 'TEXT_MESSAGE_END', messageId: 'm1' });
    add({ type: 'STEP_FINISHED', stepName: 'plan' });
    add({ type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'search', parentMessageId: 'm1' });
    add({ type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '{"q":1}' });
    add({ type: 'TOOL_CALL_END', toolCallId: 'c1' });
    add({ type: 'TOOL_CALL_RESULT', toolCallId: 'c1', messageId: 'tr1', content: 'ok' });
    add({ type: 'RUN_FINISHED', threadId: 't', runId: 'r1' });
    add({ type: 'RUN_STARTED', threadId: 't', runId: 'r2' });
    add({ type: 'TEXT_MESSAGE_START', messageId: 'm2', role: 'assistant', subagentRunId: 'sa1' });
    add({ type: 'TEXT_MESSAGE_END', messageId: 'm2', subagentRunId: 'sa1' });
    add({ type: 'RUN_FINISHED', threadId: 't', runId: 'r2' });
    await inspector.load(lines.join('\n'));
    const shown = (f) => {
      inspector.filters = { type: '', message: '', toolCall: '', run: '', step: '', subagent: '', ...f };
      inspector.flush();
      const rows = [...inspector.shadowRoot.querySelectorAll('.row:not([hidden])')].map((r) => Number(r.dataset.i));
      return { visible: inspector.visibleEntries, rows };
    };
    return {
      type: shown({ type: 'tool_call' }),
      message: shown({ message: 'm1' }),
      tool: shown({ toolCall: 'c1' }),
      run: shown({ run: 'r2' }),
      step: shown({ step: 'plan' }),
      subagent: shown({ subagent: 'sa1' }),
      both: shown({ run: 'r1', type: 'TEXT' }),
      none: shown({}),
      count: inspector.shadowRoot.querySelector('.count').textContent,
    };
  });
  assert.deepEqual(res.type.visible, [6, 7, 8, 9]);
  assert.deepEqual(res.type.rows, [6, 7, 8, 9], 'the rows shown are the filtered ones');
  assert.deepEqual(res.message.visible, [2, 3, 4, 6]);
  assert.deepEqual(res.tool.visible, [6, 7, 8, 9]);
  assert.deepEqual(res.run.visible, [11, 12, 13, 14]);
  assert.deepEqual(res.step.visible, [1, 2, 3, 4, 5]);
  assert.deepEqual(res.subagent.visible, [12, 13]);
  assert.deepEqual(res.both.visible, [2, 3, 4]);
  assert.equal(res.none.visible.length, 15);
  assert.match(res.count, /15 events/);
});

test('a filter typed in the bar: the count and the list\'s height follow on the next frame', async () => {
  const lines = jsonlLines(await readFile(join(repoDir, 'testdata/streams/02_tool_call.jsonl'), 'utf8'));
  await page.evaluate(async (text) => {
    const { inspector } = window.t;
    await inspector.load(text);
    inspector.filters = { type: '', message: '', toolCall: '', run: '', step: '', subagent: '' };
    inspector.flush();
  }, lines.join('\n'));
  const frames = () => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const seen = () => page.evaluate(() => {
    const root = window.t.inspector.shadowRoot;
    return {
      count: root.querySelector('.count').textContent,
      height: root.querySelector('.spacer-y').style.height,
      rows: root.querySelectorAll('.row:not([hidden])').length,
    };
  });
  const input = page.locator('agui-inspector input[data-filter="type"]');
  await input.fill('TOOL_CALL_ARGS');
  await frames();
  const narrowed = await seen();
  await input.fill('');
  await frames();
  const all = await seen();
  const n = lines.length;
  const args = lines.filter((l) => JSON.parse(l).type === 'TOOL_CALL_ARGS').length;
  assert.ok(args > 0 && args < n);
  assert.equal(narrowed.rows, args);
  assert.equal(narrowed.count, `${args} of ${n} events`);
  assert.equal(narrowed.height, `${args * 22}px`, 'the scrolled list is as long as the rows shown');
  assert.equal(all.rows, n);
  assert.equal(all.count, `${n} events`);
  assert.equal(all.height, `${n * 22}px`);
  assert.deepEqual(problems, []);
});

test('keyboard: arrows, Page keys, Home and End step through the events and show the state then', async () => {
  const lines = jsonlLines(await readFile(join(repoDir, 'testdata/streams/02_tool_call.jsonl'), 'utf8'));
  await page.evaluate((text) => window.t.inspector.load(text), lines.join('\n'));
  const tl = page.locator('agui-inspector .timeline');
  await tl.focus();
  const sel = () => page.evaluate(() => window.t.inspector.selected);
  await page.keyboard.press('Home');
  assert.equal(await sel(), 0);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  assert.equal(await sel(), 2);
  await page.keyboard.press('ArrowUp');
  assert.equal(await sel(), 1);
  await page.keyboard.press('End');
  assert.equal(await sel(), lines.length - 1);
  await page.keyboard.press('PageUp');
  assert.equal(await sel(), 0, 'a page up from a short list reaches the top');
  await page.keyboard.press('j');
  await page.keyboard.press('Shift+ArrowDown');
  await page.keyboard.press('Shift+ArrowDown');
  const res = await page.evaluate(() => {
    const i = window.t.inspector;
    i.tab = 'conversation';
    i.flush();
    const root = i.shadowRoot;
    return {
      selected: i.selected,
      fixture: i.fixture(),
      where: root.querySelector('.where').textContent,
      selectedRow: root.querySelector('.row[aria-selected="true"]')?.dataset.i,
      inRange: [...root.querySelectorAll('.row.in-range')].map((r) => Number(r.dataset.i)),
      status: root.querySelector('[data-field="status"]')?.textContent,
    };
  });
  assert.equal(res.selected, 3);
  assert.equal(res.selectedRow, '3');
  assert.deepEqual(res.inRange, [1, 2, 3]);
  assert.equal(res.fixture, lines.slice(1, 4).join('\n') + '\n');
  assert.match(res.where, /after event 3/);
  assert.match(res.status, /running/);
  assert.deepEqual(problems, []);
});

test('diff, lanes and a screenshot (test-output/inspector-*.png)', async () => {
  const { mkdir } = await import('node:fs/promises');
  const res = await page.evaluate(async () => {
    const { inspector } = window.t;
    const lines = [
      { type: 'RUN_STARTED', threadId: 't', runId: 'r1' },
      { type: 'STATE_SNAPSHOT', snapshot: { plan: ['a'], done: false } },
      { type: 'STEP_STARTED', stepName: 'search' },
      { type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'search' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '{"q":"wasm"}' },
      { type: 'TOOL_CALL_END', toolCallId: 'c1' },
      { type: 'TOOL_CALL_RESULT', toolCallId: 'c1', messageId: 'r', content: '3 hits' },
      { type: 'STEP_FINISHED', stepName: 'search' },
      { type: 'STATE_DELTA', delta: [{ op: 'replace', path: '/done', value: true }, { op: 'add', path: '/plan/-', value: 'b' }] },
      { type: 'RUN_FINISHED', threadId: 't', runId: 'r1' },
    ].map((o, i) => JSON.stringify({ t: i * 120, event: o }));
    await inspector.load(['{"aguiRecording":1,"created":"2026-01-01T00:00:00.000Z"}', ...lines].join('\n'));
    inspector.select(1);
    inspector.select(8, { mark: true });
    inspector.tab = 'diff';
    const patch = JSON.parse(inspector.shadowRoot.querySelector('[data-field="patch"]').textContent);
    inspector.tab = 'lanes';
    const lanes = [...inspector.shadowRoot.querySelectorAll('.lane')].map((l) => `${l.dataset.kind}:${l.querySelector('.lane-dur').textContent}`);
    return { patch, lanes };
  });
  assert.deepEqual(res.patch.filter((op) => op.path.startsWith('/state')), [
    { op: 'add', path: '/state/plan/1', value: 'b' },
    { op: 'replace', path: '/state/done', value: true },
  ]);
  assert.deepEqual(res.lanes, ['run:1.08 s', 'step:600 ms', 'tool:360 ms (args 240 ms)']);
  await mkdir(join(repoDir, 'test-output'), { recursive: true });
  await page.evaluate(() => { window.t.inspector.tab = 'lanes'; });
  await page.locator('agui-inspector').screenshot({ path: join(repoDir, 'test-output/inspector-lanes.png') });
  await page.evaluate(() => { window.t.inspector.tab = 'diff'; });
  await page.locator('agui-inspector').screenshot({ path: join(repoDir, 'test-output/inspector-diff.png') });
  assert.deepEqual(problems, []);
});

test('tool arguments: the event that made a call invalid is marked, its errors in the event pane, the call invalid in the lanes', async () => {
  const lines = jsonlLines(await readFile(join(repoDir, 'testdata/scenarios/tool-validation.jsonl'), 'utf8'));
  const res = await page.evaluate(async (lines) => {
    const { inspector } = window.t;
    await inspector.load(lines.join('\n'));
    const entries = inspector.session.entries;
    const marked = entries.filter((e) => e.argsInvalid).map((e) => e.seq);
    const row = (i) => {
      inspector.select(i);
      inspector.flush();
      const r = inspector.shadowRoot.querySelector(`.row[data-i="${i}"]`);
      const type = r.querySelector('.type');
      return { cls: r.classList.contains('args-invalid'), args: type.dataset.args ?? '', title: type.title };
    };
    const pane = (i) => {
      inspector.select(i);
      inspector.tab = 'event';
      inspector.flush();
      const box = inspector.shadowRoot.querySelector('[data-field="args-errors"]');
      return box ? {
        call: box.querySelector('.args-call').textContent,
        errors: [...box.querySelectorAll('.args-error')].map((x) => [x.querySelector('.path').textContent, x.querySelector('.kw').textContent, x.querySelector('.msg').textContent]),
      } : null;
    };
    const out = { marked, rows: {}, panes: {}, deltas: marked.map((i) => JSON.parse(entries[i].data).delta ?? JSON.parse(entries[i].data).type) };
    for (const i of marked) { out.rows[i] = row(i); out.panes[i] = pane(i); }
    const plain = entries.findIndex((e) => e.type === 'TOOL_CALL_ARGS' && !e.argsInvalid);
    out.plainRow = row(plain);
    out.plainPane = pane(plain);
    inspector.tab = 'lanes';
    inspector.flush();
    out.lanes = [...inspector.shadowRoot.querySelectorAll('.lane[data-kind="tool"]')].map((l) => {
      const bar = l.querySelector('.span');
      return { args: bar.dataset.args ?? '', status: bar.dataset.status, marks: bar.querySelectorAll('.invalid-mark').length, title: bar.title, dur: l.querySelector('.lane-dur').textContent };
    });
    return out;
  }, lines);
  // Three entries: kelvin closes (enum), 10 closes (maximum), the note's TOOL_CALL_END (cut off).
  assert.deepEqual(res.deltas, ['vin"', '}', 'TOOL_CALL_END']);
  const [kelvin, days, end] = res.marked;
  assert.deepEqual(res.rows[kelvin].cls, true);
  assert.equal(res.rows[kelvin].args, 'invalid');
  assert.match(res.rows[kelvin].title, /^TOOL_CALL_ARGS\ninvalid arguments: get_weather call_check_weather_1\n {2}enum at \/unit: must be one of celsius, fahrenheit$/);
  assert.match(res.rows[days].title, /more argument errors: get_weather call_check_weather_1\n {2}maximum at \/days: must be at most 7$/);
  assert.equal(res.rows[end].args, 'truncated');
  assert.match(res.rows[end].title, /truncated at \(the arguments\): the arguments are not complete JSON/);
  assert.deepEqual(res.plainRow, { cls: false, args: '', title: 'TOOL_CALL_ARGS' }, 'a pooled row marked before is cleared');
  assert.deepEqual(res.panes[kelvin], { call: 'ƒ get_weather call_check_weather_1 made invalid here', errors: [['/unit', 'enum', 'must be one of celsius, fahrenheit']] });
  assert.deepEqual(res.panes[days].errors, [['/days', 'maximum', 'must be at most 7']]);
  assert.match(res.panes[end].call, /^ƒ save_note call_check_note_1 arguments cut off here$/);
  assert.deepEqual(res.panes[end].errors.map((x) => x.slice(0, 2)), [['(root)', 'truncated']]);
  assert.equal(res.plainPane, null);
  assert.deepEqual(res.lanes.map((l) => [l.args, l.status, l.marks]), [['invalid', 'complete', 1], ['', 'complete', 0], ['truncated', 'cut off', 1]]);
  assert.match(res.lanes[0].title, /invalid arguments \(enum, maximum\) at #\d+$/);
  assert.match(res.lanes[0].dur, / · invalid arguments$/);
  assert.match(res.lanes[2].dur, / · arguments cut off$/);
  await page.locator('agui-inspector').screenshot({ path: join(repoDir, 'test-output/inspector-tool-validation.png') });
  assert.deepEqual(problems, []);
});

test('tool arguments: tools given by setTools() (an action entry) validate the calls after it, in a recording too', async () => {
  const res = await page.evaluate(async () => {
    const { inspector } = window.t;
    const tools = [{ name: 'get_weather', parameters: { type: 'object', properties: { unit: { enum: ['celsius', 'fahrenheit'] } } } }];
    const lines = [
      { t: 0, action: 'setTools', args: [tools] },
      { t: 1, event: { type: 'RUN_STARTED', threadId: 't', runId: 'r1' } },
      { t: 2, event: { type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'get_weather' } },
      { t: 3, event: { type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '{"unit":"kel' } },
      { t: 4, event: { type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: 'vin"}' } },
      { t: 5, event: { type: 'TOOL_CALL_END', toolCallId: 'c1' } },
      { t: 6, event: { type: 'RUN_FINISHED', threadId: 't', runId: 'r1' } },
    ].map((o) => JSON.stringify(o));
    const text = ['{"aguiRecording":1,"created":"2026-01-01T00:00:00.000Z"}', ...lines].join('\n');
    await inspector.load(text);
    const s = inspector.session;
    const out = {
      types: s.entries.map((e) => e.type),
      marked: s.entries.filter((e) => e.argsInvalid).map((e) => [e.seq, e.argsInvalid[0].errors[0].keyword]),
      diags: s.entries.filter((e) => e.diagnostics).map((e) => e.seq),
      status: s.stateAt(s.entries.length - 1).toolCalls[0].argsStatus,
    };
    // Tools the app gave its reducer only, given to the inspector's as well.
    const r = window.t.factory.createReducer({ tools });
    await inspector.attach(r, { reducerOptions: { tools } });
    for (const { event } of lines.slice(1).map((l) => JSON.parse(l))) r.apply(JSON.stringify(event));
    const live = inspector.session;
    out.attached = {
      app: r.state.toolCalls[0].argsStatus,
      inspector: live.stateAt(live.entries.length - 1).toolCalls[0].argsStatus,
      marked: live.entries.filter((e) => e.argsInvalid).length,
      entries: live.entries.length,
    };
    inspector.detach();
    return out;
  });
  assert.deepEqual(res.attached, { app: 'invalid', inspector: 'invalid', marked: 1, entries: 6 }, 'attach(reducer, {reducerOptions: {tools}}): the app\'s tools, given to the inspector too');
  assert.deepEqual(res.types, ['setTools', 'RUN_STARTED', 'TOOL_CALL_START', 'TOOL_CALL_ARGS', 'TOOL_CALL_ARGS', 'TOOL_CALL_END', 'RUN_FINISHED']);
  assert.deepEqual(res.marked, [[4, 'enum']], 'the delta that closed "kelvin"');
  assert.deepEqual(res.diags, []);
  assert.equal(res.status, 'invalid');
  assert.deepEqual(problems, []);
});

test('demo markdown: built as nodes (never HTML), links only for http(s), unchanged blocks kept while text streams', async () => {
  const res = await page.evaluate(async () => {
    const { renderMarkdown } = await import('/web/demo/markdown.js');
    const root = document.createElement('div');
    const text = [
      '# Title',
      '**bold**, *it*, `a<b>`, [ok](https://example.com/x?q=<b>) and [bad](javascript:alert(1)) <script>alert(1)</script> <img src=x onerror=alert(1)>',
      '',
      '- one',
      '- two with snake_case and window.__pwned=1',
      '',
      '1. first',
      '2. second',
      '',
      '```js',
      'let x = "<b>";',
      '```',
      '> quoted',
    ].join('\n');
    renderMarkdown(root, text);
    const tags = [...root.querySelectorAll('*')].map((e) => e.tagName.toLowerCase());
    const links = [...root.querySelectorAll('a')].map((a) => a.getAttribute('href'));
    const first = root.firstElementChild;
    renderMarkdown(root, text + ' more');
    const kept = root.firstElementChild === first;
    const streamed = document.createElement('div');
    const seen = [];
    const answer = 'Hello **world**.\n\nSecond paragraph grows';
    for (let k = 1; k <= answer.length; k++) { renderMarkdown(streamed, answer.slice(0, k)); seen.push(streamed.firstElementChild); }
    return {
      tags: [...new Set(tags)].sort(), links, kept, text: root.textContent,
      firstStable: seen.slice(answer.indexOf('\n\n') + 2).every((n) => n === seen.at(-1)),
      streamedHTML: streamed.innerHTML,
    };
  });
  assert.deepEqual(res.tags, ['a', 'blockquote', 'code', 'em', 'h1', 'li', 'ol', 'p', 'pre', 'strong', 'ul']);
  assert.deepEqual(res.links, ['https://example.com/x?q=%3Cb%3E']);
  for (const s of ['[bad](javascript:alert(1))', '<script>alert(1)</script>', '<img src=x onerror=alert(1)>', 'snake_case', 'window.__pwned=1', 'let x = "<b>";', 'a<b>']) {
    assert.ok(res.text.includes(s), `literal: ${s}`);
  }
  assert.ok(res.kept, 'an unchanged block keeps its node');
  assert.ok(res.firstStable, 'the first paragraph is not rebuilt while the second streams');
  assert.equal(res.streamedHTML, '<p>Hello <strong>world</strong>.</p><p>Second paragraph grows</p>');
});

test('replay: a recording plays at its pace (1×), pauses, and finishes at full speed', async () => {
  const res = await page.evaluate(async () => {
    const { inspector } = window.t;
    const rec = ['{"aguiRecording":1,"created":"2026-01-01T00:00:00.000Z"}',
      '{"t":0,"event":{"type":"RUN_STARTED","threadId":"t","runId":"r"}}',
      '{"t":600000,"event":{"type":"RUN_FINISHED","threadId":"t","runId":"r"}}'].join('\n');
    const done = inspector.load(rec, { speed: 1 });
    await new Promise((r) => setTimeout(r, 50));
    inspector.flush();
    const root = inspector.shadowRoot;
    const early = { n: inspector.session.entries.length, mode: root.querySelector('.pill').textContent, pause: root.querySelector('.bar button:not([hidden])')?.textContent };
    const pauseBtn = [...root.querySelectorAll('.bar button')].find((b) => b.textContent === 'Pause');
    pauseBtn.click();
    inspector.flush();
    const paused = root.querySelector('.pill').textContent;
    pauseBtn.click(); // play
    const speed = root.querySelector('select');
    speed.value = 'full';
    speed.dispatchEvent(new Event('change'));
    await done;
    inspector.flush();
    return { early, paused, n: inspector.session.entries.length, mode: root.querySelector('.pill').textContent };
  });
  assert.equal(res.early.n, 1, 'the second event waits for its time');
  assert.equal(res.early.mode, 'replay');
  assert.equal(res.paused, 'paused');
  assert.equal(res.n, 2);
  assert.equal(res.mode, 'idle');
});
