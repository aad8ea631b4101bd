// The official @ag-ui/client Message[] view of one reducer's state, kept
// with structural sharing (OfficialView), for with-reducer.js; the official
// shapes are messages.js's, what it compares and builds with view-build.js's,
// the subscriber rounds subscribers.js's.

import { DEV, freeze, EMPTY } from './freeze.js';
import { officialToolCall, settleToolCall, common, toolCallOf, messageOf } from './messages.js';
import { sameShallow, holdsAny, sameIds, hasId, startsOf, sameOuts, BuildContext } from './view-build.js';
import { ArgsTexts } from './args-text.js';
import { partsText, legacyParts } from './bridge.js';

/** An empty array whose elements may be of any kind (not only small integers). */
function anyArray() {
  const a = [null];
  a.length = 0;
  return a;
}

/**
 * Keeps the official Message[] view of one reducer's state, rebuilt after
 * each change with structural sharing: a reducer message (and its tool
 * calls) that kept its identity in the mirror keeps its official object; one
 * that changed only in what the official shape leaves out (streaming flags)
 * keeps it too.
 */
class OfficialView {
  constructor() {
    // @ag-ui/client 0.0.x's message shapes (bridge.js): tool content as text, no file sources.
    this.legacy = false;
    this.messages = freeze([]);
    this.srcMessages = null; // the mirror's messages array the view was built from
    this.srcToolCalls = null;
    this.outs = EMPTY; // per mirror message of srcMessages: its official messages
    this.starts = null; // per mirror message: where its official messages start in messages (made on first use)
    // Positions by id, made on first use and kept in step by #patch (null
    // after a whole rebuild): of the first official message with each id in
    // messages, of the first official message holding each tool call id,
    // and of the first mirror tool call with each id in srcToolCalls. Lists
    // of positions depend only on the ids, not on the objects: a token
    // leaves them as they were.
    this.msgAt = null;
    this.tcMsgAt = null;
    this.srcTCAt = null;
    this.dirty = false; // a message must be rebuilt though the mirror did not change
    this.staleOuts = null; // index → official messages markContent invalidated (their last build)
    this.cache = new WeakMap(); // mirror message → { tcs: mirror tool calls, out: official messages }
    this.tcCache = new WeakMap(); // mirror tool call → official tool call
    this.tcLatest = new Map(); // id → the mirror object of a running tool call that tcCache holds
    this.args = new ArgsTexts(); // the official argument texts of streaming tool calls
    // Assistant ids whose official message carries content: the mirror
    // writes "" both for "no content" (a slot a tool call created) and for
    // an empty text message, which the official shape tells apart.
    this.contentIds = new Set();
    // Scratch lists made to hold any value from the start: a fresh `[]`
    // holds small integers only until its first string or object, and the
    // optimised #patch of an earlier view deoptimised ("not a Smi") on a new
    // view's first push.
    this.scratchTCs = anyArray();
    this.scratch = anyArray();
    this.ctx = new BuildContext(this);
  }

  /**
   * Rebuilds from the mirror state; returns whether the view changed. A
   * mirror message at the index it had in the last build, with the same
   * identity (the mirror shares what an event did not touch), keeps its
   * official objects without a lookup. When messages and tool calls were
   * only changed or added at the end (nearly every event: a token, a tool
   * call's arguments, a new message) only those are built and the arrays
   * are copied and patched (#patch); otherwise the whole view is assembled
   * again.
   */
  update(st) {
    const res = this.#update(st);
    // Nothing of this update is kept in the scratch lists and the context
    // (the last view's objects would stay reachable until the next one).
    this.ctx.reset(null, false);
    this.scratch.length = 0;
    return res;
  }

