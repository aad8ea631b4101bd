// Resumable runs for the drop-in HttpAgent (ag-ui.js): its run() reads the
// SSE response itself, keeping each frame's id, and reconnects with
// Last-Event-ID when the response is cut, with the loop of resume.js (the
// one run() of agui.js uses). The official HttpAgent ignores ids.
//
// The events go on through the official pipeline (middleware, verification,
// the apply step), which sees one uninterrupted stream. Frames whose own id
// was passed on already are skipped (a server that resends from an earlier
// frame). A server that answers a reconnect with the run from its start
// cannot be folded again here (the pipeline's verification allows one
// RUN_STARTED per run): the run fails with code 'resume_restarted'.

import { resumePolicy, resumeLoop, resumeRefusal, retryableStatus } from './resume.js';

const RESUME = Symbol('ag-ui resume config');
const MAX_IDS = 4096; // ids remembered, as the reducer's (reducer/eventid.go)

/** rxjs' Observable from one of its instances (ag-ui-reducer.js does the same). */
function rootClass(obj) {
  let proto = Object.getPrototypeOf(obj);
  while (Object.getPrototypeOf(proto) !== Object.prototype && Object.getPrototypeOf(proto) !== null) proto = Object.getPrototypeOf(proto);
  return proto.constructor;
}

/**
 * A minimal text/event-stream parser: frames (data, and the id of a frame
 * that has an id field of its own) from text pieces split anywhere.
 */
class FrameParser {
  #buf = '';
  #data = null;
  #id = undefined;

  /** Parses text, calling each(data, id) for every whole frame; id is undefined without an id field. */
  push(text, each) {
    this.#buf += text;
    let start = 0;
    for (;;) {
      const nl = this.#buf.slice(start).search(/\r\n|\r|\n/);
      if (nl < 0) break;
      const line = this.#buf.slice(start, start + nl);
      start += nl + (this.#buf.startsWith('\r\n', start + nl) ? 2 : 1);
      if (line === '') {
        if (this.#data !== null) each(this.#data, this.#id);
        this.#data = null;
        this.#id = undefined;
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      let value = colon < 0 ? '' : line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (field === 'data') this.#data = this.#data === null ? value : `${this.#data}\n${value}`;
      else if (field === 'id' && !value.includes('\0')) this.#id = value;
    }
    this.#buf = this.#buf.slice(start);
  }
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
 * agent.lastEventId is the id of the last frame passed on.
 */
export function withResume(Base) {
  return class ResumableAgent extends Base {
    constructor(config = {}, ...rest) {
      super(config, ...rest);
      this[RESUME] = config?.resume;
      this.lastEventId = config?.lastEventId ?? '';
    }

    clone() {
      const c = super.clone();
      c[RESUME] = this[RESUME];
      c.lastEventId = this.lastEventId;
      return c;
    }

    run(input) {
      if (this[RESUME] === false || !this.activeRunDetach$) return super.run(input);
      this.lastEventId = '';
      return resumableRun(this, input, null);
    }

    /** connectAgent(): continues the run named by lastEventId (after a reload), if any. */
    connect(input) {
      if (this[RESUME] === false || !this.lastEventId || !this.activeRunDetach$) return super.connect(input);
      return resumableRun(this, input, this.lastEventId);
    }
  };
}

function resumableRun(agent, input, from) {
  const Observable = rootClass(agent.activeRunDetach$);
  return new Observable((sub) => {
    const ctrl = new AbortController();
    const outer = agent.abortController?.signal;
    const onAbort = () => ctrl.abort(outer.reason);
    if (outer?.aborted) ctrl.abort(outer.reason); else outer?.addEventListener('abort', onAbort, { once: true });
    const policy = resumePolicy(agent[RESUME]);
    const ids = new RecentIds();
    let over = false; // RUN_FINISHED or RUN_ERROR passed on
    let closed = false;
    let started = from == null; // a RUN_STARTED was passed on (connect: one is made up)
    const fail = (err) => { if (!closed) { closed = true; sub.error(err); } };

    const attempt = async (cursor) => {
      let response;
      try {
        const init = agent.requestInit(input);
        response = await agent.fetch(agent.url, {
          ...init,
          headers: { ...init.headers, ...(cursor ? { 'Last-Event-ID': cursor } : {}) },
          signal: ctrl.signal,
        });
      } catch (err) {
        if (ctrl.signal.aborted) return { end: 'aborted' };
        return { cut: 'network', error: err };
      }
      if (!response.ok) {
        if (cursor && retryableStatus(response.status)) return { cut: 'http', error: httpError(response.status, '') };
        const refusal = cursor ? await resumeRefusal(response) : null;
        throw refusal ? Object.assign(new Error(refusal.message), { code: refusal.code, status: response.status })
          : httpError(response.status, await response.text().catch(() => ''));
      }
      const parser = new FrameParser();
      const decoder = new TextDecoder();
      let first = true;
      const frame = (data, id) => {
        if (closed || data === '') return;
        if (id !== undefined && ids.has(id)) return; // resent
        let event;
        try { event = JSON.parse(data); } catch (err) { throw new Error(`agui: an SSE frame is not JSON: ${err.message}`); }
        if (first && cursor && event?.type === 'RUN_STARTED' && started) {
          throw Object.assign(new Error('resume failed: the server started the run again instead of resuming it'), { code: 'resume_restarted' });
        }
        first = false;
        if (!started && event?.type !== 'RUN_STARTED') sub.next({ type: 'RUN_STARTED', threadId: input.threadId, runId: input.runId });
        started = true;
        sub.next(event);
        if (event?.type === 'RUN_FINISHED' || event?.type === 'RUN_ERROR') over = true;
        if (id !== undefined) { ids.add(id); agent.lastEventId = id; }
      };
      const reader = response.body.getReader();
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          parser.push(decoder.decode(value, { stream: true }), frame);
          if (closed) break;
        }
      } catch (err) {
        reader.cancel().catch(() => {});
        if (ctrl.signal.aborted) return { end: 'aborted' };
        if (err?.code === 'resume_restarted' || /not JSON/.test(err?.message)) throw err;
        return { cut: 'network', error: err };
      }
      return over || closed ? { end: 'completed' } : { cut: 'incomplete' };
    };

    resumeLoop({
      policy, signal: ctrl.signal, from, attempt,
      cursor: () => agent.lastEventId,
      stop: () => 'aborted',
      giveUp: (cut, error) => {
        if (cut !== 'incomplete') throw error;
        return 'incomplete';
      },
      onReconnect: (info) => agent[RESUME]?.onReconnect?.(info),
    }).then((r) => {
      agent.lastRun = r;
      if (!closed) { closed = true; sub.complete(); }
    }, fail);

    return () => {
      closed = true;
      outer?.removeEventListener('abort', onAbort);
      ctrl.abort();
    };
  });
}

function httpError(status, text) {
  let payload = text;
  try { payload = JSON.parse(text); } catch { /* text */ }
  return Object.assign(new Error(`HTTP ${status}: ${typeof payload === 'string' ? payload : JSON.stringify(payload)}`), { status, payload });
}
