// The per-platform entries (entries/) and package.json's "exports" and
// "sideEffects" are what scripts/entries.mjs makes from its table: nobody
// edits them by hand, and a change to the table is a change to all of them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

test('entries/ and package.json\'s exports are generated from scripts/entries.mjs\'s table', () => {
  const script = fileURLToPath(new URL('../../scripts/entries.mjs', import.meta.url));
  try {
    execFileSync(process.execPath, [script, '--check'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    assert.fail(err.stderr);
  }
});
