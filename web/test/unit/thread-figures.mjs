// Figures (not a test): loading a thread of many turns from the demo
// server's relay with loadThread, against replaying its frames through a
// new reducer. node web/test/unit/thread-figures.mjs [turns]
import { loadReducer, loadThread, newThreadKey, threadHeaders } from '../../entries/agui.node.js';
import { wasmURL } from '../support/helpers.mjs';
import { startDemo } from '../support/demo-server.mjs';

const turns = Number(process.argv[2] ?? 500);
const factory = await loadReducer(wasmURL);
const demo = await startDemo(['-speed', '0']);
try {
  const url = `${demo.url}agent`;
  const key = newThreadKey();
  const a = factory.createReducer({ threadId: 'figures' });
  const bodies = [];
  const fetchKeep = async (u, init) => {
    const res = await fetch(u, init);
    const body = new Uint8Array(await res.arrayBuffer());
    bodies.push(body);
    return new Response(body, { status: res.status, headers: res.headers });
  };
  for (let i = 0; i < turns; i++) {
    a.addUserMessage(`turn ${i}`);
    await a.run(url, a.runInput({ forwardedProps: { scenario: 'text' } }), { headers: threadHeaders(key), fetch: fetchKeep });
  }
  const bytes = bodies.reduce((n, b) => n + b.byteLength, 0);
  const time = async (f, n = 5) => {
    const ts = [];
    for (let i = 0; i < n; i++) { const t = performance.now(); await f(); ts.push(performance.now() - t); }
    ts.sort((x, y) => x - y);
    return ts[Math.floor(n / 2)];
  };
  const load = await time(async () => {
    const r = factory.createReducer({ threadId: 'figures' });
    await loadThread(r, url, 'figures', { threadKey: key });
    if (r.state.messages.length !== a.state.messages.length) throw new Error('not the same thread');
    r.dispose();
  });
  const replay = await time(async () => {
    const r = factory.createReducer({ threadId: 'figures' });
    for (let i = 0; i < bodies.length; i++) {
      r.addUserMessage(`turn ${i}`);
      r.feed(bodies[i]);
      r.endStream();
    }
    void r.state;
    r.dispose();
  });
  console.log(`${turns} turns, ${a.state.messages.length} messages, ${(bytes / 1e6).toFixed(1)} MB of SSE: loadThread ${load.toFixed(1)} ms, replaying the frames in memory ${replay.toFixed(1)} ms (${(replay / load).toFixed(1)}×)`);
} finally {
  await demo.stop();
}
