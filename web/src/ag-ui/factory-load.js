// What the default reducer factory loads with (src/ag-ui/factory.js), in a
// module of its own that factory.js imports with import() when it starts
// loading: a run that starts before then (a cold run) evaluates none of the
// reducer's modules, as HttpAgent's would not. Bundlers put it (and what it
// imports) in a chunk of its own, or, without code splitting, evaluate it
// on first use.

export { loadReducer } from '../reducer/reducer.js';
export { compileModule, LoadError } from '../wasm/loader.js';
