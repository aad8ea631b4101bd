// The worker entry (<package>/worker, and the module worker that
// createWorkerReducer() starts, src/wasm/package-files.js): serves the
// protocol of serve.js on the worker scope when loaded as a module worker.

import { serve } from './serve.js';

export { serve };

if (typeof WorkerGlobalScope !== 'undefined' && globalThis instanceof WorkerGlobalScope) {
  serve(globalThis);
}
