// The takeover and token-path benchmarks (agent-takeover.mjs,
// token-apply.mjs), run briefly for correctness only: one Node process of
// back-to-back runs from the import, whose runs the reducer takes over and
// whose agents end equal; the token benchmark runs to its end. No timing is
// asserted (make bench measures).
//
//   node --test bench/agent-takeover.test.mjs   (needs make wasm and npm ci in bench/)

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const script = (name) => fileURLToPath(new URL(`./${name}`, import.meta.url));

test('agent-takeover.mjs: the reducer takes over back-to-back runs from the import, the agents end equal', () => {
  const dir = mkdtempSync(join(tmpdir(), 'agui-takeover-test-'));
  try {
    const out = join(dir, 'results.json');
    execFileSync(process.execPath, [script('agent-takeover.mjs'), '--quick', '--node-only', '--out', out], { stdio: ['ignore', 'pipe', 'inherit'], timeout: 300_000 });
    const { node } = JSON.parse(readFileSync(out, 'utf8'));
    assert.equal(node.reps, 1);
    assert.equal(node.allTookOver, true);
    assert.equal(node.equal, true);
    assert.ok(node.rows[0].foldedFrom > 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('token-apply.mjs runs to its end', () => {
  const text = execFileSync(process.execPath, [script('token-apply.mjs'), '--quick'], { encoding: 'utf8', timeout: 120_000 });
  assert.match(text, /apply\(JSON text\)/);
});
