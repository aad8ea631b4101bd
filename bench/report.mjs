// Tables for the results of core.mjs (shared by node.mjs and browser.mjs).

const f = (x, d = 1) => (x == null ? '—' : x.toFixed(d));
const pad = (s, n) => String(s).padStart(n);

export function table(res, title) {
  const lines = [];
  lines.push(`${title}`);
  lines.push('');
  lines.push('| turns | events | official µs/event | ours µs/event | ratio | official total ms | ours total ms | total ratio | ours, state read every event: µs/event | ratio |');
  lines.push('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of res.lengths) {
    const est = r.official.totalEstimated ? ' (est.)' : '';
    lines.push(`| ${r.turns} | ${r.events} | ${f(r.official.perEventUs)} | ${f(r.ours.perEventUs, 2)} | ${f(r.ratio)}× | ${f(r.official.totalMs, 0)}${est} | ${f(r.ours.totalMs, 1)} | ${f(r.totalRatio)}× | ${f(r.oursEvent.perEventUs, 2)} | ${f(r.ratioEvent)}× |`);
  }
  const gcRows = res.lengths.filter((r) => r.totalOwnGcRatio != null);
  if (gcRows.length) {
    lines.push('');
    lines.push(`whole folds with a full collection after each (ours / official ms, ratio), and less a collection with no fold's garbage (the fold's own garbage collected): ${gcRows.map((r) => `${r.turns} turns ${f(r.ours.totalGcMs, 1)} / ${f(r.official.totalGcMs, 0)} ms, ${f(r.totalGcRatio)}×; own ${f(r.ours.totalGcMs - r.ours.gcIdleMs, 1)} / ${f(r.official.totalGcMs - r.official.gcIdleMs, 0)} ms, ${f(r.totalOwnGcRatio)}×`).join('; ')}`);
  }
  if (res.flatBest != null) {
    lines.push('');
    lines.push(`flat, on the best window of each length instead of the median: 400 turns / 5 turns = ${f(res.flatBest, 2)}×`);
  }
  if (res.flatEvent != null) {
    lines.push(`ours, state read after every event: 400 turns / 5 turns = ${f(res.flatEvent, 2)}× (not a bar: an immutable state per event means a new messages array per event)`);
  }
  if (res.noMirror) {
    lines.push('');
    lines.push(`wasm reducer alone, no JS mirror (diagnostic): ${res.noMirror.map((r) => `${r.turns} turns ${f(r.perEventUs, 2)} µs/event`).join(', ')}`);
  }
  const tc = res.textContent;
  lines.push('');
  lines.push(`TEXT_MESSAGE_CONTENT (${f(tc.eventBytes, 0)} B, 25 turns in, subscriber on): apply ${f(tc.applyUs, 2)} µs (best ${f(tc.applyBestUs, 2)}), JSON.parse ${f(tc.parseUs, 2)} µs (best ${f(tc.parseBestUs, 2)}): ${f(tc.ratio)}×`);
  lines.push(`loadReducer() → ready: first ${f(res.load.firstMs)} ms, best ${f(res.load.bestMs)} ms`);
  const m = res.memory;
  const mib = (b) => (b / 2 ** 20).toFixed(1);
  lines.push(`wasm memory: ${mib(m.start)} MiB at start, ${mib(m.after400)} MiB after ${m.turns400} turns; ${m.conversations}×${m.turns} turns with reset(): ${m.afterEach.map(mib).join(' ')} MiB (${m.plateau === null ? 'too few to judge' : m.plateau ? 'plateau' : 'GROWS'})`);
  lines.push('');
  for (const b of res.bars) lines.push(`${b.met ? 'MET   ' : 'MISSED'} ${b.bar}: ${f(b.value, 2)}`);
  return lines.join('\n');
}

export function sizesLine(s) {
  const kb = (n) => `${pad(n.toLocaleString('en-US'), 10)} B (${(n / 1024).toFixed(0)} KiB)`;
  return [
    'web/dist/agui.wasm',
    `  raw    ${kb(s.raw)}`,
    `  gzip   ${kb(s.gzip)}  (level 9)`,
    `  brotli ${kb(s.brotli)}  (quality 11)${s.brotli <= 720000 ? '' : '  > 720,000 B'}`,
  ].join('\n');
}

