// The drop-in's takeover under runs that leave no gap (src/ag-ui/factory.js):
// an app process imports <package>/ag-ui and runs 60 runs of 400 tokens
// back to back (one agent), or two agents at once; the default reducer
// factory loads meanwhile. Every run that starts once the factory is ready
// is folded by the reducer (and the runs before it by @ag-ui/client's apply
// step), the factory becomes ready during the runs, and subscribers, run
// results, messages and state equal @ag-ui/client 1.0.0's HttpAgent's.
// No timing: bench/agent-takeover.mjs measures when it happens.
//
//   node --test web/test/ag-ui/takeover.test.mjs   (needs make wasm and npm ci in web/test/ag-ui)

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { nodeApp } from './node-app.mjs';

let app;
before(() => { app = nodeApp('agui-takeover-'); });
after(() => app.remove());

const script = readFileSync(new URL('./takeover-app.mjs', import.meta.url), 'utf8');

for (const pattern of ['back-to-back', 'overlapping']) {
  test(`runs ${pattern} from the import: the reducer folds every run that starts once it is ready, and subscribers see what HttpAgent's see`, async () => {
    const out = JSON.parse(await app.run(script, { TAKEOVER_PATTERN: pattern }));
    assert.equal(out.length, pattern === 'overlapping' ? 2 : 1);
    out.forEach((side, k) => {
      const first = side.readyAtStart.indexOf(true);
      assert.ok(first > 0, `agent ${k}: the factory became ready during the runs (first ready at run ${first})`);
      assert.ok(side.readyAtStart.slice(first).every(Boolean), 'and stayed ready');
      assert.deepEqual(side.folded.slice(first), side.folded.slice(first).map(() => true), `agent ${k}: every run from run ${first} on folded by the reducer`);
      const firstFolded = side.folded.indexOf(true);
      assert.ok(side.folded.slice(firstFolded).every(Boolean), 'the switch is once');
      assert.ok(side.events > 0);
      assert.equal(side.equal, true, `agent ${k}: what subscribers saw, the results, messages and state equal HttpAgent's`);
    });
  });
}
