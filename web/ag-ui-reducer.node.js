// ag-ui-reducer.js under Node (the "node" export condition of
// <package>/ag-ui-reducer): withReducer with agui.node.js's loader, so that
// the default reducer factory reads dist/agui.wasm with node:fs.

import './agui.node.js';

export * from './ag-ui-reducer.js';
