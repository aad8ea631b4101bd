// <agui-inspector>: a framework-free custom element (shadow DOM) over a
// Session: the event timeline (virtualized: only the rows in view exist),
// time travel (the conversation and shared state right after the selected
// event), the diff between two points, swimlanes, and recordings (export,
// import and replay at 1×, 10× or full speed, a range copied as a fixture).
//
// Model text (messages, arguments, state) is put in the page with text
// APIs only (textContent, Text nodes), never parsed as HTML.

import { Session } from './session.js';
import { toRecording, toFixture, parseRecording } from './recording.js';
import { jsonPatch, changeTree } from './diff.js';
import { css } from './style.js';
import { h, fmtTime, fmtSize, idsOf, conversationView, stateView, eventView, changesView, lanesView } from './views.js';

const ROW = 22; // px per timeline row
const OVERSCAN = 8;
const TABS = ['conversation', 'state', 'event', 'diff', 'lanes'];
const TAB_LABELS = { conversation: 'Conversation', state: 'State', event: 'Event', diff: 'Diff', lanes: 'Lanes' };
const FILTERS = [['type', 'type'], ['message', 'message id'], ['toolCall', 'tool call id'], ['run', 'run id'], ['step', 'step'], ['subagent', 'subagent']];

// Outside a browser (a server render importing the module) there is no HTMLElement.
const Base = globalThis.HTMLElement ?? class {};

export class AguiInspector extends Base {
  #session = new Session();
  #ready = null;
  #root;
  #ui = {};
  #visible = null; // entry indices the filters let through (null: all)
  #filters = { type: '', message: '', toolCall: '', run: '', step: '', subagent: '' };
  #selected = -1; // entry index
  #mark = -1; // the other end of a range (diff, fixture)
  #tab = 'conversation';
  #follow = true;
  #frame = 0;
  #rowPool = [];
  #state = null; // the travelled state shown
  #stateAt = -2;
  #replay = null; // {entries, next, speed, timer, paused, created}
  #created = undefined; // a loaded recording's header time
  #seen = 0; // entries already looked at by the filter
  #shownMessages = 60; // the conversation pane shows the latest this many

  constructor() {
    super();
    this.#root = this.attachShadow({ mode: 'open' });
    this.#build();
    this.#session.onChange(() => this.#schedule());
  }

