// The argument text of streaming tool calls as the official view gives it
// (function.arguments), cheap to read while it streams.
//
// The mirror appends each TOOL_CALL_ARGS delta to the tool call's argsText,
// a string V8 keeps as a rope (a ConsString): appending costs O(1), but the
// first read of its characters (slice(-64), charCodeAt, a comparison)
// flattens it, a copy of the whole text, and the next delta makes a rope
// again: a reader on every event copied O(length so far) per event.
//
// Here a running call's function.arguments is read through a getter, and
// the text it gives is a prefix (a SlicedString in V8: made and read in
// O(1)) of one flat text, built on the first read for the text so far and
// the deltas for that call the run has queued already (the rest of the
// network read the event came in): a reader costs one copy per call per
// read instead of one per event, and a stream nobody reads costs no copy.
// A finished call's arguments are a plain string again.
//
// The text given equals the mirror's: versions are chained only while the
// mirror's new text is the last one plus exactly the event's delta in length
// (the reducer appends deltas as they come), and the flat text serves a
// version only as far as the deltas applied since it was built matched it;
// anything else (a subscriber's replacement, a snapshot, a tool call changed
// otherwise) starts a new chain from the mirror's text.

// How far a running call's text (and its parsed strings) in the mirror may
// grow as a rope before it is made flat in place: 4 KB, or a sixteenth of
// its length (a constant share of copying per character however long).
const FLAT_STEP = 4096;

/**
 * Makes the mirror's text of a running call, and the strings at the top of
 * its parsed arguments, flat in place (reading a character does). The
 * mirror appends one rope piece per delta, ~3.5 bytes held per character,
 * for the whole stream: pieces that a collection of the young generation
 * would promote to the old one, where they stay until a full collection.
 * Made flat every few kilobytes, the pieces mostly die young and the text
 * is held at a byte per character.
 */
function compact(text, args) {
  if (text.length > 0) text.charCodeAt(0);
  if (args === null || typeof args !== 'object' || Array.isArray(args)) return;
  for (const k in args) {
    const v = args[k];
    if (typeof v === 'string' && v.length > 0) v.charCodeAt(0);
  }
}

/** One chain of versions of a tool call's text, each the last plus a delta. */
class Chain {
  constructor(owner, id, src) {
    this.owner = owner;
    this.id = id;
    this.src = src; // the mirror's text of the latest version
    this.len = src.length;
    this.back = null; // a flat text the versions are prefixes of, as far as valid
    this.valid = 0;
    this.flatAt = 0; // the mirror's text's length when last made flat (compact)
  }

  /** The latest version grew by delta (the mirror's text is now src). */
  append(src, delta) {
    const at = this.len;
    this.src = src;
    this.len = src.length;
    // The flat text serves the new version too if it continues with delta.
    if (this.back !== null && this.valid === at && this.back.length >= this.len && this.back.startsWith(delta, at)) this.valid = this.len;
  }

  /** The text of the version of length len whose mirror text is src. */
  read(len, src) {
    if (this.back !== null && len <= this.valid) return len === this.back.length ? this.back : this.back.slice(0, len);
    if (len !== this.len) return src; // an older version, read late: the mirror's text as it is
    this.back = this.owner.ahead(this.id, src);
    this.valid = len;
    return len === this.back.length ? this.back : this.back.slice(0, len);
  }
}

/** One version of a running call's text: text() gives it (officialToolCall's getter). */
class Version {
  constructor(chain, src) {
    this.chain = chain;
    this.src = src;
  }

  text() { return this.chain.read(this.src.length, this.src); }
}

// A version is reached through a symbol property of an object a subscriber
// may hand to a deep reactive store: Vue's reactive() reads this flag and
// leaves the version (and the chain behind it) a plain object.
Version.prototype.__v_skip = true;

/** The official arguments of the running tool calls of one view, by id. */
export class ArgsTexts {
  constructor() {
    this.chains = new Map(); // tool call id → Chain
    this.id = null; // the tool call the event being folded appends to
    this.delta = '';
    this.queue = null; // the run's events not yet folded (with-reducer.js's queue)
  }

  /** The event being folded appends delta to tool call id's arguments. */
  expect(id, delta) {
    this.id = id;
    this.delta = delta;
  }

  /** The fold of the event expect() named is over. */
  done() {
    this.id = null;
    this.delta = '';
  }

  /**
   * The official arguments of mirror tool call tc: a string equal to
   * tc.argsText, or, while it runs, a Version whose text() gives it
   * (officialToolCall makes it a getter).
   */
  of(tc) {
    const id = tc.id;
    const t = tc.argsText;
    if (typeof t !== 'string') return t;
    const running = tc.status === 'running';
    let c = this.chains.get(id);
    if (c !== undefined && c.src !== t) {
      if (this.id === id && this.delta.length > 0 && t.length === c.len + this.delta.length) c.append(t, this.delta);
      else c = undefined; // not an append of the event's delta: a new chain
    }
    if (!running) {
      this.chains.delete(id);
      return c === undefined ? t : c.read(t.length, t);
    }
    if (c === undefined) this.chains.set(id, (c = new Chain(this, id, t)));
    if (t.length - c.flatAt >= Math.max(FLAT_STEP, c.flatAt >> 4)) {
      compact(t, tc.args);
      c.flatAt = t.length;
    }
    return new Version(c, t);
  }

  /** One flat text: src (tool call id's text) and the deltas for id the queue holds, in order. */
  ahead(id, src) {
    let s = src;
    const q = this.queue;
    if (q !== null) {
      for (let i = 0; i < q.length; i++) {
        const ev = q[i];
        if (ev !== null && typeof ev === 'object' && ev.type === 'TOOL_CALL_ARGS' && ev.toolCallId === id && typeof ev.delta === 'string') s += ev.delta;
      }
    }
    if (s.length > 0) s.charCodeAt(0); // flattened here, once (reading a character does)
    return s;
  }

  clear() {
    this.chains.clear();
    this.done();
  }
}
