// The module's download size against its budget: 720,000 bytes brotli
// (docs/performance.md, "Download size"). make wasm writes dist/agui.wasm.br with
// Debian's brotli -q 11; without it (or when the copy is older than the
// module) the size is computed here with the same quality and window.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { brotliCompressSync, constants } from 'node:zlib';
import { wasmURL } from '../support/helpers.mjs';

const BUDGET = 720_000;

function brotliSize() {
  const br = new URL(`${wasmURL.href}.br`);
  try {
    if (statSync(br).mtimeMs >= statSync(wasmURL).mtimeMs) return statSync(br).size;
  } catch { /* no .br copy: compute it */ }
  const bytes = readFileSync(wasmURL);
  return brotliCompressSync(bytes, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 11,
      [constants.BROTLI_PARAM_LGWIN]: 24,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
    },
  }).length;
}

test(`agui.wasm is within its budget of ${BUDGET.toLocaleString('en')} bytes brotli`, () => {
  const size = brotliSize();
  assert.ok(size <= BUDGET,
    `agui.wasm is ${size.toLocaleString('en')} bytes brotli, ${(size - BUDGET).toLocaleString('en')} past its budget: `
    + 'find what grew (cmd/wasm-build builds it; a build without its -s -w ldflags has the function names), '
    + 'or raise the budget in docs/performance.md, cmd/wasm-build and here with the reason');
});
