// Node's memory probe for agent-core.mjs's converseProbe (agent.mjs,
// agent-alloc.mjs): the heap's peak above its start, and the bytes allocated
// over the run (the heap's growth plus what each collection freed, from
// v8.GCProfiler).

import { GCProfiler, getHeapStatistics } from 'node:v8';

/** A probe: start(), sample() at each network read, stop() → {peakBytes, allocatedBytes}. */
export function nodeMemory() {
  let prof, base, peak;
  return {
    start() { base = peak = getHeapStatistics().used_heap_size; prof = new GCProfiler(); prof.start(); },
    sample() { const u = getHeapStatistics().used_heap_size; if (u > peak) peak = u; },
    stop() {
      const end = getHeapStatistics().used_heap_size;
      let freed = 0;
      for (const g of prof.stop().statistics) {
        const before = g.beforeGC.heapStatistics.usedHeapSize;
        freed += before - g.afterGC.heapStatistics.usedHeapSize;
        if (before > peak) peak = before;
      }
      return { peakBytes: Math.max(peak, end) - base, allocatedBytes: end - base + freed };
    },
  };
}
