// The demo page: a chat UI driven by the AG-UI reducer (Go, compiled to
// WebAssembly) through the web module. Submitting adds the user message and
// POSTs a RunAgentInput to the endpoint; the text/event-stream answer is fed
// to the reducer, and the page renders the reducer's state. The conversation
// is a thread of the server's relay (docs/relay.md): the tab remembers its
// thread id and key, and a reload loads the thread, painted first from the
// browser's copy (IndexedDB), and attaches to its run if one is going on.
import { loadReducer, loadThread, persistThread, newThreadKey, threadHeaders } from '../agui.js';
import '../src/inspector/entry.js'; // <agui-inspector>: the Inspect panel
import { watchOverflow, overflowCSS } from '../src/inspector/overflow.js';
import { el, pretty, compactJSON, setCode, codeBox, MessageList, renderInterrupts, renderSteps, renderSubagents } from './view.js';

const $ = (id) => document.querySelector(`[data-testid="${id}"]`);
const ui = {
  status: $('run-status'),
  statusLabel: $('run-status').querySelector('.status-label'),
  endpoint: $('endpoint'),
  scenario: $('scenario'),
  newChat: $('new-chat'),
  banner: $('error-banner'),
  bannerMessage: $('error-message'),
  bannerCode: $('error-code'),
  bannerClose: $('error-close'),
  scroller: $('conversation'),
  messages: $('messages'),
  intro: $('intro'),
  interrupts: $('interrupts'),
  composer: $('composer'),
  input: $('input'),
  send: $('send'),
  stop: $('stop'),
  steps: $('steps'),
  sideToggle: $('side-toggle'),
  sideClose: $('side-close'),
  settingsToggle: $('settings-toggle'),
  inspectToggle: $('inspect-toggle'),
  inspectClose: $('inspect-close'),
  inspectPanel: $('inspect-panel'),
  inspector: $('inspector'),
  subagents: $('subagents'),
  state: $('state-panel'),
  log: $('custom-log'),
  logCount: $('custom-count'),
  info: {
    thread: $('info-thread'),
    run: $('info-run'),
    messages: $('info-messages'),
    tokens: $('info-tokens'),
    diagnostics: $('info-diagnostics'),
  },
};

const store = {
  get(k, d) { try { return localStorage.getItem(`agui-demo.${k}`) ?? d; } catch { return d; } },
  set(k, v) { try { localStorage.setItem(`agui-demo.${k}`, v); } catch { /* private mode */ } },
};

// ---- settings ---------------------------------------------------------------

const params = new URLSearchParams(location.search);
ui.endpoint.value = store.get('endpoint', '/agent');
// A link can name any agent, and the messages typed here would go to it:
// ?endpoint= switches only once the user agrees.
const linked = (params.get('endpoint') || '').trim();
if (linked && !sameEndpoint(linked, ui.endpoint.value)
    && confirm(`This link points the demo at another agent:\n\n${linked}\n\nSend your messages to it?`)) {
  ui.endpoint.value = linked;
}
ui.endpoint.addEventListener('change', () => store.set('endpoint', ui.endpoint.value.trim() || '/agent'));
const wantScenario = params.get('scenario') || store.get('scenario', 'auto');
ui.scenario.addEventListener('change', () => store.set('scenario', ui.scenario.value));

// The tab's thread (sessionStorage: a reload keeps it, another tab starts
// its own): its id and its key, the credential the relay asks for.
const thread = {
  id: sessionGet('thread') || `thread-${newThreadKey().slice(0, 12)}`,
  key: sessionGet('threadKey') || newThreadKey(),
  // started: a run was sent on it, so the relay has it (a new one is not asked for).
  started: sessionGet('threadStarted') === sessionGet('thread') && sessionGet('thread') !== null,
  save() { sessionSet('thread', this.id); sessionSet('threadKey', this.key); },
  start() { if (!this.started) { this.started = true; sessionSet('threadStarted', this.id); } },
  renew() { this.id = `thread-${newThreadKey().slice(0, 12)}`; this.key = newThreadKey(); this.started = false; this.save(); },
};
thread.save();
function sessionGet(k) { try { return sessionStorage.getItem(`agui-demo.${k}`); } catch { return null; } }
function sessionSet(k, v) { try { sessionStorage.setItem(`agui-demo.${k}`, v); } catch { /* private mode */ } }

