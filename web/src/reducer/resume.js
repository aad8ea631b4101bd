// Resumable runs: the reconnect loop shared by run() (transport.js) and the
// drop-in HttpAgent (src/ag-ui/drop-in.js). A server that gives each SSE frame an id
// (docs/resume.md) can continue a cut response: the client repeats its
// request with the id of the last frame it folded as Last-Event-ID. This
// module decides when to reconnect and how long to wait; the reducer keeps
// the id (state.lastEventId) and skips frames it has folded already.

/** The defaults of options.resume (README, "Resumable runs"). */
export const RESUME_DEFAULTS = Object.freeze({
  attempts: 5, // reconnects in a row without progress before giving up
  delay: 500, // ms before the first reconnect…
  factor: 2, // …multiplied by this for each one after it without progress…
  maxDelay: 15_000, // …up to this
  jitter: 0.5, // each wait is shortened by up to this fraction, at random
  maxReconnects: 100, // reconnects in all, for one run() or resume() call, progress or not
});

/** The diagnostics that say a response started the run again rather than resuming it. */
const RESTARTS = new Set(['resent_run', 'replayed_run']);

/** True when change records hold a diagnostic that says the run was started again. */
export function restarted(records) {
  for (const rec of records) {
    if (rec.diagnostics) for (const d of rec.diagnostics) if (RESTARTS.has(d.code)) return true;
  }
  return false;
}

/** The same for change records as JSON text (the worker's, not parsed there). */
export function restartedText(text) {
  return text.includes('"code":"resent_run"') || text.includes('"code":"replayed_run"');
}

/**
 * options.resume → the policy, or null when resuming is off (false). true,
 * undefined and null mean the defaults; an object overrides some of them.
 * sleep(ms, signal) and random() may be injected (tests).
 */
export function resumePolicy(resume) {
  if (resume === false) return null;
  const o = resume === true || resume == null ? {} : resume;
  const num = (k, min) => {
    const v = o[k] ?? RESUME_DEFAULTS[k];
    if (typeof v !== 'number' || !(v >= min)) throw new TypeError(`agui reducer: resume.${k} must be a number >= ${min}`);
    return v;
  };
  return {
    attempts: num('attempts', 0),
    delay: num('delay', 0),
    factor: num('factor', 1),
    maxDelay: num('maxDelay', 0),
    jitter: Math.min(num('jitter', 0), 1),
    maxReconnects: num('maxReconnects', 0),
    sleep: typeof o.sleep === 'function' ? o.sleep : sleep,
    random: typeof o.random === 'function' ? o.random : Math.random,
  };
}

/** The options of a policy that can cross to a worker (no functions). */
export function portablePolicy(resume) {
  if (resume === false || resume == null || resume === true) return resume ?? null;
  const { attempts, delay, factor, maxDelay, jitter, maxReconnects } = resume;
  return { attempts, delay, factor, maxDelay, jitter, maxReconnects };
}

/** The wait before reconnect n (1 for the first since the last progress), in ms. */
export function backoff(policy, n) {
  const full = Math.min(policy.maxDelay, policy.delay * policy.factor ** (n - 1));
  return Math.round(full * (1 - policy.jitter * policy.random()));
}

