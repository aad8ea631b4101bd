// One run's apply step of the drop-in agent (with-reducer.js makes one per
// run): @ag-ui/client's defaultApplyEvents, event by event — the subscriber
// rounds the official client makes, in its order, around the reducer's fold
// (Fold.feed), and the mutations it emits.

import { hookName, hasHook, runSubscribers, NO_MUTATION } from './subscribers.js';
import { toolCallOf, messageOf } from './messages.js';
import { originalOf } from './bridge.js';

/** One run's apply step: the official defaultApplyEvents, event by event, with the reducer. */
export class Run {
  constructor(agent, fold, input, subscribers, queue = null, onInvalid = null) {
    this.agent = agent;
    // The agent's onInvalidToolCall (docs/ag-ui-agent.md, "Tool arguments"):
    // told once per call whose arguments break its tool's schema.
    this.onInvalid = onInvalid;
    // The run's events not yet applied (with-reducer.js's queue): a network
    // read's later events, which the view's argument texts build ahead for.
    if (queue !== null) fold.view.args.queue = queue;
    this.f = fold;
    this.input = input;
    this.subs = subscribers;
    this.runToolCallIds = [];
    this.answered = new Set();
    this.mutation = {};
    this.hooks = new Map(); // hook name → whether a subscriber of the run has it
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

  /**
   * A subscriber round: NO_MUTATION at once when no subscriber has the
   * hook (whether one has it is looked up once per run and hook: the
   * subscribers are the run's), else a promise of the mutation.
   */
  round(hook, extra) {
    if (!this.has(hook)) return NO_MUTATION;
    const { agent, input } = this;
    return runSubscribers(this.subs, hook, this.messages, this.state, (s, messages, state) =>
      s[hook]?.({ event: extra.event, ...extra, messages, state, agent, input }));
  }

  /** Whether a subscriber of the run has the hook. */
  has(hook) {
    let has = this.hooks.get(hook);
    if (has === undefined) this.hooks.set(hook, (has = hasHook(this.subs, hook)));
    return has;
  }

  /** Folds event; a pre-1.0 client's event as it came when the transport's bridge changed it
   *  (bridge.js), and as the reducer reads what that client accepted (legacyEvent). */
  #feed(event) {
    return this.f.feed(this.legacy ? legacyEvent(originalOf(event)) : event);
  }

  flush(emit) {
    const m = this.mutation;
    this.mutation = {};
    if (m.messages !== undefined || m.state !== undefined) emit(m);
  }

  /**
   * Applies one event. The streaming deltas (nearly every event of a run)
   * take a short method of their own, cheap for V8 to optimise again after
   * a major collection has discarded its code; the rest take #other. Not
   * async itself: the caller gets that method's promise as it is, so the
   * microtask steps are those of one async method, as before.
   */
  event(event, emit) {
    const type = event.type;
    return type === 'TOOL_CALL_ARGS' || type === 'TEXT_MESSAGE_CONTENT' ? this.#delta(event, emit) : this.#other(event, emit);
  }

