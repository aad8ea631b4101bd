// Rendering of the agent state for the demo page.
//
// Assistant text and reasoning are markdown (markdown.js: DOM nodes built
// from the text, never HTML parsed from it).
//
// Everything the agent sends is put into the page with DOM text APIs
// (textContent, Text nodes, appendData), never parsed as HTML, and a
// citation becomes a link only when its URL is http(s).
//
// The state is the reducer's JS mirror, which shares structure between
// versions: an unchanged message, tool call or state value is the same
// object as before, so each part below is re-rendered only when its object
// changed, and streamed text is appended to the existing Text node.

import { h } from '../src/inspector/dom.js'; // the package's element builder
import { watchOverflow } from '../src/inspector/overflow.js'; // boxes that say they scroll
import { renderMarkdown } from './markdown.js';

/** el('div.a.b', {testid: 'x', hidden: true}, child…): h with testid for data-testid. */
export function el(spec, { testid, ...attrs } = {}, ...children) {
  return h(spec, testid == null ? attrs : { ...attrs, 'data-testid': testid }, ...children);
}

/** The URL as a link target, or null unless it is an absolute http(s) URL. */
export function safeHref(url) {
  if (typeof url !== 'string') return null;
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
  } catch {
    return null;
  }
}

export function pretty(value) {
  if (value === undefined) return '';
  try {
    return JSON.stringify(value, null, 2);
  } catch {
    return String(value);
  }
}

/**
 * JSON on one line with a space after each comma and colon, so that a
 * narrow box wraps it between values rather than inside a word.
 */
