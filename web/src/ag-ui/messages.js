// The official @ag-ui/client Message[] shapes: a reducer tool call or
// message's official fields (officialToolCall, common, used by view.js's
// OfficialView), the inverse, official → reducer (reducerMessages, for a
// subscriber's or setMessages' replacement), and lookups by id.

import { freeze } from './freeze.js';

/**
 * The official tool call of reducer tool call tc; args: its argument text
 * (tc.argsText or an equal string), or, for a streaming call, an object
 * whose text() gives it (args-text.js), read through a getter.
 */
export function officialToolCall(tc, args = tc.argsText) {
  let fn;
  if (typeof args === 'object' && args !== null) {
    fn = { name: tc.name };
    Object.defineProperty(fn, 'arguments', LAZY);
    Object.defineProperty(fn, TEXT, { value: args, configurable: true });
  } else fn = { name: tc.name, arguments: args };
  const out = { id: tc.id, type: 'function', function: fn };
  if (tc.encryptedValue !== undefined) out.encryptedValue = tc.encryptedValue;
  if (tc.metadata !== undefined) out.metadata = tc.metadata;
  return freeze(out); // attribution is the owning message's, not the tool call's
}

// A streaming call's function.arguments: an enumerable accessor shared by
// every such object (no closure per version), its version in a hidden
// property; assigning a value makes it a plain property, as the official
// object's is.
const TEXT = Symbol('arguments text');
const LAZY = {
  get() { return this[TEXT].text(); },
  set(value) { Object.defineProperty(this, 'arguments', { value, writable: true, enumerable: true, configurable: true }); },
  enumerable: true,
  configurable: true,
};

/**
 * Makes a streaming call's official object o plain data once the call has
 * ended: function.arguments becomes a string property (its value
 * unchanged) and the hidden version, which holds the flat text, is
 * dropped. A frozen object (development mode) keeps its getter.
 */
export function settleToolCall(o) {
  const fn = o?.function;
  if (fn === undefined || !Object.prototype.hasOwnProperty.call(fn, TEXT) || Object.isFrozen(fn)) return;
  const value = fn.arguments;
  Object.defineProperty(fn, 'arguments', { value, writable: true, enumerable: true, configurable: true });
  delete fn[TEXT];
}

export function common(out, m) {
  if (m.encryptedValue !== undefined) out.encryptedValue = m.encryptedValue;
  if (m.metadata !== undefined) out.metadata = m.metadata;
  if (m.subagentRunId != null) out.subagentRunId = m.subagentRunId;
  return out;
}

/**
 * The reducer snapshot holding an official Message[] (the inverse of
 * OfficialView.build). keep: official message → the content its reducer
 * message holds, for messages the view built in @ag-ui/client 0.0.x's
 * shapes (bridge.js: content parts given as text), which keep their parts.
 */
export function reducerMessages(messages, current, keep = null) {
  const running = new Map();
  // The verdicts on arguments the reducer has judged (docs/tool-validation.md)
  // stay with the calls whose text is unchanged: the official shape has no
  // place for them, and a restore judges only calls still streaming.
  const judged = new Map();
  for (const t of current.toolCalls) {
    if (t.status === 'running') running.set(t.id, t);
    else if (t.argsStatus !== undefined) judged.set(t.id, t);
  }
  const msgs = [];
  const tcs = [];
  for (const m of messages) {
    const r = { id: m.id, role: m.role, content: keep?.get(m) ?? m.content ?? '', streaming: false };
    switch (m.role) {
      case 'reasoning':
        r.role = 'assistant';
        r.content = '';
        r.reasoning = typeof m.content === 'string' ? m.content : '';
        break;
      case 'assistant':
        if (Array.isArray(m.toolCalls)) {
          r.toolCallIds = m.toolCalls.map((t) => t.id);
          for (const t of m.toolCalls) {
            let args = {};
            try { args = JSON.parse(t.function.arguments); } catch { /* {} as the reducer keeps */ }
            const live = running.get(t.id);
            const tc = {
              id: t.id, name: t.function?.name ?? '', parentMessageId: m.id,
              status: live ? 'running' : 'complete', argsText: t.function?.arguments ?? '',
              args: live ? live.args : args,
            };
            const was = judged.get(t.id);
            if (was !== undefined && was.argsText === tc.argsText) {
              tc.status = was.status;
              tc.argsStatus = was.argsStatus;
              if (was.argsErrors !== undefined) tc.argsErrors = was.argsErrors;
              if (was.safeArgs !== undefined) tc.safeArgs = was.safeArgs;
            }
            if (t.encryptedValue !== undefined) tc.encryptedValue = t.encryptedValue;
            if (t.metadata !== undefined) tc.metadata = t.metadata;
            tcs.push(tc);
          }
        }
        break;
      case 'tool':
        r.toolCallId = m.toolCallId;
        if (m.error !== undefined) r.error = m.error;
        break;
      case 'activity':
        r.activityType = m.activityType;
        break;
    }
    if (m.name !== undefined && m.role !== 'tool' && m.role !== 'reasoning' && m.role !== 'activity') r.name = m.name;
    if (m.encryptedValue !== undefined && m.role !== 'activity') r.encryptedValue = m.encryptedValue;
    if (m.metadata !== undefined) r.metadata = m.metadata;
    msgs.push(r);
  }
  return { msgs, tcs };
}

export function toolCallOf(messages, id) {
  for (const m of messages) {
    const tcs = m.toolCalls;
    if (tcs === undefined) continue;
    for (const t of tcs) if (t.id === id) return t;
  }
  return undefined;
}

export function messageOf(messages, id) {
  for (const m of messages) if (m.id === id) return m;
  return undefined;
}
