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
// from the stream apply() receives. ag-ui.js binds it to the installed
// @ag-ui/client.

import { loadReducer } from '../../agui.js';
import { freeze, EMPTY, OfficialView, reducerMessages, hookName, runSubscribers, toolCallOf, messageOf } from './view.js';

let sharedFactory = null;
let resolvedFactory = null; // sharedFactory once it has resolved

/** The reducer factory agents use when their config names none: loadReducer()'s default
 *  (dist/agui.wasm next to agui.js), loaded once, on the first agent. */
export function setReducerFactory(factory) {
  resolvedFactory = factory != null && typeof factory.then !== 'function' ? factory : null;
  sharedFactory = factory == null ? null : Promise.resolve(factory);
  sharedFactory?.then((f) => { resolvedFactory = f; }, () => {});
}

function defaultFactory() {
  if (sharedFactory === null) setReducerFactory(loadReducer());
  return sharedFactory;
}

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
    const { msgs, tcs } = reducerMessages(messages, cur);
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

/** rxjs' Observable, from one of its instances: the root of its class chain
 *  (a stream may be a Subject, or an AnonymousSubject from Subject.lift). */
function rootClass(obj) {
  let proto = Object.getPrototypeOf(obj);
  while (Object.getPrototypeOf(proto) !== Object.prototype && Object.getPrototypeOf(proto) !== null) proto = Object.getPrototypeOf(proto);
  return proto.constructor;
}

// Module functions rather than private methods: clone() makes its copy with
// Object.create, which has none of the original's private members.

/** The agent's Fold if its reducer factory is at hand (else null), in step with agent.messages. */
function foldNow(agent) {
  let f = agent[FOLD];
  if (f === undefined) {
    const cfg = agent[CONFIG] ?? {};
    const factory = cfg.reducer != null
      ? (typeof cfg.reducer.then === 'function' ? null : cfg.reducer)
      : (defaultFactory(), resolvedFactory);
    if (factory === null) return null;
    f = agent[FOLD] = newFold(factory, cfg);
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

async function foldLater(agent) {
  const cfg = agent[CONFIG] ?? {};
  if (agent[FOLD] === undefined) {
    const factory = await (cfg.reducer ?? defaultFactory());
    if (agent[FOLD] === undefined) agent[FOLD] = newFold(factory, cfg);
  }
  return foldNow(agent);
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
      this[CONFIG] = { reducer: config?.reducer ?? null, reducerOptions: config?.reducerOptions ?? null };
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
          run = new Run(this, f, input, subscribers);
          if (queue.length > 0) pump();
          else if (completed) finish();
        };
        const f = foldNow(this);
        if (f !== null) start(f);
        else foldLater(this).then(start, fail);
        const sub = events$.subscribe({
          next: (event) => {
            queue.push(event);
            if (run !== null && !busy) pump();
          },
          error: fail,
          complete: () => {
            completed = true;
            if (run !== null && !busy) finish();
          },
        });
        return () => {
          closed = true;
          sub.unsubscribe();
          if (!busy) release(); // else when the event in progress ends (pump)
        };
      });
    }
  };
}

/** One run's apply step: the official defaultApplyEvents, event by event, with the reducer. */
class Run {
  constructor(agent, fold, input, subscribers) {
    this.agent = agent;
    this.f = fold;
    this.input = input;
    this.subs = subscribers;
    this.runToolCallIds = [];
    this.answered = new Set();
    this.mutation = {};
    // @ag-ui/client before 1.0 (the 0.0.59 CopilotKit 1.74 uses): no
    // cancelled outcome and no pendingToolCallIds in onRunFinishedEvent.
    this.legacy = !('maxProtocolVersion' in agent);
  }

  get messages() { return this.f.messages; }
  get state() { return this.f.state; }

  /** A subscriber's replacement values become the reducer's. */
  adopt(m) {
    if (m.messages !== undefined) {
      this.f.setMessages(m.messages);
      this.mutation.messages = this.f.messages;
    }
    if (m.state !== undefined) {
      this.f.setState(m.state);
      this.mutation.state = this.f.state;
    }
  }

  round(hook, extra) {
    const { agent, input } = this;
    return runSubscribers(this.subs, this.messages, this.state, (s, messages, state) =>
      s[hook]?.({ event: extra.event, ...extra, messages, state, agent, input }));
  }

  flush(emit) {
    const m = this.mutation;
    this.mutation = {};
    if (m.messages !== undefined || m.state !== undefined) emit(m);
  }

