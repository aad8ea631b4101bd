// The inspector attached to a drop-in @ag-ui/client agent (withReducer,
// web/src/ag-ui/with-reducer.js): it follows the agent's events through an
// @ag-ui/client subscriber and its state at each run's start, and its
// state after the last event is the agent's. Node; @ag-ui/client comes
// from bench/node_modules (make test-inspector installs it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadReducer } from '../../entries/agui.node.js';
import { withReducer, setReducerFactory } from '../../src/ag-ui/with-reducer.js';
import { Session } from '../../src/inspector/session.js';

const benchModules = fileURLToPath(new URL('../../../bench/node_modules/', import.meta.url));
const have = existsSync(`${benchModules}@ag-ui/client`) && existsSync(`${benchModules}rxjs`);

function sorted(x) {
  return Array.isArray(x) ? x.map(sorted) : x && typeof x === 'object'
    ? Object.fromEntries(Object.keys(x).sort().map((k) => [k, sorted(x[k])])) : x;
}

test('a drop-in @ag-ui/client agent: two runs followed, the state at the end is the agent\'s', { skip: !have && 'bench/node_modules is not installed' }, async () => {
  const { AbstractAgent } = await import(pathToFileURL(`${benchModules}@ag-ui/client/dist/index.mjs`).href);
  // rxjs under Node: its "node" export, as @ag-ui/client gets it.
  const { Observable } = createRequire(`${benchModules}@ag-ui/client/package.json`)('rxjs');
  const factory = await loadReducer();
  setReducerFactory(factory);
  let turn = 0;
  class Echo extends withReducer(AbstractAgent) {
    run(input) {
      const n = ++turn;
      return new Observable((o) => {
        for (const e of [
          { type: 'RUN_STARTED', threadId: input.threadId, runId: input.runId },
          { type: 'TEXT_MESSAGE_START', messageId: `m${n}`, role: 'assistant' },
          { type: 'TEXT_MESSAGE_CONTENT', messageId: `m${n}`, delta: `answer ${n}` },
          { type: 'TEXT_MESSAGE_END', messageId: `m${n}` },
          { type: 'STATE_DELTA', delta: [{ op: 'add', path: `/turn${n}`, value: n }] },
          { type: 'RUN_FINISHED', threadId: input.threadId, runId: input.runId },
        ]) o.next(e);
        o.complete();
      });
    }
  }
  const agent = new Echo({ threadId: 't', reducer: factory, reducerOptions: { deterministicIds: true } });
  const s = new Session({ checkpointEvery: 4 });
  await s.attach(agent, { reducerOptions: { dialect: 'agui', deterministicIds: true } });
  agent.addMessage({ id: 'u1', role: 'user', content: 'hi' });
  await agent.runAgent({ runId: 'r1' });
  agent.addMessage({ id: 'u2', role: 'user', content: 'again' });
  await agent.runAgent({ runId: 'r2' });
  const types = s.entries.map((e) => e.type);
  assert.equal(types.filter((t) => t === 'TEXT_MESSAGE_CONTENT').length, 2);
  assert.equal(types.filter((t) => t === 'restore').length, 2, 'the agent\'s state at each run start');
  const last = s.stateAt(s.entries.length - 1);
  assert.deepEqual(sorted(last.messages), sorted(agent.reducerState.messages));
  assert.deepEqual(last.state, { turn1: 1, turn2: 2 });
  assert.deepEqual(last.messages.map((m) => m.id), ['u1', 'm1', 'u2', 'm2']);
  // And in the middle: after the first run's text, before the second run.
  const mid = s.stateAt(types.indexOf('TEXT_MESSAGE_END'));
  assert.deepEqual(mid.messages.map((m) => [m.id, m.content]), [['u1', 'hi'], ['m1', 'answer 1']]);
  s.dispose();
});
