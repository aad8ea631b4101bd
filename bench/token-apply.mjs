// make bench, the token path of reducer.apply: a streamed token (text,
// reasoning and tool-argument deltas) applied as an object and as the JSON
// text JSON.stringify writes of it both cross the bridge by their fields
// (Core.applyToken); as bytes it goes to the wasm, whose parser folds
// such a token straight from its bytes (reducer/decode_hot.go), the path
// apply(text) took before. Per token, side by side in one process, the
// three interleaved over repetitions (median [range]); the ratios against
// apply(object). Bar: apply(text) within 1.2× apply(object).
//
//   node bench/token-apply.mjs [--quick]

import { loadReducer } from '../web/entries/agui.node.js';

const quick = process.argv.includes('--quick');
const N = quick ? 2000 : 20000;
const REPS = quick ? 3 : 21;
const factory = await loadReducer(new URL('../web/dist/agui.wasm', import.meta.url));

// A run's tokens: mostly text, some reasoning, a tool call's arguments.
const tokens = [];
for (let i = 0; i < N; i++) {
  if (i % 10 === 9) tokens.push({ type: 'TOOL_CALL_ARGS', toolCallId: 'call-1', delta: `"k${i}":"v ${i}",` });
  else if (i % 10 === 8) tokens.push({ type: 'REASONING_MESSAGE_CONTENT', messageId: 'think-1', delta: ` step ${i}` });
  else tokens.push({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'msg-1', delta: i % 50 === 0 ? ' "quoted" é\n' : ` word${i % 97}` });
}
const texts = tokens.map((t) => JSON.stringify(t));
const encoder = new TextEncoder();
const bytes = texts.map((t) => encoder.encode(t));
const start = [
  { type: 'RUN_STARTED', threadId: 't', runId: 'r' },
  { type: 'TEXT_MESSAGE_START', messageId: 'msg-1', role: 'assistant' },
  { type: 'REASONING_MESSAGE_START', messageId: 'think-1', role: 'reasoning' },
  { type: 'TOOL_CALL_START', toolCallId: 'call-1', toolCallName: 'f', parentMessageId: 'msg-1' },
  { type: 'TOOL_CALL_ARGS', toolCallId: 'call-1', delta: '{' },
];
const inputs = { object: tokens, text: texts, bytes };

function once(side) {
  const r = factory.createReducer({ dialect: 'agui' });
  for (const e of start) r.apply(e);
  const list = inputs[side];
  const t0 = performance.now();
  for (let i = 0; i < list.length; i++) r.apply(list[i]);
  const us = ((performance.now() - t0) * 1000) / list.length;
  const state = r.state;
  const out = { us, content: state.messages[0].content.length };
  r.dispose();
  return out;
}

const median = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
const sides = ['object', 'text', 'bytes'];
const us = { object: [], text: [], bytes: [] };
for (const s of sides) once(s); // warm-up
for (let rep = 0; rep < REPS; rep++) {
  const order = sides.map((_, k) => sides[(k + rep) % sides.length]);
  for (const s of order) us[s].push(once(s).us);
}
const m = Object.fromEntries(sides.map((s) => [s, median(us[s])]));
const f = (s) => `${m[s].toFixed(2)} µs [${Math.min(...us[s]).toFixed(2)}–${Math.max(...us[s]).toFixed(2)}]`;
console.log(`reducer.apply of a streamed token (Node ${process.version}, ${N} tokens × ${REPS} repetitions):`);
console.log(`  apply(object)       ${f('object')}`);
console.log(`  apply(JSON text)    ${f('text')}   ${(m.text / m.object).toFixed(2)}× apply(object)`);
console.log(`  apply(bytes)        ${f('bytes')}   ${(m.bytes / m.object).toFixed(2)}× apply(object) (the wasm reads the JSON: apply(text)'s path before)`);
const met = m.text / m.object <= 1.2;
console.log(`  bar (apply(text) ≤ 1.2× apply(object)): ${met ? 'MET' : 'MISSED'}`);
