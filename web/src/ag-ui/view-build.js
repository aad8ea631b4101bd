// What OfficialView (view.js) compares and builds with: equality of the
// official objects it rebuilds, the lists it patches, and the context of one
// update (the mirror's tool calls by id, the last build's objects by id).

import { EMPTY } from './freeze.js';

/** Whether two plain objects hold the same values (arrays compared one level deep). */
export function sameShallow(a, b) {
  if (a === b) return true;
  if (a == null || b == null) return false;
  // Counted with for…in rather than Object.keys: no array per call (the
  // view compares every object it rebuilds, once per event).
  let n = 0;
  for (const k in a) {
    if (!Object.hasOwn(a, k)) continue;
    n++;
    const x = a[k], y = b[k];
    if (x === y) continue;
    if (!Array.isArray(x) || !Array.isArray(y) || x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  }
  for (const k in b) if (Object.hasOwn(b, k)) n--;
  return n === 0;
}

export function holdsAny(ids, touched) {
  for (let i = 0; i < ids.length; i++) if (touched.includes(ids[i])) return true;
  return false;
}

/** Whether two lists of official tool calls hold the same ids in the same order. */
export function sameIds(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i].id !== b[i].id) return false;
  return true;
}

/** Whether a list of official tool calls holds one with that id. */
export function hasId(tcs, id) {
  for (let i = 0; i < tcs.length; i++) if (tcs[i].id === id) return true;
  return false;
}

/** Where each list of official messages starts in their concatenation. */
export function startsOf(outs) {
  const starts = new Array(outs.length);
  let k = 0;
  for (let i = 0; i < outs.length; i++) {
    starts[i] = k;
    k += outs[i].length;
  }
  return starts;
}

/** Whether two lists of official messages hold the same objects. */
export function sameOuts(a, b) {
  if (a === b) return true;
  if (a === undefined || b === undefined || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** What OfficialView's builds of one update need (#context). */
export class BuildContext {
  constructor(view) {
    this.view = view;
    this.st = null;
    this.positional = false;
    this.prevMessages = null;
    this.sameTCs = false;
    this.prevSrc = EMPTY;
    this.prevOuts = EMPTY;
    this.byId = null;
  }

  /** Made ready for one update of the view from st (null: emptied after it). */
  reset(st, positional) {
    const view = this.view;
    this.st = st;
    this.positional = positional;
    this.prevMessages = st === null ? null : view.messages;
    this.sameTCs = st !== null && st.toolCalls === view.srcToolCalls;
    this.prevSrc = st === null ? EMPTY : view.srcMessages ?? EMPTY;
    this.prevOuts = st === null ? EMPTY : view.outs;
    this.byId = null;
    return this;
  }

  tcOf(id) {
    // The mirror keeps its tool calls' positions (see #patch): the last
    // build's positions serve while the ids stay in place.
    if (this.sameTCs || this.positional) return this.view.srcToolCallOf(id, this.st.toolCalls);
    if (this.byId === null) {
      this.byId = new Map();
      for (const t of this.st.toolCalls) if (!this.byId.has(t.id)) this.byId.set(t.id, t);
    }
    return this.byId.get(id);
  }

  /** Whether tcs are the tool calls with those ids. */
  holds(tcs, ids) {
    for (let j = 0; j < ids.length; j++) if (tcs[j] !== this.tcOf(ids[j])) return false;
    return true;
  }

  // The official object a rebuilt message had: from the same index's last
  // build when there is one, else the first with its id in the last build.
  prevOf(id, near) {
    if (near !== undefined) for (let k = 0; k < near.length; k++) if (near[k].id === id) return near[k];
    return this.view.messages === this.prevMessages ? this.view.messageOf(id) : undefined;
  }
}
