// make bench, Node part: one Node process folds the generated streams
// through the official @ag-ui/client reducer and through ours (web/agui.js
// over web/dist/agui.wasm), prints the table and writes bench/results.json.
// Also prints the wasm sizes (raw, gzip -9, brotli -q 11, computed here).
//
//   node bench/node.mjs [--quick] [--lengths 25,100] [--no-reliability] [--out FILE]   (AGUI_WASM: another module)

import { readFileSync, writeFileSync } from 'node:fs';
import { gzipSync, brotliCompressSync, constants } from 'node:zlib';
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import '../web/entries/agui.node.js'; // reads the wasm from a file: URL (core.mjs imports agui.js)
import { runBench } from './core.mjs';
import { runReliability, quickReliability } from './reliability.mjs';

// core.mjs collects garbage before each measured fold: gc() without
// needing `node --expose-gc`.
if (typeof globalThis.gc !== 'function') {
  setFlagsFromString('--expose-gc');
  globalThis.gc = runInNewContext('gc');
}
import { table, sizesLine, reliabilityLines } from './report.mjs';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const outIdx = args.indexOf('--out');
const out = outIdx >= 0 ? args[outIdx + 1] : new URL('./results.json', import.meta.url);

// --lengths 25,100: only these conversation lengths (turns); --no-reliability: skip reliability.mjs.
const lengthsIdx = args.indexOf('--lengths');
const lengths = lengthsIdx >= 0 ? args[lengthsIdx + 1].split(',').map(Number) : null;
const wasmURL = process.env.AGUI_WASM ? new URL('file://' + process.env.AGUI_WASM) : new URL('../web/dist/agui.wasm', import.meta.url);

export function wasmSizes(bytes = readFileSync(wasmURL)) {
  return {
    raw: bytes.length,
    gzip: gzipSync(bytes, { level: 9 }).length,
    brotli: brotliCompressSync(bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 11,
        [constants.BROTLI_PARAM_LGWIN]: 24,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    }).length,
  };
}

const t0 = performance.now();
const sizes = wasmSizes();
console.log(sizesLine(sizes));
console.log('');

const res = await runBench({
  wasmURL,
  now: () => performance.now(),
  log: (s) => console.error(`  [node] ${s}`),
  ...(quick ? { lengths: [5, 25], reps: 2, memoryConversations: 3, memoryTurns: 10, parseBlocks: 10 } : {}),
  ...(lengths !== null ? { lengths } : {}),
});
res.sizes = sizes;
res.runtime = { name: 'node', version: process.version, v8: process.versions.v8 };
res.bars.push({ bar: 'brotli module ≤ 720,000 B', value: sizes.brotli / 1024, met: sizes.brotli <= 720000 });
res.reliability = args.includes('--no-reliability') ? null : await runReliability({
  wasmURL,
  now: () => performance.now(),
  cpu: () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; },
  log: (s) => console.error(`  [node] ${s}`),
  ...(quick ? quickReliability : {}),
});
res.elapsedS = (performance.now() - t0) / 1000;
writeFileSync(out, JSON.stringify(res, null, 2) + '\n');
console.log(table(res, `Node ${process.version} (V8 ${process.versions.v8}), ${res.meta.reps} interleaved reps, medians`));
if (res.reliability !== null) console.log(`\nReliability (bench/reliability.mjs):\n${reliabilityLines(res.reliability).map((l) => `- ${l}`).join('\n')}`);
console.log(`\nwrote ${out instanceof URL ? 'bench/results.json' : out} (${res.elapsedS.toFixed(0)} s)`);
