// The inspector's detail views, built as DOM with text APIs only (model
// text is never parsed as HTML): the conversation and shared state at an
// entry, one entry, a diff's change tree, the swimlanes; and the
// formatting helpers the timeline's rows use.

import { h } from './dom.js';

export function fmtTime(ms) {
  if (!(ms >= 0)) return '';
  if (ms < 1000) return `${ms.toFixed(ms < 10 ? 1 : 0)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(2)} s`;
  const m = Math.floor(ms / 60_000);
  return `${m}:${((ms % 60_000) / 1000).toFixed(1).padStart(4, '0')}`;
}

export function fmtDur(ms) {
  if (ms === undefined || ms === null || Number.isNaN(ms)) return '';
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`;
}

export function fmtSize(n) {
  if (!n) return '';
  return n < 1024 ? `${n} B` : `${(n / 1024).toFixed(1)} K`;
}

export function idsOf(e) {
  if (e.kind === 'action') {
    const a = e.args ?? [];
    if (e.name === 'addToolResult') return String(a[0] ?? '');
    if (e.name === 'addUserMessage') return `${a[1] ?? ''} “${String(a[0] ?? '').slice(0, 40)}”`;
    if (e.note) return e.name === 'restore' ? (e.summary ??= restoredSummary(a[0])) : '';
    return '';
  }
  if (e.kind === 'reconnect') return `Last-Event-ID ${e.info?.lastEventId ?? ''}`;
  const parts = [];
  if (e.messageId) parts.push(e.messageId);
  if (e.toolCallId) parts.push(e.toolCallName ? `${e.toolCallName} ${e.toolCallId}` : e.toolCallId);
  if (e.stepName) parts.push(e.stepName);
  if (e.customName) parts.push(e.customName);
  if (e.entityId) parts.push(e.entityId);
  if (e.subagentRunId) parts.push(`⤷ ${e.subagentRunId}`);
  if (!parts.length && e.runId) parts.push(e.runId);
  if (e.id !== undefined) parts.push(`#${e.id}`);
  return parts.join(' · ');
}

// What a restored snapshot holds, in a few words (a note entry's ids column).
function restoredSummary(snapshot) {
  let s = snapshot;
  if (typeof s === 'string') { try { s = JSON.parse(s); } catch { return ''; } }
  const n = Array.isArray(s?.messages) ? s.messages.length : 0;
  const parts = [`${n} message${n === 1 ? '' : 's'}`];
  if (typeof s?.threadId === 'string' && s.threadId) parts.unshift(s.threadId);
  return parts.join(' · ');
}

export function pretty(v) {
  try { return JSON.stringify(v, null, 2) ?? 'undefined'; } catch { return String(v); }
}

export function short(v, n = 120) {
  const s = typeof v === 'string' ? JSON.stringify(v) : JSON.stringify(v) ?? 'undefined';
  return s.length > n ? `${s.slice(0, n)}…` : s;
}

/** A collapsible JSON tree (text nodes only). */
export function jsonTree(value, key, depth = 0) {
  const label = key === undefined ? null : h('span.k', { text: `${key}: ` });
  if (value === null || typeof value !== 'object') {
    const cls = typeof value === 'string' ? 's' : typeof value === 'number' ? 'n' : 'b';
    return h('div', {}, label, h(`span.${cls}`, { text: JSON.stringify(value) ?? 'undefined' }));
  }
  const entries = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
  const summary = Array.isArray(value) ? `[${entries.length}]` : `{${entries.length}}`;
  const d = h('details', depth < 2 ? { open: true } : {}, h('summary', {}, label, h('span', { text: summary })));
  let built = false;
  const build = () => {
    if (built) return;
    built = true;
    const body = h('div.body');
    for (const [k, v] of entries.slice(0, 500)) body.append(jsonTree(v, k, depth + 1));
    if (entries.length > 500) body.append(h('div.hint', { text: `… ${entries.length - 500} more` }));
    d.append(body);
  };
  if (d.open) build();
  d.addEventListener('toggle', build);
  return d;
}

