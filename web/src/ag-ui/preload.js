// The drop-in's default reducer factory starts loading when the drop-in is
// imported (src/ag-ui/drop-in.js imports this module before @ag-ui/client),
// not at the first run: the wasm is fetched and compiled while the app's
// other modules evaluate, its start-up runs and its first run sends its
// request. A run never waits for it: until it is ready, runs apply with
// @ag-ui/client's own apply step (src/ag-ui/factory.js; docs/ag-ui-agent.md,
// "Cold start"). setReducerFactory, or an agent's reducer option, replaces
// it.

import { preloadReducerFactory } from './factory.js';

preloadReducerFactory();
