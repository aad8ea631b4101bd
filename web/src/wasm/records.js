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
