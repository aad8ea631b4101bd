// The run's side on the wasm: what runStream (transport.js) calls to fold
// the responses of one run into one reducer handle, the same whichever
// thread holds the wasm — the same-thread reducer (reducer.js) and the worker
// (../worker/serve.js) differ only in where a call's change records, and
// what observers see, go.

import { diagnosticError } from '../wasm/records.js';
import { args } from './calls.js';
import { restartedText } from './resume.js';

/**
 * The target of runStream over handle h of core. live() is false once the
 * reducer is disposed (the run then touches nothing); commit(text) hands on
 * a JSON array of change records; runId() names the run the state holds;
 * while observing(), tell(input) gets each input the run folds with what it
 * produced (a reducer's observe()).
 */
export function runTarget(core, h, { live, commit, runId, observing, tell }) {
  /** A call's records as a JSON array (feed answers an array, or one record when it failed), committed. */
  const records = (r, many) => {
    const text = many && r.ok ? r.text : `[${r.text}]`;
    if (text !== '[]') commit(text);
    return text;
  };
  const act = (name, argv, r) => {
    const text = records(r);
    if (observing()) tell({ kind: 'action', name, args: argv, record: JSON.parse(text)[0] });
  };
  return {
    runInputText: () => {
      const r = core.call('runInput', h, '{}');
      if (!r.ok) throw diagnosticError(JSON.parse(r.text));
      return r.text;
    },
    endStream: () => {
      if (!live()) return;
      core.call('endStream', h);
      if (observing()) tell({ kind: 'endStream' });
    },
    feed: (chunk) => {
      if (!live()) return false;
      const r = core.call('feed', h, chunk);
      const text = records(r, true);
      if (observing()) tell({ kind: 'chunk', data: chunk, records: JSON.parse(text) });
      return restartedText(r.text);
    },
    lastEventId: () => (live() ? core.call('lastEventId', h).text : ''),
    runId: () => (live() ? runId() : ''),
    setLastEventId: (id) => {
      if (!live()) return;
      const r = core.call('setLastEventId', h, id);
      const rec = JSON.parse(r.text);
      if (rec.ops?.length) records(r); // a record that changes nothing is not announced
      if (observing()) tell({ kind: 'action', name: 'setLastEventId', args: [id], record: rec });
    },
    fail: (message, code) => { if (live()) act('fail', [message, code], core.call('fail', h, args.fail(message, code))); },
    stop: () => { if (live()) act('stop', [], core.call('stop', h)); },
    isRunning: () => live() && core.number('running', h) === 1,
  };
}
