// loadThread: a conversation kept by agui-relay (docs/relay.md), or the demo
// server, loaded into a reducer in one call: the thread as it stands (the
// relay's reducer snapshot, restored), then, when a run is going on, that
// run from its first frame, live, so the page shows the conversation at
// once and goes on with the run with no gap and no duplicate. With persist,
// the last snapshot kept in the browser (persist.js) is painted before the
// relay answers, and while it cannot be reached.

import { persistStore, persistReducer } from './persist.js';
import { plainHeaders } from '../reducer/transport.js';

export const THREAD_KEY_HEADER = 'X-Agui-Thread-Key';

/** A new thread key (132 random bits, base64url): the credential of a thread on a relay without auth. */
export function newThreadKey() {
  const b = new Uint8Array(17);
  globalThis.crypto.getRandomValues(b);
  let s = '';
  for (const x of b) s += String.fromCharCode(x);
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '').slice(0, 22);
}

/** The request headers of a thread key, for run()'s and loadThread's headers option. */
export function threadHeaders(threadKey) {
  return threadKey ? { [THREAD_KEY_HEADER]: String(threadKey) } : {};
}

// A lone surrogate: what JSON decoding on the relay makes U+FFFD.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * GET /threads/{threadId} next to the agent endpoint url (…/agent → …/threads/{id}): the id
 * percent-encoded (a lone surrogate as U+FFFD, as the relay stored it). "." and "..", which a
 * URL normalises away however they are encoded, are refused (TypeError), as the relay refuses
 * them as threadIds (400 bad_thread_id).
 */
