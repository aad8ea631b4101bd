// run(): POST a RunAgentInput and stream the SSE response through feed.

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
 * methods may return promises. Resolves to 'completed', 'incomplete' (the
 * body ended while the run was still running), 'aborted' or 'failed'.
 */
export async function runStream(target, url, input, options = {}, ctrl = new AbortController()) {
  const { signal, headers, fetch: fetchImpl = globalThis.fetch, credentials } = options ?? {};
  const onAbort = () => ctrl.abort(signal?.reason);
  if (signal) {
    if (signal.aborted) return 'aborted';
    signal.addEventListener('abort', onAbort, { once: true });
  }
  try {
    const body = input === undefined || input === null ? await target.runInputText()
      : typeof input === 'string' ? input : JSON.stringify(input);
    await target.endStream(); // a fresh SSE parser for this response
    let response;
    try {
      response = await fetchImpl(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream', ...plainHeaders(headers) },
        body,
        signal: ctrl.signal,
        ...(credentials ? { credentials } : {}),
      });
    } catch (err) {
      if (isAbort(err, ctrl.signal)) { await target.stop(); return 'aborted'; }
      await target.fail(err?.message || String(err), 'network');
      return 'failed';
    }
    if (!response.ok) {
      response.body?.cancel().catch(() => {});
      await target.fail(`HTTP ${response.status}: ${response.statusText}`, String(response.status));
      return 'failed';
    }
    if (response.body) {
      const reader = response.body.getReader();
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          await target.feed(value);
          if (ctrl.signal.aborted) throw ctrl.signal.reason ?? new DOMException('aborted', 'AbortError');
        }
      } catch (err) {
        reader.cancel().catch(() => {});
        await target.endStream();
        if (isAbort(err, ctrl.signal)) { await target.stop(); return 'aborted'; }
        await target.fail(err?.message || String(err), 'network');
        return 'failed';
      }
    }
    await target.endStream();
    return (await target.isRunning()) ? 'incomplete' : 'completed';
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
}

/** run(reducer, url, input, options): the same as reducer.run(url, input, options). */
export function run(reducer, url, input, options) {
  return reducer.run(url, input, options);
}
