// The large-arguments scenario of the drop-in agent's benchmark (agent.mjs,
// the same code in Node and in a Chromium page): a conversation of 50
// messages, then one run in which an assistant message starts three
// write_file tool calls whose JSON arguments ({"path", "content"}, the
// content `bytes` characters of prose with newlines and quotes) stream
// interleaved in ~20-character deltas, as a model writing three files does.
// Subscribers: N chat subscribers (agent-core.mjs's), and optionally a
// preview reader: the first subscriber also reads, on every
// onMessagesChanged, the last 64 characters of each streaming tool call's
// argument text, as a file preview does.
//
// Measured per run (one agent, one runAgent()): the whole run, the time per
// event of each tenth of the stream (from the times the fake network's
// reads are taken: a read is taken when the previous one has been
// processed), the longest gap between two reads (the longest task the
// stream caused), the heap's peak above where it started (after a
// young-generation collection, agent-core.mjs's converseProbe: the same
// start for both agents) and, where the runtime tells, the bytes allocated
// (memory probe). Both agents must end deep-equal, their subscribers
// having read the same.

import { rng } from './gen.mjs';
import { canon, converseProbe, median, spread } from './agent-core.mjs';

const WORDS = ('the a of to and in is it that for on with as this be are by at from or an was which ' +
  'function return const value result error file path module import export data buffer stream ' +
  'write read open close line text string number object array index length size').split(' ');

/** Prose of n characters with newlines, quotes and backslashes (escaped in the JSON). */
function fileText(r, n) {
  let s = '';
  while (s.length < n) {
    const x = r();
    s += x < 0.06 ? '\n' : x < 0.08 ? '"' : x < 0.085 ? '\\' : (s.length ? ' ' : '') + WORDS[Math.floor(r() * WORDS.length)];
  }
  return s.slice(0, n);
}

/**
 * The scenario: {threadId, initialMessages (the 50-message history), turns:
 * [{runId, events}], messages(), state()} in agent-core.mjs's conversation
 * shape (one turn).
 */
export function largeArgs({ history = 50, calls = 3, bytes = 100_000, delta = 20, seed = 11 } = {}) {
  const r = rng(seed);
  const threadId = 'thread_large';
  const initialMessages = [];
  for (let i = 0; i < history; i++) {
    initialMessages.push({ id: `hist_${i}`, role: i % 2 === 0 ? 'user' : 'assistant', content: fileText(r, 200 + Math.floor(r() * 600)) });
  }
  const runId = 'run_large';
  const msgId = 'msg_large';
  const events = [{ type: 'RUN_STARTED', threadId, runId }];
  events.push({ type: 'TEXT_MESSAGE_START', messageId: msgId, role: 'assistant' });
  for (const d of ['I will write ', 'the three files ', 'now.']) events.push({ type: 'TEXT_MESSAGE_CONTENT', messageId: msgId, delta: d });
  events.push({ type: 'TEXT_MESSAGE_END', messageId: msgId });
  const texts = [];
  for (let c = 0; c < calls; c++) {
    const id = `call_write_${c}`;
    events.push({ type: 'TOOL_CALL_START', toolCallId: id, toolCallName: 'write_file', parentMessageId: msgId });
    texts.push({ id, text: JSON.stringify({ path: `src/file_${c}.txt`, content: fileText(r, bytes) }), at: 0 });
  }
  // Interleaved, ~delta characters each (16–24).
  for (let open = texts.length; open > 0;) {
    for (const t of texts) {
      if (t.at >= t.text.length) continue;
      const n = delta - 4 + Math.floor(r() * 9);
      events.push({ type: 'TOOL_CALL_ARGS', toolCallId: t.id, delta: t.text.slice(t.at, t.at + n) });
      t.at += n;
      if (t.at >= t.text.length) open--;
    }
  }
  for (const t of texts) events.push({ type: 'TOOL_CALL_END', toolCallId: t.id });
  events.push({ type: 'RUN_FINISHED', threadId, runId });
  return { threadId, initialMessages, turns: [{ runId, events }], bytes, calls };
}