/** The conversation at an entry: the latest `shown` messages, with a button for earlier ones. */
export function conversationView(st, shown, onEarlier) {
  if (!st) return h('div.empty', { text: 'No state yet.' });
  const box = h('div', { 'data-view': 'conversation' });
  box.append(h('dl.kv', {},
    h('dt', { text: 'status' }), h('dd', { 'data-field': 'status', text: `${st.status}${st.error ? ` · ${st.error.code ?? ''} ${st.error.message ?? ''}` : ''}` }),
    h('dt', { text: 'messages' }), h('dd', { text: String(st.messages?.length ?? 0) })));
  const tcs = new Map((st.toolCalls ?? []).map((t) => [t.id, t]));
  // The latest messages (a long conversation is not built whole on every step).
  const all = st.messages ?? [];
  const from = Math.max(0, all.length - shown);
  if (from > 0) {
    box.append(h('button', { type: 'button', 'data-action': 'earlier', text: `Show ${Math.min(from, 200)} earlier of ${from}`, onclick: onEarlier }));
  }
  for (const m of all.slice(from)) {
    const msg = h('div.msg', { 'data-role': m.role, 'data-id': m.id },
      h('div.msg-head', {}, h('span.role', { text: m.role }), h('span', { text: m.id }), m.streaming ? h('span.badge', { text: 'streaming' }) : null));
    if (typeof m.reasoning === 'string' && m.reasoning) msg.append(h('div.reasoning', { text: m.reasoning }));
    const c = typeof m.content === 'string' ? m.content : m.content == null ? '' : pretty(m.content);
    if (c) msg.append(h('div.msg-body', { text: c }));
    for (const id of m.toolCallIds ?? []) {
      const t = tcs.get(id);
      if (!t) continue;
      msg.append(h('div.tc', {},
        h('div.msg-head', {}, h('span.tc-name', { text: `ƒ ${t.name ?? ''}` }), h('span.badge', { text: t.status }),
          t.argsStatus === 'invalid' ? h('span.badge', { 'data-args': 'invalid', text: 'invalid arguments' }) : null, h('span', { text: t.id })),
        h('pre', { text: t.argsText ?? pretty(t.args) }),
        t.result !== undefined ? h('pre', { text: `→ ${typeof t.result === 'string' ? t.result : pretty(t.result)}` }) : null));
    }
    box.append(msg);
  }
  return box;
}

/** The state at an entry as JSON trees. */
export function stateView(st) {
  if (!st) return h('div.empty', { text: 'No state yet.' });
  const { messages, toolCalls, state, ...rest } = st;
  return h('div.jt', { 'data-view': 'state' },
    h('h4', { text: 'Shared state' }), jsonTree(state),
    h('h4', { text: 'Run' }), jsonTree(rest),
    h('h4', { text: `Messages (${messages?.length ?? 0}) and tool calls (${toolCalls?.length ?? 0})` }),
    jsonTree({ messages, toolCalls }, undefined, 2));
}

/** What an entry found wrong with tool calls' arguments (entry.argsInvalid), as lines of text. */
export function argsInvalidText(bad) {
  return bad.map((c) => `${c.first ? 'invalid arguments' : 'more argument errors'}: ${c.toolCallName || 'tool'} ${c.toolCallId}\n${c.errors.map((x) => `  ${x.keyword} at ${x.path || '(the arguments)'}: ${x.message}`).join('\n')}`).join('\n');
}

/** The argument errors an entry found (entry.argsInvalid): per call, each error's path, keyword and message. */
export function argsErrorsView(bad) {
  const box = h('div', { 'data-field': 'args-errors' });
  for (const c of bad) {
    const cut = c.errors.some((x) => x.keyword === 'truncated');
    box.append(h('div.args-call', {},
      h('span.tc-name', { text: `ƒ ${c.toolCallName || 'tool'}` }), ' ', h('span.hint', { text: c.toolCallId }), ' ',
      h('span.badge', { 'data-args': cut ? 'truncated' : 'invalid', text: cut ? 'arguments cut off here' : c.first ? 'made invalid here' : 'more errors here' })));
    const list = h('div.args-errors');
    for (const x of c.errors) {
      list.append(h('div.args-error', { 'data-keyword': x.keyword },
        h('code.path', { text: x.path || '(root)' }), h('span.kw', { text: x.keyword }), h('span.msg', { text: x.message })));
    }
    box.append(list);
  }
  return box;
}