/** Resolves true after ms, or false as soon as signal aborts. */
export function sleep(ms, signal) {
  return new Promise((resolve) => {
    if (signal?.aborted) { resolve(false); return; }
    const done = (slept) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve(slept);
    };
    const onAbort = () => done(false);
    const timer = setTimeout(() => done(true), ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * A 4xx answer to a request that sent Last-Event-ID: the server cannot
 * resume (docs/resume.md: 400 bad_last_event_id, 410 resume_unavailable or
 * run_stopped). Resolves to {message, code} from its JSON body, else from
 * the status.
 */
export async function resumeRefusal(response) {
  let body = null;
  try { body = await response.json(); } catch { /* not JSON */ }
  const why = typeof body?.error === 'string' ? body.error : `HTTP ${response.status}: ${response.statusText}`;
  const code = typeof body?.code === 'string' ? body.code : String(response.status);
  return { message: `resume failed: ${why}`, code };
}

/**
 * Whether id cannot be sent as Last-Event-ID: no SSE frame can carry CR or
 * LF, an EventSource ignores an id with NUL, and fetch refuses such a header
 * value (which would look like a network failure).
 */
export function badCursor(id) {
  return typeof id === 'string' && /[\r\n\0]/.test(id);
}

/** The error run() and resume() reject with for such a cursor, before any request. */
export function badCursorError(id) {
  return Object.assign(new TypeError('agui reducer: the lastEventId cannot be sent as Last-Event-ID: it contains CR, LF or NUL'),
    { code: 'bad_last_event_id' });
}

/** Bytes of a resumed response read ahead at most to find its first event (FirstEvent). */
export const PEEK_BYTES = 64 << 10;

/**
 * The first event of an SSE body read in pieces: push(text) returns its
 * data once the event is whole, else null. Lines end with CRLF, LF or CR;
 * each piece is scanned once (a CR that ends a piece may be half of a CRLF:
 * the LF that may follow is skipped).
 */
export class FirstEvent {
  #line = ''; // the line read so far
  #data = null;
  #start = true; // before the first byte (a byte order mark)
  #afterCR = false;

  push(text) {
    let i = 0;
    if (this.#start && text.length > 0) {
      this.#start = false;
      if (text.charCodeAt(0) === 0xfeff) i = 1;
    }
    if (this.#afterCR && i < text.length) {
      this.#afterCR = false;
      if (text[i] === '\n') i++;
    }
    while (i < text.length) {
      let end = i;
      while (end < text.length && text[end] !== '\n' && text[end] !== '\r') end++;
      if (end === text.length) {
        this.#line += text.slice(i);
        return null;
      }
      const line = this.#line + text.slice(i, end);
      this.#line = '';
      if (text[end] === '\r') {
        if (end + 1 === text.length) this.#afterCR = true;
        else if (text[end + 1] === '\n') end++;
      }
      i = end + 1;
      if (line === '') {
        if (this.#data !== null) return this.#data;
        continue;
      }
      const colon = line.indexOf(':');
      if (colon === 0) continue;
      if ((colon < 0 ? line : line.slice(0, colon)) !== 'data') continue;
      let value = colon < 0 ? '' : line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      this.#data = this.#data === null ? value : `${this.#data}\n${value}`;
    }
    return null;
  }
}

/**
 * Whether the first event of a response to a reconnect starts another run
 * than runId: the server did not resume the run (it minted a new one), and
 * what it sends must not be folded as if it had.
 */
export function startsAnotherRun(data, runId) {
  if (!runId || !data.includes('RUN_STARTED')) return null;
  let e;
  try { e = JSON.parse(data); } catch { return null; }
  if (e === null || typeof e !== 'object' || e.type !== 'RUN_STARTED' || typeof e.runId !== 'string' || e.runId === runId) return null;
  return e.runId;
}

/** Whether an HTTP status on a resume is worth another attempt (the server is busy or down). */
export function retryableStatus(status) {
  return status === 408 || status === 429 || status >= 500;
}

/**
 * The reconnect loop. attempt(lastEventId) makes one request (lastEventId
 * null: a fresh one) and resolves to {end} when the run is over — end is
 * the outcome — or {cut, restarted?} when the response ended early or
 * failed on the network (cut: 'incomplete', 'network' or 'http'), having
 * folded what came. cursor() resolves to the id of the last frame folded
 * ('' when none). giveUp(cut) settles the state when no reconnect follows
 * and resolves to the outcome. Reconnects are made while the server sends
 * ids; an attempt that moves the cursor (without starting the run again)
 * resets the count of attempts in a row, never the policy's maxReconnects,
 * which bounds the requests of one call whatever the server claims is
 * progress. giveUp(cut, error, r) receives the attempt's result r too.
 * Resolves to {outcome, reconnects, lastEventId, reason?}.
 */
export async function resumeLoop({ policy, signal, from = null, attempt, cursor, giveUp, stop, onReconnect }) {
  let reconnects = 0;
  let failures = 0; // reconnects since the last progress
  let sent = from || null;
  for (;;) {
    const before = sent ?? '';
    const r = await attempt(sent);
    if (r.end) return { outcome: r.end, reconnects, lastEventId: await cursor() };
    const id = await cursor();
    if (!policy || !id || signal?.aborted) {
      const reason = !policy ? undefined : !id ? 'no_event_ids' : undefined;
      if (signal?.aborted) return { outcome: await stop(), reconnects, lastEventId: id };
      return { outcome: await giveUp(r.cut, r.error, r), reconnects, lastEventId: id, ...(reason ? { reason } : {}) };
    }
    if (id !== before && !r.restarted) failures = 0;
    failures++;
    if (failures > policy.attempts) {
      return { outcome: await giveUp(r.cut, r.error, r), reconnects, lastEventId: id, reason: 'attempts_exhausted' };
    }
    if (reconnects >= policy.maxReconnects) {
      return { outcome: await giveUp(r.cut, r.error, r), reconnects, lastEventId: id, reason: 'reconnects_exhausted' };
    }
    const delay = backoff(policy, failures);
    onReconnect?.({ attempt: failures, reconnects: reconnects + 1, delay, lastEventId: id, reason: r.cut });
    if (!(await policy.sleep(delay, signal)) || signal?.aborted) {
      return { outcome: await stop(), reconnects, lastEventId: id };
    }
    reconnects++;
    sent = id;
  }
}
