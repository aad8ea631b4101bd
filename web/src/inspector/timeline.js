// The inspector's event timeline: a listbox of a Session's entries, one
// row an entry, virtualized (only the rows in view exist, from a pool),
// narrowed by the filters, with a selection and the other end of a range
// (the mark), moved with the mouse or the keyboard.
//
// It owns the rows and what they show; the element (element.js) owns the
// rest of the page and is told of a selection the user makes through the
// select callback, so that every selection goes through its select().

import { h } from './dom.js';
import { fmtTime, fmtSize, idsOf, argsInvalidText } from './views.js';

const ROW = 22; // px per timeline row
const OVERSCAN = 8;

/** The filters: [key, label]. */
export const FILTERS = [['type', 'type'], ['message', 'message id'], ['toolCall', 'tool call id'], ['run', 'run id'], ['step', 'step'], ['subagent', 'subagent']];

export class Timeline {
  #session;
  #onSelect; // (i, {mark}) => void: a selection the user made
  #ui = {};
  #visible = null; // entry indices the filters let through (null: all)
  #filters = { type: '', message: '', toolCall: '', run: '', step: '', subagent: '' };
  #seen = 0; // entries already looked at by the filter
  #rowPool = [];
  /** The selected entry index (-1: none). */
  selected = -1;
  /** The other end of a range (diff, fixture; -1: none). */
  mark = -1;
  /** Scrolled to the latest entry as entries come. */
  follow = true;

