// AG-UI event reducer for the browser (and Node): a plain ES module over the
// Go reducer compiled to WebAssembly (web/dist/agui.wasm, built by
// `make wasm`). No build step: import it from a page, a worker or Node.
// Types: agui.d.ts. Usage: README.md, "Web module".
//
// This file is the public entry; the modules of src/ hold the parts, one
// subject each, and data flows through them in this order:
//   - loader.js: fetches agui.wasm and starts the Go runtime;
//   - core.js: the wasm bridge (one loaded module, many reducer handles),
//     with records.js for what crosses it;
//   - ops.js and mirror.js: a plain JS copy of the agent state, kept up to
//     date from change records with structural sharing, plus subscribe/on;
//   - reducer.js: the same-thread reducer (a Mirror over one handle);
//   - transport.js: run(), a POST whose SSE response is fed to a reducer;
//   - worker-host.js: reducers whose wasm runs in a Web Worker
//     (agui-worker.js); the page keeps only the Mirror.

import { loadCore } from './src/loader.js';
import { eventData, chunkData } from './src/records.js';
import { applyOps } from './src/ops.js';
import { runStream } from './src/transport.js';

export { loadReducer } from './src/reducer.js';
export { run } from './src/transport.js';
export { createWorkerHost, createWorkerReducer } from './src/worker-host.js';

/** Internals shared with tests and the benchmark; not part of the API. */
export const __internal = { loadCore, runStream, eventData, chunkData, applyOps };
