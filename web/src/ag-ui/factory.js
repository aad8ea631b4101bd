// The reducer factory the drop-in's agents apply with, and whether it is at
// hand. A run never waits for it: a run that starts while the factory is
// still loading (or after it failed to load) applies with @ag-ui/client's
// own apply step (with-reducer.js, "cold runs"); the first run that starts
// after it resolved applies with the reducer, restored from agent.messages.
//
// The default factory (drop-in.js asks for it when it is imported) keeps
// off a first run's way, within a bound: the reducer's modules are imported
// (factory-load.js, with import()) only when it starts loading, so a cold
// run evaluates what HttpAgent's would. The module is fetched (over HTTP) or
// read (Node) and compiled once the page is idle after the import and no
// cold run is applying; compiling is off the main thread (compileStreaming
// as the bytes arrive; WebAssembly.compile). The Go runtime, whose start
// runs on the main thread, is started once no cold run is applying. Both
// waits end at TAKEOVER_MS after the import: an app whose runs follow each
// other with no gap (an agent loop, a tool answered at once, a test suite)
// pays the module's start once, inside the run in progress then, and the
// reducer folds every run that starts after that. docs/ag-ui-agent.md,
// "Cold start".

import { packageFiles } from '../wasm/package-files.js';
import { fileReader } from '../wasm/file-reader.js';

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
  // The module's bytes and compilation (off the main thread) from
  // COMPILE_MS; the runtime's start (on it) from TAKEOVER_MS.
  const start = new Promise((resolve) => whenIdle(resolve, COMPILE_MS)).then(gate(COMPILE_MS));
  return start.then(() => {
    // The reducer's modules and the module's bytes at once: under a
    // streaming run each module of the import waits for a turn of the
    // event loop, while the bytes are read or fetched, and compiled, off
    // the main thread.
    const load = import('./factory-load.js');
    let module;
    const read = file ? fileReader() : null;
    if (read !== null) {
      module = Promise.resolve(url).then(read).then((bytes) => WebAssembly.compile(bytes))
        .catch(() => load.then(({ compileModule }) => compileModule(url))); // the loader's own errors
    } else if (file) module = load.then(({ compileModule }) => compileModule(url));
    else {
      // Compiled as it arrives (compileStreaming, which also lets the
      // browser cache the compiled code).
      const response = fetch(url).catch((err) => load.then(({ LoadError }) => {
        throw new LoadError(`fetching ${url} failed: ${err?.message ?? err}`, { url, cause: err });
      }));
      module = Promise.all([load, response]).then(([{ compileModule }, r]) => compileModule(r));
    }
    return Promise.all([load, module.then(gate(TAKEOVER_MS))]);
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
 * Resolves once the default reducer factory (setReducerFactory's, else the
 * package's) is ready: every run that starts after it is folded by the
 * reducer. Rejects with the LoadError of a factory that failed to load.
 */
export function reducerReady() {
  preloadReducerFactory();
  return Promise.resolve(shared).then(() => undefined);
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

/**
 * How long after the import the default factory waits, at most, for a
 * moment when no cold run is applying (ms): past it, the module is
 * compiled and the Go runtime started during the run in progress, which
 * then pays for the start once (some 30–90 ms of the main thread). Before
 * it, a first run that ends within it pays nothing. The reducer folds
 * every run that starts once the factory is ready: within about a second
 * of the import on a 2-core machine, whatever the runs' pattern.
 */
export const TAKEOVER_MS = 300;
/** The same bound for fetching (or reading) and compiling the module, which run off the main thread. */
const COMPILE_MS = 50;

const clock = () => (typeof performance !== 'undefined' ? performance.now() : Date.now());
const importedAt = clock();
const left = (ms) => Math.max(0, ms - (clock() - importedAt));

// Cold runs in progress (with-reducer.js counts them), and the default
// factory's steps waiting for none to be, or for their bound to pass.
let coldRuns = 0;
let waiting = []; // [resolve, bound]

/** Counts a cold run; the function returned ends it (once). */
export function coldRun() {
  coldRuns++;
  let ended = false;
  return () => {
    if (ended) return;
    ended = true;
    coldRuns--;
    whenIdle(() => wake(false));
  };
}

// After a task: in a browser when the page is idle (the app renders the
// run's end first), within the bound.
const whenIdle = typeof requestIdleCallback === 'function'
  ? (f, bound = TAKEOVER_MS) => requestIdleCallback(f, { timeout: Math.max(1, left(bound)) })
  : (f) => setTimeout(f, 0);

/** Wakes the waiters: all once no cold run applies, else those past their bound. */
function wake(timer) {
  if (waiting.length === 0 || (coldRuns > 0 && !timer)) return; // a cold run started meanwhile: its end, or the bound, wakes them
  const now = waiting;
  waiting = [];
  for (const w of now) {
    if (coldRuns === 0 || left(w[1]) === 0) w[0]();
    else waiting.push(w);
  }
}

/** value → value once no cold run is applying, or once bound ms have passed since the import. */
function gate(bound) {
  return (value) => {
    if (coldRuns === 0 || left(bound) === 0) return value;
    return new Promise((resolve) => {
      waiting.push([() => resolve(value), bound]);
      armBound(bound);
    });
  };
}

/**
 * A timer that wakes the waiters once bound ms have passed since the
 * import. Node may run a timer a little before that by the clock left()
 * reads (libuv times it from its loop's cached time, stale after a long
 * synchronous stretch such as a cold run's read): one that finds the bound
 * not yet passed arms itself again. Woken early, a waiter would wait for
 * a moment with no cold run, which runs back to back never give.
 */
function armBound(bound) {
  // Under Node the timer keeps no process alive on its own.
  setTimeout(() => (left(bound) > 0 ? armBound(bound) : wake(true)), left(bound) + 1)?.unref?.();
}
