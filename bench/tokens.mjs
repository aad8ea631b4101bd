// The cost of one streamed token through the bridge in Node (web/agui.js
// over web/dist/agui.wasm): a text token (TEXT_MESSAGE_CONTENT) against a
// tool-argument token (TOOL_CALL_ARGS streaming a write_file call's JSON
// arguments), each folded with apply() and the state read after it (as the
// drop-in agent does for its subscribers), after a 50-message history. The
// deltas are ~20 characters, as in agent-large.mjs. Prints the CPU time
// per token (the process's, so time spent descheduled does not count; the
// fastest of interleaved repetitions: the least disturbed by other work on
// the machine); never fails on timings.
//
//   node bench/tokens.mjs [--tokens N] [--reps N]   (AGUI_WASM: another module)

import { loadReducer } from '../web/entries/agui.node.js';

const args = process.argv.slice(2);
const opt = (name, def) => { const i = args.indexOf(name); return i >= 0 ? Number(args[i + 1]) : def; };
const TOKENS = opt('--tokens', 10000);
const REPS = opt('--reps', 15);
const wasmURL = process.env.AGUI_WASM ? new URL('file://' + process.env.AGUI_WASM) : undefined;

const WORDS = 'the a of to and in is it that for on with as this "quoted" value\n result error file path'.split(' ');
function prose(n) {
  let s = '';
  for (let i = 0; s.length < n; i++) s += (s ? ' ' : '') + WORDS[(i * 7919) % WORDS.length];
  return s.slice(0, n);
}

/** The events: a run, a history-sized prelude, then TOKENS tokens of one kind. */
function stream(kind) {
  const text = kind === 'args' ? JSON.stringify({ path: 'src/a.txt', content: prose(TOKENS * 20) }) : prose(TOKENS * 20);
  const start = [{ type: 'RUN_STARTED', threadId: 't', runId: 'r' }, { type: 'TEXT_MESSAGE_START', messageId: 'm', role: 'assistant' }];
  if (kind === 'args') start.push({ type: 'TOOL_CALL_START', toolCallId: 'c', toolCallName: 'write_file', parentMessageId: 'm' });
  const tokens = [];
  for (let at = 0; at < text.length; at += 20) {
    const delta = text.slice(at, at + 20);
    tokens.push(kind === 'args' ? { type: 'TOOL_CALL_ARGS', toolCallId: 'c', delta } : { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta });
  }
  return { start, tokens };
}

const history = [];
for (let i = 0; i < 50; i++) history.push({ id: `h${i}`, role: i % 2 ? 'assistant' : 'user', content: prose(200 + ((i * 131) % 600)) });

const factory = await loadReducer(wasmURL);
/** The process's CPU time, µs. */
const cpu = () => { const u = process.cpuUsage(); return u.user + u.system; };
const streams = { text: stream('text'), args: stream('args') };

/** µs per token of one pass: apply each token, read the state after it. */
function pass(kind) {
  const { start, tokens } = streams[kind];
  const r = factory.createReducer({ dialect: 'agui' });
  r.setMessages(history);
  for (const ev of start) r.apply(ev);
  let sink = 0;
  const t0 = cpu();
  for (const ev of tokens) {
    r.apply(ev);
    sink += r.state.messages.length;
  }
  const us = (cpu() - t0) / tokens.length;
  r.dispose();
  if (sink === 0) throw new Error('no state');
  return us;
}

pass('text'); pass('args'); // warm-up
const runs = { text: [], args: [] };
for (let i = 0; i < REPS; i++) for (const k of i % 2 ? ['args', 'text'] : ['text', 'args']) runs[k].push(pass(k));
const text = Math.min(...runs.text), argsUs = Math.min(...runs.args);
console.log(`CPU per token through the bridge (apply + state read), ${TOKENS} tokens of ~20 characters, fastest of ${REPS}: ` +
  `text ${text.toFixed(2)} µs, tool arguments ${argsUs.toFixed(2)} µs (${(argsUs / text).toFixed(1)}× a text token)`);
