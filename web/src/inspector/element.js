// <agui-inspector>: a framework-free custom element (shadow DOM) over a
// Session: the event timeline (timeline.js: virtualized rows, filters, the
// selection and the keyboard), time travel (the conversation and shared
// state right after the selected event), the diff between two points,
// swimlanes, and recordings (export, import and replay at 1×, 10× or full
// speed (replay.js), a range copied as a fixture). This file is the
// element: its shell (bar, filters, tabs, detail pane), its public API and
// the wiring between the parts.
//
// Model text (messages, arguments, state) is put in the page with text
// APIs only (textContent, Text nodes), never parsed as HTML.

import { Session } from './session.js';
import { toRecording, toFixture, parseRecording } from './recording.js';
import { jsonPatch, changeTree } from './diff.js';
import { css } from './style.js';
import { h } from './dom.js';
import { conversationView, stateView, eventView, changesView, lanesView } from './views.js';
import { Timeline, FILTERS } from './timeline.js';
import { Replay } from './replay.js';
import { watchOverflow } from './overflow.js';

const TABS = ['conversation', 'state', 'event', 'diff', 'lanes'];
const TAB_LABELS = { conversation: 'Conversation', state: 'State', event: 'Event', diff: 'Diff', lanes: 'Lanes' };

// Outside a browser (a server render importing the module) there is no HTMLElement.
const Base = globalThis.HTMLElement ?? class {};

export class AguiInspector extends Base {
  #session = new Session();
  #ready = null;
  #root;
  #ui = {};
  #timeline = new Timeline(this.#session, { select: (i, options) => this.select(i, options) });
  #tab = 'conversation';
  #frame = 0;
  #state = null; // the travelled state shown
  #stateAt = -2;
  #replay = null; // the Replay playing
  #created = undefined; // a loaded recording's header time
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
  get selected() { return this.#timeline.selected; }
  /** The entry indices shown (the filters applied). */
  get visibleEntries() { return this.#timeline.visibleEntries; }

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
   * Starts the timeline again from the state as it is now, as one entry
   * marked note (e.g. "loaded from the relay"): for a page that loaded its
   * conversation from elsewhere while attached. Following goes on.
   */
  startFrom(note) {
    const e = this.#session.startFrom(note);
    this.#reset();
    return e;
  }

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
    this.#ui.speed.value = String(speed);
    return new Promise((resolve) => {
      this.#replay = new Replay(this.#session, rec.entries, {
        speed,
        onEnd: (finished) => { this.#replay = null; if (finished) this.#schedule(); resolve(); },
      });
      this.#replay.start();
    });
  }

  #stopReplay() { this.#replay?.stop(); }

  /** Everything seen, as a recording (JSONL with timings and SSE ids). */
  exportRecording() {
    return toRecording(this.#session.entries, this.#created ?? this.#session.created);
  }

  /** Events from..to (default: the selected range) as a fixture, one event per line. */
  fixture(from, to) {
    if (from === undefined) [from, to] = this.#timeline.range();
    return toFixture(this.#session.entries, from, to ?? from);
  }

  /** The state (the reducer's snapshot) right after entry i. */
  stateAt(i) { return this.#session.stateAt(i); }

  /** Selects entry i and shows the state right after it; returns that state. */
  select(i, { mark = false } = {}) {
    i = this.#timeline.select(i, { mark });
    if (i < 0) return null;
    this.#travel();
    this.#renderDetail();
    this.dispatchEvent(new CustomEvent('select', { detail: { index: i, entry: this.#session.entries[i] } }));
    return this.#state;
  }

  /** Filters: {type, message, toolCall, run, step, subagent}; substrings, case-insensitive. */
  set filters(f) {
    this.#timeline.filters = f;
    const all = this.#timeline.filters;
    for (const [k] of FILTERS) this.#ui.filter[k].value = all[k] ?? '';
    this.#schedule(); // the count and the list's height
  }
  get filters() { return this.#timeline.filters; }

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
      input.addEventListener('input', () => { this.#timeline.filters = { [k]: input.value }; this.#schedule(); });
      ui.filter[k] = input;
      filters.append(input);
    }
    filters.append(ui.typeList);

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
    ui.main = h('div.main', {}, this.#timeline.element, detail);
    root.append(h('div.root', {}, bar, filters, ui.main), ui.drop, ui.toast);
    // The boxes that scroll fade where there is more (overlay scrollbars show nothing until scrolled).
    for (const box of [ui.pane, tabs, this.#timeline.element.querySelector('.scroll')]) watchOverflow(box);

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
    if (!this.#replay) return;
    this.#replay.togglePause();
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
    const [a, b] = this.#timeline.range();
    try {
      await navigator.clipboard.writeText(text);
      this.#toast(`Copied events ${a}–${b} as a fixture`);
    } catch {
      this.#toast('The clipboard is not available here');
    }
    this.dispatchEvent(new CustomEvent('fixture', { detail: { from: a, to: b, text } }));
  }

  #markHere() {
    const t = this.#timeline;
    if (t.selected < 0) return;
    t.mark = t.selected;
    t.renderRows();
    this.#renderDetail();
  }

  #reset() {
    this.#timeline.reset();
    this.#state = null;
    this.#stateAt = -2;
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
    const t = this.#timeline;
    t.render();
    const n = s.entries.length;
    const shown = t.shown;
    this.#ui.count.textContent = t.filtered ? `${shown.toLocaleString()} of ${n.toLocaleString()} events` : `${n.toLocaleString()} event${n === 1 ? '' : 's'}`;
    const mode = this.#replay ? (this.#replay.paused ? 'paused' : 'replay') : s.mode;
    this.#ui.mode.dataset.mode = mode;
    this.#ui.mode.textContent = mode;
    this.#ui.pause.hidden = !this.#replay;
    this.#ui.pause.textContent = this.#replay?.paused ? 'Play' : 'Pause';
    if (this.#ui.typeList.childElementCount !== s.types.size) {
      this.#ui.typeList.replaceChildren(...[...s.types.keys()].sort().map((type) => h('option', { value: type })));
    }
    if (t.follow || t.selected < 0 || this.#tab === 'lanes') this.#renderDetail();
  }

  #travel() {
    const i = this.#timeline.selected;
    if (i < 0) { this.#state = null; this.#stateAt = -2; return; }
    if (this.#stateAt === i && this.#state) return;
    this.#state = this.#session.stateAt(i);
    this.#stateAt = i;
  }

  #renderDetail() {
    const s = this.#session;
    const n = s.entries.length;
    const selected = this.#timeline.selected;
    if (selected < 0 && n > 0 && this.#tab !== 'lanes') {
      // Nothing picked: the latest state.
      this.#state = s.stateAt(n - 1);
      this.#stateAt = n - 1;
    } else if (selected >= 0) {
      this.#travel();
    }
    const at = selected >= 0 ? selected : n - 1;
    this.#ui.where.textContent = n === 0 ? '' : selected >= 0 ? `after event ${at} of ${n - 1}` : `latest (${n - 1})`;
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
    const { selected, mark } = this.#timeline;
    const b = selected >= 0 ? selected : n - 1;
    const a = mark >= 0 ? mark : b - 1;
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
