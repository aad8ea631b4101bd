// AG-UI event reducer for the browser (and Node): a plain ES module over the
// Go reducer compiled to WebAssembly (dist/agui.wasm, built by `make wasm`).
// No build step: import it from a page or a bundled app (the package's
// browser entry); Node gets entries/agui.node.js, which adds reading file:
// URLs. Types: types/agui.d.ts. Usage: docs/getting-started.md.
//
// This file is the public entry. The package is laid out by subject, and
// data flows through the folders of src/ in this order:
//   - wasm/: the module and its bridge — loader.js fetches agui.wasm
//     (package-files.js: where it is; agui.node.js and agui.esbuild.js: the
//     same under Node and esbuild) and starts the Go runtime of its glue
//     (dist/wasm_exec.js); core.js is the bridge (one loaded module, many
//     reducer handles), records.js what crosses it;
//   - state/: the plain JS copy of the agent state — ops.js applies change
//     records with structural sharing, mirror.js keeps it with
//     subscribe/on, content.js renders a message's content as text;
//   - reducer/: the reducer the page holds — reducer.js on the same thread,
//     calls.js what any reducer's call sends (the argument text, the
//     surrogate carry), transport.js run() (a POST whose SSE response is
//     fed to a reducer) with run-target.js its side on the wasm and
//     resume.js its reconnects;
//   - worker/: the wasm in a Web Worker — host.js the page's side (the
//     mirror stays there), serve.js the worker's, entry.js the worker
//     module;
//   - thread/: loadThread, a thread kept by agui-relay loaded into a
//     reducer (and its live run attached), with the last snapshot kept in
//     IndexedDB (persist.js);
//   - agent/: createAgent, a reducer loaded on first use plus its actions,
//     which the framework bindings/ (React, Svelte, Vue) wrap;
//   - ag-ui/: the drop-in for @ag-ui/client's agents (<package>/ag-ui);
//   - inspector/: <agui-inspector> (<package>/inspector).
// entries/ holds the per-platform entries scripts/entries.mjs generates.

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
export { loadThread, persistThread, newThreadKey, threadHeaders, threadURL } from './src/thread/thread.js';
export { indexedDBStore, memoryStore } from './src/thread/persist.js';

/** Internals shared with tests and the benchmark; not part of the API. */
export const __internal = {
  loadCore: (wasmURL, options) => loadCore(wasmURL ?? packageFiles.wasmURL(), options),
  runStream, eventData, chunkData, applyOps,
};
