// createAgent: one conversation for a UI component. It loads the wasm (or
// starts the worker) on first use, not when created, so that a component
// can make one while rendering, even on a server, and holds the actions a
// chat UI calls. The framework bindings (src/bindings/react.js, svelte.js, vue.js) wrap it.

import { loadReducer } from '../reducer/reducer.js';
import { createWorkerReducer } from '../worker/host.js';

const freeze = Object.freeze;

/** The state of a reducer nothing was folded into: what an agent shows before it has loaded. */
export const EMPTY_STATE = freeze({
  threadId: '', runId: '', status: 'idle', isLoading: false, error: null,
  messages: freeze([]), toolCalls: freeze([]), state: freeze({}), steps: freeze([]),
  interrupts: freeze([]), usage: freeze([]), pendingToolCallIds: freeze([]), subagents: freeze([]),
});

// Loaded modules by wasm URL: agents share one, as reducers of a factory do.
const factories = new Map();

function factory(wasm) {
  const key = wasm === undefined ? '' : String(wasm);
  let f = factories.get(key);
  if (!f) {
    f = loadReducer(wasm);
    factories.set(key, f);
    f.catch(() => factories.delete(key)); // a failed load may be retried
  }
  return f;
}

const brand = Symbol('agui agent');

/** Whether value is an agent made by createAgent. */
export function isAgent(value) {
  return value !== null && typeof value === 'object' && value[brand] === true;
}

class Agent {
  #url;
  #runOptions;
  #wasm;
  #worker;
  #reducerOptions;
  #owned = true; // the reducer is ours to dispose
  #reducer = null;
  #loading = null;
  #error = null;
  #empty;
  #listeners = new Set();
  #unsubscribe = null;
  #disposed = false;

  constructor(options = {}) {
    const { url, runOptions, wasm, worker, reducer, ...reducerOptions } = options ?? {};
    this[brand] = true;
    this.#url = url;
    this.#runOptions = runOptions;
    this.#wasm = wasm;
    this.#worker = worker;
    this.#reducerOptions = reducerOptions;
    this.#empty = reducerOptions.threadId ? freeze({ ...EMPTY_STATE, threadId: String(reducerOptions.threadId) }) : EMPTY_STATE;
    // Bound: components pass these around (useSyncExternalStore, onClick).
    for (const name of ['subscribe', 'getSnapshot', 'load', 'run', 'send', 'resume', 'stop', 'addUserMessage', 'addToolResult',
      'reset', 'setState', 'setMessages', 'runInput', 'setTools', 'dispose']) {
      this[name] = this[name].bind(this);
    }
    if (reducer) {
      this.#owned = false;
      this.#attach(reducer);
    }
  }

  /** The reducer's state; EMPTY_STATE (with the chosen threadId) until it has loaded. */
  get state() { return this.#reducer ? this.#reducer.state : this.#empty; }
  getSnapshot() { return this.state; }
  /** The reducer once loaded, else null. */
  get reducer() { return this.#reducer; }
  get ready() { return this.#reducer !== null; }
  /** Why the load failed (an Error), else null. */
  get error() { return this.#error; }
  get disposed() { return this.#disposed; }

  /** listener runs after every change of the state, and when the load ends. */
  subscribe(listener) {
    const entry = { listener };
    this.#listeners.add(entry);
    return () => { this.#listeners.delete(entry); };
  }

  #notify() {
    for (const { listener } of [...this.#listeners]) {
      try { listener(); } catch (err) { console.error('agui agent: a subscriber threw', err); }
    }
  }

  #attach(reducer) {
    this.#reducer = reducer;
    this.#unsubscribe = reducer.subscribe(() => this.#notify());
    this.#notify();
  }

  /** Loads the module (once; later calls share the promise) and resolves to the reducer. */
  load() {
    if (this.#reducer) return Promise.resolve(this.#reducer);
    if (this.#disposed) return Promise.reject(new Error('agui agent: this agent was disposed'));
    this.#loading ??= this.#create().then((r) => {
      if (this.#disposed) {
        r.dispose();
        throw new Error('agui agent: this agent was disposed');
      }
      this.#attach(r);
      return r;
    }, (err) => {
      this.#loading = null;
      this.#error = err;
      this.#notify();
      throw err;
    });
    return this.#loading;
  }

  #create() {
    this.#error = null;
    if (this.#worker) {
      const worker = typeof this.#worker === 'object' ? this.#worker : {};
      return createWorkerReducer(this.#reducerOptions, this.#wasm === undefined ? worker : { wasmURL: this.#wasm, ...worker });
    }
    return factory(this.#wasm).then((f) => f.createReducer(this.#reducerOptions));
  }

  /** POSTs input (default: the reducer's runInput()) to options.url (default: the agent's url). */
  run(input, options) {
    const { url = this.#url, ...rest } = options ?? {};
    if (url === undefined) return Promise.reject(new TypeError('agui agent: run() needs a url (createAgent({url}) or run(input, {url}))'));
    return this.load().then((r) => r.run(url, input, { ...this.#runOptions, ...rest }));
  }

  /** After a reload (the state restored with its lastEventId): continues the run the state
   *  holds, from options.url (default: the agent's url); the reducer's resume(). */
  resume(input, options) {
    const { url = this.#url, ...rest } = options ?? {};
    if (url === undefined) return Promise.reject(new TypeError('agui agent: resume() needs a url (createAgent({url}) or resume(input, {url}))'));
    return this.load().then((r) => r.resume(url, input, { ...this.#runOptions, ...rest }));
  }

  /** The UI's submit: adds a user message, then runs. */
  send(content, options) {
    return this.load().then(async (r) => {
      await r.addUserMessage(content);
      return this.run(undefined, options);
    });
  }

  stop() { return this.load().then((r) => r.stop()); }
  addUserMessage(content, id) { return this.load().then((r) => r.addUserMessage(content, id)); }
  addToolResult(toolCallId, content) { return this.load().then((r) => r.addToolResult(toolCallId, content)); }
  reset() { return this.load().then((r) => r.reset()); }
  setState(state) { return this.load().then((r) => r.setState(state)); }
  setMessages(messages) { return this.load().then((r) => r.setMessages(messages)); }
  runInput(options) { return this.load().then((r) => r.runInput(options)); }
  setTools(tools) { return this.load().then((r) => r.setTools(tools)); }

  /** Disposes the reducer the agent made (not one it was given); a load in progress is dropped. */
  dispose() {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#unsubscribe?.();
    this.#unsubscribe = null;
    if (this.#owned) this.#reducer?.dispose();
    this.#listeners.clear();
  }
}

/** The actions the framework bindings hand out (bound methods of agent): one list, so the
 *  bindings cannot drift apart. */
export function agentActions(agent) {
  return {
    run: agent.run,
    send: agent.send,
    resume: agent.resume,
    stop: agent.stop,
    addUserMessage: agent.addUserMessage,
    addToolResult: agent.addToolResult,
    reset: agent.reset,
    setState: agent.setState,
    setMessages: agent.setMessages,
    runInput: agent.runInput,
  };
}

/** An agent: a reducer loaded on first use, with a chat UI's actions. */
export function createAgent(options) {
  return new Agent(options);
}
