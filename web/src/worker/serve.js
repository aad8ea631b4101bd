// The worker side of worker reducers (host.js is the page side): serve()
// answers the protocol below on a port; entry.js starts it in a module worker.
// The page posts calls; this worker reduces and posts back change records as
// JSON text, which the page applies to its mirror. A run() fetches and parses
// the SSE body here too, so the page's main thread does no reducing at all.
//
// Protocol (page → worker), processed in order:
//   {op:'init', wasmURL}
//   {op:'create', id, rid, options}             → {id, ok, kind:'json', text: state}
//   {op:'call', id, rid, method, args}          → {id, ok, kind, text | value}
//   {op:'run', id, rid, runId, url, input, headers, credentials, resume, lastEventId, observe}
//                                               → {op:'records', rid, text}… and {op:'reconnect', rid, info}…
//                                                 (with observe, {op:'observed', rid, input}… too: the SSE
//                                                 chunks and actions of the run, for the page's observers)
//                                                 then {id, ok, value: {outcome, reconnects, lastEventId, reason?}}
//   {op:'abort', runId}
//   {op:'dispose', rid}
// A failed call answers {id, ok:false, error:{message, code}, text?} where
// text is a change record to apply first (it resynchronises after a panic).

import { loadCore } from '../wasm/loader.js';
import { eventData, chunkData, tokenOfText } from '../wasm/records.js';
import { COMPACT, APPENDS } from '../wasm/core.js';
import { runStream } from '../reducer/transport.js';
import { runTarget } from '../reducer/run-target.js';

/** An applyToken result as the change record's JSON text apply would give. */
function tokenRecord(core, r) {
  if (r === COMPACT) {
    return { ok: true, text: JSON.stringify({ ops: [{ op: 'append', path: `/messages/${core.appendIndex}/${core.appendKey}`, value: core.appendText }] }) };
  }
  if (r === APPENDS) {
    const ops = new Array(core.appendCount);
    for (let k = 0; k < ops.length; k++) ops[k] = { op: 'append', path: core.appendPaths[k], value: core.appendTexts[k] };
    return { ok: true, text: JSON.stringify({ ops }) };
  }
  return r;
}

