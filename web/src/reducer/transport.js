// run(): POST a RunAgentInput and stream the SSE response through feed,
// reconnecting with Last-Event-ID when the response is cut (resume.js).

import { resumePolicy, resumeLoop, resumeRefusal, retryableStatus, badCursor, badCursorError, FirstEvent, startsAnotherRun, PEEK_BYTES } from './resume.js';

function isAbort(err, signal) {
  return signal?.aborted === true || err?.name === 'AbortError';
}

export function plainHeaders(headers) {
  if (!headers) return {};
  if (typeof Headers !== 'undefined' && headers instanceof Headers) return Object.fromEntries(headers.entries());
  if (Array.isArray(headers)) return Object.fromEntries(headers);
  return { ...headers };
}

/**
 * The transport shared by the same-thread and worker reducers. target's
 * methods may return promises; target.feed resolves to true when the
 * chunk's records say the run was started again (resume.js, restarted).
 * Resolves to {outcome, reconnects, lastEventId, reason?}: outcome is
 * 'completed', 'incomplete' (the body ended while the run was still
 * running), 'aborted' or 'failed'. options.lastEventId continues a run
 * from that id (a page restored from a snapshot); without it the run is a
 * fresh one and the state's lastEventId is cleared first. A cursor that
 * cannot be sent (CR, LF, NUL) rejects before any request. A response to a
 * reconnect whose first event starts another run (another runId: the
 * server did not resume) is not folded: the run fails with code
 * 'resume_restarted'. target.runId() names the run being resumed.
 */
export async function runStream(target, url, input, options = {}, ctrl = new AbortController(), onReconnect) {
  const { signal, headers, fetch: fetchImpl = globalThis.fetch, credentials, lastEventId: from } = options ?? {};
  if (badCursor(from)) throw badCursorError(from);
  const policy = resumePolicy(options?.resume);
  const onAbort = () => ctrl.abort(signal?.reason);
  if (signal) {
    if (signal.aborted) return { outcome: 'aborted', reconnects: 0, lastEventId: '' };
    signal.addEventListener('abort', onAbort, { once: true });
  }
  try {
    const body = input === undefined || input === null ? await target.runInputText()
      : typeof input === 'string' ? input : JSON.stringify(input);
    if (!from) await target.setLastEventId(''); // a new run: no cursor from an earlier one

    const attempt = async (cursor) => {
      await target.endStream(); // a fresh SSE parser for this response
      let response;
      try {
        response = await fetchImpl(url, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json', Accept: 'text/event-stream', ...plainHeaders(headers),
            ...(cursor ? { 'Last-Event-ID': cursor } : {}),
          },
          body,
          signal: ctrl.signal,
          ...(credentials ? { credentials } : {}),
        });
      } catch (err) {
        if (isAbort(err, ctrl.signal)) return { end: await stopped() };
        return { cut: 'network', error: err };
      }
      if (!response.ok) {
        if (cursor && !retryableStatus(response.status)) {
          const { message, code } = await resumeRefusal(response);
          await target.fail(message, code);
          return { end: 'failed' };
        }
        response.body?.cancel().catch(() => {});
        if (cursor) return { cut: 'http', error: { status: response.status, statusText: response.statusText } };
        await target.fail(`HTTP ${response.status}: ${response.statusText}`, String(response.status));
        return { end: 'failed' };
      }
      let again = false;
      if (response.body) {
        const reader = response.body.getReader();
        // A reconnect's first event is read ahead (held, up to PEEK_BYTES)
        // to see that it does not start another run before any is folded.
        let held = cursor ? [] : null;
        let heldBytes = 0;
        const first = new FirstEvent();
        const decoder = new TextDecoder();
        const runId = cursor ? await target.runId() : '';
        const release = async () => {
          const chunks = held;
          held = null;
          for (const c of chunks) if (await target.feed(c)) again = true;
        };
        try {
          for (;;) {
            const { done, value } = await reader.read();
            if (done) break;
            if (ctrl.signal.aborted) throw ctrl.signal.reason ?? new DOMException('aborted', 'AbortError');
            if (held !== null) {
              held.push(value);
              heldBytes += value.byteLength;
              const data = first.push(decoder.decode(value, { stream: true }));
              if (data === null && heldBytes < PEEK_BYTES) continue;
              if (data !== null && startsAnotherRun(data, runId) !== null) {
                reader.cancel().catch(() => {});
                await target.endStream();
                await target.fail('resume failed: the server answered with another run instead of resuming this one', 'resume_restarted');
                return { end: 'failed' };
              }
              await release();
            } else if (await target.feed(value)) again = true;
          }
          if (held !== null) await release();
        } catch (err) {
          reader.cancel().catch(() => {});
          await target.endStream();
          if (isAbort(err, ctrl.signal)) return { end: await stopped() };
          return { cut: 'network', error: err, restarted: again };
        }
      }
      await target.endStream();
      return (await target.isRunning()) ? { cut: 'incomplete', restarted: again } : { end: 'completed' };
    };
    const stopped = async () => { await target.stop(); return 'aborted'; };
    const giveUp = async (cut, error) => {
      if (cut === 'incomplete') return 'incomplete';
      if (cut === 'http') {
        await target.fail(`HTTP ${error.status}: ${error.statusText}`, String(error.status));
      } else {
        await target.fail(error?.message || String(error), 'network');
      }
      return 'failed';
    };
    return await resumeLoop({
      policy, signal: ctrl.signal, from, attempt, giveUp, stop: stopped, onReconnect,
      cursor: () => target.lastEventId(),
    });
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
}

/** run()'s and resume()'s promise: the outcome, with the report in reducer.lastRun. */
export async function settle(reducer, report) {
  const r = await report;
  reducer.lastRun = r;
  return r.outcome;
}

/**
 * resume() with nothing to continue settles without a request: the run is
 * over ('completed'), or it is running but no frame had an id ('incomplete').
 */
export function nothingToResume(reducer, running, id) {
  return settle(reducer, Promise.resolve({
    outcome: running ? 'incomplete' : 'completed', reconnects: 0, lastEventId: id, reason: 'nothing_to_resume',
  }));
}

/** run(reducer, url, input, options): the same as reducer.run(url, input, options). */
export function run(reducer, url, input, options) {
  return reducer.run(url, input, options);
}