  async event(event, emit) {
    const { agent, input } = this;
    const first = await this.round('onEvent', { event });
    this.adopt(first);
    if (first.stopPropagation === true) return this.flush(emit);

    const type = event.type;
    const extra = { event };
    let msgs = this.messages;
    let target; // the message or tool call the event works on
    switch (type) {
      case 'TEXT_MESSAGE_CHUNK': case 'TOOL_CALL_CHUNK': case 'REASONING_MESSAGE_CHUNK':
        throw new Error(`${type} must be transformed before being applied`);
      case 'TEXT_MESSAGE_CONTENT': case 'TEXT_MESSAGE_END':
      case 'REASONING_MESSAGE_CONTENT': case 'REASONING_MESSAGE_END':
        target = this.messageOf(msgs, event.messageId);
        if (target === undefined || target.role === 'activity') return this.flush(emit);
        extra[type.startsWith('TEXT') ? 'textMessageBuffer' : 'reasoningMessageBuffer'] =
          typeof target.content === 'string' ? target.content : '';
        break;
      case 'TOOL_CALL_ARGS': case 'TOOL_CALL_END': {
        target = this.toolCallOf(msgs, event.toolCallId);
        if (target === undefined) return this.flush(emit);
        extra.toolCallName = target.function.name;
        if (type === 'TOOL_CALL_ARGS') {
          extra.toolCallBuffer = target.function.arguments;
          extra.partialToolCallArgs = this.partialArgs(event.toolCallId, target.function.arguments);
        } else {
          let args = {};
          try { args = JSON.parse(target.function.arguments); } catch { /* {} */ }
          extra.toolCallArgs = args;
        }
        break;
      }
      case 'ACTIVITY_SNAPSHOT': {
        const existing = this.messageOf(msgs, event.messageId);
        extra.activityMessage = existing?.role === 'activity' ? existing : undefined;
        extra.existingMessage = existing;
        target = existing;
        break;
      }
      case 'ACTIVITY_DELTA':
        target = this.messageOf(msgs, event.messageId);
        if (target === undefined || target.role !== 'activity') return this.flush(emit);
        extra.activityMessage = target;
        break;
      case 'RUN_FINISHED': {
        const o = event.outcome;
        if (o?.type === 'interrupt') Object.assign(extra, { outcome: 'interrupt', interrupts: o.interrupts });
        else if (this.legacy) Object.assign(extra, { outcome: 'success', result: event.result });
        else if (o?.type === 'cancelled') extra.outcome = 'cancelled';
        else {
          const named = o?.type === 'success' ? o.pendingToolCallIds : undefined;
          Object.assign(extra, {
            outcome: 'success', result: event.result,
            pendingToolCallIds: named !== undefined && named.length > 0 ? [...named] : this.runToolCallIds.filter((id) => !this.answered.has(id)),
          });
        }
        break;
      }
      case 'TEXT_MESSAGE_START': case 'REASONING_MESSAGE_START':
        target = this.messageOf(msgs, event.messageId);
        break;
    }

    const known = KNOWN.has(type);
    const typed = known ? await this.round(hookName(type), extra) : {};
    this.adopt(typed);
    const stop = typed.stopPropagation === true;
    if (type === 'RUN_STARTED') {
      this.runToolCallIds = [];
      this.answered = new Set();
    }
    if (!known) return this.flush(emit);

    msgs = this.messages;
    let changesMessages = false;
    let changesState = false;
    if (!stop) {
      const meta = event.metadata !== undefined;
      // Whether the official reducer emits the messages for this event
      // (agui-official.md §2, "Upd"): subscribers count onMessagesChanged.
      switch (type) {
        case 'TEXT_MESSAGE_START': case 'REASONING_MESSAGE_START': {
          const existing = this.messageOf(msgs, event.messageId);
          if (existing?.role === 'activity') return this.flush(emit);
          changesMessages = existing === undefined || meta;
          if (existing === undefined && type === 'TEXT_MESSAGE_START') this.f.view.markContent(event.messageId, true);
          break;
        }
        case 'TEXT_MESSAGE_CONTENT': case 'REASONING_MESSAGE_CONTENT': case 'TOOL_CALL_ARGS':
        case 'TOOL_CALL_RESULT': case 'MESSAGES_SNAPSHOT': case 'ACTIVITY_SNAPSHOT':
          changesMessages = true;
          if (type === 'TEXT_MESSAGE_CONTENT') this.f.view.markContent(event.messageId, true);
          if (type === 'MESSAGES_SNAPSHOT') this.f.view.noteContent(event.messages ?? []);
          if (type === 'TOOL_CALL_RESULT') this.answered.add(event.toolCallId);
          break;
        case 'TEXT_MESSAGE_END': case 'REASONING_MESSAGE_END': case 'TOOL_CALL_END':
          changesMessages = meta;
          break;
        case 'TOOL_CALL_START': {
          const existing = this.toolCallOf(msgs, event.toolCallId);
          changesMessages = existing === undefined || meta || existing.function.name !== event.toolCallName;
          if (!this.runToolCallIds.includes(event.toolCallId)) this.runToolCallIds.push(event.toolCallId);
          if (existing === undefined) {
            // The assistant message the official client creates for it has no content.
            const parent = event.parentMessageId ? this.messageOf(msgs, event.parentMessageId) : undefined;
            if (parent?.role !== 'assistant') this.f.view.markContent(parent !== undefined || !event.parentMessageId ? event.toolCallId : event.parentMessageId, false);
          }
          break;
        }
        case 'RUN_STARTED':
          changesMessages = event.input?.messages !== undefined;
          if (changesMessages) this.f.view.noteContent(event.input.messages.filter((m) => this.messageOf(msgs, m.id) === undefined));
          break;
        case 'REASONING_ENCRYPTED_VALUE':
          if (event.subtype === 'tool-call') changesMessages = msgs.some((m) => m.role === 'assistant' && m.toolCalls?.some((t) => t.id === event.entityId));
          else changesMessages = msgs.some((m) => m.id === event.entityId && m.role !== 'activity');
          break;
        case 'STATE_SNAPSHOT':
          changesState = true;
          break;
      }
      const rec = this.f.feed(event);
      const failed = rec.diagnostics?.some((d) => d.code === 'patch_failed') ?? false;
      if (type === 'STATE_DELTA') changesState = !failed;
      if (type === 'ACTIVITY_DELTA') changesMessages = meta || !failed;
      if (type === 'RUN_FINISHED') {
        agent.pendingInterrupts = extra.outcome === 'interrupt'
          ? event.outcome.interrupts.map((i) => {
            if (i.subagentRunId !== null) return i;
            const { subagentRunId: _, ...rest } = i;
            return rest;
          })
          : [];
      }
      if (changesMessages) this.mutation.messages = this.messages;
      if (changesState) this.mutation.state = this.state;
    }

    // The announcements the official reducer makes after applying.
    const state = this.state;
    msgs = this.messages;
    switch (type) {
      case 'TEXT_MESSAGE_END': case 'REASONING_MESSAGE_END': {
        const message = this.messageOf(msgs, event.messageId) ?? target;
        for (const s of this.subs) s.onNewMessage?.({ message, messages: msgs, state, agent, input });
        break;
      }
      case 'TOOL_CALL_END': {
        const toolCall = this.toolCallOf(msgs, event.toolCallId) ?? target;
        for (const s of this.subs) s.onNewToolCall?.({ toolCall, messages: msgs, state, agent, input });
        break;
      }
      case 'TOOL_CALL_RESULT':
        if (!stop) {
          const message = newest(msgs, event.messageId);
          for (const s of this.subs) s.onNewMessage?.({ message, messages: msgs, state, agent, input });
        }
        break;
      case 'ACTIVITY_SNAPSHOT':
        if (!stop && (target === undefined || (target.role !== 'activity' && (event.replace ?? true)))) {
          const message = this.messageOf(msgs, event.messageId);
          await Promise.all(this.subs.map((s) => s.onNewMessage?.({ message, messages: msgs, state, agent, input })));
        }
        break;
    }
    return this.flush(emit);
  }