  /** The model: entries, checkpoints, lanes, stateAt(i). */
  get session() { return this.#session; }
  /** The selected entry's index (-1: none). */
  get selected() { return this.#selected; }
  /** The entry indices shown (the filters applied). */
  get visibleEntries() { return this.#visible ?? this.#session.entries.map((_, i) => i); }

  #io = null; // renders when the element comes into view (it skips frames while hidden)

  connectedCallback() {
    if (!this.#io && typeof IntersectionObserver === 'function') {
      this.#io = new IntersectionObserver((es) => { if (es.some((e) => e.isIntersecting)) this.#schedule(); });
      this.#io.observe(this);
    }
    this.#schedule();
  }

  disconnectedCallback() {
    this.#stopReplay();
    this.#io?.disconnect();
    this.#io = null;
  }

  /** Loads the wasm module the inspector folds with (options: wasmURL, core, reducerOptions, checkpointEvery). */
  ready(options = {}) {
    if (options.checkpointEvery) this.#session.checkpointEvery = options.checkpointEvery;
    this.#ready ??= this.#session.ready(options);
    return this.#ready;
  }

  /** Follows a reducer, worker reducer, createAgent agent or drop-in @ag-ui/client agent live. */
  async attach(target, options = {}) {
    this.#stopReplay();
    await this.ready(options);
    await this.#session.attach(target, options);
    this.#created = undefined;
    this.#reset();
  }

  detach() { this.#session.detach(); this.#schedule(); }

  /**
   * Loads a recording, a .jsonl of events or an SSE capture (text, Blob or
   * File) and replays it: speed 1, 10 or 'full' (default). Resolves once
   * every entry is folded.
   */
  async load(source, { speed = 'full', ...options } = {}) {
    await this.ready(options);
    const text = typeof source === 'string' ? source : await source.text();
    const rec = parseRecording(text);
    this.#stopReplay();
    this.#session.detach();
    this.#session.clear();
    this.#session.mode = 'replay';
    this.#created = rec.created;
    this.#reset();
    return new Promise((resolve) => {
      this.#replay = { entries: rec.entries, next: 0, speed, timer: 0, paused: false, done: resolve, start: performance.now(), base: rec.entries[0]?.t ?? 0 };
      this.#ui.speed.value = String(speed);
      this.#pump();
    });
  }

  #pump() {
    const r = this.#replay;
    if (r === null || r.paused) return;
    r.timer = 0;
    const s = this.#session;
    const n = r.entries.length;
    if (r.speed === 'full' || !(Number(r.speed) > 0)) {
      const end = Math.min(n, r.next + 4000); // a slice per task: the page stays responsive
      for (; r.next < end; r.next++) s.addEntry(r.entries[r.next]);
    } else {
      const elapsed = (performance.now() - r.start) * Number(r.speed);
      while (r.next < n && r.entries[r.next].t - r.base <= elapsed) s.addEntry(r.entries[r.next++]);
    }
    if (r.next >= n) {
      this.#replay = null;
      s.mode = 'idle';
      this.#schedule();
      r.done();
      return;
    }
    const wait = r.speed === 'full' || !(Number(r.speed) > 0) ? 0
      : Math.max(0, Math.min(250, (r.entries[r.next].t - r.base) / Number(r.speed) - (performance.now() - r.start)));
    r.timer = setTimeout(() => this.#pump(), wait);
  }

  #stopReplay() {
    if (this.#replay) {
      clearTimeout(this.#replay.timer);
      const done = this.#replay.done;
      this.#replay = null;
      if (this.#session.mode === 'replay') this.#session.mode = 'idle';
      done();
    }
  }

  /** Everything seen, as a recording (JSONL with timings and SSE ids). */
  exportRecording() {
    return toRecording(this.#session.entries, this.#created ?? this.#session.created);
  }

  /** Events from..to (default: the selected range) as a fixture, one event per line. */
  fixture(from, to) {
    if (from === undefined) [from, to] = this.#range();
    return toFixture(this.#session.entries, from, to ?? from);
  }

  /** The state (the reducer's snapshot) right after entry i. */
  stateAt(i) { return this.#session.stateAt(i); }

  /** Selects entry i and shows the state right after it; returns that state. */
  select(i, { mark = false } = {}) {
    const n = this.#session.entries.length;
    if (n === 0) return null;
    i = Math.max(0, Math.min(n - 1, i));
    if (mark) {
      if (this.#mark < 0) this.#mark = this.#selected >= 0 ? this.#selected : i;
    } else {
      this.#mark = -1;
    }
    this.#selected = i;
    this.#follow = i === n - 1;
    this.#ensureVisible(i);
    this.#travel();
    this.#renderRows();
    this.#renderDetail();
    this.dispatchEvent(new CustomEvent('select', { detail: { index: i, entry: this.#session.entries[i] } }));
    return this.#state;
  }

  /** Filters: {type, message, toolCall, run, step, subagent}; substrings, case-insensitive. */
  set filters(f) {
    this.#filters = { ...this.#filters, ...f };
    for (const [k] of FILTERS) this.#ui.filter[k].value = this.#filters[k] ?? '';
    this.#refilter();
  }
  get filters() { return { ...this.#filters }; }

  /** Shows a tab: conversation, state, event, diff or lanes. */
  set tab(name) {
    if (!TABS.includes(name)) return;
    this.#tab = name;
    for (const [k, b] of Object.entries(this.#ui.tabs)) b.setAttribute('aria-selected', String(k === name));
    this.#renderDetail();
  }
  get tab() { return this.#tab; }

  // ---- building ------------------------------------------------------------------

  #build() {
    const root = this.#root;
    if ('adoptedStyleSheets' in root && typeof CSSStyleSheet === 'function' && 'replaceSync' in CSSStyleSheet.prototype) {
      const sheet = new CSSStyleSheet();
      sheet.replaceSync(css);
      root.adoptedStyleSheets = [sheet];
    } else {
      root.append(h('style', { text: css }));
    }
    const ui = this.#ui;
    ui.mode = h('span.pill', { 'data-mode': 'idle', text: 'idle', part: 'mode' });
    ui.count = h('span.count', { text: '0 events' });
    ui.file = h('input', { type: 'file', accept: '.jsonl,.ndjson,.json,.txt,.sse,text/event-stream,application/x-ndjson', 'aria-label': 'Open a recording' });
    ui.file.addEventListener('change', () => { const f = ui.file.files?.[0]; if (f) this.load(f, { speed: this.#speed() }); ui.file.value = ''; });
    ui.speed = h('select', { 'aria-label': 'Replay speed', title: 'Replay speed of an opened recording' },
      h('option', { value: '1', text: '1×' }), h('option', { value: '10', text: '10×' }), h('option', { value: 'full', text: 'full' }));
    ui.speed.value = 'full';
    ui.speed.addEventListener('change', () => { if (this.#replay) this.#replay.speed = this.#speed(); });
    ui.pause = h('button', { type: 'button', text: 'Pause', hidden: true, onclick: () => this.#togglePause() });
    ui.exportBtn = h('button', { type: 'button', text: 'Export', title: 'Download everything seen as a recording (.jsonl)', onclick: () => this.#download() });
    ui.fixtureBtn = h('button', { type: 'button', text: 'Copy fixture', title: 'Copy the selected events (shift-click or shift+arrows for a range) as a test fixture, one event per line', onclick: () => this.#copyFixture() });
    ui.markBtn = h('button', { type: 'button', text: 'Mark A', title: 'Mark the selected event as the start of a range (diff, fixture)', onclick: () => this.#markHere() });
    const bar = h('div.bar', {},
      h('span.title', { text: 'AG-UI inspector' }), ui.mode, ui.count, h('span.spacer'),
      h('label.file', { title: 'Open a recording, a .jsonl of events or an SSE capture (or drop it here)' }, 'Open…', ui.file),
      ui.speed, ui.pause, ui.markBtn, ui.fixtureBtn, ui.exportBtn);
    ui.filter = {};
    const filters = h('div.filters', { role: 'search' });
    ui.typeList = h('datalist', { id: 'types' });
    for (const [k, label] of FILTERS) {
      const input = h('input', { type: 'search', placeholder: label, 'aria-label': `Filter by ${label}`, spellcheck: 'false', 'data-filter': k });
      if (k === 'type') input.setAttribute('list', 'types');
      input.addEventListener('input', () => { this.#filters[k] = input.value; this.#refilter(); });
      ui.filter[k] = input;
      filters.append(input);
    }
    filters.append(ui.typeList);

    ui.thead = h('div.thead', { 'aria-hidden': 'true' },
      h('span.num', { text: '#' }), h('span.time', { text: 'time' }), h('span', { text: 'type' }), h('span.col-ids', { text: 'ids' }),
      h('span.size.col-size', { text: 'size' }), h('span.ops', { text: 'ops', title: 'change-record operations' }), h('span', { text: '!', title: 'diagnostics' }));
    ui.spacerY = h('div.spacer-y');
    ui.rows = h('div.rows');
    ui.empty = h('div.empty', { text: 'No events yet. Attach a reducer, or drop a recording (.jsonl or an SSE capture) here.' });
    ui.scroll = h('div.scroll', {}, ui.spacerY, ui.rows, ui.empty);
    ui.timeline = h('div.timeline', { role: 'listbox', tabindex: '0', 'aria-label': 'Events', 'aria-multiselectable': 'true' }, ui.thead, ui.scroll);
    ui.scroll.addEventListener('scroll', () => this.#renderRows(), { passive: true });
    ui.timeline.addEventListener('keydown', (e) => this.#onKey(e));
    ui.rows.addEventListener('click', (e) => {
      const row = e.target.closest('.row');
      if (row) { this.select(Number(row.dataset.i), { mark: e.shiftKey }); ui.timeline.focus({ preventScroll: true }); }
    });

    ui.tabs = {};
    ui.where = h('span.where');
    const tabs = h('div.tabs', { role: 'tablist' });
    for (const t of TABS) {
      const b = h('button', { type: 'button', role: 'tab', 'aria-selected': String(t === this.#tab), 'data-tab': t, text: TAB_LABELS[t], onclick: () => { this.tab = t; } });
      ui.tabs[t] = b;
      tabs.append(b);
    }
    tabs.append(ui.where);
    ui.pane = h('div.pane', { role: 'tabpanel' });
    const detail = h('div.detail', {}, tabs, ui.pane);
    ui.drop = h('div.drop', { hidden: true, text: 'Drop a recording to replay it' });
    ui.toast = h('div.toast', { hidden: true, role: 'status' });
    ui.main = h('div.main', {}, ui.timeline, detail);
    root.append(h('div.root', {}, bar, filters, ui.main), ui.drop, ui.toast);

    this.addEventListener('dragover', (e) => {
      if (![...(e.dataTransfer?.types ?? [])].includes('Files')) return;
      e.preventDefault();
      ui.drop.hidden = false;
    });
    this.addEventListener('dragleave', (e) => { if (e.target === this) ui.drop.hidden = true; });
    this.addEventListener('drop', (e) => {
      const f = e.dataTransfer?.files?.[0];
      ui.drop.hidden = true;
      if (!f) return;
      e.preventDefault();
      this.load(f, { speed: this.#speed() });
    });
  }

  #speed() { const v = this.#ui.speed.value; return v === 'full' ? 'full' : Number(v); }

  #togglePause() {
    const r = this.#replay;
    if (!r) return;
    r.paused = !r.paused;
    if (r.paused) { clearTimeout(r.timer); r.pausedAt = performance.now(); } else {
      r.start += performance.now() - r.pausedAt;
      this.#pump();
    }
    this.#schedule();
  }

  #toast(text) {
    const t = this.#ui.toast;
    t.textContent = text;
    t.hidden = false;
    clearTimeout(this._toastTimer);
    this._toastTimer = setTimeout(() => { t.hidden = true; }, 1800);
  }

  #download() {
    const blob = new Blob([this.exportRecording()], { type: 'application/x-ndjson' });
    const a = h('a', { href: URL.createObjectURL(blob), download: `agui-recording-${new Date().toISOString().replace(/[:.]/g, '-')}.jsonl` });
    this.#root.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
    this.dispatchEvent(new CustomEvent('export', { detail: { entries: this.#session.entries.length } }));
  }

  async #copyFixture() {
    const text = this.fixture();
    const [a, b] = this.#range();
    try {
      await navigator.clipboard.writeText(text);
      this.#toast(`Copied events ${a}–${b} as a fixture`);
    } catch {
      this.#toast('The clipboard is not available here');
    }
    this.dispatchEvent(new CustomEvent('fixture', { detail: { from: a, to: b, text } }));
  }

  #markHere() {
    if (this.#selected < 0) return;
    this.#mark = this.#selected;
    this.#renderRows();
    this.#renderDetail();
  }

  #range() {
    const s = this.#selected < 0 ? 0 : this.#selected;
    const m = this.#mark < 0 ? s : this.#mark;
    return [Math.min(s, m), Math.max(s, m)];
  }

  // ---- filtering --------------------------------------------------------------------

  #active() { return FILTERS.some(([k]) => (this.#filters[k] ?? '').trim() !== ''); }

  #matcher() {
    const f = Object.fromEntries(FILTERS.map(([k]) => [k, (this.#filters[k] ?? '').trim().toLowerCase()]));
    const has = (v, q) => q === '' || (v !== undefined && String(v).toLowerCase().includes(q));
    return (e) => has(e.type, f.type)
      && (f.message === '' || has(e.messageId, f.message) || has(e.parentMessageId, f.message) || (e.kind === 'action' && e.name === 'addUserMessage' && has(e.args?.[1], f.message)))
      && (f.toolCall === '' || has(e.toolCallId, f.toolCall) || (e.kind === 'action' && e.name === 'addToolResult' && has(e.args?.[0], f.toolCall)))
      && has(e.run, f.run) && has(e.step, f.step) && has(e.subagentRunId, f.subagent);
  }

  #refilter() {
    this.#visible = null;
    this.#seen = 0;
    this.#update();
    this.#ui.scroll.scrollTop = 0;
    if (this.#selected >= 0) this.#ensureVisible(this.#selected);
    this.#renderRows();
  }

  /** Takes in entries added since the last look (filters, counts). */
  #update() {
    const entries = this.#session.entries;
    if (this.#active()) {
      const m = this.#matcher();
      const v = this.#visible ??= [];
      for (let i = this.#seen; i < entries.length; i++) if (m(entries[i])) v.push(i);
    } else {
      this.#visible = null;
    }
    if (entries.length < this.#seen) this.#visible = this.#active() ? [] : null;
    this.#seen = entries.length;
  }

  #reset() {
    this.#selected = -1;
    this.#mark = -1;
    this.#state = null;
    this.#stateAt = -2;
    this.#follow = true;
    this.#visible = null;
    this.#seen = 0;
    this.#ui.scroll.scrollTop = 0;
    this.#schedule();
  }

  // ---- rendering ------------------------------------------------------------------

  #schedule() {
    if (this.#frame) return;
    const raf = globalThis.requestAnimationFrame ?? ((f) => setTimeout(f, 16));
    this.#frame = raf(() => { this.#frame = 0; this.#render(); });
  }

  /** Renders now (tests call it instead of waiting for a frame). */
  flush() {
    this.#render();
  }

  #render() {
    // Hidden (display: none, or not in the page): nothing to paint; the
    // IntersectionObserver schedules a render when it shows.
    if (!this.isConnected || this.getClientRects().length === 0) return;
    const s = this.#session;
    this.#update();
    const n = s.entries.length;
    const shown = this.#visible ? this.#visible.length : n;
    this.#ui.count.textContent = this.#visible ? `${shown.toLocaleString()} of ${n.toLocaleString()} events` : `${n.toLocaleString()} events`;
    const mode = this.#replay ? (this.#replay.paused ? 'paused' : 'replay') : s.mode;
    this.#ui.mode.dataset.mode = mode;
    this.#ui.mode.textContent = mode;
    this.#ui.pause.hidden = !this.#replay;
    this.#ui.pause.textContent = this.#replay?.paused ? 'Play' : 'Pause';
    this.#ui.empty.hidden = n > 0;
    if (this.#ui.typeList.childElementCount !== s.types.size) {
      this.#ui.typeList.replaceChildren(...[...s.types.keys()].sort().map((t) => h('option', { value: t })));
    }
    this.#ui.spacerY.style.height = `${shown * ROW}px`;
    if (this.#follow && shown > 0) {
      this.#ui.scroll.scrollTop = shown * ROW;
    }
    this.#renderRows();
    if (this.#follow || this.#selected < 0 || this.#tab === 'lanes') this.#renderDetail();
  }

  #rowAt(k) { return this.#visible ? this.#visible[k] : k; }

  #posOf(i) {
    if (!this.#visible) return i;
    const v = this.#visible;
    let lo = 0, hi = v.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (v[mid] === i) return mid;
      if (v[mid] < i) lo = mid + 1; else hi = mid - 1;
    }
    return -1;
  }

  #ensureVisible(i) {
    const k = this.#posOf(i);
    if (k < 0) return;
    const sc = this.#ui.scroll;
    const top = k * ROW;
    if (top < sc.scrollTop) sc.scrollTop = top;
    else if (top + ROW > sc.scrollTop + sc.clientHeight) sc.scrollTop = top + ROW - sc.clientHeight;
  }

  #renderRows() {
    const s = this.#session;
    const shown = this.#visible ? this.#visible.length : s.entries.length;
    const sc = this.#ui.scroll;
    const height = sc.clientHeight || 400;
    const first = Math.max(0, Math.floor(sc.scrollTop / ROW) - OVERSCAN);
    const last = Math.min(shown, Math.ceil((sc.scrollTop + height) / ROW) + OVERSCAN);
    const count = Math.max(0, last - first);
    const pool = this.#rowPool;
    while (pool.length < count) {
      const r = h('div.row', { role: 'option' },
        h('span.num'), h('span.time'), h('span.type'), h('span.ids.col-ids'), h('span.size.col-size'), h('span.ops'), h('span.diag'));
      pool.push(r);
      this.#ui.rows.append(r);
    }
    this.#ui.rows.style.transform = `translateY(${first * ROW}px)`;
    const [ra, rb] = this.#mark >= 0 ? this.#range() : [-1, -1];
    for (let k = 0; k < pool.length; k++) {
      const r = pool[k];
      if (k >= count) { r.hidden = true; continue; }
      r.hidden = false;
      const i = this.#rowAt(first + k);
      const e = s.entries[i];
      if (r._e !== e) {
        r._e = e;
        r.dataset.i = String(i);
        const c = r.children;
        c[0].textContent = String(i);
        c[1].textContent = fmtTime(e.t);
        c[2].textContent = e.kind === 'action' ? `${e.name}()` : e.type;
        c[2].dataset.k = e.kind;
        const ids = idsOf(e);
        c[3].textContent = ids;
        c[3].title = ids;
        c[4].textContent = fmtSize(e.size);
        c[5].textContent = e.ops ? String(e.ops) : '';
        const d = e.diagnostics;
        c[6].textContent = d ? '!' : '';
        c[6].dataset.level = d ? (d.some((x) => x.level === 'error') ? 'error' : 'warning') : '';
        c[6].title = d ? d.map((x) => `${x.level} ${x.code}: ${x.message}`).join('\n') : '';
      }
      r.setAttribute('aria-selected', String(i === this.#selected));
      r.classList.toggle('in-range', i >= ra && i <= rb && ra !== rb);
    }
  }

  #onKey(e) {
    const n = this.#session.entries.length;
    if (n === 0) return;
    const shown = this.#visible ? this.#visible.length : n;
    if (shown === 0) return;
    let k = this.#selected >= 0 ? this.#posOf(this.#selected) : -1;
    if (k < 0) k = this.#selected >= 0 ? this.#visibleBefore(this.#selected) : -1;
    const page = Math.max(1, Math.floor((this.#ui.scroll.clientHeight || 400) / ROW) - 1);
    let next;
    switch (e.key) {
      case 'ArrowDown': case 'j': next = k + 1; break;
      case 'ArrowUp': case 'k': next = k < 0 ? shown - 1 : k - 1; break;
      case 'PageDown': next = k + page; break;
      case 'PageUp': next = k - page; break;
      case 'Home': next = 0; break;
      case 'End': next = shown - 1; break;
      case 'Escape': this.#mark = -1; this.#renderRows(); return;
      default: return;
    }
    e.preventDefault();
    next = Math.max(0, Math.min(shown - 1, next));
    this.select(this.#rowAt(next), { mark: e.shiftKey });
  }

  #visibleBefore(i) {
    const v = this.#visible;
    if (!v) return i;
    let k = -1;
    for (let j = 0; j < v.length && v[j] <= i; j++) k = j;
    return k;
  }

  #travel() {
    if (this.#selected < 0) { this.#state = null; this.#stateAt = -2; return; }
    if (this.#stateAt === this.#selected && this.#state) return;
    this.#state = this.#session.stateAt(this.#selected);
    this.#stateAt = this.#selected;
  }

  #renderDetail() {
    const s = this.#session;
    const n = s.entries.length;
    if (this.#selected < 0 && n > 0 && this.#tab !== 'lanes') {
      // Nothing picked: the latest state.
      this.#state = s.stateAt(n - 1);
      this.#stateAt = n - 1;
    } else if (this.#selected >= 0) {
      this.#travel();
    }
    const at = this.#selected >= 0 ? this.#selected : n - 1;
    this.#ui.where.textContent = n === 0 ? '' : this.#selected >= 0 ? `after event ${at} of ${n - 1}` : `latest (${n - 1})`;
    const pane = this.#ui.pane;
    const scroll = pane.scrollTop;
    let body;
    switch (this.#tab) {
      case 'conversation': body = conversationView(this.#state, this.#shownMessages, () => { this.#shownMessages += 200; this.#renderDetail(); }); break;
      case 'state': body = stateView(this.#state); break;
      case 'event': body = eventView(s.entries[at]); break;
      case 'diff': body = this.#diffView(); break;
      case 'lanes': body = lanesView(s, at, (seq) => this.select(seq)); break;
      default: body = h('div');
    }
    pane.replaceChildren(body);
    pane.scrollTop = scroll;
  }

  #diffView() {
    const n = this.#session.entries.length;
    if (n === 0) return h('div.empty', { text: 'No events.' });
    const b = this.#selected >= 0 ? this.#selected : n - 1;
    const a = this.#mark >= 0 ? this.#mark : b - 1;
    const [lo, hi] = a <= b ? [a, b] : [b, a];
    const before = this.#session.stateAt(lo);
    const after = this.#session.stateAt(hi);
    this.#stateAt = -2; // the travelling reducer moved
    const patch = jsonPatch(before, after);
    const box = h('div', { 'data-view': 'diff' },
      h('div.hint', { text: `From after event ${lo} to after event ${hi}: ${patch.length} operation${patch.length === 1 ? '' : 's'}. Shift-click or Mark A picks the other end.` }));
    box.append(h('h4', { text: 'Changes' }), changesView(changeTree(before, patch)));
    box.append(h('h4', { text: 'JSON Patch' }), h('pre', { 'data-field': 'patch', text: JSON.stringify(patch, null, 1) }));
    return box;
  }

}

/** Registers <agui-inspector> (once); returns the class. */
export function defineInspector(name = 'agui-inspector') {
  if (typeof customElements !== 'undefined' && !customElements.get(name)) customElements.define(name, name === 'agui-inspector' ? AguiInspector : class extends AguiInspector {});
  return AguiInspector;
}
