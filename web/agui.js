// AG-UI event reducer for the browser (and Node): a plain ES module over the
// Go reducer compiled to WebAssembly (web/dist/agui.wasm, built by
// `make wasm`). No build step: import it from a page or a bundled app (the
// package's browser entry); Node imports agui.node.js, which adds reading
// file: URLs. Types: agui.d.ts. Usage: README.md, "Web module".
//
// This file is the public entry; the modules of src/ hold the parts, one
// subject each, and data flows through them in this order:
//   - loader.js: fetches agui.wasm (package-files.js: where it is) and starts
//     the Go runtime of its glue (dist/wasm_exec.js, an ES module);
//   - core.js: the wasm bridge (one loaded module, many reducer handles),
//     with records.js for what crosses it;
//   - ops.js and mirror.js: a plain JS copy of the agent state, kept up to
//     date from change records with structural sharing, plus subscribe/on;
//   - reducer.js: the same-thread reducer (a Mirror over one handle);
//   - transport.js: run(), a POST whose SSE response is fed to a reducer;
//   - worker-host.js: reducers whose wasm runs in a Web Worker
//     (agui-worker.js); the page keeps only the Mirror;
//   - content.js: textOf, a message's content as text;
//   - agent.js: createAgent, a reducer loaded on first use plus its
//     actions, what the framework bindings (react.js, svelte.js, vue.js)
//     wrap.

import { loadCore } from './src/wasm/loader.js';
import { packageFiles } from './src/wasm/package-files.js';
import { eventData, chunkData } from './src/wasm/records.js';
import { applyOps } from './src/state/ops.js';
import { runStream } from './src/reducer/transport.js';

export { loadReducer } from './src/reducer/reducer.js';
export { run } from './src/reducer/transport.js';
export { LoadError } from './src/wasm/loader.js';
export { createWorkerHost, createWorkerReducer } from './src/worker/host.js';
export { textOf } from './src/state/content.js';
export { createAgent, EMPTY_STATE } from './src/agent/agent.js';

/** Internals shared with tests and the benchmark; not part of the API. */
export const __internal = {
  loadCore: (wasmURL, options) => loadCore(wasmURL ?? packageFiles.wasmURL(), options),
  runStream, eventData, chunkData, applyOps,
};
