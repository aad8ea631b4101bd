// The apply stage of an @ag-ui/client agent, done by the wasm reducer.
//
// withReducer(Base) returns a subclass of an @ag-ui/client agent class
// (AbstractAgent, HttpAgent, or any agent built on them) whose protected
// apply() step — the one place where @ag-ui/client folds events into
// agent.messages / agent.state (defaultApplyEvents) — is replaced by the
// reducer. Everything else is the base class's own code: the middleware
// chain, the compatibility boundary, enforcement, chunk expansion,
// verification, processApplyEvents (which assigns agent.messages /
// agent.state and fires onMessagesChanged / onStateChanged), onRunFailed,
// onRunFinalized, interrupts, runAgent's result. docs/ag-ui-agent.md says
// what the base classes call and why apply() is the seam.
//
// What changes for subscribers: they receive immutable values. The official
// apply step clones the whole conversation on every event (emitUpdates →
// structuredClone) and hands subscribers its working copy; here
// agent.messages is rebuilt from the reducer's change records with
// structural sharing — a message the event did not touch keeps its identity
// — and nothing is cloned per event. Values are frozen when NODE_ENV is
// "development" or "test", as the official client freezes its inputs then.
//
// This file imports nothing from @ag-ui/client (a peer dependency, never
// bundled): the base class is a parameter, and the Observable class is taken
// from the stream apply() receives. drop-in.js binds it to the installed
// @ag-ui/client.

import { freeze, EMPTY } from './freeze.js';
import { OfficialView } from './view.js';
import { reducerMessages } from './messages.js';
import { hookName } from './subscribers.js';
import { Run } from './run.js';
import { factoryNow, warnFailed, coldRun, setReducerFactory } from './factory.js';
import { openLane, closeLane } from './lane.js';

/** The reducer factory agents use when their config names none: loadReducer()'s default
 *  (dist/agui.wasm next to agui.js), loaded once, on the first agent (src/ag-ui/factory.js). */
export { setReducerFactory };

// ---------------------------------------------------------------------------
// The agent state of one agent: the reducer, the official view, the run's tallies.

class Fold {
  constructor(reducer, factory, options) {
    this.r = reducer;
    this.factory = factory;
    this.options = options;
    this.runs = 0; // runs applying with it
    this.own = false; // a run's own fold (concurrent runs), disposed when the run ends
    this.view = new OfficialView();
    this.runIds = new Set(); // runs fed to the reducer (it skips a replayed one; the official client does not)
    this.alias = null; // [runId, alias] while a replayed run is fed under another id
    this.toolsText = null; // the run tools last handed to the reducer, as JSON
    this.told = new Set(); // tool calls whose invalid arguments onInvalidToolCall was told of
    this.refusals = new Map(); // tool call id → the result onInvalidToolCall answers it with, once it ends
    this.view.update(reducer.state);
  }

  get messages() { return this.view.messages; }
  get state() { return freeze(this.r.state.state); }

  /** Folds one event; returns the change record. */
  feed(event) {
    let e = event;
    if (e.type === 'RUN_STARTED') {
      this.alias = null;
      if (this.runIds.has(e.runId)) {
        this.alias = [e.runId, `${e.runId}\u0000${this.runIds.size}`];
        e = { ...e, runId: this.alias[1] };
      }
      this.runIds.add(e.runId);
    } else if ((e.type === 'RUN_FINISHED' || e.type === 'RUN_ERROR') && this.alias !== null && e.runId === this.alias[0]) {
      e = { ...e, runId: this.alias[1] };
    }
    const rec = this.r.apply(e);
    this.view.update(this.r.state);
    return rec;
  }

  /** Replaces the conversation by an official Message[] (setMessages, a subscriber's mutation). */
  setMessages(messages) {
    const cur = this.r.state;
    if (messages.length === 0 && cur.messages.length === 0 && cur.toolCalls.length === 0) {
      // Nothing to restore (a new agent's []): the view takes the array as it is.
      this.view.adopt(cur, freeze(messages));
      return;
    }
    const { msgs, tcs } = reducerMessages(messages, cur, this.view.legacy ? this.view.partsKept(cur) : null);
    const rec = this.r.restore({ ...cur, messages: msgs, toolCalls: tcs });
    if (rec.diagnostics?.some((d) => d.level === 'error')) throw new Error('ag-ui agent: messages the reducer cannot hold: ' + rec.diagnostics[0].message);
    const st = this.r.state;
    const v = this.view;
    v.noteContent(messages);
    // The official objects stay the ones given: one per reducer message.
    const frozen = freeze(messages);
    st.messages.forEach((m, i) => {
      const ids = m.toolCallIds ?? EMPTY;
      const tcs = ids.map((id) => st.toolCalls.find((t) => t.id === id));
      tcs.forEach((t, j) => { if (t !== undefined) v.tcCache.set(t, frozen[i].toolCalls[j]); });
      v.cache.set(m, { tcs, out: [frozen[i]] });
    });
    v.adopt(st, frozen);
  }

