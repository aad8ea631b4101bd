// The package's entry for esbuild (the "module" export condition, which
// esbuild resolves and Vite and webpack reach only after their own
// conditions): agui.js, with the package's files located the way esbuild
// can emit them, since it does not follow new URL('…', import.meta.url).
//   - agui.wasm is imported: esbuild's standard --loader:.wasm=file emits it
//     and gives its path relative to the bundle (an ES module bundle, whose
//     import.meta.url is its own URL).
//   - The worker runs the package's worker bundle (dist/agui-worker.source.js,
//     made by make package) from a blob: URL (a CSP needs worker-src blob:).

import wasmPath from './dist/agui.wasm';
import workerSource from './dist/agui-worker.source.js';
import { packageFiles } from './src/package-files.js';

let workerBlobURL = null;

packageFiles.wasmURL = () => new URL(wasmPath, import.meta.url);
packageFiles.worker = () => {
  workerBlobURL ??= URL.createObjectURL(new Blob([workerSource], { type: 'text/javascript' }));
  return new Worker(workerBlobURL, { type: 'module' });
};

export * from './agui.js';