  /**
   * TOOL_CALL_ARGS and TEXT_MESSAGE_CONTENT: exactly what #other does for
   * them (the same rounds, in the same order, and the same mutation).
   */
  async #delta(event, emit) {
    const first = await (this.has('onEvent') ? this.round('onEvent', { event }) : NO_MUTATION);
    this.adopt(first);
    if (first.stopPropagation === true) return this.flush(emit);
    const args = event.type === 'TOOL_CALL_ARGS';
    const extra = { event };
    const msgs = this.messages;
    if (args) {
      const target = this.toolCallOf(msgs, event.toolCallId);
      if (target === undefined) return this.flush(emit);
      extra.toolCallName = target.function.name;
      if (this.has(ARGS_HOOK)) {
        extra.toolCallBuffer = target.function.arguments;
        extra.partialToolCallArgs = this.partialArgs(event.toolCallId, target.function.arguments);
      }
    } else {
      const target = this.messageOf(msgs, event.messageId);
      if (target === undefined || target.role === 'activity') return this.flush(emit);
      extra.textMessageBuffer = typeof target.content === 'string' ? target.content : '';
    }
    let typed = this.round(args ? ARGS_HOOK : TEXT_HOOK, extra);
    if (typed !== NO_MUTATION) typed = await typed;
    this.adopt(typed);
    if (typed.stopPropagation !== true) {
      if (!args) this.f.view.markContent(event.messageId, true);
      // A tool call's delta: the view chains the call's new argument text
      // to the last (args-text.js).
      const chain = args && typeof event.delta === 'string' ? this.f.view.args : null;
      chain?.expect(event.toolCallId, event.delta);
      try {
        this.#feed(event);
      } finally {
        chain?.done();
      }
      this.mutation.messages = this.messages;
      if (args && this.onInvalid !== null) this.#judged(event.toolCallId, event);
    }
    return this.flush(emit);
  }

  async #other(event, emit) {
    const { agent, input } = this;
    // Awaited even when no subscriber has onEvent: the official client
    // yields here before anything of the event is done, and a stream error
    // in the same read lands at that point (before this event's
    // announcements). The typed round below is skipped without a promise
    // when no subscriber hooks into it (most events: the usual subscriber
    // hooks only onMessagesChanged).
    const first = await (this.has('onEvent') ? this.round('onEvent', { event }) : NO_MUTATION);
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
        // The arguments are read only for a subscriber that hooks in (a
        // streaming call's text is built when first read: args-text.js).
        if (!this.has(hookName(type))) break;
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
    let typed = known ? this.round(hookName(type), extra) : NO_MUTATION;
    if (typed !== NO_MUTATION) typed = await typed;
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
      // A tool call's delta: the view chains the call's new argument text
      // to the last (args-text.js).
      const args = type === 'TOOL_CALL_ARGS' && typeof event.delta === 'string' ? this.f.view.args : null;
      args?.expect(event.toolCallId, event.delta);
      let rec;
      try {
        rec = this.#feed(event);
      } finally {
        args?.done();
      }
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
      if (this.onInvalid !== null) {
        if (type === 'TOOL_CALL_ARGS' || type === 'TOOL_CALL_END') this.#judged(event.toolCallId, event);
        else if (type === 'RUN_FINISHED' || type === 'RUN_ERROR') for (const id of this.runToolCallIds) this.#judged(id, event);
      }
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
    // A refused call is answered once it has ended, after the event's announcements.
    if (this.f.refusals.size > 0 && (type === 'TOOL_CALL_END' || type === 'RUN_FINISHED' || type === 'RUN_ERROR')) this.#answer();
    return this.flush(emit);
  }

  /** The reducer's tool call with that id. */
  #reducerToolCall(id) {
    const st = this.f.r.state;
    const v = this.f.view;
    return st.toolCalls === v.srcToolCalls ? v.srcToolCallOf(id) : st.toolCalls.find((t) => t.id === id);
  }

  /**
   * After an event folded: tells onInvalidToolCall, once per call, when the
   * call's arguments have become invalid (at the event that completed the
   * offending value, or at the call's end for what only the whole value
   * shows: required, truncated); a result it answers with is kept until the
   * call has ended (#answer).
   */
  #judged(id, event) {
    const tc = this.#reducerToolCall(id);
    if (tc === undefined || tc.argsStatus !== 'invalid' || this.f.told.has(id)) return;
    this.f.told.add(id);
    let answer;
    try {
      answer = this.onInvalid({ toolCall: tc, errors: tc.argsErrors ?? [], event, agent: this.agent, input: this.input });
    } catch (err) {
      console.error('onInvalidToolCall error:', err);
      return;
    }
    if (answer !== null && typeof answer === 'object' && answer.result !== undefined) this.f.refusals.set(id, answer.result);
  }

  /**
   * Answers the refused calls that have ended with their results: a tool
   * message, as a TOOL_CALL_RESULT from the agent would add, so that a host
   * that runs frontend tools (CopilotKit) finds the call answered and does
   * not run it. No subscriber hook is called for it; agent.messages holds it.
   */
  #answer() {
    for (const [id, result] of this.f.refusals) {
      const tc = this.#reducerToolCall(id);
      if (tc === undefined) { this.f.refusals.delete(id); continue; }
      if (tc.status === 'running') continue;
      this.f.refusals.delete(id);
      if (tc.result !== undefined) continue; // answered already
      let content;
      try { content = typeof result === 'string' ? result : JSON.stringify(result) ?? String(result); } catch { content = String(result); }
      this.#feed({ type: 'TOOL_CALL_RESULT', messageId: `result-${id}`, toolCallId: id, role: 'tool', content });
      this.answered.add(id);
      this.mutation.messages = this.messages;
    }
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

const ARGS_HOOK = hookName('TOOL_CALL_ARGS');
const TEXT_HOOK = hookName('TEXT_MESSAGE_CONTENT');

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

/**
 * An event as the reducer (1.0's schema) reads what @ag-ui/client before
 * 1.0 accepted: a timestamp any number (1.0: an integer), rounded to the
 * millisecond, so that the event is applied as that client applies it
 * rather than refused.
 */
function legacyEvent(event) {
  const ts = event.timestamp;
  return typeof ts === 'number' && !Number.isSafeInteger(ts) && Number.isFinite(ts) && Math.abs(ts) <= Number.MAX_SAFE_INTEGER
    ? { ...event, timestamp: Math.round(ts) } : event;
}