  constructor(session, { select }) {
    this.#session = session;
    this.#onSelect = select;
    const ui = this.#ui;
    const thead = h('div.thead', { 'aria-hidden': 'true' },
      h('span.num', { text: '#' }), h('span.time', { text: 'time' }), h('span', { text: 'type' }), h('span.col-ids', { text: 'ids' }),
      h('span.size.col-size', { text: 'size' }), h('span.ops', { text: 'ops', title: 'change-record operations' }), h('span', { text: '!', title: 'diagnostics' }));
    ui.spacerY = h('div.spacer-y');
    ui.rows = h('div.rows');
    ui.empty = h('div.empty', { text: 'No events yet. Attach a reducer, or drop a recording (.jsonl or an SSE capture) here.' });
    ui.scroll = h('div.scroll', {}, ui.spacerY, ui.rows, ui.empty);
    /** The listbox, to put in the page. */
    this.element = h('div.timeline', { role: 'listbox', tabindex: '0', 'aria-label': 'Events', 'aria-multiselectable': 'true' }, thead, ui.scroll);
    ui.scroll.addEventListener('scroll', () => this.renderRows(), { passive: true });
    this.element.addEventListener('keydown', (e) => this.#onKey(e));
    ui.rows.addEventListener('click', (e) => {
      const row = e.target.closest('.row');
      if (row) { this.#onSelect(Number(row.dataset.i), { mark: e.shiftKey }); this.element.focus({ preventScroll: true }); }
    });
  }

  /** How many rows the filters let through. */
  get shown() { return this.#visible ? this.#visible.length : this.#session.entries.length; }
  /** Whether a filter is set (the rows are a part of the entries). */
  get filtered() { return this.#visible !== null; }
  /** The entry indices shown. */
  get visibleEntries() { return this.#visible ?? this.#session.entries.map((_, i) => i); }

  /** Filters: {type, message, toolCall, run, step, subagent}; substrings, case-insensitive. */
  get filters() { return { ...this.#filters }; }
  set filters(f) {
    this.#filters = { ...this.#filters, ...f };
    this.#refilter();
  }

  /**
   * Selects entry i (clamped to the entries; mark: the previous selection
   * becomes the other end of a range) and scrolls it into view; returns the
   * index, or -1 when there are no entries.
   */
  select(i, { mark = false } = {}) {
    const n = this.#session.entries.length;
    if (n === 0) return -1;
    i = Math.max(0, Math.min(n - 1, i));
    if (mark) {
      if (this.mark < 0) this.mark = this.selected >= 0 ? this.selected : i;
    } else {
      this.mark = -1;
    }
    this.selected = i;
    this.follow = i === n - 1;
    this.#ensureVisible(i);
    this.renderRows();
    return i;
  }

  /** The selected range, [low, high] (the selection alone when there is no mark). */
  range() {
    const s = this.selected < 0 ? 0 : this.selected;
    const m = this.mark < 0 ? s : this.mark;
    return [Math.min(s, m), Math.max(s, m)];
  }

  /** Forgets the selection, the mark and the filtered rows (new entries come). */
  reset() {
    this.selected = -1;
    this.mark = -1;
    this.follow = true;
    this.#visible = null;
    this.#seen = 0;
    this.#ui.scroll.scrollTop = 0;
  }

  /** Takes in the entries added since the last look, sizes the list and draws the rows in view. */
  render() {
    this.#update();
    const shown = this.shown;
    this.#ui.empty.hidden = this.#session.entries.length > 0;
    this.#ui.spacerY.style.height = `${shown * ROW}px`;
    if (this.follow && shown > 0) this.#ui.scroll.scrollTop = shown * ROW;
    this.renderRows();
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
    if (this.selected >= 0) this.#ensureVisible(this.selected);
    this.renderRows();
  }

  /** Takes in entries added since the last look. */
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

  // ---- rows -------------------------------------------------------------------------

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

  #visibleBefore(i) {
    const v = this.#visible;
    if (!v) return i;
    let k = -1;
    for (let j = 0; j < v.length && v[j] <= i; j++) k = j;
    return k;
  }

  #ensureVisible(i) {
    const k = this.#posOf(i);
    if (k < 0) return;
    const sc = this.#ui.scroll;
    const top = k * ROW;
    if (top < sc.scrollTop) sc.scrollTop = top;
    else if (top + ROW > sc.scrollTop + sc.clientHeight) sc.scrollTop = top + ROW - sc.clientHeight;
  }

  /** Draws the rows in view (and the overscan) from the pool. */
  renderRows() {
    const s = this.#session;
    const shown = this.shown;
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
    const [ra, rb] = this.mark >= 0 ? this.range() : [-1, -1];
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
        const type = e.note ? `⟲ ${e.note}` : e.kind === 'action' ? `${e.name}()` : e.type;
        c[2].textContent = type;
        c[2].title = e.note ? `${type}: the state then, restored (${e.name}())` : type;
        c[2].dataset.k = e.note ? 'note' : e.kind;
        const ids = idsOf(e);
        c[3].textContent = ids;
        c[3].title = ids;
        c[4].textContent = fmtSize(e.size);
        c[5].textContent = e.ops ? String(e.ops) : '';
        // A tool call's arguments found invalid (or cut off) here: marked, the errors in the tooltip.
        const bad = e.argsInvalid;
        r.classList.toggle('args-invalid', !!bad);
        if (bad) {
          c[2].dataset.args = bad.some((x) => x.errors.some((y) => y.keyword === 'truncated')) ? 'truncated' : 'invalid';
          c[2].title += `\n${argsInvalidText(bad)}`;
        } else {
          delete c[2].dataset.args;
        }
        const d = e.diagnostics;
        c[6].textContent = d ? '!' : '';
        c[6].dataset.level = d ? (d.some((x) => x.level === 'error') ? 'error' : 'warning') : '';
        c[6].title = d ? d.map((x) => `${x.level} ${x.code}: ${x.message}`).join('\n') : '';
      }
      r.setAttribute('aria-selected', String(i === this.selected));
      r.classList.toggle('in-range', i >= ra && i <= rb && ra !== rb);
    }
  }

  // ---- keyboard ---------------------------------------------------------------------

  #onKey(e) {
    const n = this.#session.entries.length;
    if (n === 0) return;
    const shown = this.shown;
    if (shown === 0) return;
    let k = this.selected >= 0 ? this.#posOf(this.selected) : -1;
    if (k < 0) k = this.selected >= 0 ? this.#visibleBefore(this.selected) : -1;
    const page = Math.max(1, Math.floor((this.#ui.scroll.clientHeight || 400) / ROW) - 1);
    let next;
    switch (e.key) {
      case 'ArrowDown': case 'j': next = k + 1; break;
      case 'ArrowUp': case 'k': next = k < 0 ? shown - 1 : k - 1; break;
      case 'PageDown': next = k + page; break;
      case 'PageUp': next = k - page; break;
      case 'Home': next = 0; break;
      case 'End': next = shown - 1; break;
      case 'Escape': this.mark = -1; this.renderRows(); return;
      default: return;
    }
    e.preventDefault();
    next = Math.max(0, Math.min(shown - 1, next));
    this.#onSelect(this.#rowAt(next), { mark: e.shiftKey });
  }
}
