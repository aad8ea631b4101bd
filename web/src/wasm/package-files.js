// The package's own files: agui.wasm and the worker entry. Written as
// new URL('…', import.meta.url), and new Worker(new URL(…)) in one
// expression, the forms Vite, webpack and Rollup recognise: they emit the
// files and rewrite the URLs with no configuration. Without a bundler they
// are the files next to the package. agui.esbuild.js (here) replaces both for
// esbuild, which does not follow these forms. Nothing else names the files,
// so a worker bundle (src/worker/entry.js does not import this) holds no second
// reference to the wasm.

export const packageFiles = {
  /** The URL of the package's agui.wasm. */
  wasmURL: () => new URL('../../dist/agui.wasm', import.meta.url),
  /** A module worker running the package's worker entry (src/worker/entry.js). */
  worker: () => new Worker(new URL('../worker/entry.js', import.meta.url), { type: 'module' }),
};