/** One entry: its fields, data, diagnostics and change record. */
export function eventView(e) {
  if (!e) return h('div.empty', { text: 'No event selected.' });
  const box = h('div', { 'data-view': 'event' });
  const kv = h('dl.kv', {});
  const add = (k, v) => { if (v !== undefined && v !== '') kv.append(h('dt', { text: k }), h('dd', { text: String(v) })); };
  add('index', e.seq);
  add('time', fmtTime(e.t));
  add('kind', e.kind);
  add('note', e.note);
  add('type', e.type);
  add('SSE event', e.name && e.kind === 'event' ? e.name : undefined);
  add('SSE id', e.id);
  add('run', e.run);
  add('step', e.step);
  add('size', e.size ? `${e.size} bytes` : undefined);
  box.append(kv);
  // What the event found wrong with tool arguments, first: the reason it is marked.
  if (e.argsInvalid) box.append(h('h4', { text: 'Tool arguments' }), argsErrorsView(e.argsInvalid));
  if (e.kind === 'event') {
    let text = e.data;
    try { text = pretty(JSON.parse(e.data)); } catch { /* as sent */ }
    box.append(h('h4', { text: 'Event' }), h('pre', { 'data-field': 'data', text }));
  } else if (e.kind === 'action' && e.note) {
    // A conversation loaded from elsewhere: its events were not seen here; the state is the Conversation and State tabs'.
    box.append(h('h4', { text: `${e.name}()` }), h('p.hint', { 'data-field': 'note', text: `${e.note[0].toUpperCase()}${e.note.slice(1)}: the conversation as it stood then, restored in one step. The events that made it came before this page was opened; the Conversation and State tabs show where they left it.` }));
  } else if (e.kind === 'reconnect') {
    box.append(h('h4', { text: 'Reconnect' }), h('pre', { text: pretty(e.info) }));
  }
  if (e.diagnostics) {
    box.append(h('h4', { text: 'Diagnostics' }));
    for (const d of e.diagnostics) box.append(h('div.diag-line', { 'data-level': d.level, text: `${d.level} ${d.code}: ${d.message}` }));
  }
  const rec = e.record;
  box.append(h('h4', { text: `Change record (${rec?.ops?.length ?? 0} ops)` }));
  if (rec?.ops?.length) box.append(h('pre', { 'data-field': 'record', text: rec.ops.map((o) => `${o.op} ${o.path}${'value' in o ? ` ${short(o.value)}` : ''}`).join('\n') }));
  if (rec?.events?.length) box.append(h('h4', { text: 'Custom events' }), h('pre', { text: pretty(rec.events) }));
  return box;
}

/** A diff's change tree (diff.js changeTree) as nested lists. */
export function changesView(node) {
  const ul = h('ul.tree');
  for (const c of node.children.values()) {
    const li = h('li', {}, h('span.key', { text: c.key }));
    if (c.change) {
      const { op, before, after } = c.change;
      li.append(' ', h(`span.op-${op}`, { text: op }), ' ');
      if (op !== 'add') li.append(h('span.before', { text: short(before, 80) }), ' ');
      if (op !== 'remove') li.append(h('span', { text: `→ ${short(after, 160)}` }));
    }
    if (c.children.size) li.append(changesView(c));
    ul.append(li);
  }
  return ul;
}

