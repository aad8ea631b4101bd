// The wasm bridge: calls the //go:wasmexport functions of one loaded module,
// passing arguments through a Go-owned input buffer and reading JSON text
// results from a Go-owned output buffer (wasm/bridge.go describes the
// calling convention). Many reducers (handles) per module.

import { diagnosticError } from './records.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export class Core {
  constructor(go, instance, exitCode) {
    this.go = go;
    this.x = instance.exports;
    this.exitCode = exitCode;
    this.buffer = null;
    this.u8 = null;
    this.inView = null; // the input buffer's bytes, while memory does not grow
    this.inPtr = this.x.inPtr() >>> 0;
    this.inCap = this.x.inCap();
    this.compact = typeof this.x.applyCompact === 'function';
    this.tokens = typeof this.x.applyToken === 'function';
    this.live = 0; // handles created and not released
    // applyCompact's single text append, when it returned COMPACT
    this.appendKey = '';
    this.appendIndex = 0;
    this.appendText = '';
    // applyToken's id, still at the start of the input buffer, and the view
    // after it: the tokens of one message repeat its id (null once
    // another call writes the buffer).
    this.tokenId = null;
    this.tokenIdLen = 0;
    this.tokenView = null;
    // Views of the input buffer after an id of each length (below 64 bytes):
    // interleaved tool calls switch ids at every token.
    this.tokenViews = [];
    // A record of appends (APPENDS): appendCount ops, op k appending
    // appendTexts[k] at appendPaths[k], which is messages[appendIndexes[k]]
    // [appendKeys[k]] (appendKinds[k] 0) or the string at the segments
    // appendKeys[k] below toolCalls[appendIndexes[k]] (appendKinds[k] 1).
    this.appendCount = 0;
    this.appendKinds = [];
    this.appendIndexes = [];
    this.appendKeys = [];
    this.appendPaths = [];
    this.appendTexts = [];
    // Per tool call index: its paths and the last args pointer seen.
    this.toolPaths = [];
  }

  get exited() { return this.go.exited === true; }

  check() {
    if (this.go.exited) {
      const code = this.exitCode();
      throw new Error('agui reducer: the Go runtime has exited'
        + (code == null ? '' : ` (exit code ${code})`)
        + '; this module cannot reduce any more: load it again with loadReducer()');
    }
  }

  /** The whole wasm memory; re-created when memory grows (which detaches views). */
  view() {
    // Growing the memory detaches the old buffer, and a view of a detached
    // buffer has length 0: cheaper to test than reading mem.buffer (a
    // getter into the engine) on every call.
    if (this.u8 === null || this.u8.length === 0) {
      this.buffer = this.x.mem.buffer;
      this.u8 = new Uint8Array(this.buffer);
      this.inView = null;
      this.tokenViews = [];
    }
    return this.u8;
  }

  grow(n) {
    this.tokenId = null;
    this.inPtr = this.x.growIn(n) >>> 0;
    this.check();
    this.inCap = this.x.inCap();
    this.inView = null;
    this.tokenViews = [];
  }

  /** The input buffer from offset off (a cached view for off 0). */
  input(off) {
    const u8 = this.view();
    if (off !== 0) return u8.subarray(this.inPtr + off, this.inPtr + this.inCap);
    return this.inView ??= u8.subarray(this.inPtr, this.inPtr + this.inCap);
  }

  /** Writes a string (as UTF-8) or bytes at offset off of the input buffer. */
  put(off, v) {
    if (off === 0) this.tokenId = null;
    if (typeof v === 'string') {
      if (off + v.length * 3 > this.inCap) {
        if (off + v.length <= this.inCap) { // ASCII-heavy text may still fit
          const r = encoder.encodeInto(v, this.input(off));
          if (r.read === v.length) return r.written;
        }
        this.grow(off + v.length * 3);
      }
      return encoder.encodeInto(v, this.input(off)).written;
    }
    if (off + v.byteLength > this.inCap) this.grow(off + v.byteLength);
    this.view().set(v, this.inPtr + off);
    return v.byteLength;
  }

  /** Decodes the result of a call that returned n; ok is false for n < 0. */
  result(n) {
    this.check();
    const len = n < 0 ? -n : n;
    const p = this.x.outPtr() >>> 0;
    return { ok: n >= 0, text: decodeText(this.view(), p, p + len) }; // ({} and other short records without TextDecoder)
  }

  create(optionsJSON) {
    this.check();
    const n = this.x.create(this.put(0, optionsJSON));
    this.check();
    if (n <= 0) throw diagnosticError(JSON.parse(this.result(n).text));
    this.live++;
    return n;
  }

  /** Frees handle h (dispose(), or a reducer garbage-collected without it). */
  release(h) {
    this.live--;
    if (!this.exited) this.call('dispose', h);
  }

  apply(h, data, name) {
    this.check();
    const nameLen = name ? this.put(0, name) : 0;
    return this.result(this.x.apply(h, nameLen, this.put(nameLen, data)));
  }

  /**
   * apply through the applyCompact export: returns COMPACT when the record
   * is a single text append (then in appendKey, appendIndex, appendText),
   * else what apply returns.
   */
  applyCompact(h, data, name) {
    if (!this.compact) return this.apply(h, data, name);
    this.check();
    const nameLen = name ? this.put(0, name) : 0;
    const n = this.x.applyCompact(h, nameLen, this.put(nameLen, data));
    if (n >= 6) {
      this.check();
      const p = this.x.outPtr() >>> 0;
      const u8 = this.view();
      if (u8[p] === 1) {
        this.appendKey = u8[p + 1] === 1 ? 'content' : 'reasoning';
        this.appendIndex = (u8[p + 2] | (u8[p + 3] << 8) | (u8[p + 4] << 16) | (u8[p + 5] << 24)) >>> 0;
        this.appendText = decodeText(u8, p + 6, p + n);
        return COMPACT;
      }
      if (u8[p] === 3) return this.#appends(u8, p, '');
    }
    return this.result(n);
  }

  /**
   * A streamed token by its fields (records.js tokenKind): kind, id and
   * delta, no JSON. Returns COMPACT when the record is the append of delta
   * itself (appendText is delta then) or another single text append, else
   * what apply returns.
   */
  applyToken(h, kind, id, delta) {
    this.check();
    let idLen = this.tokenIdLen;
    let deltaLen;
    // (A view detached by the memory's growth has length 0.)
    if (id !== this.tokenId || delta.length * 3 > this.tokenView.length) {
      idLen = this.put(0, id);
      let view = idLen < 64 ? this.tokenViews[idLen] : undefined;
      if (view !== undefined && view.length !== 0 && delta.length * 3 <= view.length) {
        deltaLen = encoder.encodeInto(delta, view).written;
      } else {
        deltaLen = this.put(idLen, delta); // may grow the buffer (and drop the views)
        view = this.input(idLen);
        if (idLen < 64) this.tokenViews[idLen] = view;
      }
      this.tokenId = id;
      this.tokenIdLen = idLen;
      this.tokenView = view;
    } else {
      deltaLen = putAscii(delta, this.tokenView);
      if (deltaLen < 0) deltaLen = encoder.encodeInto(delta, this.tokenView).written;
    }
    const n = this.x.applyToken(h, kind, idLen, deltaLen);
    if (n >= 6) {
      this.check();
      const p = this.x.outPtr() >>> 0;
      const u8 = this.view();
      const form = u8[p];
      if (form === 1 || form === 2) {
        this.appendKey = u8[p + 1] === 1 ? 'content' : 'reasoning';
        this.appendIndex = (u8[p + 2] | (u8[p + 3] << 8) | (u8[p + 4] << 16) | (u8[p + 5] << 24)) >>> 0;
        this.appendText = form === 2 ? delta : decodeText(u8, p + 6, p + n);
        return COMPACT;
      }
      if (form === 3) return this.#appends(u8, p, delta);
    }
    return this.result(n);
  }

  /** Reads a record of appends (wasm/bridge.go's 0x03 form) at p; delta: the token's. */
  #appends(u8, p, delta) {
    const n = u8[p + 1];
    const kinds = this.appendKinds;
    const indexes = this.appendIndexes;
    const keys = this.appendKeys;
    const paths = this.appendPaths;
    const texts = this.appendTexts;
    let q = p + 2;
    for (let k = 0; k < n; k++) {
      const target = u8[q];
      const index = (u8[q + 1] | (u8[q + 2] << 8) | (u8[q + 3] << 16) | (u8[q + 4] << 24)) >>> 0;
      q += 5;
      if (target <= 2) {
        const key = target === 1 ? 'content' : 'reasoning';
        kinds[k] = 0;
        keys[k] = key;
        paths[k] = `/messages/${index}/${key}`;
      } else {
        const tp = this.toolPaths[index] ??= new ToolPaths(index);
        kinds[k] = 1;
        if (target === 3) {
          keys[k] = ARGS_TEXT;
          paths[k] = tp.argsText;
        } else {
          const len = u8[q] | (u8[q + 1] << 8);
          q += 2;
          tp.pointer(u8, q, len);
          keys[k] = tp.segs;
          paths[k] = tp.path;
          q += len;
        }
      }
      indexes[k] = index;
      const len = (u8[q] | (u8[q + 1] << 8) | (u8[q + 2] << 16) | (u8[q + 3] << 24)) >>> 0;
      q += 4;
      if (len === 0xffffffff) {
        texts[k] = delta;
      } else {
        texts[k] = decodeText(u8, q, q + len);
        q += len;
      }
    }
    this.appendCount = n;
    return APPENDS;
  }

  /** Calls export fn(h) or, with arg (JSON text or bytes), fn(h, length). */
  call(fn, h, arg) {
    this.check();
    const n = arg === undefined ? this.x[fn](h) : this.x[fn](h, this.put(0, arg));
    return this.result(n);
  }

  /** Calls an export that returns a plain number. */
  number(fn, h) {
    this.check();
    const n = this.x[fn](h);
    this.check();
    return n;
  }
}

