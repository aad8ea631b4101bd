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
export function eventData(event) {
  if (typeof event === 'string' || event instanceof Uint8Array) return event;
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

export function badSnapshotRecord(err) {
  return { diagnostics: [{ code: 'bad_snapshot', level: 'error', message: `snapshot is not JSON-serialisable: ${err.message}` }] };
}
