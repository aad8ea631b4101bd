// The module's sizes the documentation quotes (docs/figures.json, written by
// make docs-figures, quoted by docs/figures.md and the pages' figure regions,
// which go test ./docs/ checks) are those of the module make wasm builds,
// within 1%: a change that moves the module further fails here until
// make docs-figures records the new sizes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';

const root = new URL('../../../', import.meta.url);
const recorded = JSON.parse(readFileSync(new URL('docs/figures.json', root), 'utf8')).module;

test('docs/figures.json has the sizes of the built module (within 1%)', () => {
  for (const [key, file] of [['raw', 'agui.wasm'], ['gzip', 'agui.wasm.gz'], ['brotli', 'agui.wasm.br']]) {
    const built = statSync(new URL(`web/dist/${file}`, root)).size;
    const off = Math.abs(built - recorded[key]) / recorded[key];
    assert.ok(off <= 0.01, `web/dist/${file} is ${built} bytes, docs/figures.json says ${recorded[key]} (${(off * 100).toFixed(1)}% off): run make docs-figures`);
  }
});
