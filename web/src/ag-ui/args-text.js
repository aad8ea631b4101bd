// The argument text of streaming tool calls as the official view gives it
// (function.arguments), cheap to read while it streams.
//
// The mirror appends each TOOL_CALL_ARGS delta to the tool call's argsText,
// a string V8 keeps as a rope (a ConsString): appending costs O(1), but the
// first read of its characters (slice(-64), charCodeAt, a comparison)
// flattens it, a copy of the whole text, and the next delta makes a rope
// again: a reader on every event copies O(length so far) per event. Here the
// official text of a streaming call is a prefix of one flat text (a
// SlicedString in V8: made and read in O(1)), built once for the deltas of
// that call the run has queued already (the rest of the network read the
// event came in): one copy per call per read instead of one per event.
//
// The text given equals the mirror's: it is used only when the mirror's new
// text is the last one plus exactly the event's delta in length (the reducer
// appends deltas as they come), and the flat text is checked to continue with
// that delta; anything else (a subscriber's replacement, a snapshot, a tool
// call changed otherwise) takes the mirror's text as it is.

/** Tool call id → { src: the mirror's text last seen, text: the official text given for it, back: the flat text text is a prefix of, or null }. */
export class ArgsTexts {
  constructor() {
    this.byId = new Map();
    this.id = null; // the tool call the event being folded appends to
    this.delta = '';
    this.queue = null; // the events of the run not yet folded (with-reducer.js's queue)
  }

  /** The event being folded appends delta to tool call id's arguments; queue: the run's events after it. */
  expect(id, delta, queue) {
    this.id = id;
    this.delta = delta;
    this.queue = queue;
  }

  /** The fold of the event expect() named is over. */
  done() {
    this.id = null;
    this.delta = '';
    this.queue = null;
  }

  /** The official arguments text of mirror tool call tc (equal to tc.argsText). */
  of(tc) {
    const id = tc.id;
    const t = tc.argsText;
    if (typeof t !== 'string') return t;
    let e = this.byId.get(id);
    if (e !== undefined && e.src === t) {
      // Unchanged (lengths differ for nearly every other string: no scan).
      if (tc.status !== 'running') this.byId.delete(id);
      return e.text;
    }
    const running = tc.status === 'running';
    if (e !== undefined && this.id === id && t.length === e.src.length + this.delta.length && this.delta.length > 0) {
      const at = e.src.length;
      const len = t.length;
      if (e.back === null || len > e.back.length || !e.back.startsWith(this.delta, at)) e.back = this.#flat(e.text, id);
      e.text = len === e.back.length ? e.back : e.back.slice(0, len);
      e.src = t;
      if (!running) this.byId.delete(id);
      return e.text;
    }
    if (!running) {
      if (e !== undefined) this.byId.delete(id);
      return t;
    }
    if (e === undefined) this.byId.set(id, (e = { src: t, text: t, back: null }));
    else {
      e.src = e.text = t;
      e.back = null;
    }
    return t;
  }

  /** One flat text: text, the expected delta, and the deltas for id the queue holds, in order. */
  #flat(text, id) {
    let s = text + this.delta;
    const q = this.queue;
    if (q !== null) {
      for (let i = 0; i < q.length; i++) {
        const ev = q[i];
        if (ev !== null && typeof ev === 'object' && ev.type === 'TOOL_CALL_ARGS' && ev.toolCallId === id && typeof ev.delta === 'string') s += ev.delta;
      }
    }
    flatten(s);
    return s;
  }

  clear() {
    this.byId.clear();
    this.done();
  }
}

/** Makes V8 flatten a rope in place (reading a character does), once, here. */
function flatten(s) {
  if (s.length > 0) s.charCodeAt(0);
}