/** Whether the endpoint is this server's (its relay keeps the thread): others get no thread key. */
function ownEndpoint(endpoint) {
  try { return new URL(endpoint, location.href).origin === location.origin; } catch { return false; }
}

function sameEndpoint(a, b) {
  try { return new URL(a, location.href).href === new URL(b, location.href).href; } catch { return a === b; }
}

async function loadScenarios() {
  try {
    const res = await fetch('/scenarios', { headers: { Accept: 'application/json' } });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    const list = await res.json();
    for (const s of list.scenarios || []) {
      ui.scenario.append(el('option', { value: s.name, text: s.description ? `${s.name} — ${s.description}` : s.name }));
    }
  } catch {
    // Served by something other than agui-demo: only "auto".
  }
  ui.scenario.value = [...ui.scenario.options].some((o) => o.value === wantScenario) ? wantScenario : 'auto';
}

// ---- status -----------------------------------------------------------------

let busy = false;
let runs = 0;
let diagnostics = 0;

function setStatus(status, label = status) {
  ui.status.dataset.status = status;
  ui.statusLabel.textContent = label;
}

function setBusy(b) {
  busy = b;
  document.body.dataset.busy = String(b);
  ui.send.disabled = b || !reducer;
  ui.stop.disabled = !b;
  ui.interrupts.querySelectorAll('button').forEach((x) => { x.disabled = b; });
  if (reducer) schedule(); // the typing indicator
}

function showError(message, code) {
  ui.banner.hidden = false;
  ui.bannerMessage.textContent = message;
  ui.bannerCode.textContent = code || '';
  ui.bannerCode.hidden = !code;
}

// ---- the reducer --------------------------------------------------------------

let reducer = null;
let controller = null;
let reconnectNote = null; // the note of the reconnects of the run in progress
let note = ''; // how the last run ended, when it is worth saying
let endedOpen = new Set(); // steps the run's end closed (indices)
let stopping = false; // the user asked the running run to stop
let lastNote = '';

// ---- rendering ------------------------------------------------------------------

const list = new MessageList(ui.messages);
let last = {};
// What the transcript shows besides the state: the user's approvals and
// rejections, reconnects (notes), and the answers given (tool call id →
// approved), which make a tool card say "rejected".
const notes = [];
const decisions = new Map();
let noteSeq = 0;
let extras = 0; // bumped when notes or decisions change: the list re-renders
let lastExtras = -1;
let lastWorking = '';

function addNote(text, kind, after) {
  const s = reducer?.state;
  const msgs = s?.messages ?? [];
  const note = { key: `n${++noteSeq}`, after: after ?? (msgs.length ? msgs[msgs.length - 1].id : ''), text, kind };
  notes.push(note);
  extras++;
  schedule();
  return note;
}

/** What the agent is doing while no message streams (a state-only step): '' when nothing. */
function working(s) {
  if (!busy && s.status !== 'running') return '';
  if ((s.messages || []).some((m) => m.streaming)) return '';
  if ((s.toolCalls || []).some((t) => t.status === 'running')) return '';
  const step = [...(s.steps || [])].reverse().find((x) => x.status === 'running');
  if (step) return `Working: ${step.name}…`;
  return s.status === 'running' ? 'Working…' : 'Connecting…';
}
let dismissed = null;
let frame = 0;

function schedule() {
  if (!frame) frame = requestAnimationFrame(render);
}

