// What a reducer's call sends to the wasm reducer, whichever side of a
// worker boundary the wasm is on: the argument text of each method, the
// change record of an argument that cannot be sent (committed instead of the
// call: an error, nothing changed), the surrogate carry of string chunks, and
// resume()'s decision. The same-thread reducer (reducer.js) hands what these
// make to the wasm directly; a worker reducer (../worker/host.js) posts it to
// its worker (../worker/serve.js). Neither encodes an argument itself.

import { eventData, escapeLone, endsHigh, badEventRecord, badEventIdRecord, badSnapshotRecord, badArgumentRecord } from '../wasm/records.js';
import { nothingToResume } from './transport.js';
import { badCursor } from './resume.js';

/** The argument text of the calls whose arguments always encode (or throw, as JSON.stringify does). */
export const args = {
  addUserMessage: (content, id) => JSON.stringify(id == null ? [content] : [content, id]),
  addToolResult: (toolCallId, content) => JSON.stringify([toolCallId, typeof content === 'string' ? content : JSON.stringify(content)]),
  fail: (message, code) => JSON.stringify(code == null ? [String(message)] : [String(message), String(code)]),
  runInput: (options) => JSON.stringify(options ?? {}),
  setTools: (tools) => {
    if (!Array.isArray(tools)) throw new TypeError('agui reducer: setTools takes an array of tools ({name, parameters})');
    return JSON.stringify(tools);
  },
};

/**
 * The tools of a run's input (a RunAgentInput object or its JSON text) as
 * JSON text, or null: run() hands them to the reducer so that their schemas
 * validate the run's tool-call arguments.
 */
export function inputTools(input) {
  try {
    const tools = (typeof input === 'string' ? JSON.parse(input) : input)?.tools;
    return Array.isArray(tools) && tools.length > 0 ? JSON.stringify(tools) : null;
  } catch {
    return null; // not JSON, or not encodable: the request will say so
  }
}

/**
 * apply(event, frame)'s arguments: {data, name, id} (id undefined when the
 * frame has none), or {record, name, id} when the event or its id cannot be
 * sent.
 */
export function eventArgs(event, frame) {
  const name = typeof frame === 'string' ? frame : frame?.event ?? '';
  const id = typeof frame === 'string' || frame?.id == null ? undefined : String(frame.id);
  if (id !== undefined && badCursor(id)) return { record: badEventIdRecord(), name, id }; // an error: the event is not applied either
  try {
    return { data: eventData(event), name, id };
  } catch (err) {
    return { record: badEventRecord(err), name, id };
  }
}

/** setState(value) and setMessages(value): {text}, or {record} for a value JSON cannot encode. */
export function valueArgs(what, value) {
  try {
    return { text: JSON.stringify([value ?? null]) };
  } catch (err) { // cyclic, BigInt
    return { record: badArgumentRecord(what, err) };
  }
}

/**
 * restore(snapshot): {text} (JSON text, or its UTF-8 bytes, passed on as
 * they are: a fetched snapshot need not be decoded and encoded again), or
 * {record} for a snapshot JSON cannot encode.
 */
export function snapshotArgs(snapshot) {
  if (typeof snapshot === 'string' || snapshot instanceof Uint8Array) return { text: snapshot };
  try {
    return { text: JSON.stringify(snapshot) };
  } catch (err) { // cyclic, BigInt, nested past the JS stack
    return { record: badSnapshotRecord(err) };
  }
}

/**
 * The surrogate carry of feed(): a string chunk may end inside a surrogate
 * pair, so its high half waits for the next chunk and the pair reaches the
 * reducer whole; a lone half goes escaped (UTF-8 cannot carry it).
 */
export class SurrogateCarry {
  #high = '';

  /** The text of a string chunk to send now. */
  take(text) {
    let data = this.#high + text;
    this.#high = '';
    if (endsHigh(data)) {
      this.#high = data.slice(-1);
      data = data.slice(0, -1);
    }
    return escapeLone(data);
  }

  /** The high half held back, escaped, to send alone (before bytes, or at the stream's end); '' when none. */
  flush() {
    if (this.#high === '') return '';
    const lone = escapeLone(this.#high);
    this.#high = '';
    return lone;
  }
}

/**
 * resume(url, input, options) once the reducer's cursor is known: settles
 * without a request when there is nothing to continue, else runs from the
 * cursor, with the input of the run the state holds unless one is given.
 * runInput may answer a value or a promise of one.
 */
export function resumeFrom(reducer, { id, running }, url, input, options) {
  if (!id || !running) return nothingToResume(reducer, running, id);
  const go = (body) => reducer.run(url, body, { ...options, lastEventId: id });
  if (input != null) return go(input);
  const { threadId, runId } = reducer.state;
  const made = reducer.runInput(runId ? { threadId, runId } : {});
  return typeof made?.then === 'function' ? made.then(go) : go(made);
}

/** restore()'s argument as its observers see it: text (bytes decoded). */
export function snapshotArg(text) {
  return typeof text === 'string' ? text : new TextDecoder().decode(text);
}