  /**
   * Hands the reducer a run's tools (input.tools, as @ag-ui/client builds
   * it from the agent's or CopilotKit's frontend tools): their parameters
   * schemas validate the arguments of their calls while they stream
   * (docs/tool-validation.md). The same list again costs a stringify.
   */
  setTools(tools) {
    if (!Array.isArray(tools) || tools.length === 0) return;
    let text;
    try { text = JSON.stringify(tools); } catch { return; }
    if (text === this.toolsText) return;
    this.toolsText = text;
    try {
      this.r.setTools(tools);
    } catch (err) {
      // Tools the reducer cannot take never fail a run HttpAgent would make.
      console.warn(`agui reducer: the run's tools are not validated (${err?.message ?? err})`);
    }
  }

  /** Replaces the shared state (a subscriber's mutation; with equal, input.state at the
   *  start of a run, a copy of agent.state, left alone when it holds the same). */
  setState(state, equal = false) {
    const cur = this.r.state.state;
    if (cur === state || (equal && sameJSON(cur, state))) return;
    this.r.apply({ type: 'STATE_SNAPSHOT', snapshot: state });
    this.view.update(this.r.state);
  }
}

function sameJSON(a, b) {
  if (a === b) return true;
  try { return JSON.stringify(a) === JSON.stringify(b); } catch { return false; }
}

// ---------------------------------------------------------------------------
// The mixin

const FOLD = Symbol('ag-ui reducer fold');
const CONFIG = Symbol('ag-ui reducer config');
const WARNED = Symbol('ag-ui reducer warned');

/** rxjs' Observable, from one of its instances: the root of its class chain
 *  (a stream may be a Subject, or an AnonymousSubject from Subject.lift). */
function rootClass(obj) {
  let proto = Object.getPrototypeOf(obj);
  while (Object.getPrototypeOf(proto) !== Object.prototype && Object.getPrototypeOf(proto) !== null) proto = Object.getPrototypeOf(proto);
  return proto.constructor;
}

// Module functions rather than private methods: clone() makes its copy with
// Object.create, which has none of the original's private members.

/**
 * The agent's Fold if its reducer factory is at hand, in step with
 * agent.messages; else null while the factory loads, or the error it failed
 * to load with.
 */
function foldNow(agent) {
  let f = agent[FOLD];
  if (f === undefined) {
    const cfg = agent[CONFIG] ?? {};
    const now = factoryNow(cfg.reducer);
    if (now === null || now === undefined) return null;
    if (now.error !== undefined) {
      warnFailed(cfg.reducer, now.error);
      return now.error instanceof Error ? now.error : new Error(String(now.error));
    }
    f = newFold(now.factory, cfg);
    // With @ag-ui/client 0.0.x and the transport's bridge on (bridge.js),
    // messages in the shapes that client's types promise.
    f.view.legacy = !('maxProtocolVersion' in agent) && cfg.bridge !== false;
    if (agent.messages.length > 0) {
      // The reducer takes over from cold runs: should their messages be
      // ones it cannot hold, this run stays cold too.
      try {
        f.setMessages(agent.messages);
      } catch (err) {
        f.r.dispose();
        if (!agent[WARNED]) console.warn(`${err.message}; this run applies events with @ag-ui/client's own apply step`);
        agent[WARNED] = true;
        return err;
      }
    }
    agent[FOLD] = f;
  }
  // agent.messages is the view unless someone assigned another array
  // (constructor, setMessages, addMessage, a lifecycle mutation, a
  // concurrent run's own fold); not while a run applies with it.
  if (agent.messages !== f.messages && f.runs === 0) f.setMessages(agent.messages);
  return f;
}

function newFold(factory, cfg) {
  const options = { dialect: 'agui', ...(cfg.reducerOptions ?? {}) };
  return new Fold(factory.createReducer(options), factory, options);
}

/**
 * The fold a run applies with: the agent's, or, while another run of the
 * agent applies with it (concurrent runAgent calls), one of the run's own
 * made from agent.messages. HttpAgent gives each run its own copy of the
 * conversation as it was when the run began, and agent.messages is the copy
 * of whichever run emitted last: the runs never mix their events.
 */
function claimFold(agent, f) {
  if (f.runs > 0) {
    const own = new Fold(f.factory.createReducer(f.options), f.factory, f.options);
    own.own = true;
    own.view.legacy = f.view.legacy;
    own.setMessages(agent.messages);
    f = own;
  }
  f.runs++;
  let held = true;
  return [f, () => {
    if (!held) return;
    held = false;
    f.runs--;
    if (f.own) f.r.dispose();
  }];
}

/**
 * A cold run: the base class's own apply step (@ag-ui/client's
 * defaultApplyEvents), for a run that starts before the reducer factory is
 * at hand (or when it failed to load); the run never waits for the wasm.
 * The next run that starts with the factory at hand restores the reducer
 * from agent.messages (foldNow: they are not the view) and input.state.
 */