function render() {
  frame = 0;
  const s = reducer.state;
  if (s === last && note === lastNote && extras === lastExtras && working(s) === lastWorking) return;
  const stick = ui.scroller.scrollHeight - ui.scroller.scrollTop - ui.scroller.clientHeight < 80;

  const work = working(s);
  if (s.messages !== last.messages || s.toolCalls !== last.toolCalls || s.status !== last.status
      || s.interrupts !== last.interrupts || s.steps !== last.steps || extras !== lastExtras || work !== lastWorking) {
    list.render(s, { interrupts: s.interrupts, decisions, runStatus: s.status, notes, working: work });
    lastExtras = extras;
    lastWorking = work;
    ui.intro.hidden = (s.messages || []).length > 0;
    ui.info.messages.textContent = String((s.messages || []).length);
  }
  if (s.status !== last.status || s.isLoading !== last.isLoading || note !== lastNote) {
    setStatus(s.status, s.status === 'running' ? 'running…' : note && s.status === 'idle' ? `idle · ${note}` : s.status);
    lastNote = note;
  }
  if (s.error !== last.error) {
    if (s.error && s.error !== dismissed) showError(String(s.error.message ?? 'Run failed'), s.error.code);
    else ui.banner.hidden = true;
  }
  if (s.interrupts !== last.interrupts) {
    renderInterrupts(ui.interrupts, s.interrupts, resolveInterrupt);
    setBusy(busy);
  }
  if (s.steps !== last.steps || s.status !== last.status) {
    // The reducer ends a run's open steps with it; when the user stopped the
    // run or it failed, the page shows those as cut short, not as finished.
    if (s.status === 'running') endedOpen = new Set();
    else if (last.status === 'running' && (s.status === 'error' || stopping)) {
      endedOpen = new Set();
      (last.steps || []).forEach((st, i) => { if (st.status === 'running' && s.steps?.[i]?.name === st.name) endedOpen.add(i); });
    }
    renderSteps(ui.steps, s.steps, s.status, endedOpen);
  }
  if (s.subagents !== last.subagents) renderSubagents(ui.subagents, s.subagents);
  if (s.state !== last.state) {
    setCode(ui.state, s.state === undefined || s.state === null ? 'null' : pretty(s.state));
    if ('state' in last) flash(ui.state);
  }
  if (liveAttach && s.status === 'running' && s.runId) {
    liveAttach = false;
    dropKept(s.runId); // the run going on at the reload brings its events again
  }
  if (s.threadId !== last.threadId || s.runId !== last.runId) {
    ui.info.thread.textContent = s.threadId || '—';
    ui.info.run.textContent = s.runId || '—';
  }
  if (s.usage !== last.usage) {
    const u = (s.usage || []).reduce((a, x) => ({
      in: a.in + (x.inputTokens || 0), out: a.out + (x.outputTokens || 0), r: a.r + (x.reasoningTokens || 0),
    }), { in: 0, out: 0, r: 0 });
    ui.info.tokens.textContent = (s.usage || []).length
      ? `${u.in} in · ${u.out} out${u.r ? ` (${u.r} reasoning)` : ''}` : '—';
  }
  last = s;
  if (stick) ui.scroller.scrollTop = ui.scroller.scrollHeight;
}

function flash(node) {
  node.classList.remove('flash');
  void node.offsetWidth; // restart the animation
  node.classList.add('flash');
}

// The custom events (and diagnostics) the thread brought, newest first: the
// state does not hold them, so the tab keeps them with its thread
// (sessionStorage), and a reload shows them again. A run going on at the
// reload is streamed again from its first frame: its events kept from
// before are dropped when it comes (each item knows its run).
const LOG_MAX = 200;
let logItems = []; // [{time, kind, name, text, run}], oldest first
let logSaving = 0;
const logNodes = new WeakMap(); // item → its <li>
const keptItems = new WeakSet(); // the items restoreLog brought back
let liveAttach = false; // a run going on at the reload is being attached to

function logEvent(kind, name, value) {
  const time = new Date().toLocaleTimeString([], { hour12: false });
  let text = typeof value === 'string' ? value : compactJSON(value);
  if (text && text.length > 400) text = `${text.slice(0, 400)}…`;
  const item = { time, kind, name, text: text ?? '', run: reducer?.state.runId ?? '' };
  logItems.push(item);
  if (logItems.length > LOG_MAX) logItems.splice(0, logItems.length - LOG_MAX);
  showLogItem(item);
  saveLog();
}

function showLogItem(item) {
  const { time, kind, name, text } = item;
  const li = el('li', { testid: 'custom-event' },
    el('span.log-time', { text: time }),
    el(`span.log-name.log-${kind}`, { testid: 'custom-event-name', text: name }),
    el('code.log-value', { text }));
  li.dataset.kind = kind;
  ui.log.querySelector('.empty')?.remove();
  ui.log.prepend(li);
  logNodes.set(item, li);
  while (ui.log.children.length > LOG_MAX) ui.log.lastChild.remove();
  ui.logCount.textContent = String(ui.log.querySelectorAll('[data-testid="custom-event"]').length);
}

/** Drops the kept items of run (it is being streamed again from its start). */
function dropKept(run) {
  const drop = logItems.filter((x) => keptItems.has(x) && x.run === run);
  if (!drop.length) return;
  for (const x of drop) logNodes.get(x)?.remove();
  logItems = logItems.filter((x) => !drop.includes(x));
  ui.logCount.textContent = String(ui.log.querySelectorAll('[data-testid="custom-event"]').length);
  if (!ui.log.children.length) ui.log.append(el('li.empty', { text: 'No custom events yet.' }));
  saveLog();
}

