// Types of the reconnects of run() (src/reducer/resume.js; docs/resume.md);
// ../agui.d.ts exports them.

import type { RunOutcome } from './options.js';

/**
 * How run() reconnects. A response that ends without RUN_FINISHED / RUN_ERROR, or fails on the
 * network, is requested again with Last-Event-ID (docs/resume.md) while the server sends ids.
 * Wait n (since the last reconnect that made progress): min(maxDelay, delay · factor^(n-1)),
 * shortened by up to jitter of it at random. Give up after `attempts` reconnects in a row that
 * fold no new frame (or that the server answers with the run from its start), and after
 * `maxReconnects` reconnects in all, progress or not: one run() or resume() call makes at most
 * 1 + maxReconnects requests. A reconnect answered with another run (a RUN_STARTED with another
 * runId) is not folded: the run fails with code 'resume_restarted'.
 */
export interface ResumeOptions {
  /** Default 5. */
  attempts?: number;
  /** Milliseconds, default 500. */
  delay?: number;
  /** Default 2. */
  factor?: number;
  /** Milliseconds, default 15000. */
  maxDelay?: number;
  /** 0..1, default 0.5. */
  jitter?: number;
  /** Reconnects in all, for one run() or resume() call; default 100. */
  maxReconnects?: number;
  /** Same-thread reducers only (tests): the wait; resolves false when signal aborted it. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<boolean>;
  /** Same-thread reducers only (tests): the jitter's random source, [0, 1). */
  random?: () => number;
}

/** The 'reconnect' event: run() is about to wait `delay` ms, then reconnect. */
export interface ReconnectInfo {
  /** Reconnects since the last one that made progress (1 after progress). */
  attempt: number;
  /** Reconnects of this run so far, this one included. */
  reconnects: number;
  delay: number;
  /** Sent as Last-Event-ID. */
  lastEventId: string;
  /** Why: the body ended mid-run, a network error, or an HTTP 5xx/408/429 on a reconnect. */
  reason: 'incomplete' | 'network' | 'http';
}

/** reducer.lastRun: how the last run() or resume() ended. */
export interface RunReport {
  outcome: RunOutcome;
  /** Reconnects made. */
  reconnects: number;
  /** state.lastEventId at the end ('' for none). */
  lastEventId: string;
  /** Why it ended without completing: 'no_event_ids' (the server sent no ids: it cannot resume),
   *  'attempts_exhausted', 'reconnects_exhausted' (maxReconnects), or for resume():
   *  'nothing_to_resume'. */
  reason?: 'no_event_ids' | 'attempts_exhausted' | 'reconnects_exhausted' | 'nothing_to_resume';
}
