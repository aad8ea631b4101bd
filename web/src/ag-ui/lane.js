// The token lane of a drop-in run: the streamed deltas a run's official
// stages would pass on unchanged go from the drop-in's transport
// (resume.js) straight to its apply step (with-reducer.js).
//
// Between the transport and the apply step, @ag-ui/client 1.0 runs every
// event through its compatibility boundary, enforcement (a zod parse),
// chunk expansion, verification and a takeUntil: three mergeMaps, an inner
// observable per stage and event. For TEXT_MESSAGE_CONTENT, TOOL_CALL_ARGS
// and REASONING_MESSAGE_CONTENT — nearly every event of a run — each of
// those stages is the identity and keeps no state, provided that:
//   - the event has exactly its three fields (type, the id, delta) and
//     perhaps an integer timestamp, in the schema's order, and delta is a
//     string (enforcement would parse it to an equal object, its fields in
//     the same order, and strip nothing);
//   - its message, tool call or reasoning message is open: it came
//     through the stages' own verification as a START, and no END,
//     RUN_FINISHED or RUN_ERROR has come through since (verification would
//     accept it);
//   - no event of the run carried a subagentRunId (the owners verification
//     compares are then all the parent agent) and no *_CHUNK event came
//     (chunk expansion has no stream of its own to close);
//   - no middleware sits in the chain (it may see or change any event) and
//     no debug logger (it logs every event at every stage).
// Such an event is handed to the apply step directly, in order: the stages
// are synchronous, so the events before it have reached the apply step when
// the transport reads it. Any other event, or any event while a condition
// fails, takes the stages as before; so does every event of an agent whose
// run is not a drop-in's (a cold run applies with @ag-ui/client's own step,
// and no lane is opened for it).

const LANES = new WeakMap(); // RunAgentInput → Lane (the transport and the apply step share the run's input)

/** A run's token lane (opened by its apply step, used by its transport). */
export class Lane {
  #next;
  #messages = new Set(); // open text messages, verified
  #calls = new Set(); // open tool calls, verified
  #reasoning = new Set(); // open reasoning messages, verified
  #on = true;
  #closed = false;
  /** Events handed over (tests). */
  taken = 0;

  constructor(next) {
    this.#next = next;
  }

  /**
   * Notes an event that came through the official stages, at the apply
   * step (verification accepted it).
   */
  saw(event) {
    switch (event.type) {
      case 'TEXT_MESSAGE_START': this.#messages.add(event.messageId); break;
      case 'TEXT_MESSAGE_END': this.#messages.delete(event.messageId); break;
      case 'TOOL_CALL_START': this.#calls.add(event.toolCallId); break;
      case 'TOOL_CALL_END': this.#calls.delete(event.toolCallId); break;
      case 'REASONING_MESSAGE_START': this.#reasoning.add(event.messageId); break;
      case 'REASONING_MESSAGE_END': this.#reasoning.delete(event.messageId); break;
      case 'RUN_FINISHED': case 'RUN_ERROR': this.#messages.clear(); this.#calls.clear(); this.#reasoning.clear(); break;
    }
  }

  /**
   * Hands event (as the transport parsed it) to the apply step when the
   * official stages would pass it on unchanged; false when it must take them.
   */
  take(event) {
    if (!this.#on) return false;
    const type = event.type;
    let key;
    if (type === 'TOOL_CALL_ARGS') {
      if (!this.#calls.has(event.toolCallId)) return this.#watch(event);
      key = 'toolCallId';
    } else if (type === 'TEXT_MESSAGE_CONTENT') {
      if (!this.#messages.has(event.messageId)) return this.#watch(event);
      key = 'messageId';
    } else if (type === 'REASONING_MESSAGE_CONTENT') {
      if (!this.#reasoning.has(event.messageId)) return this.#watch(event);
      key = 'messageId';
    } else {
      return this.#watch(event);
    }
    if (typeof event.delta !== 'string') return false;
    // The fields, in the order enforcement's parse gives them: type, an
    // integer timestamp if any, the id, delta.
    let n = 0;
    for (const k in event) {
      if (n === 1 && k === 'timestamp') {
        if (!Number.isSafeInteger(event.timestamp)) return false;
        continue;
      }
      if (k !== (n === 0 ? 'type' : n === 1 ? key : n === 2 ? 'delta' : '')) return this.#watch(event);
      n++;
    }
    if (n !== 3) return false;
    this.taken++;
    this.#next(event);
    return true;
  }

  /** An event for the stages: the lane closes for the run on a chunk or a subagent's tag. */
  #watch(event) {
    if (event.subagentRunId !== undefined || (typeof event.type === 'string' && event.type.endsWith('_CHUNK'))) this.#on = false;
    return false;
  }

  /**
   * Hands event to the apply step, which the stages would drop (an event
   * type the installed client does not know: bridge.js); false once the
   * apply step ended.
   */
  pass(event) {
    if (this.#closed) return false;
    this.#next(event);
    return true;
  }

  /** No more events: the apply step ended. */
  close() {
    this.#on = false;
    this.#closed = true;
  }
}

/**
 * Opens the token lane of a run whose apply step is the reducer's: next
 * takes an event as the apply step's source does. Null when the agent's
 * chain could see or change the run's events (middleware, a debug logger)
 * (@ag-ui/client 1.0 and 0.0.59: the latter has no compatibility boundary
 * and no enforcement, and its chunk expansion and verification treat these
 * events as 1.0's do).
 */
export function openLane(agent, input, next) {
  if (agent.debugLogger) return null;
  const mw = agent.middlewares;
  if (!Array.isArray(mw) || mw.length > 0) return null;
  const lane = new Lane(next);
  LANES.set(input, lane);
  return lane;
}

/** The run's lane, if its apply step opened one (the transport asks once per response). */
export function laneOf(input) {
  return LANES.get(input) ?? null;
}

/** Closes the run's lane. */
export function closeLane(input, lane) {
  lane.close();
  if (LANES.get(input) === lane) LANES.delete(input);
}
