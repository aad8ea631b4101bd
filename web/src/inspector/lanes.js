// Swimlanes: runs, steps, subagents and tool calls as spans on one time
// axis, built entry by entry. A tool call's span runs from its start
// through the end of its arguments to its result.

/**
 * A span: {kind: 'run' | 'step' | 'subagent' | 'tool', id, label, run,
 * start, end (undefined while open), argsEnd (tool calls), status (a tool
 * call with its result is 'complete', the state's word; one whose
 * arguments were cut off 'cut off'), startSeq, endSeq, argsEndSeq,
 * invalid (a tool call whose arguments broke its schema or were cut off:
 * {at, atSeq, keywords}, the entry that made it invalid)}. Times are the
 * entries' t (ms), seqs their indices.
 */
export class Lanes {
  spans = [];
  #open = new Map(); // key → span

  #begin(kind, id, label, e) {
    const key = `${kind}\u0000${id}`;
    let s = this.#open.get(key);
    if (s && s.end === undefined) return s;
    s = { kind, id, label, run: e.run ?? '', start: e.t, startSeq: e.seq, end: undefined, endSeq: undefined, status: 'running' };
    this.#open.set(key, s);
    this.spans.push(s);
    return s;
  }

  #get(kind, id) { return this.#open.get(`${kind}\u0000${id}`); }

  #finish(s, e, status) {
    if (!s || s.end !== undefined) return;
    s.end = e.t;
    s.endSeq = e.seq;
    s.status = status;
  }

  add(e) {
    if (e.kind === 'action') {
      if (e.name === 'addToolResult') {
        const s = this.#get('tool', String(e.args?.[0] ?? ''));
        if (s) { this.#argsDone(s, e); this.#finish(s, e, 'complete'); }
      } else if (e.name === 'stop' || e.name === 'fail' || e.name === 'reset') {
        for (const s of this.#open.values()) if (s.end === undefined && s.kind !== 'tool') this.#finish(s, e, e.name === 'fail' ? 'error' : 'stopped');
      }
      return;
    }
    if (e.kind !== 'event') return;
    if (e.subagentRunId) {
      const s = this.#begin('subagent', e.subagentRunId, e.subagentRunId, e);
      s.last = e.t;
      s.lastSeq = e.seq;
    }
    switch (e.type) {
      case 'RUN_STARTED': this.#begin('run', e.runId ?? '', e.runId ?? 'run', e); break;
      case 'RUN_FINISHED': this.#endRun(e, 'done'); break;
      case 'RUN_ERROR': this.#endRun(e, 'error'); break;
      case 'STEP_STARTED': this.#begin('step', `${e.run}\u0000${e.stepName ?? ''}`, e.stepName ?? 'step', e); break;
      case 'STEP_FINISHED': this.#finish(this.#get('step', `${e.run}\u0000${e.stepName ?? ''}`), e, 'done'); break;
      case 'TOOL_CALL_START': case 'TOOL_CALL_CHUNK': {
        if (!e.toolCallId) break;
        const s = this.#begin('tool', e.toolCallId, e.toolCallName ?? e.toolCallId, e);
        if (e.toolCallName && s.label === e.toolCallId) s.label = e.toolCallName;
        break;
      }
      case 'TOOL_CALL_END': {
        const s = this.#get('tool', e.toolCallId ?? '');
        if (s) this.#argsDone(s, e);
        break;
      }
      case 'TOOL_CALL_RESULT': {
        const s = this.#get('tool', e.toolCallId ?? '');
        if (s) { this.#argsDone(s, e); this.#finish(s, e, 'complete'); }
        break;
      }
      default: break;
    }
    for (const bad of e.argsInvalid ?? []) this.#invalid(this.#get('tool', bad.toolCallId), bad, e);
  }

  // A call whose arguments an entry found invalid: marked at the first such
  // entry; arguments cut off end the call (it never completes).
  #invalid(s, bad, e) {
    if (!s) return;
    const keywords = bad.errors.map((x) => x.keyword);
    if (!s.invalid) s.invalid = { at: e.t, atSeq: e.seq, keywords: [] };
    for (const k of keywords) if (!s.invalid.keywords.includes(k)) s.invalid.keywords.push(k);
    if (keywords.includes('truncated')) { this.#argsDone(s, e); this.#finish(s, e, 'cut off'); }
  }

  #argsDone(s, e) {
    if (s.argsEnd !== undefined) return;
    s.argsEnd = e.t;
    s.argsEndSeq = e.seq;
    if (s.status === 'running') s.status = 'awaiting result';
  }

  #endRun(e, status) {
    this.#finish(this.#get('run', e.runId ?? e.run ?? ''), e, status);
    // Steps and subagents still open in the run end with it.
    for (const s of this.#open.values()) {
      if (s.end === undefined && s.kind === 'step' && s.run === e.run) this.#finish(s, e, status === 'error' ? 'error' : 'unfinished');
      if (s.end === undefined && s.kind === 'subagent' && s.run === e.run) {
        // A subagent spans its events.
        this.#finish(s, { t: s.last ?? e.t, seq: s.lastSeq ?? e.seq }, status);
      }
    }
  }
}