function saveLog() {
  if (logSaving) return;
  logSaving = setTimeout(flushLog, 100);
}

function flushLog() {
  if (!logSaving) return;
  clearTimeout(logSaving);
  logSaving = 0;
  sessionSet(`log.${thread.id}`, JSON.stringify(logItems));
}
// A reload within the 100 ms still finds the latest.
addEventListener('pagehide', flushLog);

/** Shows the log the tab kept for the thread (after a reload), or an empty one. */
function restoreLog() {
  clearTimeout(logSaving);
  logSaving = 0;
  let kept = [];
  try { kept = JSON.parse(sessionGet(`log.${thread.id}`) || '[]'); } catch { kept = []; }
  logItems = (Array.isArray(kept) ? kept.filter((x) => x && typeof x.name === 'string').slice(-LOG_MAX) : [])
    .map((x) => ({ time: String(x.time ?? ''), kind: String(x.kind ?? 'custom'), name: x.name, text: String(x.text ?? ''), run: String(x.run ?? '') }));
  ui.log.replaceChildren(el('li.empty', { text: 'No custom events yet.' }));
  ui.logCount.textContent = '0';
  for (const item of logItems) { keptItems.add(item); showLogItem(item); }
  diagnostics = logItems.filter((x) => x.kind === 'diagnostic').length;
  ui.info.diagnostics.textContent = String(diagnostics);
}

function onCustom(ev) {
  if (!ev || typeof ev !== 'object') return;
  if (ev.type === 'state_update') logEvent('state', 'state_update', ev.state);
  else logEvent('custom', String(ev.name ?? ev.type ?? 'custom'), ev.value);
}

function noteDiagnostic(d) {
  diagnostics++;
  ui.info.diagnostics.textContent = String(diagnostics);
  logEvent('diagnostic', `${d.level || 'warning'}: ${d.code || 'diagnostic'}`, d.message || '');
}

// ---- runs ------------------------------------------------------------------------

async function runWith(input) {
  if (!reducer || busy) return;
  dismissed = null;
  note = '';
  stopping = false;
  controller = new AbortController();
  setBusy(true);
  setStatus('running', 'connecting…');
  const endpoint = ui.endpoint.value.trim() || '/agent';
  try {
    // run() POSTs the RunAgentInput and feeds the SSE body to the reducer;
    // a network or HTTP error becomes fail(), an abort becomes stop().
    const own = ownEndpoint(endpoint);
    if (own) thread.start();
    const headers = own ? threadHeaders(thread.key) : {};
    const outcome = await reducer.run(endpoint, input, { signal: controller.signal, headers });
    if (outcome === 'aborted') note = 'stopped';
    if (outcome === 'incomplete' && reducer.state.status === 'running') {
      reducer.fail('The stream ended before the run finished (no RUN_FINISHED or RUN_ERROR).', 'INCOMPLETE');
    }
  } catch (err) {
    console.error(err);
    if (reducer.state.status === 'running') reducer.fail(String(err?.message || err), 'CLIENT_ERROR');
  } finally {
    if (reconnectNote?.live) {
      reconnectNote.live = false;
      const ok = reducer.state.status !== 'error';
      reconnectNote.text = ok
        ? `Connection lost and resumed: reconnected ${reconnectNote.count === 1 ? 'once' : `${reconnectNote.count} times`}, no event lost.`
        : `Connection lost: the run could not be resumed after ${reconnectNote.count} attempt${reconnectNote.count === 1 ? '' : 's'}.`;
      reconnectNote.kind = ok ? 'reconnect' : 'rejected';
      reconnectNote.key = `n${++noteSeq}`;
      extras++;
    }
    controller = null;
    setBusy(false);
    runs++;
    document.body.dataset.runs = String(runs);
    lastNote = null; // repaint the status
    render();
    ui.input.focus();
  }
}

function scenarioProps() {
  const s = ui.scenario.value;
  return s && s !== 'auto' ? { scenario: s } : {};
}

async function send(text) {
  text = text.trim();
  if (!text || !reducer || busy) return;
  ui.input.value = '';
  autosize();
  reducer.addUserMessage(text);
  await runWith(reducer.runInput({ threadId: thread.id, forwardedProps: scenarioProps() }));
}