/** The reliability figures as text lines. */
export function reliabilityLines(res) {
  const f = (x, d = 2) => x.toFixed(d);
  const c = res.citations;
  const w = res.wideState;
  return [
    `citations, ${c.turns} turns (${c.events} events) folded whole, GC included: µs/event per tenth ${c.perTenthUs.map((x) => f(x)).join(' ')}; last/first ${f(c.lastOverFirst)}×`,
    `restore() of ${res.restore.messages} messages (${(res.restore.snapshotBytes / 1e6).toFixed(1)} MB): ${f(res.restore.ms, 0)} ms${res.restore.cpuMs !== undefined ? ` (${f(res.restore.cpuMs, 0)} ms of CPU, the wasm call ${f(res.restore.wasmCpuMs, 0)})` : ''}; of which the wasm call ${f(res.restore.wasmMs, 0)} ms, writing the text in ${f(res.restore.encodeMs, 0)} ms, decoding the record ${f(res.restore.decodeMs, 0)} ms`,
    `STATE_DELTA on a ${w.keys}-key object vs ${w.smallKeys} keys: read every event ${f(w.event.wideUs)} vs ${f(w.event.smallUs)} µs/event (${f(w.event.ratio, 1)}×); read every 16 events ${f(w.frame.wideUs)} vs ${f(w.frame.smallUs)} µs/event (${f(w.frame.ratio, 1)}×)`,
  ];
}

/** The drop-in agent's table (agent.mjs): one runtime's rows, production then development mode. */
const sp = (x, d = 1) => (x == null ? '' : ` [${f(x[0], d)}–${f(x[1], d)}]`);

export function agentTable(res, title) {
  const lines = [title, ''];
  const task = (ms) => (ms > 0 ? `${f(ms, 0)} ms` : 'none > 50 ms');
  const rows = (rs) => {
    const lt = rs.some((r) => r.longTaskMs !== undefined);
    const mem = rs.some((r) => r.ours.peakHeapMB !== undefined);
    const alloc = rs.some((r) => r.ours.allocatedPerEventKB !== undefined);
    lines.push(`| subscribers | turns | events | reps | HttpAgent µs/event | ours µs/event | floor µs/event | ratio | HttpAgent total ms | ours total ms | floor total ms | total ratio | apply-step ratio |${mem ? ' peak heap MB HttpAgent | ours |' : ''}${alloc ? ' KB/event HttpAgent | ours |' : ''}${lt ? ' longest task HttpAgent | ours |' : ''}`);
    lines.push(`|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|${mem ? '---:|---:|' : ''}${alloc ? '---:|---:|' : ''}${lt ? '---:|---:|' : ''}`);
    for (const r of rs) {
      lines.push(`| ${r.subscribers} | ${r.turns} | ${r.events} | ${r.ours.reps} | ${f(r.official.perEventUs)}${sp(r.official.perEventSpread)} | ${f(r.ours.perEventUs)}${sp(r.ours.perEventSpread)} | ${f(r.floor.perEventUs)} | ${f(r.ratio, 2)}× | ${f(r.official.totalMs, 0)}${sp(r.official.totalSpread, 0)} | ${f(r.ours.totalMs, 0)}${sp(r.ours.totalSpread, 0)} | ${f(r.floor.totalMs, 0)} | ${f(r.totalRatio, 2)}× | ${r.applyRatio == null ? "—" : `${f(r.applyRatio)}×`} |${mem ? ` ${f(r.official.peakHeapMB)} | ${f(r.ours.peakHeapMB)} |` : ''}${alloc ? ` ${f(r.official.allocatedPerEventKB)} | ${f(r.ours.allocatedPerEventKB)} |` : ''}${lt ? ` ${task(r.longTaskMs.official)} | ${task(r.longTaskMs.ours)} |` : ''}${r.same ? '' : ' DIFFER'}`);
    }
  };
  lines.push('production (NODE_ENV unset), warm; medians [min–max] over the repetitions, the same number for each agent:');
  lines.push('');
  rows(res.rows);
  if (res.dev) {
    lines.push('');
    lines.push('development mode (NODE_ENV=development: HttpAgent clones and freezes per subscriber round, ours freezes):');
    lines.push('');
    rows(res.dev.rows);
  }
  for (const r of res.rows) {
    if (r.pages > 1) lines.push('', `${r.subscribers} subscriber(s), ${r.turns} turn(s): the median of ${r.pages} pages (${r.ours.reps} repetitions each); total ratio per page ${r.perPage.map((x) => f(x, 2)).join(', ')}`);
  }
  lines.push('');
  lines.push(`module load (warm process): @ag-ui/client ${f(res.load.officialMs)} ms; the drop-in's modules ${f(res.load.oursMs)} ms (its wasm is requested once the page is idle after the import, or after a first run in flight; timed in agent.mjs's cold rows)`);
  lines.push('');
  for (const b of res.bars) lines.push(`${b.met ? 'MET   ' : 'MISSED'} ${b.bar}: ${f(b.value, 2)}${b.dev !== undefined ? ` (development mode: ${f(b.dev, 2)})` : ''}`);
  return lines.join('\n');
}

