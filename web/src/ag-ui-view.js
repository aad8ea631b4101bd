// The official @ag-ui/client shapes of the reducer's state, for
// ag-ui-reducer.js: the Message[] view kept with structural sharing
// (OfficialView), its inverse (reducerMessages), and the subscriber round
// without clones (runSubscribers), with the helpers they share.

const DEV = typeof process !== 'undefined' && process.env != null &&
  (process.env.NODE_ENV === 'development' || process.env.NODE_ENV === 'test');

function deepFreeze(v) {
  if (v === null || typeof v !== 'object' || Object.isFrozen(v)) return v;
  Object.freeze(v);
  for (const k of Object.keys(v)) deepFreeze(v[k]);
  return v;
}
const freeze = DEV ? deepFreeze : (v) => v;

// ---------------------------------------------------------------------------
// Reducer state (web/agui.d.ts AgentState) → the official Message[] shape.

const EMPTY = Object.freeze([]);

function officialToolCall(tc) {
  const out = { id: tc.id, type: 'function', function: { name: tc.name, arguments: tc.argsText } };
  if (tc.encryptedValue !== undefined) out.encryptedValue = tc.encryptedValue;
  if (tc.metadata !== undefined) out.metadata = tc.metadata;
  return freeze(out); // attribution is the owning message's, not the tool call's
}

function common(out, m) {
  if (m.encryptedValue !== undefined) out.encryptedValue = m.encryptedValue;
  if (m.metadata !== undefined) out.metadata = m.metadata;
  if (m.subagentRunId != null) out.subagentRunId = m.subagentRunId;
  return out;
}

/** Whether two plain objects hold the same values (arrays compared one level deep). */
function sameShallow(a, b) {
  if (a === b) return true;
  if (a == null || b == null) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) {
    const x = a[k], y = b[k];
    if (x === y) continue;
    if (!Array.isArray(x) || !Array.isArray(y) || x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  }
  return true;
}

/** Where each list of official messages starts in their concatenation. */
function startsOf(outs) {
  const starts = new Array(outs.length);
  let k = 0;
  for (let i = 0; i < outs.length; i++) {
    starts[i] = k;
    k += outs[i].length;
  }
  return starts;
}