  // The first message (tool call) with an id in msgs: from the view's
  // positions when msgs is the view (it always is but for a subscriber's
  // replacement being adopted), else a scan.
  messageOf(msgs, id) {
    const v = this.f.view;
    return msgs === v.messages ? v.messageOf(id) : messageOf(msgs, id);
  }

  toolCallOf(msgs, id) {
    const v = this.f.view;
    return msgs === v.messages ? v.toolCallOf(id) : toolCallOf(msgs, id);
  }

  /** partialToolCallArgs: what the arguments so far parse to. */
  partialArgs(id, text) {
    if (text === '') return {};
    const st = this.f.r.state;
    const v = this.f.view;
    const tc = st.toolCalls === v.srcToolCalls ? v.srcToolCallOf(id) : st.toolCalls.find((t) => t.id === id);
    return tc !== undefined && tc.args !== null && typeof tc.args === 'object' ? tc.args : {};
  }
}

/** The tool message TOOL_CALL_RESULT made: the last with that id (results are not deduplicated). */
function newest(messages, id) {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i].id === id && messages[i].role === 'tool') return messages[i];
  return messageOf(messages, id);
}

// The event types AG-UI 1.0's defaultApplyEvents handles (others reach only onEvent).
const KNOWN = new Set([
  'TEXT_MESSAGE_START', 'TEXT_MESSAGE_CONTENT', 'TEXT_MESSAGE_END',
  'TOOL_CALL_START', 'TOOL_CALL_ARGS', 'TOOL_CALL_END', 'TOOL_CALL_RESULT',
  'STATE_SNAPSHOT', 'STATE_DELTA', 'MESSAGES_SNAPSHOT', 'ACTIVITY_SNAPSHOT', 'ACTIVITY_DELTA',
  'RAW', 'CUSTOM', 'RUN_STARTED', 'RUN_FINISHED', 'RUN_ERROR', 'STEP_STARTED', 'STEP_FINISHED',
  'REASONING_START', 'REASONING_MESSAGE_START', 'REASONING_MESSAGE_CONTENT', 'REASONING_MESSAGE_END',
  'REASONING_END', 'REASONING_ENCRYPTED_VALUE',
  'SUBAGENT_STARTED', 'SUBAGENT_FINISHED', 'SUBAGENT_ERROR',
]);

export const __internal = { OfficialView, reducerMessages, hookName, sameJSON };
