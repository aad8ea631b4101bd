// Types of agui.js: options (re-exported by ../agui.d.ts).

import type { JSONValue, ToolDefinition } from './state.js';
import type { Diagnostic, CustomEvent, ChangeRecord } from './records.js';

export interface ReducerOptions {
  /** Also report what the official 1.0 client's verifyEvents rejects (`order` error diagnostics,
   *  with its messages); the events are still applied. Default false. */
  strict?: boolean;
  /** Event shapes accepted: "auto" (default: detected per event), or pinned to one of
   *  "agui", "sse-contract", "tanstack", "streaming" (see docs/dialects.md). */
  dialect?: 'auto' | 'agui' | 'sse-contract' | 'tanstack' | 'streaming';
  /** The thread id from the start (state.threadId, every runInput), until a RUN_STARTED
   *  names another; reset() keeps it. Default: runInput() chooses one, the same for every
   *  request before the first run. */
  threadId?: string;
  /** Reject larger events (default 16 MiB). */
  maxEventBytes?: number;
  /** Reject events nested deeper (default 512). */
  maxDepth?: number;
  /** Bound one streamed field: content, reasoning, tool arguments (default 32 MiB). */
  maxFieldBytes?: number;
  /** Bound the shared state and activity content together, as their JSON size about
   *  (default 64 MiB): an event that would grow them past it is refused with too_large. */
  maxStateBytes?: number;
  /** Ids the reducer makes itself (runInput's runId, user messages without id) are
   *  derived from the state instead of random UUIDs: for replays and tests. */
  deterministicIds?: boolean;
  /** Tools known to the app (an AG-UI Tool[]) whose parameters JSON Schemas validate their
   *  calls' arguments, beside those each run's input carries (docs/tool-validation.md). */
  tools?: ToolDefinition[];
}

export interface LoadOptions {
  /** The Go glue to use instead of the package's dist/wasm_exec.js (built with agui.wasm by
   *  the same toolchain): an ES module exporting Go, or a classic wasm_exec.js. */
  wasmExecURL?: string | URL;
}

/** What loadReducer() (and a worker reducer's first call) rejects with when the wasm module
 *  cannot be fetched, read, compiled or started; e.g. show "could not load" with err.url. */
export class LoadError extends Error {
  readonly name: 'LoadError';
  readonly code: 'load_failed';
  /** The wasm (or worker) URL, when known. */
  readonly url?: string;
  /** The HTTP status of a failed fetch. */
  readonly status?: number;
}

/** The AG-UI RunAgentInput a run() POSTs. */
export interface RunAgentInput {
  threadId: string;
  runId: string;
  protocolVersion: '1.0';
  /** Left out when the state is null. */
  state?: JSONValue;
  messages: JSONValue[];
  tools: JSONValue[];
  context: JSONValue[];
  forwardedProps: JSONValue;
  resume?: JSONValue;
  [key: string]: JSONValue | undefined;
}

export interface RunInputOptions {
  /** Default: the state's thread id (or the one chosen at creation). */
  threadId?: string;
  /** Default: a fresh id. */
  runId?: string;
  /** Default: the shared state. */
  state?: JSONValue;
  /** Default: the conversation in the official Message[] shape. */
  messages?: JSONValue[];
  /** The tools sent; their parameters schemas also validate the calls that follow. */
  tools?: ToolDefinition[] | JSONValue[];
  context?: JSONValue[];
  forwardedProps?: JSONValue;
  resume?: JSONValue;
}

export interface RunOptions {
  signal?: AbortSignal;
  headers?: HeadersInit;
  credentials?: RequestCredentials;
  /** Same-thread reducers only: the fetch to use (default globalThis.fetch). */
  fetch?: typeof fetch;
  /** Reconnecting when the response is cut (default on, RESUME_DEFAULTS); false: never. */
  resume?: boolean | ResumeOptions;
  /** Continue the run from this SSE id instead of starting one (resume() passes state.lastEventId). */
  lastEventId?: string;
}

export type { ResumeOptions, ReconnectInfo, RunReport } from './resume.js';
import type { ResumeOptions, ReconnectInfo, RunReport } from './resume.js';

/**
 * How a run() ended:
 * - 'completed': the response body ended and the run is no longer running;
 * - 'incomplete': the body ended while the state still says running (no RUN_FINISHED / RUN_ERROR);
 *   the state is left as the agent sent it (as the official client does); call stop() or fail() to settle it;
 * - 'aborted': options.signal aborted (or the reducer was disposed); a running run was stopped with
 *   stop() (status idle, no error);
 * - 'failed': a network error (fail(message, 'network')) or an HTTP error status
 *   (fail('HTTP <status>: <statusText>', '<status>')); a refused reconnect (4xx) is
 *   fail('resume failed: <the server's error>', <its code, e.g. 'resume_unavailable'>); a reconnect
 *   answered with another run (another runId) is fail('resume failed: …', 'resume_restarted'),
 *   and none of that run is folded.
 * A cut response is reconnected first (RunOptions.resume); these are the ends after that.
 * run() and resume() reject, without a request and with the state unchanged, on a bad argument:
 * a lastEventId with CR, LF or NUL (code 'bad_last_event_id'), an input JSON cannot encode, and
 * for worker reducers a URL that does not parse.
 */
export type RunOutcome = 'completed' | 'incomplete' | 'aborted' | 'failed';

export type ReducerEvents = {
  custom: CustomEvent;
  diagnostic: Diagnostic;
  change: ChangeRecord;
  /** A subscriber or handler threw, or the mirror had to resynchronise (a change record
   *  that did not apply; found when the state is next read, as records are applied then).
   *  Without an 'error' handler these go to console.error. */
  error: unknown;
  /** run() is reconnecting after a cut (a UI's "reconnecting…"). */
  reconnect: ReconnectInfo;
};
