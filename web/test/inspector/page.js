// The inspector test page: the package's modules over http, driven by
// inspector.test.mjs through window.t.
import { loadReducer, createWorkerReducer, createAgent } from '../../agui.js';
import '../../src/inspector/entry.js';

const inspector = document.getElementById('inspector');
const factory = await loadReducer();

/** A state with its keys sorted (the mirror adds a key where the snapshot may order it
 *  elsewhere), and with clock readings zeroed when asked (the inspector's own reducer
 *  reads its clock when it folds, a moment after the observed one). */
function timeless(v, clock = true) {
  const sort = (x) => (Array.isArray(x) ? x.map(sort) : x && typeof x === 'object'
    ? Object.fromEntries(Object.keys(x).sort().map((k) => [k, sort(x[k])])) : x);
  return sort(JSON.parse(JSON.stringify(v), (k, x) => (clock && typeof x === 'number' && (/DurationMs$/.test(k) || /(At|Time)$/.test(k)) ? 0 : x)));
}

window.t = {
  inspector,
  factory,
  timeless,
  createWorkerReducer,
  createAgent,
  /** Folds lines into an observed reducer; returns the reducer's snapshot after each. */
  async foldObserved(lines, { checkpointEvery = 4 } = {}) {
    const r = factory.createReducer({ deterministicIds: true });
    await inspector.attach(r, { reducerOptions: { deterministicIds: true }, checkpointEvery });
    inspector.session.checkpointEvery = checkpointEvery;
    const snaps = [];
    for (const l of lines) { r.apply(l); snaps.push(timeless(r.snapshot())); }
    return { r, snaps };
  },
  /** Compares stateAt(i) with the snapshots, in order, backwards and at random; returns mismatches. */
  checkTravel(snaps) {
    const bad = [];
    const n = snaps.length;
    const check = (i) => {
      const got = JSON.stringify(timeless(inspector.stateAt(i)));
      if (got !== JSON.stringify(snaps[i])) bad.push({ i, got: got.slice(0, 400), want: JSON.stringify(snaps[i]).slice(0, 400) });
    };
    for (let i = 0; i < n; i++) check(i);
    for (let i = n - 1; i >= 0; i--) check(i);
    let seed = 7;
    for (let k = 0; k < n; k++) { seed = (seed * 1103515245 + 12345) % 2147483648; check(seed % n); }
    return bad;
  },
};
window.ready = true;