export function compactJSON(value) {
  if (value === undefined) return '';
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? String(value);
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : compactJSON(v))).join(', ')}]`;
  const parts = [];
  for (const [k, v] of Object.entries(value)) if (v !== undefined && typeof v !== 'function') parts.push(`${JSON.stringify(k)}: ${compactJSON(v)}`);
  return `{${parts.join(', ')}}`;
}

/**
 * Puts text in a code box, one block a line: a line too long for the box
 * wraps with its continuation indented under the line's own indentation
 * (indented JSON stays readable in a narrow box), and the text (its
 * textContent) is the text given. Lines that did not change keep their
 * nodes (streamed arguments grow at the end).
 */
export function setCode(pre, text) {
  text = String(text ?? '');
  if (pre.codeText === text) return;
  pre.codeText = text;
  if ([...pre.childNodes].some((n) => n.nodeType !== Node.ELEMENT_NODE)) pre.replaceChildren();
  const lines = text.split('\n');
  const kids = pre.children;
  lines.forEach((line, i) => {
    const t = i < lines.length - 1 ? `${line}\n` : line;
    let node = kids[i];
    if (!node) { node = el('span.ln'); pre.append(node); }
    if (node.textContent !== t) fillLine(node, t);
    const indent = line.length - line.trimStart().length;
    if (node.indent !== indent) { node.indent = indent; node.style.setProperty('--in', String(Math.min(indent, 40))); }
  });
  while (kids.length > lines.length) pre.lastElementChild.remove();
}

// A line's text, with a break opportunity (<wbr>: no text) after each part
// of a URL (a slash not in "://", #, ?, &), so a long URL wraps between its
// parts rather than inside one.
function fillLine(node, t) {
  if (t.length < 30 || !/[/#?&]/.test(t)) { node.textContent = t; return; }
  const parts = t.split(/(?<=[^:/]\/|[#?&])/);
  node.replaceChildren();
  parts.forEach((p, i) => { if (i > 0) node.append(document.createElement('wbr')); node.append(p); });
}

/**
 * Wraps a code box cut at its max-height in a frame with a "Show all"
 * control: while the content is taller than the box, the box fades at the
 * edge with more and the control shows; it lifts the max-height (and puts
 * it back). Returns the frame.
 */
export function codeBox(pre, what = 'content') {
  const more = el('button.more', { type: 'button', testid: 'show-all', 'aria-expanded': 'false', text: 'Show all' });
  const frame = el('div.codebox');
  pre.replaceWith?.(frame);
  frame.append(pre, more);
  more.title = `Show all of the ${what} (the box scrolls)`;
  more.addEventListener('click', () => {
    const open = !frame.classList.contains('expanded');
    frame.classList.toggle('expanded', open);
    more.setAttribute('aria-expanded', String(open));
    more.textContent = open ? 'Show less' : 'Show all';
  });
  watchOverflow(pre);
  return frame;
}

/** A tool result is a string; show JSON results indented. */
function prettyResult(text) {
  if (typeof text !== 'string') return pretty(text);
  const t = text.trim();
  if (t.startsWith('{') || t.startsWith('[') || t.startsWith('"')) {
    try {
      const v = JSON.parse(t);
      return typeof v === 'string' ? v : JSON.stringify(v, null, 2);
    } catch { /* not JSON: as is */ }
  }
  return text;
}

function seconds(ms) {
  const s = ms / 1000;
  return s < 10 ? s.toFixed(1) : Math.round(s).toString();
}

/** Sets a node's text, appending when the new text extends the old. */
function setText(node, text) {
  const prev = node.textContent;
  if (prev === text) return;
  const first = node.firstChild;
  if (first && first === node.lastChild && first.nodeType === Node.TEXT_NODE && text.startsWith(prev)) {
    first.appendData(text.slice(prev.length));
  } else {
    node.textContent = text;
  }
}

/** Plain text of a message's content: a string, InputContent[] or other. */
function contentText(content) {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content.map((p) => {
      if (p && p.type === 'text') return p.text ?? '';
      if (p && typeof p === 'object') return `[${p.mimeType || p.type || 'attachment'}]`;
      return String(p);
    }).join('\n');
  }
  if (content == null) return '';
  return pretty(content);
}

// ---- tool calls ------------------------------------------------------------

/**
 * What a tool call is doing, from the state around it: its arguments
 * streaming, running (arguments complete, no result yet, the run going on),
 * awaiting approval (an interrupt names it), awaiting a result (the run
 * ended without one: a tool the page runs), rejected (the user said no),
 * complete (the state's word for a call with its result, as the inspector
 * shows it) or failed.
 */
export function toolPhase(tc, ctx = {}) {
  if (tc.error !== undefined && tc.error !== null) return 'failed';
  if (ctx.decisions?.get(tc.id) === false) return 'rejected';
  if (tc.result !== undefined) return 'complete';
  if (tc.status === 'running') return 'streaming arguments';
  // Arguments that ended before they were whole JSON: never a finished call.
  if (argsCutOff(tc)) return 'arguments cut off';
  if ((ctx.interrupts ?? []).some((i) => i && i.toolCallId === tc.id)) return 'awaiting approval';
  // Complete arguments that break the tool's schema: not worth running.
  if (tc.argsStatus === 'invalid') return 'invalid arguments';
  if (ctx.runStatus === 'running') return 'running';
  if (ctx.runStatus === 'error') return 'failed';
  return 'awaiting result';
}

const PHASE_BADGE = {
  'streaming arguments': 'running', running: 'running', 'awaiting approval': 'interrupt', 'awaiting result': 'interrupt',
  rejected: 'rejected', complete: 'complete', failed: 'error', 'arguments cut off': 'error', 'invalid arguments': 'error',
};

/** Whether the call's arguments were cut off (the reducer's "truncated" verdict). */
export function argsCutOff(tc) {
  return tc.argsStatus === 'invalid' && (tc.argsErrors ?? []).some((e) => e?.keyword === 'truncated');
}

/** A JSON Pointer into the arguments as a field name: /days → days, /stops/0/city → stops[0].city, "" → "". */
export function argsField(pointer) {
  if (typeof pointer !== 'string' || pointer === '') return '';
  return pointer.slice(1).split('/').map((seg) => seg.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((out, seg) => (/^\d+$/.test(seg) && out !== '' ? `${out}[${seg}]` : out === '' ? seg : `${out}.${seg}`), '');
}

/**
 * The arguments' check against the tool's schema, in words: null for a
 * tool without a schema (unchecked) or before any, else {kind, text, errors
 * ([{field, message, keyword}])}. kind: ok (valid), pending (valid so far,
 * still streaming), invalid or cut (truncated).
 */
export function argsCheck(tc) {
  switch (tc.argsStatus) {
    case 'valid': return { kind: 'ok', text: 'Arguments match the tool’s schema', errors: [] };
    case 'streaming': return { kind: 'pending', text: 'Arguments valid so far', errors: [] };
    case 'invalid': {
      if (argsCutOff(tc)) return { kind: 'cut', text: 'Arguments cut off: they ended before the JSON was complete', errors: [] };
      const errors = (tc.argsErrors ?? []).map((e) => ({ field: argsField(e?.path), message: String(e?.message ?? ''), keyword: String(e?.keyword ?? '') }));
      return { kind: 'invalid', text: 'Invalid arguments', errors };
    }
    default: return null;
  }
}

class ToolCard {
  constructor() {
    this.tc = undefined;
    this.args = undefined;
    this.phase = undefined;
    this.name = el('span.tool-name', { testid: 'tool-name' });
    this.badge = el('span.badge', { testid: 'tool-status' });
    this.argsPre = el('pre.code', { testid: 'tool-args' });
    this.resultPre = el('pre.code', { testid: 'tool-result' });
    this.result = el('div.tool-section.tool-result', { hidden: true },
      el('div.label', { text: 'Result' }), codeBox(this.resultPre, 'result'));
    this.error = el('div.tool-error', { testid: 'tool-error', hidden: true });
    this.check = el('div.tool-check', { testid: 'tool-check', hidden: true });
    this.checkKey = '';
    this.argsLabel = el('div.label', { text: 'Arguments' });
    this.root = el('div.tool', { testid: 'tool-call' },
      el('div.tool-head', {}, el('span.tool-icon', { text: 'ƒ', 'aria-hidden': 'true' }), this.name, this.badge),
      this.check,
      el('div.tool-section', {}, this.argsLabel, codeBox(this.argsPre, 'arguments')),
      this.result, this.error);
  }

  update(tc, ctx) {
    const phase = toolPhase(tc, ctx);
    if (tc === this.tc && phase === this.phase) return;
    this.phase = phase;
    this.root.dataset.phase = phase;
    if (tc === this.tc) { this.#badge(phase); return; }
    this.tc = tc;
    this.root.dataset.id = tc.id;
    this.root.dataset.status = tc.status;
    setText(this.name, tc.name || '(unnamed tool)');
    this.#badge(phase);
    const checkChanged = this.#check(tc);
    const cut = argsCutOff(tc);
    if (tc.args !== this.args || cut !== this.cut) {
      this.args = tc.args;
      this.cut = cut;
      // While streaming, args is the longest valid prefix of the arguments;
      // arguments cut off are shown as they came (args is then {}).
      let text = pretty(tc.args ?? {});
      if (cut || (text === '{}' && tc.argsText && tc.status === 'running')) text = tc.argsText ?? text;
      setCode(this.argsPre, text);
      setText(this.argsLabel, cut ? 'Arguments (cut off)' : 'Arguments');
      this.#markBad(tc);
    } else if (checkChanged) {
      this.#markBad(tc);
    }
    if (tc.result !== undefined) {
      this.result.hidden = false;
      // A content-part result: its text, and a line for each other part.
      setCode(this.resultPre, tc.resultContent ? partsText(tc.resultContent) : prettyResult(tc.result));
    } else {
      this.result.hidden = true;
    }
    if (tc.error !== undefined && tc.error !== null) {
      this.error.hidden = false;
      setText(this.error, typeof tc.error === 'string' ? tc.error : pretty(tc.error));
    } else {
      this.error.hidden = true;
    }
  }

  // The lines of the arguments' box that hold a member the schema refused
  // (a top-level member an error's path names: its line in the indented
  // JSON) are marked; the rest of the arguments are the safe ones.
  #markBad(tc) {
    const bad = new Set();
    if (tc.argsStatus === 'invalid' && !this.cut) {
      for (const e of tc.argsErrors ?? []) {
        const m = /^\/([^/]+)/.exec(e?.path ?? '');
        if (m) bad.add(`  ${JSON.stringify(m[1].replace(/~1/g, '/').replace(/~0/g, '~'))}:`);
      }
    }
    for (const line of this.argsPre.children) {
      const on = bad.size > 0 && line.indent === 2 && [...bad].some((b) => line.textContent.startsWith(b));
      if (on) line.dataset.bad = ''; else delete line.dataset.bad;
    }
  }

  // The schema check's line: what the reducer says of the arguments.
  // Returns whether it changed.
  #check(tc) {
    const c = argsCheck(tc);
    const key = c ? `${c.kind}|${c.errors.map((e) => `${e.field}|${e.message}`).join('|')}` : '';
    if (key === this.checkKey) return false;
    this.checkKey = key;
    this.check.hidden = c === null;
    this.root.dataset.args = c ? c.kind : '';
    if (!c) { this.check.replaceChildren(); return true; }
    this.check.dataset.kind = c.kind;
    const list = c.errors.length > 0 ? el('ul.check-errors', {}) : null;
    for (const e of c.errors) {
      const li = el('li', { testid: 'args-error', 'data-keyword': e.keyword });
      if (e.field) li.append(el('code', { text: e.field }), ' ');
      li.append(e.message);
      list.append(li);
    }
    this.check.replaceChildren(el('span.check-text', { text: list ? `${c.text}:` : c.text }), ...(list ? [list] : []));
    return true;
  }

  #badge(phase) {
    setText(this.badge, phase);
    this.badge.className = `badge badge-${PHASE_BADGE[phase] ?? 'running'}`;
  }
}

// ---- messages --------------------------------------------------------------

function renderCitations(list, citations) {
  list.replaceChildren();
  citations.forEach((c, i) => {
    const cit = typeof c === 'string' ? { url: c } : (c && typeof c === 'object' ? c : { url: String(c) });
    const url = typeof cit.url === 'string' ? cit.url : '';
    const title = typeof cit.title === 'string' && cit.title ? cit.title : url || '(untitled source)';
    const href = safeHref(url);
    // [n] in a column of its own; the title then its host flow as one text beside it.
    const li = el('li.citation', { testid: 'citation' });
    const body = el('span.cite-body');
    li.append(el('span.cite-index', { text: `[${cit.index ?? i + 1}]` }), body);
    if (href) {
      const a = el('a', { href, target: '_blank', rel: 'noopener noreferrer nofollow', text: title });
      if (typeof cit.snippet === 'string') a.title = cit.snippet;
      body.append(a, ' ', el('span.cite-host', { text: new URL(href).hostname }));
    } else {
      // Not http(s): shown, never followed.
      body.append(el('span.cite-title', { testid: 'citation-text', text: title }));
      if (url && url !== title) body.append(' ', el('span.cite-host', { text: url }));
    }
    list.append(li);
  });
}

class MessageView {
  constructor(msg) {
    this.msg = undefined;
    this.tools = new Map(); // tool call id → ToolCard
    this.userToggled = false;
    this.root = el(`article.msg.msg-${msg.role}`, { testid: 'message' });
    this.root.dataset.role = msg.role;
    this.body = el('div.bubble');
    const who = { user: 'You', assistant: 'AI', tool: 'ƒ', activity: '⚑', system: 'Sys', developer: 'Dev' }[msg.role] || '?';
    this.root.append(el('div.avatar', { text: who, title: msg.role }), this.body);

    this.reasoning = null; // created when the message has reasoning
    this.content = el('div.content', { testid: 'message-content' });
    this.toolList = el('div.tools', { hidden: true });
    this.citations = el('ol.citations', { testid: 'citations' });
    this.citationBox = el('div.citation-box', { hidden: true }, el('div.label', { text: 'Sources' }), this.citations);
    this.activity = null;
    this.body.append(this.content, this.toolList, this.citationBox);
  }

  update(msg, toolCallsById, toolsVersion, ctx = {}) {
    if (msg === this.msg && toolsVersion === this.toolsVersion && ctx.key === this.ctxKey) return;
    this.ctxKey = ctx.key;
    const prev = this.msg;
    this.msg = msg;
    this.toolsVersion = toolsVersion;
    this.root.dataset.id = msg.id;
    this.root.classList.toggle('streaming', !!msg.streaming);

    if (msg.role === 'activity') return this.updateActivity(msg, prev);

    // Reasoning: open while it streams, folded once timed (unless the user
    // opened or closed it).
    if (typeof msg.reasoning === 'string') {
      if (!this.reasoning) {
        this.reasoningSummary = el('summary', { testid: 'reasoning-summary' });
        this.reasoningText = el('div.reasoning-text', { testid: 'reasoning-text' });
        this.reasoning = el('details.reasoning', { testid: 'reasoning' }, this.reasoningSummary, this.reasoningText);
        this.reasoningSummary.addEventListener('click', () => { this.userToggled = true; });
        this.body.prepend(this.reasoning);
      }
      renderMarkdown(this.reasoningText, msg.reasoning);
      const done = typeof msg.reasoningDurationMs === 'number';
      const thinking = !done && !!msg.streaming;
      setText(this.reasoningSummary, done ? `Thought for ${seconds(msg.reasoningDurationMs)} s` : thinking ? 'Thinking…' : 'Thought');
      this.reasoning.classList.toggle('thinking', thinking);
      if (!this.userToggled) this.reasoning.open = !done && !!msg.streaming;
    }

    const text = contentText(msg.content);
    // An empty message that is streaming shows a typing indicator.
    const typing = text === '' && !!msg.streaming && typeof msg.reasoning !== 'string' && !(msg.toolCallIds || []).length;
    this.content.hidden = text === '' && !typing;
    this.content.classList.toggle('typing', typing);
    if (msg.role === 'tool') {
      setCode(this.content, prettyResult(text));
      this.content.classList.add('code');
    } else if (msg.role === 'assistant' && typeof msg.content === 'string') {
      this.content.classList.add('md');
      renderMarkdown(this.content, text);
    } else {
      setText(this.content, text);
    }

    // Tool calls the message owns, in order.
    const ids = msg.toolCallIds || [];
    this.toolList.hidden = ids.length === 0;
    const seen = new Set();
    ids.forEach((id, i) => {
      const tc = toolCallsById.get(id);
      if (!tc) return;
      seen.add(id);
      let card = this.tools.get(id);
      if (!card) {
        card = new ToolCard();
        this.tools.set(id, card);
      }
      card.update(tc, ctx);
      if (this.toolList.children[i] !== card.root) this.toolList.insertBefore(card.root, this.toolList.children[i] || null);
    });
    for (const [id, card] of this.tools) {
      if (!seen.has(id)) { card.root.remove(); this.tools.delete(id); }
    }

    if (!prev || msg.citations !== prev.citations) {
      const list = Array.isArray(msg.citations) ? msg.citations : [];
      this.citationBox.hidden = list.length === 0;
      renderCitations(this.citations, list);
    }
  }

  updateActivity(msg, prev) {
    if (!this.activity) {
      this.activityType = el('span.badge.badge-activity', { testid: 'activity-type' });
      this.activityTitle = el('span.activity-title', { testid: 'activity-title' });
      this.activityBody = el('div.activity-body');
      this.activity = el('div.activity', { testid: 'activity' },
        el('div.activity-head', {}, this.activityType, this.activityTitle), this.activityBody);
      this.body.replaceChildren(this.activity);
    }
    if (prev && prev.content === msg.content && prev.activityType === msg.activityType) return;
    const c = msg.content && typeof msg.content === 'object' ? msg.content : {};
    setText(this.activityType, msg.activityType || 'ACTIVITY');
    setText(this.activityTitle, typeof c.title === 'string' ? c.title : '');
    const parts = [];
    if (typeof c.progress === 'number') {
      const pct = Math.round(Math.max(0, Math.min(1, c.progress > 1 ? c.progress / 100 : c.progress)) * 100);
      parts.push(el('div.progress', {}, el('progress', { max: 100, value: pct }), el('span.progress-pct', { text: `${pct}%` })));
    }
    const items = [c.steps, c.tasks, c.items].find(Array.isArray);
    if (items) {
      const ol = el('ol.activity-steps', { testid: 'activity-steps' });
      for (const it of items) {
        const o = it && typeof it === 'object' ? it : { title: String(it) };
        const status = typeof o.status === 'string' ? o.status : (o.done === true ? 'done' : 'pending');
        const li = el('li', { testid: 'activity-step' });
        li.dataset.status = status;
        li.append(el('span.step-icon', { 'aria-hidden': 'true' }),
          el('span.step-title', { text: String(o.title ?? o.name ?? o.label ?? '') }));
        if (typeof o.detail === 'string') li.append(el('span.step-detail', { text: o.detail }));
        ol.append(li);
      }
      parts.push(ol);
    }
    const rest = Object.fromEntries(Object.entries(c).filter(([k]) => !['title', 'progress', 'steps', 'tasks', 'items'].includes(k)));
    if (Object.keys(rest).length || (!items && typeof c.progress !== 'number')) {
      const pre = el('pre.code');
      setCode(pre, pretty(rest));
      parts.push(codeBox(pre));
    }
    this.activityBody.replaceChildren(...parts);
  }
}

/** The conversation: messages keyed by id, reused across renders, plus the
 *  page's own notes (approvals, reconnects) and a typing indicator. */
export class MessageList {
  constructor(root) {
    this.root = root;
    this.views = new Map(); // key → MessageView
    this.notes = new Map(); // note key → element
    this.toolCalls = undefined;
    this.toolsVersion = 0;
    this.byId = new Map();
    this.typing = el('div.msg.msg-assistant.typing-row', { testid: 'typing', 'aria-label': 'The agent is working' },
      el('div.avatar', { text: 'AI', title: 'assistant' }),
      el('div.bubble', {}, el('div.content.typing-dots', {}, el('span'), el('span'), el('span')), el('div.typing-label')));
  }

  /**
   * ctx: {interrupts, decisions (tool call id → approved), runStatus,
   * notes: [{key, after (message id, or '' for the end), text, kind}],
   * working: '' or what the agent is doing while no message streams}.
   */
  render(state, ctx = {}) {
    if (state.toolCalls !== this.toolCalls) {
      this.toolCalls = state.toolCalls;
      this.toolsVersion++;
      this.byId = new Map((state.toolCalls || []).map((t) => [t.id, t]));
    }
    const cardCtx = { interrupts: ctx.interrupts, decisions: ctx.decisions, runStatus: ctx.runStatus };
    cardCtx.key = `${ctx.runStatus}|${(ctx.interrupts || []).map((i) => i?.toolCallId).join(',')}|${[...(ctx.decisions || new Map())].join(',')}`;
    const notes = ctx.notes || [];
    const messages = state.messages || [];
    const keys = new Map();
    const order = []; // the nodes in order
    const live = new Set();
    let prevRole = '';
    const place = (after) => {
      for (const n of notes) {
        if (n.after !== after) continue;
        let node = this.notes.get(n.key);
        if (!node) {
          node = el(`div.note.note-${n.kind || 'info'}`, { testid: 'note', role: 'note' }, el('span.note-text', { text: n.text }));
          this.notes.set(n.key, node);
        }
        order.push(node);
        prevRole = 'note';
      }
    };
    const ids = new Set(messages.map((m) => m.id));
    for (const msg of messages) {
      // A tool message whose call is shown on its card is not repeated.
      if (msg.role === 'tool' && msg.toolCallId && this.byId.has(msg.toolCallId)) { place(msg.id); continue; }
      const n = keys.get(msg.id) || 0;
      keys.set(msg.id, n + 1);
      const key = n ? `${msg.id}#${n}` : msg.id;
      live.add(key);
      let view = this.views.get(key);
      if (!view || view.root.dataset.role !== msg.role) {
        if (view) view.root.remove();
        view = new MessageView(msg);
        this.views.set(key, view);
      }
      const mine = (msg.toolCallIds || []).length ? this.toolsVersion : 0;
      view.update(msg, this.byId, mine, (msg.toolCallIds || []).length ? cardCtx : {});
      // One avatar per assistant turn: reasoning, tool calls and answer share it.
      view.root.classList.toggle('same-turn', msg.role === 'assistant' && prevRole === 'assistant');
      prevRole = msg.role === 'tool' ? prevRole : msg.role;
      order.push(view.root);
      place(msg.id);
    }
    for (const n of notes) if (n.after !== '' && !ids.has(n.after)) { place(n.after); }
    place('');
    if (ctx.working) {
      this.typing.classList.toggle('same-turn', prevRole === 'assistant');
      this.typing.querySelector('.typing-label').textContent = ctx.working;
      order.push(this.typing);
    }
    order.forEach((node, pos) => {
      if (this.root.children[pos] !== node) this.root.insertBefore(node, this.root.children[pos] || null);
    });
    while (this.root.children.length > order.length) this.root.lastElementChild.remove();
    for (const [key, view] of this.views) {
      if (!live.has(key)) { view.root.remove(); this.views.delete(key); }
    }
    const keep = new Set(notes.map((n) => n.key));
    for (const k of this.notes.keys()) if (!keep.has(k)) this.notes.delete(k);
  }
}