function coldApply(official, events$) {
  const Observable = rootClass(events$);
  return new Observable((observer) => {
    const end = coldRun();
    const sub = official.subscribe({
      next: (m) => observer.next(m),
      error: (err) => { end(); observer.error(err); },
      complete: () => { end(); observer.complete(); },
    });
    return () => {
      sub.unsubscribe();
      end();
    };
  });
}

/**
 * events$ with the run's token lane merged in (lane.js), for @ag-ui/client's
 * own apply step (a cold run): the drop-in's transport hands it the plain
 * deltas too, which a first run of a page then folds without the stages'
 * work per delta.
 */
function withLane(agent, input, events$) {
  const Observable = rootClass(events$);
  return new Observable((observer) => {
    const next = (event) => observer.next(event);
    const lane = openLane(agent, input, next);
    const sub = events$.subscribe({
      next: lane === null ? next : (event) => {
        lane.saw(event);
        next(event);
      },
      error: (err) => observer.error(err),
      complete: () => observer.complete(),
    });
    return () => {
      if (lane !== null) closeLane(input, lane);
      sub.unsubscribe();
    };
  });
}

/**
 * withReducer(Base) → a subclass of Base (an @ag-ui/client AbstractAgent
 * subclass) whose apply step is the reducer. The constructor takes Base's
 * config plus `reducer`: a ReducerFactory (or a promise of one) from
 * loadReducer; default: setReducerFactory's, else loadReducer().
 */
export function withReducer(Base) {
  return class ReducerAgent extends Base {
    constructor(config = {}, ...rest) {
      super(config, ...rest);
      this[CONFIG] = {
        reducer: config?.reducer ?? null, reducerOptions: config?.reducerOptions ?? null, bridge: config?.bridge,
        onInvalidToolCall: typeof config?.onInvalidToolCall === 'function' ? config.onInvalidToolCall : null,
      };
    }

    /** The reducer's agent state (web/types/agui.d.ts AgentState), once a run started. */
    get reducerState() { return this[FOLD]?.r.state; }

    clone() {
      const c = super.clone();
      c[CONFIG] = this[CONFIG];
      delete c[FOLD];
      return c;
    }

    addMessage(message) {
      this.messages = [...this.messages];
      return super.addMessage(message);
    }

    addMessages(messages) {
      this.messages = [...this.messages];
      return super.addMessages(messages);
    }

    apply(input, events$, subscribers) {
      const f = foldNow(this);
      if (f === null || f instanceof Error) return coldApply(super.apply(input, withLane(this, input, events$), subscribers), events$);
      const Observable = rootClass(events$);
      return new Observable((observer) => {
        let closed = false, emitted = false, completed = false, busy = false, run = null;
        let release = () => {};
        const queue = [];
        const fail = (err) => {
          if (closed) return;
          closed = true;
          release();
          observer.error(err);
        };
        const emit = (mutation) => {
          if (closed) return;
          emitted = true;
          observer.next(mutation);
        };
        const finish = () => {
          if (closed) return;
          if (!emitted && subscribers.length > 0) observer.next({});
          closed = true;
          release();
          observer.complete();
        };
        // concatMap(async …) as the official apply step: one event at a
        // time, the first one started at once (its first subscriber runs
        // synchronously); a source error is forwarded at once, and an event
        // in progress then runs to its end without emitting.
        const pump = async () => {
          busy = true;
          try {
            while (queue.length > 0 && !closed) await run.event(queue.shift(), emit);
          } catch (err) {
            fail(err);
          }
          busy = false;
          if (closed) release();
          else if (completed) finish();
        };
        const start = (shared) => {
          if (closed) return;
          const [f, free] = claimFold(this, shared);
          release = free;
          f.setState(input.state ?? {}, true);
          f.setTools(input.tools);
          run = new Run(this, f, input, subscribers, queue, this[CONFIG]?.onInvalidToolCall ?? null);
          if (queue.length > 0) pump();
          else if (completed) finish();
        };
        start(f);
        const next = (event) => {
          queue.push(event);
          if (run !== null && !busy) pump();
        };
        // The drop-in's transport hands the run's plain deltas over
        // directly (lane.js); what comes through the stages tells the lane
        // which messages and tool calls are open.
        const lane = closed ? null : openLane(this, input, next);
        const sub = events$.subscribe({
          next: lane === null ? next : (event) => {
            lane.saw(event);
            next(event);
          },
          error: fail,
          complete: () => {
            completed = true;
            if (run !== null && !busy) finish();
          },
        });
        return () => {
          closed = true;
          if (lane !== null) closeLane(input, lane);
          sub.unsubscribe();
          if (!busy) release(); // else when the event in progress ends (pump)
        };
      });
    }
  };
}

export const __internal = { OfficialView, reducerMessages, hookName, sameJSON };
