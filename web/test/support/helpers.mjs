// Shared by the node tests: the built module, the recorded streams, and a
// seeded random source. The wasm must be built first (make wasm).
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

export const webDir = fileURLToPath(new URL('../..', import.meta.url));
export const repoDir = join(webDir, '..');
export const wasmURL = new URL('../../dist/agui.wasm', import.meta.url);

if (!existsSync(wasmURL)) {
  throw new Error('web/dist/agui.wasm is missing: run make wasm first');
}

/** Every recorded stream: [{name, lines}] from testdata/streams and testdata/corpus/dotnet. */
export function streams() {
  const dirs = [join(repoDir, 'testdata', 'streams'), join(repoDir, 'testdata', 'corpus', 'dotnet')];
  const out = [];
  for (const dir of dirs) {
    if (!existsSync(dir)) throw new Error(`missing stream directory ${dir}`);
    for (const f of readdirSync(dir).filter((f) => f.endsWith('.jsonl')).sort()) {
      const lines = readFileSync(join(dir, f), 'utf8').split('\n').filter((l) => l.trim() !== '');
      out.push({ name: f, dir, lines });
    }
  }
  return out;
}

export function stream(name) {
  const s = streams().find((s) => s.name === name);
  if (!s) throw new Error(`no stream ${name}`);
  return s;
}

/** The text/event-stream form of a stream: one `data:` frame per line. */
export function sseText(lines) {
  return lines.map((l) => `data: ${l}\n\n`).join('');
}

/** A small seeded PRNG (mulberry32), so failures reproduce. */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Splits bytes at random boundaries into chunks of 1..maxLen bytes. */
export function randomSplit(bytes, random, maxLen = 64) {
  const chunks = [];
  for (let i = 0; i < bytes.length;) {
    const n = 1 + Math.floor(random() * maxLen);
    chunks.push(bytes.subarray(i, i + n));
    i += n;
  }
  return chunks;
}

/** A state with reasoning durations zeroed: they come from the clock when events carry no timestamps. */
export function normalise(state) {
  return JSON.parse(JSON.stringify(state), (k, v) => (k === 'reasoningDurationMs' && typeof v === 'number' ? 0 : v));
}
