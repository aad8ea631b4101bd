// The demo page: a chat UI driven by the AG-UI reducer (Go, compiled to
// WebAssembly) through the web module. Submitting adds the user message and
// POSTs a RunAgentInput to the endpoint; the text/event-stream answer is fed
// to the reducer, and the page renders the reducer's state.
import { loadReducer } from '../agui.js';
import { el, pretty, MessageList, renderInterrupts, renderSteps, renderSubagents } from './view.js';

const $ = (id) => document.querySelector(`[data-testid="${id}"]`);
const ui = {
  status: $('run-status'),
  statusLabel: $('run-status').querySelector('.label'),
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
let note = ''; // how the last run ended, when it is worth saying
let lastNote = '';

// ---- rendering ------------------------------------------------------------------

const list = new MessageList(ui.messages);
let last = {};
let dismissed = null;
let frame = 0;

function schedule() {
  if (!frame) frame = requestAnimationFrame(render);
}

function render() {
  frame = 0;
  const s = reducer.state;
  if (s === last && note === lastNote) return;
  const stick = ui.scroller.scrollHeight - ui.scroller.scrollTop - ui.scroller.clientHeight < 80;

  if (s.messages !== last.messages || s.toolCalls !== last.toolCalls) {
    list.render(s);
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
  if (s.steps !== last.steps || s.status !== last.status) renderSteps(ui.steps, s.steps, s.status);
  if (s.subagents !== last.subagents) renderSubagents(ui.subagents, s.subagents);
  if (s.state !== last.state) {
    ui.state.textContent = s.state === undefined || s.state === null ? 'null' : pretty(s.state);
    if ('state' in last) flash(ui.state);
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

function logEvent(kind, name, value) {
  const time = new Date().toLocaleTimeString([], { hour12: false });
  let text = typeof value === 'string' ? value : JSON.stringify(value);
  if (text && text.length > 400) text = `${text.slice(0, 400)}…`;
  const li = el('li', { testid: 'custom-event' },
    el('span.log-time', { text: time }),
    el(`span.log-name.log-${kind}`, { testid: 'custom-event-name', text: name }),
    el('code.log-value', { text: text ?? '' }));
  li.dataset.kind = kind;
  ui.log.querySelector('.empty')?.remove();
  ui.log.prepend(li);
  while (ui.log.children.length > 200) ui.log.lastChild.remove();
  ui.logCount.textContent = String(ui.log.querySelectorAll('[data-testid="custom-event"]').length);
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
  controller = new AbortController();
  setBusy(true);
  setStatus('running', 'connecting…');
  const endpoint = ui.endpoint.value.trim() || '/agent';
  try {
    // run() POSTs the RunAgentInput and feeds the SSE body to the reducer;
    // a network or HTTP error becomes fail(), an abort becomes stop().
    const outcome = await reducer.run(endpoint, input, { signal: controller.signal });
    if (outcome === 'aborted') note = 'stopped';
    if (outcome === 'incomplete' && reducer.state.status === 'running') {
      reducer.fail('The stream ended before the run finished (no RUN_FINISHED or RUN_ERROR).', 'INCOMPLETE');
    }
  } catch (err) {
    console.error(err);
    if (reducer.state.status === 'running') reducer.fail(String(err?.message || err), 'CLIENT_ERROR');
  } finally {
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
  await runWith(reducer.runInput({ forwardedProps: scenarioProps() }));
}

function resolveInterrupt(it, approved) {
  runWith(reducer.runInput({
    forwardedProps: scenarioProps(),
    resume: [{ interruptId: it.id, status: 'resolved', payload: { approved } }],
  }));
}

// ---- wiring ----------------------------------------------------------------------

function autosize() {
  ui.input.style.height = 'auto';
  ui.input.style.height = `${Math.min(ui.input.scrollHeight, 160)}px`;
}

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
ui.stop.addEventListener('click', () => controller?.abort());
ui.bannerClose.addEventListener('click', () => {
  dismissed = reducer?.state.error ?? null;
  ui.banner.hidden = true;
});
ui.newChat.addEventListener('click', () => {
  controller?.abort();
  reducer?.reset();
  ui.log.replaceChildren(el('li.empty', { text: 'No custom events yet.' }));
  ui.logCount.textContent = '0';
  diagnostics = 0;
  ui.info.diagnostics.textContent = '0';
  schedule();
  ui.input.focus();
});
document.querySelectorAll('[data-suggest]').forEach((b) => {
  b.addEventListener('click', () => send(b.dataset.suggest));
});

setBusy(false);
setStatus('loading', 'loading reducer…');
const scenariosLoaded = loadScenarios();
try {
  const factory = await loadReducer(); // web/dist/agui.wasm, next to agui.js
  reducer = factory.createReducer({});
  reducer.subscribe(schedule);
  reducer.on('custom', onCustom);
  reducer.on('diagnostic', noteDiagnostic);
  // run() reconnects when the connection is cut (agui-demo -drop-after N):
  // say so until the next frames arrive (lastNote = null repaints then).
  reducer.on('reconnect', (i) => {
    setStatus('running', `reconnecting… (${i.reconnects})`);
    lastNote = null;
    logEvent('reconnect', `reconnect ${i.reconnects}`, `Last-Event-ID ${i.lastEventId} in ${i.delay} ms (${i.reason})`);
  });
  await scenariosLoaded;
  window.aguiDemo = { reducer }; // for the console
  setBusy(false);
  render();
  setStatus(reducer.state.status || 'idle');
  document.body.dataset.ready = 'true';
  ui.input.focus();
} catch (err) {
  console.error(err);
  setStatus('error', 'no reducer');
  showError(`Could not load the reducer: ${err?.message || err}. Build it with "make wasm" (or run "make run").`, 'LOAD_FAILED');
  document.body.dataset.ready = 'error';
}