/** The preview reader: the last 64 characters of each tool call's arguments of the last assistant message with tool calls. */
export function previewSubscriber(sink) {
  return {
    onMessagesChanged({ messages }) {
      for (let i = messages.length - 1; i >= 0; i--) {
        const tcs = messages[i].toolCalls;
        if (tcs === undefined || tcs.length === 0) continue;
        for (const t of tcs) {
          const tail = t.function.arguments.slice(-64);
          sink.previews++;
          sink.previewSum += tail.length + tail.charCodeAt(tail.length - 1 || 0);
        }
        return;
      }
    },
  };
}

/**
 * Runs the scenario: for each subscriber count and with/without the preview
 * reader, reps runs of each side, alternating which goes first. options:
 * {make, now, scenarios: [{bytes, subscribers, reader, reps?}], reps (the
 * default; the same for both agents), memory
 * (() → {start(), sample(), stop() → {peakBytes, allocatedBytes|null}}),
 * rewarmRuns (the unmeasured runs of a side after each forced collection, default 1), cpu
 * (Node: () → the process's CPU time, ms), sampler (Node: alloc-account.mjs's
 * allocSampler(): after the measured runs, one more run of ours under V8's
 * sampling heap profiler gives the row's account of who allocates,
 * ours.account),
 * longTasks, log, collect, tick}. Resolves to the rows.
 */
