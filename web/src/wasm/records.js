// What crosses the bridge: events and chunks as the wasm takes them, and
// change records that carry a diagnostic (as errors, or made up here for
// input that never reaches the wasm).

export function diagnosticError(record) {
  const d = record.diagnostics?.[0] ?? { code: 'error', message: 'unknown error' };
  const err = new Error(`agui reducer: ${d.message}`);
  err.code = d.code;
  err.record = record;
  return err;
}

/** Event (object, JSON text or bytes) → what Core.apply takes. */
/**
 * A lone UTF-16 surrogate cannot cross TextEncoder (it becomes U+FFFD). In
 * event text it can only sit inside a JSON string, where its \\u escape
 * means the same to JSON.parse: write it so.
 */
const LONE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
export function escapeLone(s) {
  if (s.isWellFormed ? s.isWellFormed() : !LONE.test(s)) return s;
  LONE.lastIndex = 0;
  return s.replace(LONE, (c) => '\\u' + c.charCodeAt(0).toString(16));
}

/** True when s ends with a high surrogate that may pair with the next chunk. */
export function endsHigh(s) {
  const c = s.length > 0 ? s.charCodeAt(s.length - 1) : 0;
  return c >= 0xd800 && c <= 0xdbff;
}

const wellFormed = typeof String.prototype.isWellFormed === 'function'
  ? (s) => s.isWellFormed()
  : (s) => { LONE.lastIndex = 0; return !LONE.test(s); };

/**
 * The kind of a streamed token Core.applyToken takes by its fields: 1
 * TEXT_MESSAGE_CONTENT, 2 REASONING_MESSAGE_CONTENT, 3 TOOL_CALL_ARGS, for
 * a plain object whose JSON text is exactly {type, messageId (toolCallId),
 * delta}, all strings without lone surrogates; else 0 (the event goes as
 * JSON text).
 */
export function tokenKind(event) {
  if (typeof event !== 'object' || event === null) return 0;
  let kind, id;
  switch (event.type) {
    case 'TEXT_MESSAGE_CONTENT': kind = 1; id = event.messageId; break;
    case 'REASONING_MESSAGE_CONTENT': kind = 2; id = event.messageId; break;
    case 'TOOL_CALL_ARGS': kind = 3; id = event.toolCallId; break;
    default: return 0;
  }
  const delta = event.delta;
  if (typeof id !== 'string' || typeof delta !== 'string' || Object.getPrototypeOf(event) !== Object.prototype) return 0;
  let n = 0;
  for (const k in event) if (event[k] !== undefined) n++; // members JSON.stringify writes
  return n === 3 && wellFormed(delta) && wellFormed(id) ? kind : 0;
}