/** Pending interrupts with approve / reject buttons. */
export function renderInterrupts(root, interrupts, onResolve) {
  root.replaceChildren();
  root.hidden = !interrupts || interrupts.length === 0;
  for (const it of interrupts || []) {
    const approve = el('button.primary', { type: 'button', testid: 'interrupt-approve', text: 'Approve' });
    const reject = el('button', { type: 'button', testid: 'interrupt-reject', text: 'Reject' });
    approve.addEventListener('click', () => onResolve(it, true));
    reject.addEventListener('click', () => onResolve(it, false));
    root.append(el('div.interrupt', { testid: 'interrupt' },
      el('div.interrupt-head', {}, el('span.badge.badge-interrupt', { text: 'interrupt' }),
        el('span.interrupt-reason', { text: String(it.reason ?? '') })),
      el('div.interrupt-message', { testid: 'interrupt-message', text: String(it.message ?? 'The agent is waiting for your input.') }),
      el('div.interrupt-actions', {}, approve, reject)));
  }
}

/** Content parts as text: text parts as they are, others as [type: source]. */
export function partsText(parts) {
  return parts.map((p) => {
    if (p && p.type === 'text') return String(p.text ?? '');
    const src = p && p.source ? (p.source.url ?? p.source.value ?? p.source.type ?? '') : '';
    return `[${String(p?.type ?? 'part')}${src && typeof src === 'string' ? `: ${src.slice(0, 80)}` : ''}]`;
  }).join('\n');
}