export async function runLargeBench({ make, now, scenarios, reps = 3, rewarmRuns = 1, memory = null, cpu = null, sampler = null, longTasks = null, log = () => {}, collect, tick }) {
  const rows = [];
  // A warm-up of the scenario's code paths (tool-call arguments, the
  // reader), both agents, as the conversations have theirs.
  const warm = largeArgs({ bytes: 4_000, seed: 12 });
  for (let i = 0; i < 3; i++) {
    for (const side of ['official', 'ours']) await converseProbe(make[side], warm, { subscribers: 2, extra: [previewSubscriber], now });
  }
  // After each forced collection, rewarmRuns unmeasured runs of the same
  // side (default 1), each with a fresh agent as the measured run has. The
  // full collection makes V8 discard the optimised code that embedded
  // objects now dead (Node 20: ~40 functions of both clients and of the
  // stream and rxjs code they share, "weak objects"; 27 even when every
  // agent is kept alive: the runs' own objects), and one 4 KB run does not
  // make it hot again: the measured run's first tenth pays the
  // re-optimisation (ours, 3 × 100 KB, 10 subscribers: ~100–120 µs per
  // event against 20–30 at the end; ~70 functions compiled in the run,
  // 50–65 ms of TurboFan each for the largest, counted in the process's
  // CPU). A page pays the same after any major collection between runs,
  // so the default leaves it in; rewarmRuns 3 takes it out for both sides
  // (first tenth 48–59 µs).
  const rewarm = async (side) => {
    for (let i = 0; i < rewarmRuns; i++) await converseProbe(make[side], warm, { subscribers: 1, extra: [previewSubscriber], now });
  };
  const convs = new Map();
  for (const sc of scenarios) {
    if (!convs.has(sc.bytes)) convs.set(sc.bytes, largeArgs({ bytes: sc.bytes }));
    const conv = convs.get(sc.bytes);
    const events = conv.turns[0].events.length;
    const runs = { official: [], ours: [] };
    for (let rep = 0; rep < (sc.reps ?? reps); rep++) {
      for (const side of rep % 2 === 0 ? ['official', 'ours'] : ['ours', 'official']) {
        collect();
        await tick();
        await rewarm(side);
        await tick();
        longTasks?.reset();
        const probe = memory?.();
        const extra = sc.reader ? [previewSubscriber] : [];
        const r = await converseProbe(make[side], conv, { subscribers: sc.subscribers, extra, now, probe, cpu });
        if (longTasks !== null) r.longTaskMs = longTasks.longest();
        runs[side].push(r);
        await tick();
      }
    }
    const sum = (rs) => {
      const tenth = (k) => median(rs.map((r) => r.tenthUs[k]));
      return {
        totalMs: median(rs.map((r) => r.totalMs)), totalSpread: spread(rs.map((r) => r.totalMs)),
        cpuMs: rs[0].cpuMs == null ? null : median(rs.map((r) => r.cpuMs)),
        perEventUs: median(rs.map((r) => (r.totalMs * 1000) / events)),
        firstTenthUs: tenth(0), lastTenthUs: tenth(9),
        longestGapMs: Math.max(...rs.map((r) => r.longestGapMs)),
        longTaskMs: longTasks !== null ? Math.max(...rs.map((r) => r.longTaskMs)) : undefined,
        peakHeapMB: median(rs.map((r) => r.peakBytes / 2 ** 20)),
        allocatedMB: rs[0].allocatedBytes == null ? null : median(rs.map((r) => r.allocatedBytes / 2 ** 20)),
        allocatedPerEventKB: rs[0].allocatedBytes == null ? null : median(rs.map((r) => r.allocatedBytes / 1024 / events)),
        reps: rs.length,
      };
    };
    const o = sum(runs.official), u = sum(runs.ours);
    if (sampler !== null) {
      // One more run of ours, sampled: its own garbage and profile, after
      // the same collection and re-warm as a measured run.
      collect();
      await tick();
      await rewarm('ours');
      await tick();
      let folded = null;
      const extra = sc.reader ? [previewSubscriber] : [];
      u.account = await sampler.account(async () => { folded = (await converseProbe(make.ours, conv, { subscribers: sc.subscribers, extra, now })).reducerFolded; }, events);
      u.account.reducerFolded = folded;
      u.account.measuredKB = u.allocatedPerEventKB;
    }
    const a = runs.official[0], b = runs.ours[0];
    const row = {
      scenario: 'large-arguments', bytes: sc.bytes, calls: conv.calls, subscribers: sc.subscribers, reader: sc.reader, events,
      official: o, ours: u,
      totalRatio: o.totalMs / u.totalMs,
      cpuRatio: o.cpuMs == null ? null : o.cpuMs / u.cpuMs,
      lateRatio: o.lastTenthUs / u.lastTenthUs,
      same: canon(a.messages) === canon(b.messages) && canon(a.state) === canon(b.state) && canon(a.sink) === canon(b.sink),
      // Every measured run of ours folded by its reducer (not a cold run
      // folded by @ag-ui/client's apply step while the module loads).
      oursFoldedByReducer: runs.ours.every((r) => r.reducerFolded === true),
    };
    rows.push(row);
    log(`large arguments ${conv.calls} × ${Math.round(sc.bytes / 1000)} KB, ${sc.subscribers} subscriber(s)${sc.reader ? ' + preview reader' : ''}: total HttpAgent ${o.totalMs.toFixed(0)} ms, ours ${u.totalMs.toFixed(0)} ms (${row.totalRatio.toFixed(1)}×)${o.cpuMs != null ? `, CPU ${o.cpuMs.toFixed(0)} / ${u.cpuMs.toFixed(0)} ms (${row.cpuRatio.toFixed(1)}×)` : ''}; per event first/last tenth HttpAgent ${o.firstTenthUs.toFixed(0)}/${o.lastTenthUs.toFixed(0)} µs, ours ${u.firstTenthUs.toFixed(0)}/${u.lastTenthUs.toFixed(0)} µs; peak heap ${o.peakHeapMB.toFixed(0)} / ${u.peakHeapMB.toFixed(0)} MB${o.allocatedMB != null ? `; allocated ${o.allocatedMB.toFixed(0)} / ${u.allocatedMB.toFixed(0)} MB` : ''}; longest gap ${o.longestGapMs.toFixed(0)} / ${u.longestGapMs.toFixed(0)} ms${u.account ? `; ours' allocation by owner, KB/event: the agent ${u.account.agentKB.toFixed(1)}, subscribers ${u.account.subscribersKB.toFixed(1)}, reader ${u.account.readerKB.toFixed(1)}, network ${u.account.networkKB.toFixed(1)}${u.account.reducerFolded === false ? ' (the sampled run was not folded by the reducer)' : ''}` : ''}${row.same ? '' : ' — RESULTS DIFFER'}`);
  }
  return rows;
}
