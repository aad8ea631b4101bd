// The reducer factory the drop-in's agents apply with, and whether it is at
// hand. A run never waits for it: a run that starts while the factory is
// still loading (or after it failed to load) applies with @ag-ui/client's
// own apply step (with-reducer.js, "cold runs"); the first run that starts
// after it resolved applies with the reducer, restored from agent.messages.
//
// The default factory (drop-in.js asks for it when it is imported)
// keeps off a first run's way: the reducer's modules are imported
// (factory-load.js, with import()) only when it starts loading, so a cold
// run evaluates what HttpAgent's would; over HTTP (a browser), the module
// is requested once the page is idle after the import (the app's start-up
// done), or, should a cold run be in flight by then, once no cold run is
// applying: its download and decoding, and the compiler's threads, would
// take the CPU from a first run that is streaming (on a machine of two
// cores, a run's time). It is compiled (compileStreaming) as it arrives.
// From a file (Node: no download to overlap), it is read and compiled after
// the first cold run. The Go runtime, whose start runs on the main thread,
// is started once no cold run is applying. docs/ag-ui-agent.md, "Cold start".

import { packageFiles } from '../wasm/package-files.js';

/** A factory promise → { factory } or { error } once it settled (null before). */
const settled = new WeakMap();
const warned = new WeakSet();

let shared = null; // the default: a factory, a promise of one, or null (not asked for yet)

/** The reducer factory agents use when their config names none (null: back to the package's). */
export function setReducerFactory(factory) {
  shared = factory ?? null;
  if (shared !== null) track(shared);
}

/** Starts loading the package's reducer factory, unless a factory is set already. */
export function preloadReducerFactory() {
  if (shared === null) setReducerFactory(loadDefault());
}

function loadDefault() {
  const url = packageFiles.wasmURL();
  const file = url.protocol === 'file:';
  // Requested after the first cold run (a file), or when the page is idle
  // and no cold run applies (over HTTP).
  const start = file ? afterColdRun : new Promise((resolve) => whenIdle(resolve)).then(whenNoColdRun);
  return start.then(() => {
    const load = import('./factory-load.js');
    let module;
    if (file) module = load.then(({ compileModule }) => compileModule(url));
    else {
      // Compiled (compileStreaming, which also lets the browser cache the
      // compiled code) once no cold run is applying.
      const response = fetch(url).catch((err) => load.then(({ LoadError }) => {
        throw new LoadError(`fetching ${url} failed: ${err?.message ?? err}`, { url, cause: err });
      }));
      module = Promise.all([load, response.then(whenNoColdRun)]).then(([{ compileModule }, r]) => compileModule(r));
    }
    return Promise.all([load, module.then(whenNoColdRun)]);
  }).then(([{ loadReducer }, m]) => loadReducer(m)).then(warm);
}

// A short run folded once the runtime has started, before the factory is
// handed out: the module's code is compiled on a function's first call, so
// the first run on the reducer would otherwise pay for compiling the fold's
// functions (and the mirror's JavaScript) while it streams.
const WARM_EVENTS = [
  { type: 'RUN_STARTED', threadId: 't', runId: 'r' },
  { type: 'STATE_SNAPSHOT', snapshot: { a: [1], b: { c: 'd' } } },
  { type: 'REASONING_START', messageId: 'x' },
  { type: 'REASONING_MESSAGE_START', messageId: 'x', role: 'reasoning' },
  { type: 'REASONING_MESSAGE_CONTENT', messageId: 'x', delta: 'h' },
  { type: 'REASONING_MESSAGE_END', messageId: 'x' },
  { type: 'REASONING_END', messageId: 'x' },
  { type: 'TEXT_MESSAGE_START', messageId: 'm', role: 'assistant' },
  { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'a "b"\n' },
  { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'é' },
  { type: 'TEXT_MESSAGE_END', messageId: 'm' },
  { type: 'TOOL_CALL_START', toolCallId: 'c', toolCallName: 'f', parentMessageId: 'm' },
  { type: 'TOOL_CALL_ARGS', toolCallId: 'c', delta: '{"k":' },
  { type: 'TOOL_CALL_ARGS', toolCallId: 'c', delta: '"v"}' },
  { type: 'TOOL_CALL_END', toolCallId: 'c' },
  { type: 'TOOL_CALL_RESULT', messageId: 'tr', toolCallId: 'c', content: 'ok' },
  { type: 'STATE_DELTA', delta: [{ op: 'replace', path: '/b/c', value: 'e' }, { op: 'add', path: '/a/-', value: 2 }] },
  { type: 'CUSTOM', name: 'n', value: 1 },
  { type: 'RUN_FINISHED', threadId: 't', runId: 'r' },
];

function warm(factory) {
  try {
    const r = factory.createReducer({ dialect: 'agui' });
    for (const e of WARM_EVENTS) {
      r.apply(e);
      void r.state.messages;
    }
    r.dispose();
  } catch { /* a warm-up only */ }
  return factory;
}

function track(p) {
  if (typeof p?.then !== 'function' || settled.has(p)) return;
  settled.set(p, null);
  p.then((factory) => settled.set(p, { factory }), (error) => settled.set(p, { error }));
}

/**
 * The factory an agent applies with (its `reducer` option, else the
 * default): { factory } when it is at hand, { error } when it failed to
 * load, null while it loads.
 */
export function factoryNow(reducer) {
  if (reducer == null) {
    preloadReducerFactory();
    reducer = shared;
  }
  if (typeof reducer.then !== 'function') return { factory: reducer };
  track(reducer);
  return settled.get(reducer);
}

/**
 * The diagnostic of a factory that failed to load, once per factory, at the
 * first run it makes fall back: the runs still complete, with the official
 * apply step.
 */
export function warnFailed(reducer, error) {
  const key = reducer ?? shared;
  if (key === null || typeof key !== 'object' || warned.has(key)) return;
  warned.add(key);
  console.warn(`agui reducer: the reducer factory failed to load (${error?.message ?? error}); `
    + "this agent's runs apply events with @ag-ui/client's own apply step");
}

// Cold runs in progress (with-reducer.js counts them), and the default
// factory's start waiting for none to be.
let coldRuns = 0;
let waiting = [];
let coldRunEnded;
const afterColdRun = new Promise((resolve) => { coldRunEnded = resolve; });

/** Counts a cold run; the function returned ends it (once). */
export function coldRun() {
  coldRuns++;
  let ended = false;
  return () => {
    if (ended) return;
    ended = true;
    coldRuns--;
    whenIdle(() => {
      coldRunEnded();
      wake();
    });
  };
}

// After the run's last task: in a browser when it is idle (the app renders
// the run's end first), within a second.
const whenIdle = typeof requestIdleCallback === 'function'
  ? (f) => requestIdleCallback(f, { timeout: 1000 })
  : (f) => setTimeout(f, 0);

function wake() {
  if (coldRuns > 0 || waiting.length === 0) return; // a cold run started meanwhile: its end wakes them
  const w = waiting;
  waiting = [];
  for (const resolve of w) resolve();
}

function whenNoColdRun(value) {
  if (coldRuns === 0) return value;
  return new Promise((resolve) => waiting.push(() => resolve(value)));
}
