// Resumable runs: the reconnect loop shared by run() (transport.js) and the
// drop-in HttpAgent (ag-ui.js). A server that gives each SSE frame an id
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
    sleep: typeof o.sleep === 'function' ? o.sleep : sleep,
    random: typeof o.random === 'function' ? o.random : Math.random,
  };
}

/** The options of a policy that can cross to a worker (no functions). */
export function portablePolicy(resume) {
  if (resume === false || resume == null || resume === true) return resume ?? null;
  const { attempts, delay, factor, maxDelay, jitter } = resume;
  return { attempts, delay, factor, maxDelay, jitter };
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
 * resets the budget. Resolves to {outcome, reconnects, lastEventId, reason?}.
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
      return { outcome: await giveUp(r.cut, r.error), reconnects, lastEventId: id, ...(reason ? { reason } : {}) };
    }
    if (id !== before && !r.restarted) failures = 0;
    failures++;
    if (failures > policy.attempts) {
      return { outcome: await giveUp(r.cut, r.error), reconnects, lastEventId: id, reason: 'attempts_exhausted' };
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
