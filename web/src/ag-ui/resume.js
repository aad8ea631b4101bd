// Resumable runs for the drop-in HttpAgent (src/ag-ui/drop-in.js): its run() reads the
// SSE response itself, keeping each frame's id, and reconnects with
// Last-Event-ID when the response is cut, with the loop of resume.js (the
// one run() of agui.js uses). The official HttpAgent ignores ids. The body
// is framed as HttpAgent's parser frames it (FrameParser), with its limit
// and its errors, so that a response without ids runs as in HttpAgent.
//
// The events go on through the official pipeline (middleware, verification,
// the apply step), which sees one uninterrupted stream. Frames whose own id
// was passed on already are skipped (a server that resends from an earlier
// frame). A server that answers a reconnect with the run from its start
// cannot be folded again here (the pipeline's verification allows one
// RUN_STARTED per run): the run fails with code 'resume_restarted'.

import { down, up, warnUnknown } from './bridge.js';
import { resumePolicy, resumeLoop, resumeRefusal, retryableStatus, badCursor } from '../reducer/resume.js';
import { threadConnect, keepThreadKey, threadsWanted } from './connect.js';
import { laneOf } from './lane.js';

const RESUME = Symbol('ag-ui resume config');
const THREADS = Symbol('ag-ui threads config');
const TRANSFORM = Symbol('ag-ui transformHttpEventStream');
const KNOWN = Symbol('ag-ui event types'); // the installed client's (the 1.0 → 0.0.x bridge)
const BRIDGE = Symbol('ag-ui bridge');
/** @ag-ui/client's protobuf media type (@ag-ui/proto AGUI_MEDIA_TYPE): read by its own transport. */
const PROTO_TYPE = 'application/vnd.ag-ui.event+proto';
const MAX_IDS = 4096; // ids remembered, as the reducer's (reducer/eventid.go)

/** rxjs' Observable from one of its instances (src/ag-ui/with-reducer.js does the same). */
function rootClass(obj) {
  let proto = Object.getPrototypeOf(obj);
  while (Object.getPrototypeOf(proto) !== Object.prototype && Object.getPrototypeOf(proto) !== null) proto = Object.getPrototypeOf(proto);
  return proto.constructor;
}

/**
 * The frame size @ag-ui/client's SSE parser gives up at (its
 * MAX_BUFFER_SIZE): the text after the last frame boundary, in characters.
 */
export const MAX_FRAME_CHARS = 10 * 1024 * 1024;

/**
 * The text/event-stream framing of @ag-ui/client's parseSSEStream, in
 * linear time, with frame ids: frames end at a blank line ("\n\n"), their
 * lines at "\n"; `data:` lines are joined with "\n"; the last `id:` line is
 * the frame's own id. The text after the last boundary is kept in pieces
 * and joined once, when its frame ends, so a long frame arriving in many
 * chunks is scanned once; past MAX_FRAME_CHARS it fails as the official
 * parser does. A body's unterminated last frame is read as the official
 * parser reads it, when the run does not reconnect (end()).
 */
export class FrameParser {
  #pieces = [];
  #size = 0;
  #endsLF = false; // the kept text ends with "\n": a boundary may straddle the next piece