export function threadURL(url, threadId) {
  const s = String(url);
  const q = s.search(/[?#]/);
  const base = q < 0 ? s : s.slice(0, q);
  const id = String(threadId);
  if (id === '.' || id === '..') throw new TypeError(`agui thread: the threadId "${id}" cannot be a URL path segment (a relay refuses it)`);
  return `${base.slice(0, base.lastIndexOf('/') + 1)}threads/${encodeURIComponent(id.replace(LONE_SURROGATE, '\uFFFD'))}`;
}

function isAbort(err, signal) {
  return signal?.aborted === true || err?.name === 'AbortError';
}

// An agent of createAgent: its reducer, once loaded.
async function reducerOf(target) {
  if (target && typeof target.feed !== 'function' && typeof target.load === 'function') {
    await target.load();
    if (!target.reducer) throw target.error ?? new Error('agui thread: the agent did not load');
    return target.reducer;
  }
  if (!target || typeof target.restore !== 'function' || typeof target.feed !== 'function') {
    throw new TypeError('agui thread: loadThread takes a reducer or an agent');
  }
  return target;
}

/**
 * Loads thread threadId from the relay whose agent endpoint is url into
 * target (a reducer, same-thread or worker, or an agent of createAgent),
 * and attaches to its live run. Resolves to {source, found, live, outcome,
 * offline, cached, persist}: source is 'relay' (the relay's thread is
 * shown), 'cache' (the browser's copy: the relay could not be reached or
 * does not have it) or 'none'; live says a run was going on and was
 * followed; outcome is that run's ('completed', 'aborted', 'failed',
 * 'incomplete') or 'idle'; partial says only the thread's last messages
 * are shown (the whole thread could not be fetched after them: see
 * options.tail). persist (with options.persist) keeps writing the
 * reducer's snapshot until persist.stop(). options.onLoad(result) is
 * called once the thread is shown, before its live run is followed (the
 * promise resolves when that run ends).
 */
export async function loadThread(target, url, threadId, options = {}) {
  const {
    threadKey, headers, credentials, signal, fetch: fetchImpl = globalThis.fetch,
    persist, threadsURL, resume, onLoad, tail = true,
  } = options ?? {};
  if (threadId === undefined || threadId === null || String(threadId) === '') throw new TypeError('agui thread: loadThread needs a threadId');
  const reducer = await reducerOf(target);
  const where = threadsURL ?? threadURL(url, threadId);
  const hdrs = { ...plainHeaders(headers), ...threadHeaders(threadKey) };
  const store = persistStore(persist);
  const key = `${String(where)}`;
  const result = { source: 'none', found: false, live: false, outcome: 'idle', offline: false, cached: false, partial: false, persist: null };

  if (store) {
    try {
      const kept = await store.get(key);
      if (kept?.snapshot) {
        await reducer.restore(kept.snapshot);
        result.cached = true;
        result.source = 'cache';
      }
    } catch { /* no cache: the relay's answer is all */ }
  }
  const keep = () => { if (store && !result.persist) result.persist = persistReducer(reducer, store, key); };

  const get = (query) => fetchImpl(`${where}?view=reducer${query}`, {
    method: 'GET', headers: { Accept: 'application/json', ...hdrs }, signal, ...(credentials ? { credentials } : {}),
  });
  // Unless tail is false, and when nothing is painted yet: the last
  // messages first (a long thread shows its end at once), then the whole
  // thread, which replaces them before any live event is folded (the
  // tail's cursor is not used).
  let res = null;
  if (tail && !result.cached) {
    try {
      const t = await get('&tail=1');
      if (!t.ok) t.body?.cancel().catch(() => {});
      // The tail is the whole thread only when the relay says so (a
      // cross-origin page sees the header only when the server exposes it).
      else if (t.headers.get('X-Agui-Partial') === 'false') res = t;
      else {
        await reducer.restore(new Uint8Array(await t.arrayBuffer()));
        Object.assign(result, { partial: true, source: 'relay', found: true });
      }
    } catch (err) {
      if (isAbort(err, signal)) { result.outcome = 'aborted'; return result; }
    }
  }
  // The tail alone is not kept: it would stand for the thread offline.
  const keepWhole = () => { if (!result.partial) keep(); };
  try {
    res ??= await get('');
  } catch (err) {
    if (isAbort(err, signal)) { result.outcome = 'aborted'; return result; }
    result.offline = true; // the cached copy (or the tail), if any, stays
    keepWhole();
    return result;
  }
  if (!result.partial && (res.status === 404 || res.status === 401 || res.status === 410)) {
    res.body?.cancel().catch(() => {});
    keep(); // the relay has no such thread for this key: a new one (or only the cached copy)
    return result;
  }
  if (!res.ok) {
    res.body?.cancel().catch(() => {});
    result.offline = true;
    result.status = res.status;
    keepWhole();
    return result;
  }
  // The bytes as they came: restore() takes them without decoding and
  // encoding 3 MB of text again.
  const snapshot = new Uint8Array(await res.arrayBuffer());
  const cursor = res.headers.get('X-Agui-Last-Event-ID') ?? '';
  await reducer.restore(snapshot);
  result.partial = false;
  result.source = 'relay';
  result.found = true;
  result.cached = false;
  keep();
  if (!cursor) return result;

  // A run is going on: its frames from the first, live.
  result.live = true;
  onLoad?.({ ...result });
  result.outcome = await attach(reducer, url, cursor, { headers: hdrs, credentials, signal, fetch: fetchImpl, resume });
  return result;
}

/**
 * Keeps reducer's snapshot in the browser's store as it changes, under
 * the key loadThread reads (for a thread not on the relay yet: a new
 * chat). Returns {stop(), flush()}.
 */
export function persistThread(reducer, url, threadId, { persist = true, threadsURL } = {}) {
  const store = persistStore(persist);
  return persistReducer(reducer, store, String(threadsURL ?? threadURL(url, threadId)));
}

// How often attach retries a request that failed before any frame came.
const ATTACH_ATTEMPTS = 5;

// attach streams a run from cursor into reducer (POST url with
// Last-Event-ID, which the relay answers with the frames after it); once a
// frame has come, a cut is resumed by the reducer's own resume(), from the
// last frame folded.
async function attach(reducer, url, cursor, { headers, credentials, signal, fetch: fetchImpl, resume }) {
  let fed = false;
  for (let attempt = 0; !fed && attempt < ATTACH_ATTEMPTS; attempt++) {
    if (attempt > 0) {
      await new Promise((r) => setTimeout(r, 100 * 2 ** attempt));
      if (signal?.aborted) return 'aborted';
    }
    let res;
    try {
      res = await fetchImpl(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream', ...headers, 'Last-Event-ID': cursor },
        body: '{}', signal, ...(credentials ? { credentials } : {}),
      });
    } catch (err) {
      if (isAbort(err, signal)) return 'aborted';
      continue;
    }
    if (!res.ok) {
      res.body?.cancel().catch(() => {});
      if (res.status === 408 || res.status === 429 || res.status >= 500) continue;
      return 'failed'; // the run is gone (410) or refused: the snapshot stands
    }
    if (!res.body) continue;
    const reader = res.body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        fed = true;
        await reducer.feed(value);
      }
    } catch (err) {
      reader.cancel().catch(() => {});
      if (isAbort(err, signal)) { await reducer.endStream(); await reducer.stop(); return 'aborted'; }
    }
    await reducer.endStream();
  }
  if (!fed) return 'failed';
  if (reducer.state.status !== 'running') return 'completed';
  // Cut mid-run: the reducer resumes from its last frame.
  const opts = { headers, signal, ...(credentials ? { credentials } : {}), ...(resume !== undefined ? { resume } : {}) };
  if (fetchImpl !== globalThis.fetch) opts.fetch = fetchImpl;
  return reducer.resume(url, undefined, opts);
}