/** Subagent invocations nested under their parents, with their status. */
export function renderSubagents(root, subagents) {
  root.replaceChildren();
  const list = subagents || [];
  if (list.length === 0) {
    root.append(el('li.empty', { text: 'No subagents in this conversation.' }));
    return;
  }
  const ids = new Set(list.map((s) => s.id));
  const children = new Map();
  for (const s of list) {
    const parent = s.parentSubagentRunId && ids.has(s.parentSubagentRunId) ? s.parentSubagentRunId : '';
    if (!children.has(parent)) children.set(parent, []);
    children.get(parent).push(s);
  }
  const seen = new Set();
  const build = (parent, into) => {
    for (const s of children.get(parent) || []) {
      if (seen.has(s.id)) continue; // a cycle in hostile input
      seen.add(s.id);
      const li = el('li.subagent', { testid: 'subagent' });
      li.dataset.status = s.status;
      li.append(el('div.subagent-head', {},
        el(`span.badge.badge-${s.status === 'error' ? 'error' : s.status === 'running' ? 'running' : 'complete'}`, { testid: 'subagent-status', text: String(s.status) }),
        el('span.subagent-name', { testid: 'subagent-name', text: String(s.name || s.id) })));
      if (s.description) li.append(el('div.subagent-desc', { text: String(s.description) }));
      if (s.error) li.append(el('div.subagent-error', { text: String(s.error.message ?? '') }));
      const sub = el('ul.subagents');
      build(s.id, sub);
      if (sub.childNodes.length) li.append(sub);
      into.append(li);
    }
  };
  build('', root);
}

/** Steps of the current run; a step still open when the run ended (endedOpen: the indices
 *  of those the run's end closed) is shown as cut short. */
export function renderSteps(root, steps, runStatus, endedOpen = new Set()) {
  root.replaceChildren(...(steps || []).map((s, i) => {
    const li = el('li', { testid: 'step' });
    li.dataset.status = (s.status === 'running' || endedOpen.has(i)) && runStatus !== 'running'
      ? (runStatus === 'error' ? 'error' : 'stopped') : s.status;
    li.append(el('span.step-icon', { 'aria-hidden': 'true' }), el('span.step-title', { text: String(s.name) }));
    return li;
  }));
  if (!steps || steps.length === 0) root.append(el('li.empty', { text: 'No steps in this run.' }));
}