/** What Core.applyCompact returns for a single text append. */
export const COMPACT = Object.freeze({ ok: true, text: null });

/** What Core.applyCompact and applyToken return for a record of appends. */
export const APPENDS = Object.freeze({ ok: true, text: null });

const ARGS_TEXT = Object.freeze(['argsText']);

/**
 * The paths of a tool call's appends: its argsText's, and those of the last
 * pointer below its args (a streaming argument appends to one string at a
 * time), recognised by their bytes without decoding them.
 */
class ToolPaths {
  constructor(index) {
    this.base = `/toolCalls/${index}`;
    this.argsText = `${this.base}/argsText`;
    this.bytes = new Uint8Array(0);
    this.path = '';
    this.segs = null;
  }

  /** Makes path and segs those of the pointer in u8[at, at+len). */
  pointer(u8, at, len) {
    const b = this.bytes;
    if (b.length === len) {
      let i = 0;
      while (i < len && b[i] === u8[at + i]) i++;
      if (i === len) return;
    }
    this.bytes = u8.slice(at, at + len);
    const ptr = decoder.decode(this.bytes);
    this.path = `${this.base}/args${ptr}`;
    const segs = ptr.split('/');
    segs[0] = 'args';
    for (let i = 1; i < segs.length; i++) {
      const s = segs[i];
      if (s.indexOf('~') >= 0) segs[i] = s.replace(/~1/g, '/').replace(/~0/g, '~');
    }
    this.segs = Object.freeze(segs);
  }
}

/**
 * Writes s at the start of view when it is short ASCII text (a token's few
 * characters, most often) and returns its length, else -1 (maybe after
 * writing some of it): a loop costs less than a call into the encoder.
 */
function putAscii(s, view) {
  const n = s.length;
  if (n > 32) return -1;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x80) return -1;
    view[i] = c;
  }
  return n;
}

/** UTF-8 → string; short ASCII text without TextDecoder's fixed cost. */
function decodeText(u8, start, end) {
  if (end - start > 32) return decoder.decode(u8.subarray(start, end));
  let s = '';
  for (let i = start; i < end; i++) {
    const c = u8[i];
    if (c >= 0x80) return decoder.decode(u8.subarray(start, end));
    s += String.fromCharCode(c);
  }
  return s;
}
