// Random AG-UI 1.0 streams for the drop-in agent's differential tests:
// several runs of text, reasoning, tool calls (parents that exist, that do
// not, that are not assistant messages; results before and after the
// following text), chunks, state snapshots and deltas (some failing),
// messages snapshots, activity snapshots and deltas, encrypted values,
// metadata, steps, custom and raw events, interrupts. Each run is well
// formed for the official verifier unless `loose` is set. Deterministic
// per seed.

import { rng } from '../../../bench/gen.mjs';

export function randomStream(seed, { runs = 3, loose = false } = {}) {
  const r = rng(seed * 7919 + 1);
  const int = (lo, hi) => lo + Math.floor(r() * (hi - lo + 1));
  const pick = (a) => a[Math.floor(r() * a.length)];
  const chance = (p) => r() < p;
  const word = () => pick(['sun', 'rain', 'Paris', 'é', '"q"', '\\', 'ok', ' ', '\n', '{', '日本']);
  const text = (n) => Array.from({ length: n }, word).join('');
  const meta = () => (chance(0.2) ? { metadata: pick([{ k: int(0, 3) }, { trace: 'x', n: null }, { 'ag-ui': { a: [1] } }]) } : {});
  const ev = [];
  const ids = { msg: 0, tc: 0, act: 0 };
  const messages = []; // ids of messages so far
  const toolCalls = []; // ids of tool calls so far
  const activities = [];
  // Reasoning ids stay out of text message reuse (reasoning streamed into a
  // text message goes to its reasoning field, by SPEC.md, where the
  // official client appends it to the content: docs/ag-ui-agent.md,
  // "Differences"; ag-ui-apply.test.mjs pins it) and out of messages
  // snapshots (@ag-ui/client 0.0.59 keeps a reasoning message a snapshot
  // gives another role, 1.0 replaces it, as this agent does; pinned against
  // 1.0 in ag-ui-apply.test.mjs). They are used as tool call parents.
  const reasoning = new Set();
  const plain = () => messages.filter((id) => !reasoning.has(id));
  let state = {};
  const threadId = 'thread-r';
  for (let run = 0; run < runs; run++) {
    const runId = `r${seed}-${run}`;
    const start = { type: 'RUN_STARTED', threadId, runId };
    if (chance(0.25)) {
      const id = chance(0.5) && messages.length ? pick(messages) : `in-${seed}-${run}`;
      start.input = { threadId, runId, state: {}, tools: [], context: [], forwardedProps: {}, messages: [{ id, role: 'user', content: text(3) }] };
      if (!messages.includes(id)) messages.push(id);
    }
    ev.push(start);
    const started = [];
    const steps = int(2, 7);
    for (let s = 0; s < steps; s++) {
      switch (int(0, 11)) {
        case 0: case 1: { // text message
          const id = chance(0.15) && plain().length ? pick(plain()) : `m${seed}-${++ids.msg}`;
          ev.push({ type: 'TEXT_MESSAGE_START', messageId: id, ...(chance(0.2) ? { role: pick(['assistant', 'user', 'system']) } : {}), ...(chance(0.1) ? { name: 'bot' } : {}), ...meta() });
          for (let i = int(0, 5); i > 0; i--) ev.push({ type: 'TEXT_MESSAGE_CONTENT', messageId: id, delta: chance(0.05) ? '' : text(int(1, 3)), ...meta() });
          ev.push({ type: 'TEXT_MESSAGE_END', messageId: id, ...meta() });
          if (!messages.includes(id)) messages.push(id);
          break;
        }
        case 2: { // reasoning
          const id = `rs${seed}-${++ids.msg}`;
          ev.push({ type: 'REASONING_START', messageId: id });
          ev.push({ type: 'REASONING_MESSAGE_START', messageId: id, role: 'reasoning', ...meta() });
          for (let i = int(1, 4); i > 0; i--) ev.push({ type: 'REASONING_MESSAGE_CONTENT', messageId: id, delta: text(2) });
          ev.push({ type: 'REASONING_MESSAGE_END', messageId: id, ...meta() });
          ev.push({ type: 'REASONING_END', messageId: id });
          if (chance(0.3)) ev.push({ type: 'REASONING_ENCRYPTED_VALUE', subtype: 'message', entityId: id, encryptedValue: 'enc' + int(0, 9) });
          messages.push(id);
          reasoning.add(id);
          break;
        }
        case 3: case 4: { // tool call
          const id = `tc${seed}-${++ids.tc}`;
          const pool = messages;
          const parent = pick([undefined, pool.length ? pick(pool) : undefined, `p${seed}-${ids.tc}`, pool.length ? pool[pool.length - 1] : undefined]);
          ev.push({ type: 'TOOL_CALL_START', toolCallId: id, toolCallName: pick(['search', 'weather']), ...(parent !== undefined ? { parentMessageId: parent } : {}), ...meta() });
          const args = JSON.stringify({ q: text(2), n: int(0, 99), ok: chance(0.5), list: [1, 'two'] });
          let at = 0;
          while (at < args.length) {
            const n = int(1, 9);
            ev.push({ type: 'TOOL_CALL_ARGS', toolCallId: id, delta: args.slice(at, at + n), ...meta() });
            at += n;
          }
          ev.push({ type: 'TOOL_CALL_END', toolCallId: id, ...meta() });
          toolCalls.push(id);
          started.push(id);
          if (parent !== undefined && !messages.includes(parent)) messages.push(parent);
          if (chance(0.3)) ev.push({ type: 'REASONING_ENCRYPTED_VALUE', subtype: 'tool-call', entityId: id, encryptedValue: 'tce' + int(0, 9) });
          break;
        }
        case 5: { // tool result
          if (!toolCalls.length) break;
          const id = `res${seed}-${++ids.msg}`;
          ev.push({ type: 'TOOL_CALL_RESULT', messageId: id, toolCallId: pick(toolCalls), content: chance(0.8) ? text(3) : '', ...meta() });
          messages.push(id);
          break;
        }
        case 6: { // chunks
          const id = `ch${seed}-${++ids.msg}`;
          ev.push({ type: 'TEXT_MESSAGE_CHUNK', messageId: id, role: 'assistant', delta: text(2) });
          ev.push({ type: 'TEXT_MESSAGE_CHUNK', messageId: id, delta: text(2) });
          messages.push(id);
          if (chance(0.5)) {
            const tc = `tcc${seed}-${++ids.tc}`;
            ev.push({ type: 'TOOL_CALL_CHUNK', toolCallId: tc, toolCallName: 'chunky', parentMessageId: id, delta: '{"a":' });
            ev.push({ type: 'TOOL_CALL_CHUNK', toolCallId: tc, delta: '1}' });
            toolCalls.push(tc);
          }
          ev.push({ type: 'STEP_STARTED', stepName: 'after-chunks' });
          ev.push({ type: 'STEP_FINISHED', stepName: 'after-chunks' });
          break;
        }
        case 7: { // state
          if (chance(0.4)) {
            state = { count: int(0, 5), items: ['a'], nested: { on: chance(0.5) } };
            ev.push({ type: 'STATE_SNAPSHOT', snapshot: state });
          } else {
            const ok = chance(0.8);
            ev.push({ type: 'STATE_DELTA', delta: ok ? [{ op: 'add', path: '/count', value: int(0, 9) }, { op: 'add', path: '/log', value: [text(1)] }] : [{ op: 'replace', path: '/missing/deep', value: 1 }] });
          }
          break;
        }
        case 8: { // activity
          if (activities.length && chance(0.5)) {
            ev.push({ type: 'ACTIVITY_DELTA', messageId: pick(activities), activityType: 'plan', patch: chance(0.8) ? [{ op: 'add', path: '/step', value: int(0, 9) }] : [{ op: 'remove', path: '/nope' }], ...meta() });
          } else {
            const id = chance(0.3) && activities.length ? pick(activities) : `act${seed}-${++ids.act}`;
            ev.push({ type: 'ACTIVITY_SNAPSHOT', messageId: id, activityType: 'plan', content: { title: text(2), step: 0 }, ...(chance(0.3) ? { replace: chance(0.5) } : {}), ...meta() });
            if (!activities.includes(id)) activities.push(id);
          }
          break;
        }
        case 9: { // messages snapshot: some of the known messages, edited, plus a new one
          const keep = plain().filter(() => chance(0.6));
          const snap = keep.map((id) => ({ id, role: 'user', content: 'snap ' + id }));
          const nid = `snap${seed}-${++ids.msg}`;
          snap.push(chance(0.5) ? { id: nid, role: 'assistant', content: text(2) } : { id: nid, role: 'assistant', toolCalls: [{ id: `stc${seed}-${ids.msg}`, type: 'function', function: { name: 'f', arguments: '{}' } }] });
          if (chance(0.3)) {
            snap.push({ id: `snr${seed}-${ids.msg}`, role: 'reasoning', content: 'thought' });
            reasoning.add(`snr${seed}-${ids.msg}`);
          }
          ev.push({ type: 'MESSAGES_SNAPSHOT', messages: snap });
          messages.splice(0, messages.length, ...new Set([...messages, ...snap.map((m) => m.id)]));
          break;
        }
        case 10:
          ev.push({ type: 'CUSTOM', name: pick(['state_update', 'ping']), value: chance(0.5) ? { a: 1 } : 'v' });
          ev.push({ type: 'RAW', event: { any: 'thing' }, ...(chance(0.5) ? { source: 'llm' } : {}) });
          break;
        case 11:
          ev.push({ type: 'STEP_STARTED', stepName: 's' + s });
          ev.push({ type: 'STEP_FINISHED', stepName: 's' + s });
          break;
      }
    }
    const end = pick(['success', 'success', 'success', 'interrupt', 'result', 'error']);
    if (end === 'error' && (run < runs - 1 || loose)) {
      ev.push({ type: 'RUN_ERROR', message: 'boom', ...(chance(0.5) ? { code: 'E1' } : {}) });
      continue;
    }
    const fin = { type: 'RUN_FINISHED', threadId, runId };
    if (end === 'interrupt') fin.outcome = { type: 'interrupt', interrupts: [{ id: `int${seed}-${run}`, reason: 'approval', ...(started.length ? { toolCallId: started[0] } : {}) }] };
    else if (end === 'result') fin.result = { answer: int(0, 9) };
    else if (chance(0.3)) fin.outcome = { type: 'success', ...(chance(0.5) ? { pendingToolCallIds: started.slice(0, 1) } : {}) };
    ev.push(fin);
  }
  return ev;
}
