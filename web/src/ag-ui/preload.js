// The drop-in's default reducer factory starts loading when the drop-in is
// imported (src/ag-ui/drop-in.js imports this module before @ag-ui/client), not at the
// first run: fetching, compiling and starting the wasm overlap the
// evaluation of the app's other modules, its start-up and the run's request
// (docs/ag-ui-agent.md, "Cold start"). setReducerFactory, or an agent's
// reducer option, replaces it; a failed load fails the runs that need it,
// as a load at the first run would.

import { setReducerFactory } from './with-reducer.js';
import { loadReducer } from '../../agui.js';

setReducerFactory(loadReducer());
