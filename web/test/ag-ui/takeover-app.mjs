// One process of the drop-in's takeover test (takeover.test.mjs), run in an
// app directory (node-app.mjs) so that the default reducer factory starts
// from the import, as in an app: `<package>/ag-ui` imported, then runs
// with no pause between them, the first as soon as the import resolves
// (TAKEOVER_PATTERN: 'back-to-back', one agent awaiting each run;
// 'overlapping', two agents running at once). Before each run it notes
// whether the default factory was ready (the package's factory module,
// the instance the drop-in uses); after it, whether the agent holds a
// reducer. Then @ag-ui/client's HttpAgent runs the same streams. Prints
// JSON: per agent, the two lists, each run's start (ms after the import
// began; bench/agent-takeover.mjs reads them) and whether what its subscribers saw, its
// run results, messages and state equal HttpAgent's. No timing.

import http from 'node:http';

const RUNS = Number(process.env.TAKEOVER_RUNS ?? 60);
const TOKENS = Number(process.env.TAKEOVER_TOKENS ?? 400);
const pattern = process.env.TAKEOVER_PATTERN ?? 'back-to-back';

/** Run i's events: a text message of TOKENS deltas; every fifth run a tool call and its result first. */
function events(tag, i) {
  const run = `${tag}-run-${i}`;
  const out = [{ type: 'RUN_STARTED', threadId: `thread-${tag}`, runId: run }];
  if (i % 5 === 4) {
    const id = `${tag}-tc-${i}`;
    out.push({ type: 'TOOL_CALL_START', toolCallId: id, toolCallName: 'lookup', parentMessageId: `${tag}-a-${i}` });
    out.push({ type: 'TOOL_CALL_ARGS', toolCallId: id, delta: '{"q":' });
    out.push({ type: 'TOOL_CALL_ARGS', toolCallId: id, delta: `"item ${i}"}` });
    out.push({ type: 'TOOL_CALL_END', toolCallId: id });
    out.push({ type: 'TOOL_CALL_RESULT', messageId: `${tag}-r-${i}`, toolCallId: id, content: `result ${i}` });
  }
  const m = `${tag}-m-${i}`;
  out.push({ type: 'TEXT_MESSAGE_START', messageId: m, role: 'assistant' });
  for (let k = 0; k < TOKENS; k++) out.push({ type: 'TEXT_MESSAGE_CONTENT', messageId: m, delta: `w${k % 97} ` });
  out.push({ type: 'TEXT_MESSAGE_END', messageId: m });
  out.push({ type: 'STATE_SNAPSHOT', snapshot: { runs: i + 1 } });
  out.push({ type: 'RUN_FINISHED', threadId: `thread-${tag}`, runId: run });
  return out;
}

const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    const [, tag, i] = req.url.split('/');
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    for (const e of events(tag, Number(i))) res.write(`data: ${JSON.stringify(e)}\n\n`);
    res.end();
  });
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${server.address().port}`;

// Hooks recorded with their arguments (no per-token hook: they would hold the conversation per token).
const HOOKS = ['onRunStartedEvent', 'onTextMessageStartEvent', 'onTextMessageEndEvent', 'onToolCallEndEvent',
  'onToolCallResultEvent', 'onStateSnapshotEvent', 'onRunFinishedEvent', 'onNewMessage', 'onNewToolCall', 'onRunFinalized'];
function recorder(log) {
  const sub = {};
  for (const h of HOOKS) sub[h] = (p) => { const { agent, ...rest } = p; log.push([h, JSON.parse(JSON.stringify(rest))]); };
  let changes = 0;
  sub.onMessagesChanged = () => { changes++; };
  return { sub, changes: () => changes };
}

async function drive(Agent, tags, ready) {
  const sides = tags.map((tag) => {
    const agent = new Agent({ url: `${base}/${tag}/0`, threadId: `thread-${tag}` });
    const log = [];
    const rec = recorder(log);
    agent.subscribe(rec.sub);
    return { tag, agent, log, rec, results: [], readyAtStart: [], folded: [], startMs: [] };
  });
  await Promise.all(sides.map(async (s) => {
    for (let i = 0; i < RUNS; i++) {
      s.agent.url = `${base}/${s.tag}/${i}`;
      s.readyAtStart.push(ready());
      s.startMs.push(performance.now() - importStart);
      const r = await s.agent.runAgent({ runId: `${s.tag}-run-${i}` });
      s.folded.push(s.agent.reducerState !== undefined);
      s.results.push({ result: r.result ?? null, newMessages: r.newMessages.map((m) => m.id) });
    }
  }));
  await new Promise((r) => setTimeout(r, 0));
  return sides.map((s) => ({
    readyAtStart: s.readyAtStart, folded: s.folded, startMs: s.startMs,
    seen: JSON.parse(JSON.stringify({ results: s.results, log: s.log, changes: s.rec.changes(), messages: s.agent.messages, state: s.agent.state })),
  }));
}

const tags = pattern === 'overlapping' ? ['a', 'b'] : ['a'];
const importStart = performance.now();
const { HttpAgent } = await import('@agui-reducer/web/ag-ui');
const { factoryNow } = await import(new URL('./node_modules/@agui-reducer/web/src/ag-ui/factory.js', `file://${process.cwd()}/`).href);
const ready = () => factoryNow(null)?.factory !== undefined;
const ours = await drive(HttpAgent, tags, ready);
const client = await import('@ag-ui/client');
const official = await drive(client.HttpAgent, tags, () => false);
server.close();
// Compared here (the records are megabytes): equal, or the assertion's message.
const { deepStrictEqual } = await import('node:assert');
console.log(JSON.stringify(ours.map((o, k) => {
  let equal = true;
  try {
    deepStrictEqual(o.seen, official[k].seen);
  } catch (err) {
    equal = err.message.slice(0, 2000);
  }
  return { readyAtStart: o.readyAtStart, folded: o.folded, startMs: o.startMs.map(Math.round), equal, events: o.seen.log.length };
})));
