// ./vue under esbuild (the "module" export condition, as for the main
// entry): agui.esbuild.js first, so that an app importing only this binding
// still finds agui.wasm and the worker the way esbuild emits them (listed in
// sideEffects: otherwise esbuild would take the exports from ./vue.js
// directly and drop this import).
import './agui.esbuild.js';

export * from './vue.js';
