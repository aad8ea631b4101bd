// The measurements of relay-thread.mjs, the same in Node and in a page of
// headless Chromium: a long thread loaded from a relay with loadThread
// (whole, tail first, the tail alone) against replaying its events, each
// timed to the first painted state (the reducer's state readable, its
// messages there for a subscriber); medians of reps, each after a
// collection (gc).
//
// info is what relay's TestServeThreadLoad prints: {agent, threadId,
// threadKey, history, messages}. web is the web package's module.

export async function measureThreadLoad({ web, wasmURL, info, reps, gc, now }) {
  const { loadReducer, loadThread, threadHeaders, threadURL } = web;
  const factory = await loadReducer(wasmURL);
  const want = info.messages;
  const check = (r, n, what) => {
    const got = r.state.messages.length;
    if (got !== n) throw new Error(`${what}: ${got} messages, want ${n}`);
  };
  const median = async (f) => {
    const ts = [];
    for (let i = 0; i < reps; i++) {
      gc();
      const t = now();
      await f();
      ts.push(now() - t);
    }
    ts.sort((a, b) => a - b);
    return ts[Math.floor(ts.length / 2)];
  };

  // Replaying: the history fetched as SSE, each chunk fed as it arrives.
  const replay = async () => {
    const r = factory.createReducer({});
    const res = await fetch(info.history);
    const reader = res.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      r.feed(value);
    }
    r.endStream();
    check(r, want, 'replay');
    return r;
  };
  // loadThread with tail: false: GET /threads/{id}?view=reducer and
  // restore, the whole thread at once.
  const full = async () => {
    const r = factory.createReducer({});
    await loadThread(r, info.agent, info.threadId, { threadKey: info.threadKey, tail: false });
    check(r, want, 'loadThread');
    return r;
  };
  // The tail alone: ?view=reducer&tail=1 restored, the last messages.
  const tail = async () => {
    const r = factory.createReducer({});
    const res = await fetch(`${threadURL(info.agent, info.threadId)}?view=reducer&tail=1`, { headers: threadHeaders(info.threadKey) });
    r.restore(await res.text());
    if (r.state.messages.length === 0) throw new Error('tail: no messages');
    return r;
  };
  // loadThread as it is called (tail: the default): the first paint is
  // the tail's (timed by a subscriber); the promise resolves with the
  // whole thread.
  let firstPaint = 0;
  const tailFirst = async () => {
    const r = factory.createReducer({});
    const t = now();
    const first = new Promise((resolve) => {
      const off = r.subscribe(() => { if (r.state.messages.length > 0) { off(); resolve(now() - t); } });
    });
    await loadThread(r, info.agent, info.threadId, { threadKey: info.threadKey });
    check(r, want, 'loadThread tail');
    firstPaint += await first;
    return r;
  };

  // The results agree: the restored conversation is the replayed one.
  const a = await replay();
  const b = await full();
  const view = (r) => JSON.stringify(r.state.messages.map((m) => [m.id, m.role, m.content]));
  if (view(a) !== view(b)) throw new Error('loadThread and the replay disagree');
  a.dispose();
  b.dispose();

  const ms = {};
  ms.replayFetched = await median(async () => (await replay()).dispose());
  ms.loadThread = await median(async () => (await full()).dispose());
  ms.tailRestore = await median(async () => (await tail()).dispose());
  ms.loadThreadTailAll = await median(async () => (await tailFirst()).dispose());
  ms.loadThreadTailFirstPaint = firstPaint / reps; // the mean of the first paints
  return {
    ms,
    x: {
      loadThread: ms.replayFetched / ms.loadThread,
      tailRestore: ms.replayFetched / ms.tailRestore,
      loadThreadTailFirstPaint: ms.replayFetched / ms.loadThreadTailFirstPaint,
    },
  };
}