  #update(st) {
    if (!this.dirty && st.messages === this.srcMessages && st.toolCalls === this.srcToolCalls) return false;
    if (!this.dirty && this.srcMessages !== null && st.messages.length >= this.outs.length) {
      const res = this.#patch(st);
      if (res !== undefined) return res;
    }
    const ctx = this.#context(st);
    const prevSrc = this.srcMessages ?? EMPTY;
    const prevOuts = this.outs;
    const n = st.messages.length;
    const outs = new Array(n);
    let changed = n !== prevOuts.length;
    let count = 0;
    for (let i = 0; i < n; i++) {
      const m = st.messages[i];
      let o = prevOuts[i];
      if (o === undefined || m !== prevSrc[i] || (!ctx.sameTCs && m.toolCallIds !== undefined)) {
        o = this.#outOf(ctx, i, m);
        if (!changed && !sameOuts(o, prevOuts[i])) changed = true;
      }
      outs[i] = o;
      count += o.length;
    }
    this.srcMessages = st.messages;
    this.srcToolCalls = st.toolCalls;
    this.outs = outs;
    this.starts = null;
    if (!ctx.sameTCs) this.srcTCAt = null;
    this.dirty = false;
    this.staleOuts = null;
    if (!changed) return false;
    const out = new Array(count);
    let k = 0;
    for (const o of outs) for (const x of o) out[k++] = x;
    this.messages = freeze(out);
    this.msgAt = this.tcMsgAt = null;
    return true;
  }

  /**
   * update() when the mirror's messages and tool calls are those the view
   * was built from, some replaced in place, some added at the end: the
   * touched messages (their identity changed, or a tool call they hold
   * did) are built, the arrays copied once and patched, the positions by
   * id moved along. Returns undefined, having changed nothing, when a
   * message yields another number of official messages than before or a
   * tool call changed its id: update() then assembles the view whole.
   */
  #patch(st) {
    const src = this.srcMessages;
    const prevTCs = this.srcToolCalls;
    const tcs = st.toolCalls;
    // Scratch lists, the view's own (an update is never re-entered): ids
    // of the tool calls whose object changed or that are new (usually
    // one), then [index, official messages] of the touched messages.
    let touchedTCs = null;
    if (tcs !== prevTCs) {
      if (prevTCs === null || tcs.length < prevTCs.length) return undefined;
      for (let k = 0; k < tcs.length; k++) {
        const a = tcs[k], b = prevTCs[k];
        if (a === b) continue;
        if (b !== undefined && a.id !== b.id) return undefined;
        if (touchedTCs === null) (touchedTCs = this.scratchTCs).length = 0;
        touchedTCs.push(a.id);
      }
    }
    // The mirror's tool calls by position, new ones at the end: what stood
    // at a position still does (checked above), so the positions serve the
    // new array (and still the old one, which has no such positions).
    if (this.srcTCAt !== null && tcs !== prevTCs) {
      for (let k = prevTCs.length; k < tcs.length; k++) if (!this.srcTCAt.has(tcs[k].id)) this.srcTCAt.set(tcs[k].id, k);
    }
    const msgs = st.messages;
    const n = msgs.length;
    const prevN = this.outs.length;
    // Build first, against the last build (its positions serve prevOf), then patch.
    let ctx = null, touched = null;
    for (let i = 0; i < n; i++) {
      const m = msgs[i];
      if (i < prevN && m === src[i] && (touchedTCs === null || m.toolCallIds === undefined || !holdsAny(m.toolCallIds, touchedTCs))) continue;
      const prev = i < prevN ? this.outs[i] : EMPTY;
      if (prev === undefined) return undefined;
      ctx ??= this.#context(st, true);
      const o = this.#outOf(ctx, i, m);
      if (i < prevN) {
        if (sameOuts(o, prev)) continue;
        if (o.length !== prev.length) return undefined;
      }
      if (touched === null) (touched = this.scratch).length = 0;
      touched.push(i, o);
    }
    this.srcMessages = msgs;
    this.srcToolCalls = tcs;
    if (touched === null) return false;
    this.starts ??= startsOf(this.outs);
    // outs is the view's own (no one else holds it): patched in place.
    const outs = this.outs === EMPTY ? [] : this.outs;
    const out = this.messages.slice();
    for (let t = 0; t < touched.length; t += 2) {
      const i = touched[t], o = touched[t + 1];
      let at;
      if (i < prevN) at = this.starts[i];
      else {
        at = out.length;
        this.starts.push(at);
      }
      const prev = i < prevN ? outs[i] : EMPTY;
      outs[i] = o;
      for (let j = 0; j < o.length; j++) {
        this.#movePositions(prev[j], o[j], at + j);
        out[at + j] = o[j];
      }
    }
    this.outs = outs;
    // Every entry is frozen already (the last view's, or built and frozen
    // by #outOf): only the array is new.
    this.messages = DEV ? Object.freeze(out) : out;
    return true;
  }

  /** Keeps msgAt and tcMsgAt in step when official message x at position p becomes y (x undefined: y is new). */
  #movePositions(x, y, p) {
    if (this.msgAt !== null && x?.id !== y.id) {
      if (x !== undefined && this.msgAt.get(x.id) === p) this.msgAt = null; // its first place is now further on, or nowhere
      else if (!(this.msgAt.get(y.id) < p)) this.msgAt.set(y.id, p);
    }
    if (this.tcMsgAt !== null) {
      const before = x?.toolCalls ?? EMPTY, after = y.toolCalls ?? EMPTY;
      if (before === after || sameIds(before, after)) return; // a tool call's new arguments: the ids stay
      for (let k = 0; k < before.length; k++) {
        const id = before[k].id;
        if (this.tcMsgAt.get(id) === p && !hasId(after, id)) {
          this.tcMsgAt = null;
          return;
        }
      }
      for (let k = 0; k < after.length; k++) if (!(this.tcMsgAt.get(after[k].id) < p)) this.tcMsgAt.set(after[k].id, p);
    }
  }

  /** The first official message with that id (messageOf(this.messages, id), without the scan). */
  messageOf(id) {
    if (this.msgAt === null) {
      this.msgAt = new Map();
      this.messages.forEach((m, p) => { if (!this.msgAt.has(m.id)) this.msgAt.set(m.id, p); });
    }
    const p = this.msgAt.get(id);
    return p === undefined ? undefined : this.messages[p];
  }

  /** The first official tool call with that id (toolCallOf(this.messages, id), without the scan). */
  toolCallOf(id) {
    if (this.tcMsgAt === null) {
      this.tcMsgAt = new Map();
      this.messages.forEach((m, p) => {
        for (const t of m.toolCalls ?? EMPTY) if (!this.tcMsgAt.has(t.id)) this.tcMsgAt.set(t.id, p);
      });
    }
    const p = this.tcMsgAt.get(id);
    if (p === undefined) return undefined;
    const tcs = this.messages[p].toolCalls;
    for (let i = 0; i < tcs.length; i++) if (tcs[i].id === id) return tcs[i];
    return undefined;
  }

  /** The first mirror tool call with that id in tcs: srcToolCalls, or one that holds the same ids at the same positions and maybe more after. */
  srcToolCallOf(id, tcs = this.srcToolCalls ?? EMPTY) {
    if (this.srcTCAt === null) {
      this.srcTCAt = new Map();
      tcs.forEach((t, k) => { if (!this.srcTCAt.has(t.id)) this.srcTCAt.set(t.id, k); });
    }
    const k = this.srcTCAt.get(id);
    return k === undefined ? undefined : tcs[k];
  }

  /**
   * What building messages of st needs: its tool calls by id, the last
   * build's official messages by id. positional: st's tool calls hold the
   * ids of srcToolCalls at the same positions (#patch checked it).
   */
  #context(st, positional = false) {
    return this.ctx.reset(st, positional); // one per view: an update is never re-entered
  }

  /** The official messages of mirror message m at index i: remembered, or built with the last build's objects kept where equal. */
  #outOf(ctx, i, m) {
    const ids = m.toolCallIds ?? EMPTY;
    const entry = this.cache.get(m);
    if (entry !== undefined && entry.tcs.length === ids.length && ctx.holds(entry.tcs, ids)) return entry.out;
    const tcs = new Array(ids.length);
    let running = false;
    for (let j = 0; j < ids.length; j++) {
      const t = (tcs[j] = ctx.tcOf(ids[j]));
      if (t !== undefined && t.status === 'running') running = true;
    }
    const near = m.id === ctx.prevSrc[i]?.id ? (ctx.prevOuts[i] ?? this.staleOuts?.get(i)) : undefined;
    const o = this.build(m, tcs);
    for (let k = 0; k < o.length; k++) {
      const x = o[k];
      const prev = ctx.prevOf(x.id, near);
      o[k] = prev !== undefined && sameShallow(prev, x) ? prev : freeze(x);
    }
    // A streaming message is replaced by the next token, and one holding a
    // streaming tool call is rebuilt by the next delta: remembering them
    // would only feed the WeakMap (the rebuild finds their official objects
    // by index).
    if (m.streaming !== true && !running) this.cache.set(m, { tcs, out: o });
    return o;
  }

  /** Makes the view the given official messages, one per mirror message of st. */
  adopt(st, messages) {
    this.srcMessages = st.messages;
    this.srcToolCalls = st.toolCalls;
    this.outs = messages.map((m) => [m]);
    this.starts = null;
    this.msgAt = this.tcMsgAt = this.srcTCAt = null;
    this.staleOuts = null;
    this.dirty = false;
    this.tcLatest.clear();
    this.args.clear();
    this.messages = messages;
  }

  officialTC(tc) {
    if (tc === undefined) return undefined;
    let o = this.tcCache.get(tc);
    if (o === undefined) {
      this.tcCache.set(tc, (o = officialToolCall(tc, this.args.of(tc))));
      // A streaming tool call is replaced by its next delta: only its
      // latest object is remembered. (A WeakMap frees a dead key's entry
      // only in a full collection, and with it the arguments text, which a
      // reader has flattened into a copy per delta.)
      const prev = this.tcLatest.get(tc.id);
      if (prev !== undefined && prev !== tc) {
        // The call ended: the view may keep handing out its last streaming
        // object (its official shape did not change), made plain data here.
        if (tc.status !== 'running') settleToolCall(this.tcCache.get(prev));
        this.tcCache.delete(prev);
      }
      if (tc.status === 'running') this.tcLatest.set(tc.id, tc);
      else this.tcLatest.delete(tc.id);
    }
    return o;
  }

  build(m, tcs) {
    switch (m.role) {
      case 'activity':
        return [common({ id: m.id, role: 'activity', activityType: m.activityType, content: m.content }, { metadata: m.metadata, subagentRunId: m.subagentRunId })];
      case 'tool': {
        // 0.0.x's tool message holds text (bridge.js); the reducer keeps the parts.
        const content = this.legacy && Array.isArray(m.content) ? partsText(m.content) : m.content;
        const o = { id: m.id, role: 'tool', content, toolCallId: m.toolCallId };
        if (m.error !== undefined) o.error = m.error;
        return [common(o, m)];
      }
      case 'assistant': {
        const hasContent = m.content !== '' || this.contentIds.has(m.id);
        const reasoning = m.reasoning !== undefined;
        if (reasoning && !hasContent && tcs.length === 0) {
          // A reasoning slot: the official client's "reasoning" message.
          return [common({ id: m.id, role: 'reasoning', content: m.reasoning }, m)];
        }
        const res = [];
        if (reasoning) res.push({ id: m.id + '-reasoning', role: 'reasoning', content: m.reasoning });
        const o = { id: m.id, role: 'assistant' };
        if (hasContent) o.content = m.content;
        if (m.name !== undefined) o.name = m.name;
        if (m.toolCallIds !== undefined) {
          const list = [];
          for (let j = 0; j < tcs.length; j++) if (tcs[j] !== undefined) list.push(this.officialTC(tcs[j]));
          o.toolCalls = list;
        }
        res.push(common(o, m));
        return res;
      }
      default: {
        const content = this.legacy && m.role === 'user' && Array.isArray(m.content) ? legacyParts(m.content) : m.content;
        const o = { id: m.id, role: m.role, content };
        if (m.name !== undefined) o.name = m.name;
        return [common(o, m)];
      }
    }
  }

  /**
   * In 0.0.x's shapes (legacy): official message → its reducer message's
   * content parts, for the messages of st whose parts the view gave as
   * text; null when there are none. A restore from those official
   * messages keeps the parts.
   */
  partsKept(st) {
    let keep = null;
    for (const m of st.messages) {
      if (!Array.isArray(m.content)) continue;
      const entry = this.cache.get(m);
      if (entry === undefined) continue;
      for (const o of entry.out) if (o.id === m.id && o.content !== m.content) (keep ??= new Map()).set(o, m.content);
    }
    return keep;
  }

  /** Says whether the assistant message id carries content (in the official shape). */
  markContent(id, has) {
    if (this.contentIds.has(id) === has) return;
    if (has) this.contentIds.add(id);
    else this.contentIds.delete(id);
    // Rebuild that message at the next update even if the mirror did not change.
    this.dirty = true;
    const src = this.srcMessages ?? EMPTY;
    for (let i = 0; i < src.length; i++) {
      if (src[i].id !== id) continue;
      this.cache.delete(src[i]);
      if (this.outs !== EMPTY && this.outs[i] !== undefined) {
        (this.staleOuts ??= new Map()).set(i, this.outs[i]);
        this.outs[i] = undefined;
      }
    }
  }

  /** Records which assistant messages of an official list carry content. */
  noteContent(messages) {
    for (const m of messages) {
      if (m?.role === 'assistant') this.markContent(m.id, typeof m.content === 'string');
    }
  }
}

export { sameShallow, OfficialView };