/** Whether two lists of official messages hold the same objects. */
function sameOuts(a, b) {
  if (a === b) return true;
  if (a === undefined || b === undefined || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
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
    this.messages = freeze([]);
    this.srcMessages = null; // the mirror's messages array the view was built from
    this.srcToolCalls = null;
    this.outs = EMPTY; // per mirror message of srcMessages: its official messages
    this.starts = null; // per mirror message: where its official messages start in messages (made on first use)
    this.dirty = false; // a message must be rebuilt though the mirror did not change
    this.staleOuts = null; // index → official messages markContent invalidated (their last build)
    this.cache = new WeakMap(); // mirror message → { tcs: mirror tool calls, out: official messages }
    this.tcCache = new WeakMap(); // mirror tool call → official tool call
    // Assistant ids whose official message carries content: the mirror
    // writes "" both for "no content" (a slot a tool call created) and for
    // an empty text message, which the official shape tells apart.
    this.contentIds = new Set();
  }

  /**
   * Rebuilds from the mirror state; returns whether the view changed. A
   * mirror message at the index it had in the last build, with the same
   * identity (the mirror shares what an event did not touch), keeps its
   * official objects without a lookup. When no message was added or
   * removed (nearly every event: a token, a tool call's arguments) only the
   * touched messages are rebuilt and the arrays are copied and patched
   * (#patch); otherwise the whole view is assembled again.
   */
  update(st) {
    if (!this.dirty && st.messages === this.srcMessages && st.toolCalls === this.srcToolCalls) return false;
    if (!this.dirty && this.srcMessages !== null && st.messages.length === this.outs.length) {
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
    this.dirty = false;
    this.staleOuts = null;
    if (!changed) return false;
    const out = new Array(count);
    let k = 0;
    for (const o of outs) for (const x of o) out[k++] = x;
    this.messages = freeze(out);
    return true;
  }

  /**
   * update() when the mirror has as many messages as the view was built
   * from: the messages whose identity changed, or that hold a tool call
   * whose identity changed, are rebuilt; the arrays are copied once and
   * patched. Returns undefined, having changed nothing, when a rebuilt
   * message yields another number of official messages (or the tool calls
   * were added or removed): update() then assembles the view whole.
   */
  #patch(st) {
    const src = this.srcMessages;
    const prevTCs = this.srcToolCalls;
    let touchedTCs = null; // ids of the tool calls whose object changed
    if (st.toolCalls !== prevTCs) {
      if (prevTCs === null || st.toolCalls.length !== prevTCs.length) return undefined;
      for (let k = 0; k < prevTCs.length; k++) {
        const a = st.toolCalls[k], b = prevTCs[k];
        if (a === b) continue;
        touchedTCs ??= new Set();
        touchedTCs.add(a.id);
        touchedTCs.add(b.id);
      }
    }
    const msgs = st.messages;
    const n = msgs.length;
    let ctx = null, outs = null, out = null;
    for (let i = 0; i < n; i++) {
      const m = msgs[i];
      if (m === src[i] && (touchedTCs === null || m.toolCallIds === undefined || !m.toolCallIds.some((id) => touchedTCs.has(id)))) continue;
      const prev = this.outs[i];
      if (prev === undefined) return undefined;
      ctx ??= this.#context(st);
      const o = this.#outOf(ctx, i, m);
      if (sameOuts(o, prev)) continue;
      if (o.length !== prev.length) return undefined;
      if (outs === null) {
        outs = this.outs.slice();
        out = this.messages.slice();
        this.starts ??= startsOf(this.outs);
      }
      outs[i] = o;
      const at = this.starts[i];
      for (let j = 0; j < o.length; j++) out[at + j] = o[j];
    }
    this.srcMessages = st.messages;
    this.srcToolCalls = st.toolCalls;
    if (outs === null) return false;
    this.outs = outs;
    this.messages = freeze(out);
    return true;
  }

  /** What rebuilding messages of st needs: tool calls by id, the last build's official messages by id, both made on first use. */
  #context(st) {
    const view = this;
    return {
      st,
      sameTCs: st.toolCalls === this.srcToolCalls,
      prevSrc: this.srcMessages ?? EMPTY,
      prevOuts: this.outs,
      byId: null,
      prevById: null,
      tcOf(id) {
        if (this.byId === null) {
          this.byId = new Map();
          for (const t of st.toolCalls) if (!this.byId.has(t.id)) this.byId.set(t.id, t);
        }
        return this.byId.get(id);
      },
      // The official object a rebuilt message had: from the same index's last
      // build when there is one (no map of the whole conversation per event).
      prevOf(id, near) {
        if (near !== undefined) for (const x of near) if (x.id === id) return x;
        if (this.prevById === null) {
          this.prevById = new Map();
          for (const m of view.messages) if (!this.prevById.has(m.id)) this.prevById.set(m.id, m);
        }
        return this.prevById.get(id);
      },
    };
  }

  /** The official messages of mirror message m at index i: remembered, or built with the last build's objects kept where equal. */
  #outOf(ctx, i, m) {
    const ids = m.toolCallIds ?? EMPTY;
    const entry = this.cache.get(m);
    if (entry !== undefined && entry.tcs.length === ids.length && entry.tcs.every((t, j) => t === ctx.tcOf(ids[j]))) return entry.out;
    const tcs = ids.map((id) => ctx.tcOf(id));
    const near = m.id === ctx.prevSrc[i]?.id ? (ctx.prevOuts[i] ?? this.staleOuts?.get(i)) : undefined;
    const o = this.build(m, tcs).map((x) => {
      const prev = ctx.prevOf(x.id, near);
      return prev !== undefined && sameShallow(prev, x) ? prev : freeze(x);
    });
    // A streaming message is replaced by the next token: remembering it
    // would only feed the WeakMap (the rebuild finds its official objects
    // by index).
    if (m.streaming !== true) this.cache.set(m, { tcs, out: o });
    return o;
  }

  /** Makes the view the given official messages, one per mirror message of st. */
  adopt(st, messages) {
    this.srcMessages = st.messages;
    this.srcToolCalls = st.toolCalls;
    this.outs = messages.map((m) => [m]);
    this.starts = null;
    this.staleOuts = null;
    this.dirty = false;
    this.messages = messages;
  }

  officialTC(tc) {
    if (tc === undefined) return undefined;
    let o = this.tcCache.get(tc);
    if (o === undefined) this.tcCache.set(tc, (o = officialToolCall(tc)));
    return o;
  }

  build(m, tcs) {
    switch (m.role) {
      case 'activity':
        return [common({ id: m.id, role: 'activity', activityType: m.activityType, content: m.content }, { metadata: m.metadata, subagentRunId: m.subagentRunId })];
      case 'tool': {
        const o = { id: m.id, role: 'tool', content: m.content, toolCallId: m.toolCallId };
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
        if (m.toolCallIds !== undefined) o.toolCalls = tcs.filter((t) => t !== undefined).map((t) => this.officialTC(t));
        res.push(common(o, m));
        return res;
      }
      default: {
        const o = { id: m.id, role: m.role, content: m.content };
        if (m.name !== undefined) o.name = m.name;
        return [common(o, m)];
      }
    }
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

/** The reducer snapshot holding an official Message[] (the inverse of OfficialView.build). */
function reducerMessages(messages, current) {
  const running = new Map();
  for (const t of current.toolCalls) if (t.status === 'running') running.set(t.id, t);
  const msgs = [];
  const tcs = [];
  for (const m of messages) {
    const r = { id: m.id, role: m.role, content: m.content ?? '', streaming: false };
    switch (m.role) {
      case 'reasoning':
        r.role = 'assistant';
        r.content = '';
        r.reasoning = typeof m.content === 'string' ? m.content : '';
        break;
      case 'assistant':
        if (Array.isArray(m.toolCalls)) {
          r.toolCallIds = m.toolCalls.map((t) => t.id);
          for (const t of m.toolCalls) {
            let args = {};
            try { args = JSON.parse(t.function.arguments); } catch { /* {} as the reducer keeps */ }
            const live = running.get(t.id);
            const tc = {
              id: t.id, name: t.function?.name ?? '', parentMessageId: m.id,
              status: live ? 'running' : 'complete', argsText: t.function?.arguments ?? '',
              args: live ? live.args : args,
            };
            if (t.encryptedValue !== undefined) tc.encryptedValue = t.encryptedValue;
            if (t.metadata !== undefined) tc.metadata = t.metadata;
            tcs.push(tc);
          }
        }
        break;
      case 'tool':
        r.toolCallId = m.toolCallId;
        if (m.error !== undefined) r.error = m.error;
        break;
      case 'activity':
        r.activityType = m.activityType;
        break;
    }
    if (m.name !== undefined && m.role !== 'tool' && m.role !== 'reasoning' && m.role !== 'activity') r.name = m.name;
    if (m.encryptedValue !== undefined && m.role !== 'activity') r.encryptedValue = m.encryptedValue;
    if (m.metadata !== undefined) r.metadata = m.metadata;
    msgs.push(r);
  }
  return { msgs, tcs };
}

// ---------------------------------------------------------------------------
// Subscribers

const hookNames = new Map();
/** The subscriber hook of an event type: TEXT_MESSAGE_START → onTextMessageStartEvent. */
function hookName(type) {
  let name = hookNames.get(type);
  if (name === undefined) {
    name = 'on' + type.toLowerCase().replace(/(^|_)([a-z])/g, (_, __, c) => c.toUpperCase()) + 'Event';
    if (hookNames.size < 256) hookNames.set(type, name); // event types are a closed set; unknown ones stay bounded
  }
  return name;
}

/**
 * runSubscribersWithMutation without the clones (each subscriber awaited, as
 * there: an error of the stream lands between two subscribers as it does
 * with the official client): each subscriber sees the
 * latest values (a replacement one returned is adopted as is, frozen in
 * development); the first stopPropagation ends the round. A throwing
 * subscriber is logged and skipped, as the official client does.
 */
async function runSubscribers(subscribers, messages, state, exec) {
  let msgs = messages, st = state, mm = false, sm = false, stop;
  for (const s of subscribers) {
    try {
      const m = await exec(s, msgs, st);
      if (m === undefined || m === null) continue;
      if (m.messages !== undefined && m.messages !== msgs) { msgs = freeze(m.messages); mm = true; }
      if (m.state !== undefined && m.state !== st) { st = freeze(m.state); sm = true; }
      stop = m.stopPropagation;
      if (stop === true) break;
    } catch (err) {
      console.error('Subscriber error:', err);
    }
  }
  if (!mm && !sm && stop === undefined) return NO_MUTATION; // the usual round: nothing returned
  return { ...(mm ? { messages: msgs } : {}), ...(sm ? { state: st } : {}), ...(stop !== undefined ? { stopPropagation: stop } : {}) };
}
const NO_MUTATION = Object.freeze({});

function toolCallOf(messages, id) {
  for (const m of messages) {
    const tcs = m.toolCalls;
    if (tcs === undefined) continue;
    for (const t of tcs) if (t.id === id) return t;
  }
  return undefined;
}

function messageOf(messages, id) {
  for (const m of messages) if (m.id === id) return m;
  return undefined;
}

export { DEV, deepFreeze, freeze, EMPTY, officialToolCall, common, sameShallow, OfficialView, reducerMessages, hookName, runSubscribers, toolCallOf, messageOf };