/** Serves the protocol on port (the worker scope, or a MessagePort in tests). */
export function serve(port) {
  let core = null;
  let loading = null;
  const handles = new Map(); // rid → wasm handle
  const runs = new Map(); // runId → {ctrl, rid}
  let queue = Promise.resolve();

  const reply = (msg) => port.postMessage(msg);
  const failure = (id, err, text) => reply({
    id, ok: false, text,
    error: {
      message: err?.message ?? String(err),
      ...(err?.code ? { code: err.code } : {}),
      ...(err?.url ? { url: err.url } : {}),
      ...(err?.status ? { status: err.status } : {}),
    },
  });

  function handle(rid) {
    const h = handles.get(rid);
    if (!h) throw Object.assign(new Error('agui reducer: this reducer was disposed'), { code: 'bad_handle' });
    return h;
  }

  // Record-yielding calls, with their result kind.
  const records = (r) => ({ kind: 'record', ...r });
  const methods = {
    apply: (h, [data, name, id]) => {
      // A streamed token as JSON text crosses by its fields, as on the page's thread.
      const tok = name === '' && id == null && core.tokens ? tokenOfText(data) : null;
      if (tok !== null) return records(tokenRecord(core, core.applyToken(h, tok.kind, tok.id, tok.delta)));
      const r = core.apply(h, eventData(data), name);
      if (id == null || !r.ok) return records(r);
      const idRec = JSON.parse(core.call('setLastEventId', h, String(id)).text);
      if (!idRec.ops?.length) return records(r);
      const rec = JSON.parse(r.text);
      return records({ ok: true, text: JSON.stringify({ ...rec, ops: [...(rec.ops ?? []), ...idRec.ops] }) });
    },
    cursor: (h) => ({ kind: 'json', ok: true, text: JSON.stringify({ id: core.call('lastEventId', h).text, running: core.number('running', h) === 1 }) }),
    feed: (h, [chunk]) => ({ kind: 'records', ...core.call('feed', h, chunkData(chunk)) }),
    endStream: (h) => { core.call('endStream', h); return { kind: 'none', ok: true }; },
    addUserMessage: (h, [a]) => records(core.call('addUserMessage', h, a)),
    addToolResult: (h, [a]) => records(core.call('addToolResult', h, a)),
    fail: (h, [a]) => records(core.call('fail', h, a)),
    stop: (h) => records(core.call('stop', h)),
    reset: (h) => records(core.call('reset', h)),
    setState: (h, [a]) => records(core.call('setState', h, a)),
    setMessages: (h, [a]) => records(core.call('setMessages', h, a)),
    restore: (h, [a]) => records(core.call('restore', h, a)),
    snapshot: (h) => ({ kind: 'json', ...core.call('snapshot', h) }),
    runInput: (h, [a]) => ({ kind: 'json', ...core.call('runInput', h, a) }),
    setTools: (h, [a]) => ({ kind: 'json', ...core.call('setTools', h, a) }),
    messages: (h) => ({ kind: 'json', ...core.call('messages', h) }),
  };

  function startRun(m) {
    const h = handle(m.rid);
    const ctrl = new AbortController();
    runs.set(m.runId, { ctrl, rid: m.rid });
    // While the page observes the reducer (m.observe), the run's inputs go to it too.
    const target = runTarget(core, h, {
      live: () => handles.get(m.rid) === h,
      commit: (text) => reply({ op: 'records', rid: m.rid, text }),
      runId: () => JSON.parse(core.call('snapshot', h).text).runId ?? '',
      observing: () => m.observe,
      tell: (input) => reply({ op: 'observed', rid: m.rid, input }),
    });
    const options = { headers: m.headers, credentials: m.credentials, resume: m.resume ?? undefined, lastEventId: m.lastEventId ?? undefined };
    runStream(target, m.url, m.input ?? undefined, options, ctrl, (info) => reply({ op: 'reconnect', rid: m.rid, info }))
      .then((report) => reply({ id: m.id, ok: true, kind: 'value', value: report }),
        (err) => failure(m.id, err))
      .finally(() => runs.delete(m.runId));
  }

  async function dispatch(m) {
    if (m.op === 'init') {
      loading = loadCore(m.wasmURL).then((c) => { core = c; });
      loading.catch(() => {}); // reported to each call below
      return;
    }
    if (m.op === 'abort') { runs.get(m.runId)?.ctrl.abort(); return; }
    try {
      if (!loading) throw new Error('agui reducer: worker not initialised');
      await loading;
      switch (m.op) {
        case 'create': {
          const h = core.create(m.options);
          handles.set(m.rid, h);
          reply({ id: m.id, ok: true, kind: 'json', text: core.call('snapshot', h).text });
          return;
        }
        case 'dispose': {
          const h = handles.get(m.rid);
          handles.delete(m.rid);
          for (const run of runs.values()) if (run.rid === m.rid) run.ctrl.abort();
          if (h) core.release(h);
          return;
        }
        case 'run':
          startRun(m);
          return;
        case 'call': {
          const fn = methods[m.method];
          if (!fn) throw new Error(`agui reducer: unknown method ${m.method}`);
          const r = fn(handle(m.rid), m.args);
          if (r.ok) {
            reply({ id: m.id, ok: true, kind: r.kind, text: r.text });
          } else if (r.kind === 'record' || r.kind === 'records') {
            // A change record with a diagnostic (a recovered panic, say):
            // still a result, as on the main thread.
            reply({ id: m.id, ok: true, kind: r.kind, text: r.kind === 'records' ? `[${r.text}]` : r.text });
          } else {
            const rec = JSON.parse(r.text);
            const d = rec.diagnostics?.[0] ?? {};
            failure(m.id, { message: `agui reducer: ${d.message}`, code: d.code }, r.text);
          }
          return;
        }
        default:
          throw new Error(`agui reducer: unknown op ${m.op}`);
      }
    } catch (err) {
      if (m.id !== undefined) failure(m.id, err);
      else console.error(err);
    }
  }

  port.addEventListener('message', (e) => {
    const m = e.data;
    queue = queue.then(() => dispatch(m));
  });
  port.start?.();
}