/** The swimlanes of a session at an entry; select(seq) picks a span's first entry. */
export function lanesView(s, at, select) {
    const spans = s.lanes.spans;
  if (spans.length === 0) return h('div.empty', { text: 'No runs, steps, subagents or tool calls yet.' });
  const entries = s.entries;
  const last = entries[entries.length - 1];
  // The time axis; when every entry has the same time (a .jsonl without timings), the event index.
  const byTime = last.t > entries[0].t;
  const x = (sp, k) => (byTime ? sp[k] : sp[`${k}Seq`]);
  const t0 = byTime ? entries[0].t : 0;
  const t1 = byTime ? last.t : entries.length - 1;
  const span = Math.max(1e-9, t1 - t0);
  const pct = (v) => `${(((v ?? t1) - t0) / span) * 100}%`;
  // The labels' column: the longest label (in ch of its font), at least 9em, at most 42% of the width.
  const longest = spans.reduce((n, sp) => Math.max(n, sp.kind.length + 1 + String(sp.label).length), 0);
  const box = h('div.lanes', { 'data-view': 'lanes' },
    h('div.lane-axis', {}, h('span', { text: byTime ? fmtTime(t0) : '#0' }), h('span', { text: byTime ? fmtTime(t1) : `#${t1}` })));
  box.style.setProperty('--lw', `max(9em, min(${Math.ceil(longest * 1.05) + 1}ch, 42%))`);
  const order = { run: 0, subagent: 1, step: 2, tool: 3 };
  const sorted = [...spans].sort((a, b) => (a.startSeq - b.startSeq) || (order[a.kind] - order[b.kind]));
  for (const sp of sorted) {
    const start = x(sp, 'start');
    const end = sp.end === undefined ? undefined : x(sp, 'end');
    const bad = sp.invalid ? ` · ${sp.status === 'cut off' ? 'arguments cut off' : `invalid arguments (${sp.invalid.keywords.join(', ')})`} at #${sp.invalid.atSeq}` : '';
    const bar = h('div.span', { 'data-kind': sp.kind, 'data-status': sp.status, title: `${sp.kind} ${sp.label} · ${sp.status}${bad}` });
    if (sp.end === undefined) bar.setAttribute('data-open', '');
    if (sp.invalid) {
      // The call drawn invalid, with a tick where it became so.
      bar.setAttribute('data-args', sp.status === 'cut off' ? 'truncated' : 'invalid');
      const mark = h('div.invalid-mark', { title: `#${sp.invalid.atSeq}: ${sp.invalid.keywords.join(', ')}` });
      const total = (end ?? t1) - start;
      mark.style.left = total > 0 ? `min(${((x(sp.invalid, 'at') ?? start) - start) / total * 100}%, 100% - 3px)` : '0';
      bar.append(mark);
    }
    bar.style.left = pct(start);
    bar.style.width = `calc(${pct(end)} - ${pct(start)})`;
    if (sp.kind === 'tool' && sp.argsEnd !== undefined) {
      const args = h('div.args', { title: 'arguments streaming' });
      const total = (end ?? t1) - start;
      args.style.width = total > 0 ? `${((x(sp, 'argsEnd') - start) / total) * 100}%` : '100%';
      bar.append(args);
    }
    bar.addEventListener('click', () => select(sp.startSeq));
    const dur = sp.end === undefined ? `${sp.status}…` : fmtDur(sp.end - sp.start);
    const argsDur = sp.kind === 'tool' && sp.argsEnd !== undefined ? ` (args ${fmtDur(sp.argsEnd - sp.start)})` : '';
    const track = h('div.track', {}, bar);
    box.append(h('div.lane', { 'data-kind': sp.kind, 'data-id': sp.id },
      h('div.lane-label', { title: `${sp.kind} ${sp.label}` }, h('span.kind', { text: sp.kind }), sp.label),
      h('div', {}, track, h('div.lane-dur', { text: `${dur}${argsDur}${sp.invalid ? (sp.status === 'cut off' ? ' · arguments cut off' : ' · invalid arguments') : ''}` }))));
  }
  if (at >= 0 && entries[at]) {
    const cur = h('div.cursor-line');
    const v = byTime ? entries[at].t : at;
    cur.style.left = `calc(var(--lw) + 6px + (100% - var(--lw) - 6px) * ${(v - t0) / span})`;
    box.append(cur);
  }
  return box;
}
