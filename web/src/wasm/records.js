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
// agents send it): exactly {"type":…,"<id key>":"…","delta":"…"}.
const TOKEN_PREFIXES = [
  ['{"type":"TEXT_MESSAGE_CONTENT","messageId":"', 1],
  ['{"type":"TOOL_CALL_ARGS","toolCallId":"', 3],
  ['{"type":"REASONING_MESSAGE_CONTENT","messageId":"', 2],
];
// What makes a JSON string's content (between its quotes) differ from its
// value, or not a string's content: a backslash, a control character, a
// quote.
const SPECIAL = /[\u0000-\u001f\\"]/;

/** A JSON string's content as its value, or null when it is not one JSON takes. */
function jsonString(raw) {
  if (!SPECIAL.test(raw)) return raw;
  try { return JSON.parse('"' + raw + '"'); } catch { return null; }
}

// What tokenOfText returns: one object, rewritten by every call (read it at once).
const TOKEN = { kind: 0, id: '', delta: '' };
// The last id read, kept: a message's tokens repeat it.
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
  let kind = 0, p = 0;
  for (let i = 0; i < TOKEN_PREFIXES.length; i++) {
    if (text.startsWith(TOKEN_PREFIXES[i][0])) {
      kind = TOKEN_PREFIXES[i][1];
      p = TOKEN_PREFIXES[i][0].length;
      break;
    }
  }
  if (kind === 0) return null;
  // The id up to its first quote (an escaped one in it: the text goes to
  // the wasm), the delta up to the closing "}: a quote left unescaped in
  // either is not a string's content (jsonString).
  const idEnd = text.indexOf('"', p);
  if (idEnd === -1 || !text.startsWith('","delta":"', idEnd)) return null;
  const from = idEnd + 11;
  const rawId = text.slice(p, idEnd);
  let id = lastId;
  if (rawId !== lastRawId) {
    id = jsonString(rawId);
    if (id === null || !wellFormed(id)) return null;
    lastRawId = rawId;
    lastId = id;
  }
  const delta = jsonString(text.slice(from, text.length - 2));
  if (delta === null || !wellFormed(delta)) return null;
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