function resolveInterrupt(it, approved) {
  if (it.toolCallId) decisions.set(it.toolCallId, approved);
  const tc = (reducer.state.toolCalls || []).find((t) => t.id === it.toolCallId);
  const what = tc?.name ? `“${tc.name}”` : String(it.reason || 'the request');
  addNote(approved ? `You approved ${what}.` : `You rejected ${what}.`, approved ? 'approved' : 'rejected');
  runWith(reducer.runInput({
    threadId: thread.id,
    forwardedProps: scenarioProps(),
    resume: [{ interruptId: it.id, status: 'resolved', payload: { approved } }],
  }));
}

// ---- the thread ------------------------------------------------------------------

let persisting = null; // the writer of the browser's copy of the thread

/**
 * Loads the tab's thread from the server's relay: the browser's copy paints
 * first, the relay's replaces it, and a run going on is followed live (as a
 * run: Stop stops following it).
 */
async function openThread(shown) {
  const endpoint = ui.endpoint.value.trim() || '/agent';
  await persisting?.stop();
  persisting = null;
  if (!reducer || !ownEndpoint(endpoint)) return;
  if (!thread.started) { // nothing on the relay yet: only the browser's copy to keep
    persisting = persistThread(reducer, endpoint, thread.id, { persist: 'agui-demo' });
    return;
  }
  const ctrl = new AbortController();
  controller = ctrl;
  setBusy(true);
  const id = thread.id;
  try {
    let marked = false;
    // The inspector saw only restores: it starts from the thread as loaded, marked so.
    const mark = (source) => {
      if (marked || thread.id !== id) return;
      marked = true;
      if (source === 'relay') ui.inspector.startFrom?.('loaded from the relay');
      else if (source === 'cache') ui.inspector.startFrom?.("loaded from the browser's copy");
    };
    const res = await loadThread(reducer, endpoint, id, {
      threadKey: thread.key, persist: 'agui-demo', signal: ctrl.signal,
      onLoad: () => { document.body.dataset.thread = 'relay'; mark('relay'); liveAttach = true; shown?.(); },
    });
    mark(res.source);
    // A run streamed again whose frames came too fast for a frame of render(): its kept events go now.
    if (liveAttach) { liveAttach = false; if (res.outcome !== 'failed' && reducer.state.runId) dropKept(reducer.state.runId); }
    if (thread.id !== id) { await res.persist?.stop(); return; } // a new chat meanwhile
    persisting = res.persist;
    document.body.dataset.thread = res.source;
    if (res.live) document.body.dataset.attached = res.outcome;
    if (res.outcome === 'aborted') note = 'stopped';
  } catch (err) {
    console.error(err);
  } finally {
    if (controller === ctrl) {
      controller = null;
      setBusy(false);
    }
    lastNote = null;
    render();
  }
}

// ---- wiring ----------------------------------------------------------------------

// The textarea is one line until the text needs more (an empty one's
// placeholder never makes it taller), and the placeholder is the long one
// only where it fits on that line.
function autosize() {
  if (ui.input.value === '') { ui.input.style.height = ''; return; }
  ui.input.style.height = 'auto';
  ui.input.style.height = `${Math.min(ui.input.scrollHeight + ui.input.offsetHeight - ui.input.clientHeight, 160)}px`;
}

