// esbuild's way to the package's files (the "module" export condition's
// entries, entries/*.esbuild.js, import this first; esbuild resolves that
// condition, Vite and webpack reach it only after their own conditions),
// since esbuild does not follow new URL('…', import.meta.url).
//   - agui.wasm is imported: esbuild's standard --loader:.wasm=file emits it
//     and gives its path relative to the bundle (an ES module bundle, whose
//     import.meta.url is its own URL).
//   - The worker runs the package's worker bundle (dist/agui-worker.source.js,
//     made by make package) from a blob: URL (a CSP needs worker-src blob:).

import wasmPath from '../../dist/agui.wasm';
import workerSource from '../../dist/agui-worker.source.js';
import { packageFiles } from './package-files.js';

let workerBlobURL = null;

packageFiles.wasmURL = () => new URL(wasmPath, import.meta.url);
packageFiles.worker = () => {
  workerBlobURL ??= URL.createObjectURL(new Blob([workerSource], { type: 'text/javascript' }));
  return new Worker(workerBlobURL, { type: 'module' });
};