/** The large-arguments rows (agent-large.mjs). */
export function largeTable(rows, node) {
  const lines = ['large arguments: a 50-message history, then 3 write_file calls streaming their arguments interleaved in ~20-byte deltas; medians [min–max]:', ''];
  lines.push(`| KB per call | subscribers | preview reader | events | reps | HttpAgent total ms | ours total ms | total ratio |${node ? ' CPU ratio |' : ''} HttpAgent µs/event first / last tenth | ours µs/event first / last tenth | late ratio | peak heap MB HttpAgent | ours |${node ? ' allocated MB HttpAgent | ours | KB/event HttpAgent | ours |' : ''} longest task HttpAgent | ours |`);
  lines.push(`|---:|---:|:-:|---:|---:|---:|---:|---:|${node ? '---:|' : ''}---:|---:|---:|---:|---:|${node ? '---:|---:|---:|---:|' : ''}---:|---:|`);
  for (const r of rows) {
    const o = r.official, u = r.ours;
    const task = (x) => f(x.longTaskMs ?? x.longestGapMs, 0);
    lines.push(`| ${Math.round(r.bytes / 1000)} | ${r.subscribers} | ${r.reader ? 'yes' : 'no'} | ${r.events} | ${u.reps} | ${f(o.totalMs, 0)}${sp(o.totalSpread, 0)} | ${f(u.totalMs, 0)}${sp(u.totalSpread, 0)} | ${f(r.totalRatio)}× |${node ? ` ${r.cpuRatio == null ? '—' : f(r.cpuRatio) + '×'} |` : ''} ${f(o.firstTenthUs, 0)} / ${f(o.lastTenthUs, 0)} | ${f(u.firstTenthUs, 0)} / ${f(u.lastTenthUs, 0)} | ${f(r.lateRatio)}× | ${f(o.peakHeapMB)} | ${f(u.peakHeapMB)} |${node ? ` ${f(o.allocatedMB, 0)} | ${f(u.allocatedMB, 0)} | ${f(o.allocatedPerEventKB)} | ${f(u.allocatedPerEventKB)} |` : ''} ${task(o)} ms | ${task(u)} ms |${r.same ? '' : ' DIFFER'}${r.oursFoldedByReducer === false ? ' (a run of ours not folded by the reducer)' : ''}`);
  }
  lines.push('');
  lines.push(node ? 'longest task: the longest time between two network reads (one read: 16 events).' : 'longest task: PerformanceObserver longtask (only tasks over 50 ms are reported; 0: none).');
  if (node && rows.some((r) => r.ours.account != null)) {
    lines.push('', 'ours: JS allocation per event (KB) by who allocates (alloc-account.mjs: V8\'s sampling heap profiler over one more run; the agent\'s own share is the bar\'s, above the transport floor):', '');
    lines.push('| KB per call | subscribers | preview reader | measured (whole process) | sampled | the agent | the chat subscribers | the preview reader | the network (transport floor) | the agent\'s largest places |');
    lines.push('|---:|---:|:-:|---:|---:|---:|---:|---:|---:|---|');
    for (const r of rows) {
      const a = r.ours.account;
      if (a == null) continue;
      const places = Object.entries(a.agentPlacesKB).slice(0, 4).map(([p, kb]) => `${p} ${f(kb)}`).join(', ');
      lines.push(`| ${Math.round(r.bytes / 1000)} | ${r.subscribers} | ${r.reader ? 'yes' : 'no'} | ${f(r.ours.allocatedPerEventKB)} | ${f(a.sampledKB)} | ${f(a.agentKB)} | ${f(a.subscribersKB)} | ${f(a.readerKB)} | ${f(a.networkKB)} | ${places}${a.reducerFolded === false ? ' (not folded by the reducer)' : ''} |`);
    }
  }
  return lines.join('\n');
}

/** The cold rows: a fresh process (Node) or browser context (Chromium) per run. */
export function coldTable(cold) {
  const lines = ['cold start: a fresh process / browser context per run, from before importing the agent\'s modules; medians [min–max]:', ''];
  lines.push('| | reps | modules imported ms | first onMessagesChanged ms | first run (import + load + 1 turn) ms |');
  lines.push('|---|---:|---:|---:|---:|');
  for (const [name, c] of [['HttpAgent', cold.official], ['ours', cold.ours]]) {
    lines.push(`| ${name} | ${c.reps} | ${f(c.importMs)} | ${f(c.firstCallMs)}${sp(c.firstCallSpread)} | ${f(c.firstRunMs)}${sp(c.firstRunSpread)} |`);
  }
  if (cold.ours.wasm) lines.push(`\nthe wasm as fetched: ${cold.ours.wasm.encodedBytes} bytes encoded, ${cold.ours.wasm.decodedBytes} decoded; requested at ${f(cold.ours.wasm.startMs)} ms, received by ${f(cold.ours.wasm.endMs)} ms`);
  for (const b of cold.bars) lines.push(`${b.met ? 'MET   ' : 'MISSED'} ${b.bar}: ${f(b.value, 2)}`);
  return lines.join('\n');
}