const PLACEHOLDERS = ['Message the agent…  (Enter sends, Shift+Enter for a new line)', 'Message the agent…'];
let measure = null;
function fitPlaceholder() {
  const cs = getComputedStyle(ui.input);
  const room = ui.input.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
  if (!(room > 0)) return;
  measure ??= document.createElement('canvas').getContext('2d');
  measure.font = `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
  const fits = PLACEHOLDERS.find((p) => measure.measureText(p).width <= room - 2) ?? PLACEHOLDERS[PLACEHOLDERS.length - 1];
  if (ui.input.placeholder !== fits) ui.input.placeholder = fits;
}
new ResizeObserver(() => { fitPlaceholder(); autosize(); }).observe(ui.input);

ui.composer.addEventListener('submit', (e) => {
  e.preventDefault();
  send(ui.input.value);
});
ui.input.addEventListener('keydown', (e) => {
  if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
    e.preventDefault();
    send(ui.input.value);
  }
});
ui.input.addEventListener('input', autosize);
ui.stop.addEventListener('click', () => { stopping = true; controller?.abort(); });
ui.bannerClose.addEventListener('click', () => {
  dismissed = reducer?.state.error ?? null;
  ui.banner.hidden = true;
});
ui.newChat.addEventListener('click', () => {
  controller?.abort();
  reducer?.reset();
  thread.renew();
  openThread(); // nothing there yet: the browser's copy follows the new thread
  notes.length = 0;
  decisions.clear();
  extras++;
  restoreLog(); // the new thread's: empty
  schedule();
  ui.input.focus();
});
// Panels: the agent state (beside the chat; a sheet on a phone), the
// inspector (beside the chat; full screen on a phone), the settings (in
// the header; folded on a phone).
function toggleSide(open = ui.sideToggle.getAttribute('aria-expanded') !== 'true') {
  ui.sideToggle.setAttribute('aria-expanded', String(open));
  document.body.dataset.side = String(open);
}
function toggleSettings(open = ui.settingsToggle.getAttribute('aria-expanded') !== 'true') {
  ui.settingsToggle.setAttribute('aria-expanded', String(open));
  document.body.dataset.settings = String(open);
}
function toggleInspect(open = ui.inspectPanel.hidden) {
  ui.inspectPanel.hidden = !open;
  ui.inspectToggle.setAttribute('aria-pressed', String(open));
  document.body.dataset.inspect = String(open);
  store.set('inspect', open ? '1' : '');
  if (open) { ui.inspector.flush?.(); ui.inspector.shadowRoot?.querySelector('.timeline')?.focus({ preventScroll: true }); }
}
ui.sideToggle.addEventListener('click', () => toggleSide());
ui.sideClose.addEventListener('click', () => toggleSide(false));
ui.settingsToggle.addEventListener('click', () => toggleSettings());
ui.inspectToggle.addEventListener('click', () => toggleInspect());
ui.inspectClose.addEventListener('click', () => toggleInspect(false));
document.addEventListener('keydown', (e) => {
  if (e.key === 'Escape' && document.body.dataset.side === 'true') toggleSide(false);
});
if (params.get('inspect') === '1' || store.get('inspect', '') === '1') toggleInspect(true);

document.querySelectorAll('[data-suggest]').forEach((b) => {
  b.addEventListener('click', () => send(b.dataset.suggest));
});

// The boxes that scroll fade at an edge with more (overlay scrollbars show nothing until scrolled).
if ('adoptedStyleSheets' in document) {
  const fades = new CSSStyleSheet();
  fades.replaceSync(overflowCSS);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, fades];
}
for (const box of [ui.scroller, document.getElementById('side'), ui.log]) watchOverflow(box);
codeBox(ui.state, 'shared state');
restoreLog();

setBusy(false);
setStatus('loading', 'loading reducer…');
const scenariosLoaded = loadScenarios();
try {
  const factory = await loadReducer(); // web/dist/agui.wasm, next to agui.js
  reducer = factory.createReducer({});
  // The inspector follows the reducer from the start (it folds each event once more).
  await ui.inspector.attach(reducer);
  reducer.subscribe(schedule);
  reducer.on('custom', onCustom);
  reducer.on('diagnostic', noteDiagnostic);
  // run() reconnects when the connection is cut (agui-demo -drop-after N):
  // say so until the next frames arrive (lastNote = null repaints then).
  reducer.on('reconnect', (i) => {
    setStatus('running', `reconnecting… (${i.reconnects})`);
    lastNote = null;
    // In the transcript, where the stream was cut (not among the custom events: it is not one).
    const text = `Connection lost (${i.reason}). Reconnecting from event ${i.lastEventId}, attempt ${i.reconnects}…`;
    if (reconnectNote && reconnectNote.live) { reconnectNote.text = text; reconnectNote.key = `n${++noteSeq}`; extras++; schedule(); } else reconnectNote = addNote(text, 'reconnect');
    reconnectNote.live = true;
    reconnectNote.count = i.reconnects;
  });
  await scenariosLoaded;
  window.aguiDemo = { reducer, inspector: ui.inspector, thread }; // for the console
  setBusy(false);
  render();
  setStatus(reducer.state.status || 'idle');
  ui.input.focus();
  // Ready once the thread is shown (a run going on is followed after).
  await openThread(() => { document.body.dataset.ready = 'true'; });
  document.body.dataset.ready = 'true';
} catch (err) {
  console.error(err);
  setStatus('error', 'no reducer');
  showError(`Could not load the reducer: ${err?.message || err}. Build it with "make wasm" (or run "make run").`, 'LOAD_FAILED');
  document.body.dataset.ready = 'error';
}
