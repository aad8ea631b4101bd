// Recordings: what the inspector saw, as JSON Lines, and the files it
// reads back (a recording, a plain .jsonl of events, an SSE capture).
//
// A recording starts with a header line, then one line per entry:
//   {"aguiRecording":1,"created":"2026-01-01T00:00:00.000Z"}
//   {"t":12.5,"id":"7","event":{"type":"TEXT_MESSAGE_CONTENT",…}}
//   {"t":13,"data":"not JSON, or JSON written otherwise"}
//   {"t":14,"action":"addUserMessage","args":["Hi","user-1"]}
//   {"t":20,"endStream":true}
//   {"t":21,"reconnect":{"reconnects":1,…}}
// t is in milliseconds from the start; "id" and "name" are the SSE id and
// event fields; "fed": true marks a frame that came in an SSE body (a
// resent id is skipped, as feed() skips it). An event is written as its
// object when JSON.stringify gives back its text exactly, else as "data":
// reading a recording and writing it again gives the same bytes.

import { FrameParser } from './sse.js';

export const RECORDING_VERSION = 1;

/** The line of one entry. */
export function entryLine(e) {
  const o = { t: e.t };
  if (e.kind === 'event') {
    if (e.name) o.name = e.name;
    if (e.id !== undefined) o.id = e.id;
    if (e.fed) o.fed = true;
    let obj;
    try { obj = JSON.parse(e.data); } catch { obj = undefined; }
    if (obj !== undefined && obj !== null && typeof obj === 'object' && JSON.stringify(obj) === e.data) o.event = obj;
    else o.data = e.data;
  } else if (e.kind === 'action') {
    o.action = e.name;
    o.args = e.args ?? [];
    if (e.note) o.note = e.note;
  } else if (e.kind === 'end') {
    o.endStream = true;
  } else if (e.kind === 'reconnect') {
    o.reconnect = e.info ?? {};
  }
  return JSON.stringify(o);
}

/** A whole recording: the header and the entries, each line ending in \n. */
export function toRecording(entries, created = new Date().toISOString()) {
  const lines = [JSON.stringify({ aguiRecording: RECORDING_VERSION, created })];
  for (const e of entries) lines.push(entryLine(e));
  return lines.join('\n') + '\n';
}

/** Events from..to (inclusive) as a test fixture: one event per line, as testdata/streams holds them. */
export function toFixture(entries, from, to) {
  const out = [];
  for (let i = Math.max(0, from); i <= Math.min(to, entries.length - 1); i++) {
    if (entries[i].kind === 'event' && !entries[i].skipped) out.push(entries[i].data);
  }
  return out.length ? out.join('\n') + '\n' : '';
}

/** One recording line → the entry fields Session.addEntry takes, or null. */
function lineEntry(o) {
  if (o === null || typeof o !== 'object' || Array.isArray(o)) return null;
  const t = typeof o.t === 'number' ? o.t : 0;
  if ('event' in o || 'data' in o) {
    return {
      kind: 'event', t, name: typeof o.name === 'string' ? o.name : '',
      id: typeof o.id === 'string' ? o.id : undefined, fed: o.fed === true,
      data: 'event' in o ? JSON.stringify(o.event) : String(o.data),
    };
  }
  if (typeof o.action === 'string') {
    return { kind: 'action', t, name: o.action, args: Array.isArray(o.args) ? o.args : [], ...(typeof o.note === 'string' ? { note: o.note } : {}) };
  }
  if (o.endStream === true) return { kind: 'end', t };
  if ('reconnect' in o) return { kind: 'reconnect', t, info: o.reconnect };
  return null;
}

/**
 * Reads a file's text: a recording (its header first), a .jsonl of events
 * (one event per line), or an SSE capture (data: lines). Returns
 * {format: 'recording' | 'jsonl' | 'sse', created?, entries}.
 */
export function parseRecording(text) {
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const first = text.match(/^[ \t]*\S.*$/m)?.[0]?.trim() ?? '';
  let head = null;
  if (first.startsWith('{')) { try { head = JSON.parse(first); } catch { head = null; } }
  const lines = text.split(/\r\n|\n|\r/);
  if (head !== null && typeof head === 'object' && head.aguiRecording !== undefined) {
    const entries = [];
    let seenHead = false;
    for (const line of lines) {
      if (line.trim() === '') continue;
      if (!seenHead) { seenHead = true; continue; }
      let o;
      try { o = JSON.parse(line); } catch { continue; }
      const e = lineEntry(o);
      if (e !== null) entries.push(e);
    }
    return { format: 'recording', created: head.created, entries };
  }
  if (first.startsWith('{') || first.startsWith('[')) {
    const entries = lines.filter((l) => l.trim() !== '').map((l) => ({ kind: 'event', t: 0, name: '', data: l.trim() }));
    return { format: 'jsonl', entries };
  }
  const entries = [];
  const p = new FrameParser();
  p.push(text.endsWith('\n\n') ? text : text + '\n\n', (f) => entries.push({ kind: 'event', t: 0, name: f.name, id: f.id, fed: true, data: f.data }));
  return { format: 'sse', entries };
}
