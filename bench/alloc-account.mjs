// Who allocates a run's JS (Node): V8's sampling heap profiler over one run,
// collected objects included, each sample given to an owner from its stack
// (outermost frame first):
//
// - the preview reader: agent-large.mjs's onMessagesChanged is on the stack
//   (its reads, and the flat copies of the argument text they make);
// - the chat subscribers: agent-core.mjs's onMessagesChanged or
//   onStateChanged is (their messages.map);
// - the network: the innermost frame is the benchmark's own code (the fake
//   fetch's chunks and reads: the transport floor, what any client pays to be
//   handed the bytes);
// - the agent: everything else (its transport, the apply step, the reducer's
//   JS side, the @ag-ui/client code it runs).
//
// The agent's share is what the allocation bar reads ("above the transport
// floor": the network's share and the benchmark's subscribers and reader
// set apart). agent.mjs (the large-arguments rows) and agent-alloc.mjs use it.

import { Session } from 'node:inspector/promises';

export const OWNERS = ['agent', 'subscribers', 'reader', 'network'];

/** The owner of a sample whose stack is given outermost first ({url, functionName} frames). */
export function owner(stack) {
  let who = null;
  for (const cf of stack) {
    if (cf.url.endsWith('/bench/agent-large.mjs') && cf.functionName === 'onMessagesChanged') return 'reader';
    if (cf.url.endsWith('/bench/agent-core.mjs') && (cf.functionName === 'onMessagesChanged' || cf.functionName === 'onStateChanged')) who = 'subscribers';
  }
  if (who !== null) return who;
  const top = stack[stack.length - 1];
  return top !== undefined && /\/bench\/[^/]+\.mjs$/.test(top.url) ? 'network' : 'agent';
}

/** Where in the agent a sample was allocated: the innermost frame of the package or of @ag-ui/client, else "other". */
export function agentPlace(stack) {
  for (let i = stack.length - 1; i >= 0; i--) {
    const u = stack[i].url;
    const m = /\/web\/(?:src|entries)\/(.+)$/.exec(u) ?? /node_modules\/(@ag-ui\/[^/]+|rxjs)\//.exec(u);
    if (m !== null) return m[1];
  }
  return 'other (Node, stream and promise internals)';
}

/**
 * The account of a sampling heap profile (HeapProfiler.stopSampling's
 * profile) over a run of `events` events: KB per event by owner, their sum
 * (sampledKB), and the agent's share by place (the package's file, or
 * @ag-ui/client, rxjs, other). The owners' shares add up to sampledKB.
 */
export function accountProfile(profile, events) {
  const bytes = Object.fromEntries(OWNERS.map((k) => [k, 0]));
  const places = new Map();
  const walk = (node, stack) => {
    stack.push(node.callFrame);
    if (node.selfSize > 0) {
      const k = owner(stack);
      bytes[k] += node.selfSize;
      if (k === 'agent') { const p = agentPlace(stack); places.set(p, (places.get(p) ?? 0) + node.selfSize); }
    }
    for (const c of node.children) walk(c, stack);
    stack.pop();
  };
  walk(profile.head, []);
  const kb = (b) => b / 1024 / events;
  const sampled = OWNERS.reduce((a, k) => a + bytes[k], 0);
  return {
    agentKB: kb(bytes.agent), subscribersKB: kb(bytes.subscribers), readerKB: kb(bytes.reader), networkKB: kb(bytes.network),
    sampledKB: kb(sampled),
    agentPlacesKB: Object.fromEntries([...places].sort((a, b) => b[1] - a[1]).map(([p, b]) => [p, kb(b)])),
  };
}

/**
 * A sampler: account(run, events) runs run() under the sampling heap
 * profiler (one sample per 128 bytes on average) and resolves to
 * accountProfile's account. close() when done.
 */
export async function allocSampler() {
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.enable');
  return {
    async account(run, events) {
      await session.post('HeapProfiler.startSampling', { samplingInterval: 128, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
      let profile;
      try {
        await run();
      } finally {
        ({ profile } = await session.post('HeapProfiler.stopSampling'));
      }
      return accountProfile(profile, events);
    },
    close() { session.disconnect(); },
  };
}