// The JSON text of a streamed token as JSON.stringify writes it (and most
// agents send it): exactly {"type":…,"<id key>":"…","delta":"…"}. One
// RegExp test recognises the three heads (String.prototype.startsWith
// costs several times more in V8); the characters at 9 and 10 then tell
// which matched.
const TOKEN_HEAD = /^\{"type":"(?:TEXT_MESSAGE_CONTENT","messageId|REASONING_MESSAGE_CONTENT","messageId|TOOL_CALL_ARGS","toolCallId)":"/;
// The same through the delta's opening quote, for an id with nothing to
// decode (no backslash, control character or surrogate); sticky: lastIndex
// says where the delta starts.
const TOKEN_PLAIN_ID = /\{"type":"(?:TEXT_MESSAGE_CONTENT","messageId|REASONING_MESSAGE_CONTENT","messageId|TOOL_CALL_ARGS","toolCallId)":"[^"\\\u0000-\u001f\ud800-\udfff]*","delta":"/y;
const TEXT_ID_AT = '{"type":"TEXT_MESSAGE_CONTENT","messageId":"'.length;
const REASONING_ID_AT = '{"type":"REASONING_MESSAGE_CONTENT","messageId":"'.length;
const TOOL_ID_AT = '{"type":"TOOL_CALL_ARGS","toolCallId":"'.length;
const DELTA_KEY = '","delta":"';
// What makes a JSON string's content (between its quotes) differ from its
// value, or not a string's content: a backslash, a control character, a
// quote.
const SPECIAL = /[\u0000-\u001f\\"]/;

/** A JSON string's content as its value, or null when it is not one JSON takes or has a lone surrogate. */
function jsonString(raw) {
  let s = raw;
  if (SPECIAL.test(raw)) {
    try { s = JSON.parse('"' + raw + '"'); } catch { return null; }
  }
  return wellFormed(s) ? s : null;
}

/** The character the JSON escape of e (the code after its backslash) stands for; null for \u escapes (JSON.parse reads those) and invalid ones. */
function escaped(e) {
  switch (e) {
    case 34: return '"';
    case 92: return '\\';
    case 47: return '/';
    case 110: return '\n';
    case 116: return '\t';
    case 114: return '\r';
    case 98: return '\b';
    case 102: return '\f';
    default: return null;
  }
}

/**
 * The value of the JSON string content text[from, end) when it is one JSON
 * takes and well formed (no lone surrogate), else null. One pass over a
 * token's few characters instead of a RegExp, JSON.parse and isWellFormed:
 * it finds what JSON would refuse (an unescaped quote or control character)
 * and lone surrogates, and undoes the common escapes (a tool call's
 * arguments are JSON: their quotes come escaped); \u escapes and anything
 * else go to jsonString.
 */
function stringAt(text, from, end) {
  let out = '';
  let last = from; // text[last, i) is not in out yet
  for (let i = from; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 92) {
      const ch = i + 1 < end ? escaped(text.charCodeAt(i + 1)) : null;
      if (ch === null) return jsonString(text.slice(from, end));
      out += text.slice(last, i) + ch;
      i++;
      last = i + 1;
    } else if (c < 0x20 || c === 34) {
      return null;
    } else if (c >= 0xd800 && c <= 0xdfff) {
      // A high surrogate followed by a low one is a pair; anything else is lone.
      if (c >= 0xdc00 || i + 1 >= end) return null;
      const d = text.charCodeAt(i + 1);
      if (d < 0xdc00 || d > 0xdfff) return null;
      i++;
    }
  }
  return last === from ? text.slice(from, end) : out + text.slice(last, end);
}

// What tokenOfText returns: one object, rewritten by every call (read it at once).
const TOKEN = { kind: 0, id: '', delta: '' };
// The last id with escapes read, kept: a message's tokens repeat it (its raw text has no quote).
let lastRawId = '';
let lastId = '';

/**
 * A streamed token given as JSON text, by its fields, for Core.applyToken:
 * {kind, id, delta} (one object, rewritten by the next call) when text is exactly such an event in the form
 * JSON.stringify writes (no other member, no whitespace), its strings
 * valid JSON without lone surrogates; else null (the text goes to the
 * wasm's JSON parser, which also reports what is wrong with it). The
 * field-wise path the drop-in and apply(object) take, for apply(text).
 */
export function tokenOfText(text) {
  if (typeof text !== 'string' || text.length < 40 || text.charCodeAt(text.length - 1) !== 125 || text.charCodeAt(text.length - 2) !== 34) return null;
  let kind, p, id, from;
  TOKEN_PLAIN_ID.lastIndex = 0;
  if (TOKEN_PLAIN_ID.test(text)) {
    // The common form, its id its own value: the match ends where the delta starts.
    from = TOKEN_PLAIN_ID.lastIndex;
    if (text.charCodeAt(9) === 82) { kind = 2; p = REASONING_ID_AT; } // R
    else if (text.charCodeAt(10) === 69) { kind = 1; p = TEXT_ID_AT; } // TE
    else { kind = 3; p = TOOL_ID_AT; } // TO
    id = text.slice(p, from - DELTA_KEY.length);
  } else {
    if (!TOKEN_HEAD.test(text)) return null;
    if (text.charCodeAt(9) === 82) { kind = 2; p = REASONING_ID_AT; }
    else if (text.charCodeAt(10) === 69) { kind = 1; p = TEXT_ID_AT; }
    else { kind = 3; p = TOOL_ID_AT; }
    // The id up to its first quote (an escaped one in it: the text goes to
    // the wasm), decoded once for the tokens that repeat it. (lastIndexOf(s,
    // i) === i: s at i, compared in place.)
    id = lastId;
    let idEnd = p + lastRawId.length;
    if (text.charCodeAt(idEnd) !== 34 || text.lastIndexOf(lastRawId, p) !== p) {
      idEnd = text.indexOf('"', p);
      if (idEnd === -1) return null;
      const rawId = text.slice(p, idEnd);
      id = jsonString(rawId);
      if (id === null) return null;
      lastRawId = rawId;
      lastId = id;
    }
    if (text.lastIndexOf(DELTA_KEY, idEnd) !== idEnd) return null;
    from = idEnd + DELTA_KEY.length;
  }
  // The delta up to the closing "}: a quote left unescaped in it is not a
  // string's content (stringAt).
  const delta = stringAt(text, from, text.length - 2);
  if (delta === null) return null;
  TOKEN.kind = kind;
  TOKEN.id = id;
  TOKEN.delta = delta;
  return TOKEN;
}

export function eventData(event) {
  if (typeof event === 'string') return escapeLone(event);
  if (event instanceof Uint8Array) return event;
  if (event instanceof ArrayBuffer) return new Uint8Array(event);
  return JSON.stringify(event);
}

export function chunkData(chunk) {
  if (typeof chunk === 'string' || chunk instanceof Uint8Array) return chunk;
  if (chunk instanceof ArrayBuffer) return new Uint8Array(chunk);
  if (ArrayBuffer.isView(chunk)) return new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  throw new TypeError('agui reducer: feed() takes a string or bytes (Uint8Array, ArrayBuffer)');
}

/** postMessage clones a view's whole buffer: send only the viewed bytes. */
export function compactBytes(v) {
  return typeof v !== 'string' && v.byteLength !== v.buffer.byteLength ? v.slice() : v;
}

export function badEventRecord(err) {
  return { diagnostics: [{ code: 'bad_event', level: 'error', message: `event is not JSON-serialisable: ${err.message}` }] };
}

/** apply(event, {id}) with an id no SSE frame can carry: refused before the event is applied. */
export function badEventIdRecord() {
  return { diagnostics: [{ code: 'bad_event', level: 'error', message: 'event id must not contain NUL, CR or LF' }] };
}

export function badSnapshotRecord(err) {
  return { diagnostics: [{ code: 'bad_snapshot', level: 'error', message: `snapshot is not JSON-serialisable: ${err.message}` }] };
}

export function badArgumentRecord(what, err) {
  return { diagnostics: [{ code: 'bad_argument', level: 'error', message: `${what}: the value is not JSON-serialisable: ${err.message}` }] };
}