  /** Parses a piece of text, calling each(data, id) for every whole frame with data. */
  push(text, each) {
    let pos = 0;
    if (this.#endsLF && text.charCodeAt(0) === 10) {
      frame(this.#take().slice(0, -1), each);
      pos = 1;
    }
    for (;;) {
      const at = text.indexOf('\n\n', pos);
      if (at < 0) break;
      const part = text.slice(pos, at);
      frame(this.#size > 0 ? this.#take() + part : part, each);
      pos = at + 2;
    }
    if (pos < text.length) {
      const rest = pos === 0 ? text : text.slice(pos);
      this.#pieces.push(rest);
      this.#size += rest.length;
      this.#endsLF = rest.charCodeAt(rest.length - 1) === 10;
    }
    if (this.#size > MAX_FRAME_CHARS) {
      this.#take();
      throw new Error(`SSE buffer size exceeded maximum limit of ${MAX_FRAME_CHARS / (1024 * 1024)} MB`);
    }
  }

  /** The end of the body: its unterminated last frame (plus rest, the decoder's last text), if any. */
  end(rest, each) {
    if (this.#size > 0) frame(this.#take() + rest, each);
  }

  #take() {
    const text = this.#pieces.length === 1 ? this.#pieces[0] : this.#pieces.join('');
    this.#pieces = [];
    this.#size = 0;
    this.#endsLF = false;
    return text;
  }
}

/**
 * Reads an SSE body into parser until it ends or stop() says so, passing
 * each(data, id) every whole frame; a failed read throws as reader.read() does.
 */
export async function readFrames(reader, parser, decoder, each, stop) {
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    parser.push(decoder.decode(value, { stream: true }), each);
    if (stop()) return;
  }
}

/** One frame's text → each(data, id) when it has data lines (id undefined without an id line). */
function frame(text, each) {
  let data = null;
  let id;
  let from = 0;
  for (;;) {
    const nl = text.indexOf('\n', from);
    const line = nl < 0 ? text.slice(from) : text.slice(from, nl);
    if (line.startsWith('data:')) {
      const v = line.charCodeAt(5) === 32 ? line.slice(6) : line.slice(5);
      data = data === null ? v : `${data}\n${v}`;
    } else if (line.startsWith('id:')) {
      let v = line.charCodeAt(3) === 32 ? line.slice(4) : line.slice(3);
      if (v.endsWith('\r')) v = v.slice(0, -1); // a CRLF line
      if (!/[\r\0]/.test(v)) id = v; // an id no Last-Event-ID can carry is ignored
    }
    if (nl < 0) break;
    from = nl + 1;
  }
  if (data !== null) each(data, id);
}

/** The last MAX_IDS ids added. */
class RecentIds {
  #set = new Set();
  add(id) {
    this.#set.add(id);
    if (this.#set.size > MAX_IDS) this.#set.delete(this.#set.values().next().value);
  }
  has(id) { return this.#set.has(id); }
}

/**
 * withResume(Base) → a subclass of Base (HttpAgent, or withReducer's) whose
 * runs reconnect. Config: `resume` (false, or RunOptions' resume numbers)
 * and `lastEventId` (a run to continue: connectAgent() resumes it).
 * agent.lastEventId is the id of the last frame passed on. With
 * transformHttpEventStream (@ag-ui/client's), a protobuf response is read
 * by it, as HttpAgent reads one.
 */
export function withResume(Base, { transformHttpEventStream, EventType } = {}) {
  return class ResumableAgent extends Base {
    static [TRANSFORM] = transformHttpEventStream;
    static [KNOWN] = new Set(Object.values(EventType ?? {}));

    constructor(config = {}, ...rest) {
      super(config, ...rest);
      this[RESUME] = config?.resume;
      this[THREADS] = config?.threads;
      this[BRIDGE] = config?.bridge !== false;
      if (config?.threadsURL !== undefined) this.threadsURL = String(config.threadsURL);
      this.lastEventId = config?.lastEventId ?? '';
    }

    clone() {
      const c = super.clone();
      c[RESUME] = this[RESUME];
      c[THREADS] = this[THREADS];
      c[BRIDGE] = this[BRIDGE];
      if (this.threadsURL !== undefined) c.threadsURL = this.threadsURL;
      c.lastEventId = this.lastEventId;
      return c;
    }

    run(input) {
      if (this[RESUME] === false || !this.activeRunDetach$) return super.run(input);
      this.lastEventId = '';
      return resumableRun(this, input, null);
    }

    /**
     * connectAgent(): continues the run named by lastEventId (after a
     * reload), if any; else loads the thread from a relay (connect.js:
     * when the agent carries a thread key, or with config threads: true).
     */
    connect(input) {
      if (this[RESUME] === false || !this.activeRunDetach$) return super.connect(input);
      if (this.lastEventId) return resumableRun(this, input, this.lastEventId);
      if (!threadsWanted(this, this[THREADS])) return super.connect(input);
      return threadConnect(this, input, rootClass(this.activeRunDetach$), () => super.connect(input),
        (from) => resumableRun(this, input, from, true));
    }
  };
}

function resumableRun(agent, input, from, runStarted = from == null) {
  const Observable = rootClass(agent.activeRunDetach$);
  return new Observable((sub) => {
    const ctrl = new AbortController();
    const outer = agent.abortController?.signal;
    const onAbort = () => ctrl.abort(outer.reason);
    if (outer?.aborted) ctrl.abort(outer.reason); else outer?.addEventListener('abort', onAbort, { once: true });
    const ids = new RecentIds();
    let cursor = from ?? ''; // this run's cursor: concurrent runs of one agent keep their own
    let over = false; // RUN_FINISHED or RUN_ERROR passed on
    let closed = false;
    let started = runStarted; // a RUN_STARTED was passed on (connect: one is made up)
    const fail = (err) => { if (!closed) { closed = true; sub.error(err); } };
    const done = () => { if (!closed) { closed = true; sub.complete(); } };

    const attempt = async (sent) => {
      let response;
      try {
        const init = agent.requestInit(input);
        response = await agent.fetch(agent.url, {
          ...init,
          headers: { ...init.headers, ...(sent ? { 'Last-Event-ID': sent } : {}) },
          signal: ctrl.signal,
        });
      } catch (err) {
        if (ctrl.signal.aborted) throw err; // as HttpAgent: the run fails with the abort
        return { cut: 'network', error: err };
      }
      if (!response.ok) {
        if (sent && retryableStatus(response.status)) return { cut: 'http', error: await httpError(response) };
        if (sent) {
          const refusal = await resumeRefusal(response);
          throw Object.assign(new Error(refusal.message), { code: refusal.code, status: response.status });
        }
        throw await httpError(response);
      }
      keepThreadKey(agent, response); // a relay's key for this thread (connect.js)
      const transform = agent.constructor[TRANSFORM];
      if (!sent && transform && response.headers.get('content-type') === PROTO_TYPE) return official(response, transform);
      const reader = response.body?.getReader();
      if (!reader) throw new Error('Failed to getReader() from response');
      const parser = new FrameParser();
      const decoder = new TextDecoder('utf-8', { fatal: false });
      let first = true;
      const lane = laneOf(input); // the apply step's, for plain deltas (lane.js)
      const validate = transform && !('maxProtocolVersion' in agent) ? frameEvents(transform, rootClass(agent.activeRunDetach$), agent.debugLogger) : null;
      // With such a client, AG-UI 1.0's shapes are handed to its parse in
      // its own (bridge.js), unless config bridge: false.
      const known = validate !== null && agent[BRIDGE] ? agent.constructor[KNOWN] : null;
      const each = (data, id) => {
        if (closed) return;
        if (id !== undefined && ids.has(id)) return; // resent
        let event = JSON.parse(data); // a SyntaxError fails the run, as in HttpAgent
        if (typeof event !== 'object' || event === null || Array.isArray(event)) throw new Error('Invalid event: the frame is not a JSON object.');
        if (typeof event.type !== 'string' || event.type.length === 0) throw new Error('Invalid event: the frame carries no event type.');
        if (first && sent && event.type === 'RUN_STARTED' && started) {
          throw Object.assign(new Error('resume failed: the server started the run again instead of resuming it'), { code: 'resume_restarted' });
        }
        first = false;
        if (!started && event.type !== 'RUN_STARTED') sub.next({ type: 'RUN_STARTED', threadId: input.threadId, runId: input.runId });
        started = true;
        if (lane === null || !lane.take(event)) {
          let passed = false;
          if (validate !== null) {
            const bridged = known === null ? event : down(event, known);
            if (bridged === null) {
              // Not parsed, and past the stages (whose chunk expansion drops
              // it) to the apply step: onEvent subscribers get it as it came.
              warnUnknown(agent, event.type);
              passed = lane !== null && lane.pass(event);
            } else {
              // Failed at once, as that transport fails its stream: in the
              // same read, before the apply step goes on with earlier events.
              try {
                event = bridged === event ? validate(data) : up(validate(JSON.stringify(bridged)), event);
              } catch (err) { fail(err); return; }
            }
          }
          if (!passed) sub.next(event);
        }
        if (event.type === 'RUN_FINISHED' || event.type === 'RUN_ERROR') over = true;
        if (id !== undefined) { ids.add(id); cursor = id; agent.lastEventId = id; }
      };
      const rest = () => parser.end(decoder.decode(), each);
      try {
        await readFrames(reader, parser, decoder, each, () => closed);
      } catch (err) {
        reader.cancel().catch(() => {});
        if (err?.name === 'AbortError') {
          // As HttpAgent's transport: an abort mid-body ends the run with RUN_ERROR 'abort'.
          if (!closed) sub.next({ type: 'RUN_ERROR', message: err.message || 'Request aborted', code: 'abort', rawEvent: err });
          return { end: 'aborted' };
        }
        // The stream's own fault (not JSON, too large, a restarted run) or
        // an abort with a reason of its own fails the run; a read that
        // failed is a cut.
        if (ctrl.signal.aborted || !reading(err)) throw err;
        return { cut: 'network', error: err };
      }
      if (over || closed) {
        rest();
        return { end: 'completed' };
      }
      return { cut: 'incomplete', rest };
    };

    // A protobuf response (no ids: nothing to resume) goes through
    // HttpAgent's own transport, as HttpEvents.
    const official = (response, transform) => new Promise((resolve, reject) => {
      const http$ = new Observable((s) => {
        s.next({ type: 'headers', status: response.status, headers: response.headers });
        const reader = response.body?.getReader();
        if (!reader) { s.error(new Error('Failed to getReader() from response')); return undefined; }
        (async () => {
          try {
            for (;;) {
              const { done: end, value } = await reader.read();
              if (end) break;
              s.next({ type: 'data', data: value });
            }
            s.complete();
          } catch (err) { s.error(err); }
        })();
        return () => { reader.cancel().catch(() => {}); };
      });
      transform(http$, agent.debugLogger).subscribe({
        next: (event) => { if (!closed) sub.next(event); },
        error: reject,
        complete: () => resolve({ end: 'completed' }),
      });
    });

    let policy;
    try {
      if (badCursor(from)) throw Object.assign(new Error('resume failed: the lastEventId contains CR, LF or NUL: it cannot be sent as Last-Event-ID'), { code: 'bad_last_event_id' });
      policy = resumePolicy(agent[RESUME]);
    } catch (err) {
      fail(err);
      return () => {};
    }
    resumeLoop({
      policy, signal: ctrl.signal, from, attempt,
      cursor: () => cursor,
      stop: () => 'aborted',
      giveUp: (cut, error, r) => {
        if (cut !== 'incomplete') throw error;
        r?.rest?.(); // no reconnect: the body's last frame is read as HttpAgent reads it
        return 'incomplete';
      },
      onReconnect: (info) => agent[RESUME]?.onReconnect?.(info),
    }).then((r) => {
      agent.lastRun = r;
      done();
    }, fail);

    return () => {
      closed = true;
      outer?.removeEventListener('abort', onAbort);
      ctrl.abort();
    };
  });
}

/**
 * @ag-ui/client before 1.0 (0.0.59) validates every event in its transport
 * (a zod parse in transformHttpEventStream: defaults filled in, a malformed
 * event fatal), where 1.0 does it in a stage of its pipeline. With such a
 * client, a frame's event is what its own transport makes of the frame:
 * validate(data) passes the frame through one transformHttpEventStream per
 * response (synchronous) and returns its event, or throws its error. The
 * token lane's events skip it: the parse would return them unchanged.
 */
function frameEvents(transform, Observable, debugLogger) {
  let feed = null;
  const http$ = new Observable((s) => { feed = s; });
  const got = [];
  let failed = null;
  transform(http$, debugLogger).subscribe({ next: (e) => got.push(e), error: (err) => { failed ??= { err }; } });
  feed.next({ type: 'headers', status: 200, headers: new Headers({ 'content-type': 'text/event-stream' }) });
  const enc = new TextEncoder();
  return (data) => {
    feed.next({ type: 'data', data: enc.encode(`data: ${data.replaceAll('\n', '\ndata: ')}\n\n`) });
    if (failed !== null) throw failed.err;
    if (got.length !== 1) throw new Error('Invalid event: the client\'s transport made no event of the frame.');
    return got.pop();
  };
}

/** Whether err is a failure of the transport (reconnect), not one of the stream's content. */
const STREAM_FAULTS = new Set(['resume_restarted']);
function reading(err) {
  if (err instanceof SyntaxError || STREAM_FAULTS.has(err?.code)) return false;
  return !/^(Invalid event: |SSE buffer size exceeded)/.test(err?.message ?? '');
}

/** HttpAgent's error for a response that is not ok: HTTP <status>: <its body>, JSON when it says so. */
async function httpError(response) {
  const text = await response.text().catch(() => '');
  let payload = text;
  if ((response.headers.get('content-type') || '').includes('application/json')) {
    try { payload = JSON.parse(text); } catch { /* keep raw text */ }
  }
  return Object.assign(new Error(`HTTP ${response.status}: ${typeof payload === 'string' ? payload : JSON.stringify(payload)}`), { status: response.status, payload });
}
