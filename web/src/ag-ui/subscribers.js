// The subscriber rounds of the drop-in agent: @ag-ui/client's
// runSubscribersWithMutation without its clones, and the hook each event
// type calls.

import { freeze } from './freeze.js';

const hookNames = new Map();

/** The subscriber hook of an event type: TEXT_MESSAGE_START → onTextMessageStartEvent. */
export function hookName(type) {
  let name = hookNames.get(type);
  if (name === undefined) {
    name = 'on' + type.toLowerCase().replace(/(^|_)([a-z])/g, (_, __, c) => c.toUpperCase()) + 'Event';
    if (hookNames.size < 256) hookNames.set(type, name); // event types are a closed set; unknown ones stay bounded
  }
  return name;
}

/** Whether any subscriber has that hook (a round without one changes nothing). */
export function hasHook(subscribers, hook) {
  for (let i = 0; i < subscribers.length; i++) if (subscribers[i][hook] != null) return true;
  return false;
}

/**
 * runSubscribersWithMutation without the clones: NO_MUTATION at once (no
 * promise, nothing allocated) when no subscriber has the hook, else a
 * promise of the round's mutation. There every subscriber is awaited, as
 * in the official client, those without the hook too (exec's optional call
 * skips them): an error of the stream lands between the same two
 * subscribers as there. Each sees the latest values (a replacement one
 * returned is adopted as is, frozen in development); the first
 * stopPropagation ends the round. A throwing subscriber is logged and
 * skipped, as the official client does.
 */
export function runSubscribers(subscribers, hook, messages, state, exec) {
  return hasHook(subscribers, hook) ? runAll(subscribers, messages, state, exec) : NO_MUTATION;
}

async function runAll(subscribers, messages, state, exec) {
  let msgs = messages, st = state, mm = false, sm = false, stop;
  for (const s of subscribers) {
    try {
      const m = await exec(s, msgs, st);
      if (m === undefined || m === null) continue;
      if (m.messages !== undefined && m.messages !== msgs) { msgs = freeze(m.messages); mm = true; }
      if (m.state !== undefined && m.state !== st) { st = freeze(m.state); sm = true; }
      stop = m.stopPropagation;
      if (stop === true) break;
    } catch (err) {
      console.error('Subscriber error:', err);
    }
  }
  if (!mm && !sm && stop === undefined) return NO_MUTATION; // the usual round: nothing returned
  return { ...(mm ? { messages: msgs } : {}), ...(sm ? { state: st } : {}), ...(stop !== undefined ? { stopPropagation: stop } : {}) };
}

/** The round that changed nothing (what runSubscribers gives, at once, when no subscriber has the hook). */
export const NO_MUTATION = Object.freeze({});
