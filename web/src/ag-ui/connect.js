// The connect path of the drop-in HttpAgent (drop-in.js) against agui-relay
// (docs/relay.md): connectAgent() loads the agent's thread — GET
// threads/{threadId} next to its url, as text/event-stream — and passes on
// the conversation (MESSAGES_SNAPSHOT, STATE_SNAPSHOT) and then, when a run
// is going on, that run's frames, live to its end; a cut is resumed with
// Last-Event-ID (resume.js). So a page that reloads shows its
// conversation and goes on with the run. The thread is asked for when the
// agent carries a thread key or is configured with threads: true
// (threadsWanted); an agent that is not behind a relay (the GET answers an
// error) connects as the base class does: nothing.
//
// @ag-ui/client's verification wants every stream to start with
// RUN_STARTED and a run to end before the next starts: the snapshots are
// passed on as one made-up run of the connect's input (RUN_STARTED,
// snapshots, RUN_FINISHED), the live run as its own.

import { FrameParser, readFrames } from './resume.js';

export const THREAD_KEY_HEADER = 'X-Agui-Thread-Key';

// A lone surrogate: what JSON decoding on the relay makes U+FFFD.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * threads/{threadId} next to an agent url (…/agent → …/threads/{id}), the id percent-encoded
 * (a lone surrogate as U+FFFD, as the relay stored it); null for "." and "..", which a URL
 * normalises away however they are encoded (a relay refuses them as threadIds).
 */
export function threadsURL(url, threadId) {
  const s = String(url);
  const q = s.search(/[?#]/);
  const base = q < 0 ? s : s.slice(0, q);
  const id = String(threadId);
  if (id === '.' || id === '..') return null;
  return `${base.slice(0, base.lastIndexOf('/') + 1)}threads/${encodeURIComponent(id.replace(LONE_SURROGATE, '\uFFFD'))}`;
}

/**
 * Whether connectAgent() asks a relay for the thread: config threads true
 * (a relay with -auth-header: the agent's own credential headers), false
 * (never), or by default when the agent carries a thread key (the relay's,
 * kept by the app with its threadId, or handed out by an earlier run), so
 * that an agent not behind a relay makes no request that fails.
 */
export function threadsWanted(agent, option) {
  if (option === true || option === false) return option;
  return Object.keys(agent.headers ?? {}).some((k) => k.toLowerCase() === THREAD_KEY_HEADER.toLowerCase());
}

/**
 * Keeps the thread key a relay hands out with a thread's first run
 * (X-Agui-Thread-Key) in the agent's headers, so that its later requests
 * (runs, resumes, connects) carry it.
 */
export function keepThreadKey(agent, response) {
  const key = response?.headers?.get?.(THREAD_KEY_HEADER);
  if (!key) return;
  const headers = agent.headers ?? {};
  if (Object.keys(headers).some((k) => k.toLowerCase() === THREAD_KEY_HEADER.toLowerCase())) return;
  agent.headers = { ...headers, [THREAD_KEY_HEADER]: key };
}

/**
 * threadConnect(agent, input, Observable, base, resume) → the events of
 * connectAgent(): base() is the base class's connect (it throws "not
 * implemented": an agent without a relay), resume(from) continues a run
 * cut after the frame with id from (its RUN_STARTED passed on already).
 */
export function threadConnect(agent, input, Observable, base, resume) {
  return new Observable((sub) => {
    const ctrl = new AbortController();
    const outer = agent.abortController?.signal;
    const onAbort = () => ctrl.abort(outer.reason);
    if (outer?.aborted) ctrl.abort(outer.reason); else outer?.addEventListener('abort', onAbort, { once: true });
    let closed = false;
    let inner = null;
    const fail = (err) => { if (!closed) { closed = true; sub.error(err); } };
    const done = () => { if (!closed) { closed = true; sub.complete(); } };
    const notARelay = () => {
      try { base(); done(); } catch (err) { fail(err); } // the base class's answer
    };

    (async () => {
      const where = agent.threadsURL ?? threadsURL(agent.url, input.threadId);
      if (where === null) { notARelay(); return; } // no thread can have that id
      let response;
      try {
        response = await agent.fetch(where, {
          method: 'GET', headers: { ...agent.headers, Accept: 'text/event-stream' }, signal: ctrl.signal,
        });
      } catch (err) {
        if (ctrl.signal.aborted) { done(); return; }
        fail(err);
        return;
      }
      if (!response.ok || !(response.headers.get('content-type') || '').startsWith('text/event-stream')) {
        response.body?.cancel().catch(() => {});
        notARelay();
        return;
      }
      // The made-up run that carries the snapshots, then the live run.
      let made = false; // its RUN_STARTED passed on
      let madeOver = false;
      let live = false; // the live run's RUN_STARTED passed on
      let over = false; // the live run ended
      let cursor = '';
      const endMade = () => {
        if (made && !madeOver) {
          madeOver = true;
          sub.next({ type: 'RUN_FINISHED', threadId: input.threadId, runId: input.runId });
        }
      };
      const each = (data, id) => {
        if (closed) return;
        const event = JSON.parse(data);
        if (typeof event !== 'object' || event === null || typeof event.type !== 'string') throw new Error('Invalid event: the frame carries no event type.');
        if (id === undefined && !live) {
          if (!made) { made = true; sub.next({ type: 'RUN_STARTED', threadId: input.threadId, runId: input.runId }); }
          sub.next(event);
          return;
        }
        endMade();
        if (!live && event.type !== 'RUN_STARTED') {
          sub.next({ type: 'RUN_STARTED', threadId: input.threadId, runId: event.runId ?? input.runId });
        }
        live = true;
        sub.next(event);
        if (event.type === 'RUN_FINISHED' || event.type === 'RUN_ERROR') over = true;
        if (id !== undefined) { cursor = id; agent.lastEventId = id; }
      };
      const reader = response.body?.getReader();
      const parser = new FrameParser();
      const decoder = new TextDecoder();
      let cut = false;
      try {
        await readFrames(reader, parser, decoder, each, () => closed);
      } catch (err) {
        reader.cancel().catch(() => {});
        if (ctrl.signal.aborted) { done(); return; }
        if (err instanceof SyntaxError || /^Invalid event/.test(err?.message ?? '')) { fail(err); return; }
        cut = true;
      }
      if (closed) return;
      endMade();
      if (!live || over || !cursor) {
        if (cut && !live) { fail(new Error('connect: the thread\'s stream was cut')); return; }
        done();
        return;
      }
      // The live run was cut: resumed from its last frame.
      inner = resume(cursor).subscribe({
        next: (e) => { if (!closed) sub.next(e); },
        error: fail,
        complete: done,
      });
    })().catch(fail);

    return () => {
      closed = true;
      outer?.removeEventListener('abort', onAbort);
      inner?.unsubscribe();
      ctrl.abort();
    };
  });
}
