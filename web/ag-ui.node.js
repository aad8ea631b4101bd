// ag-ui.js under Node (the "node" export condition of <package>/ag-ui):
// the same agents, with agui.node.js's loader, so that the default reducer
// factory (loadReducer() with no argument) reads dist/agui.wasm with
// node:fs instead of fetching a file: URL.

import './agui.node.js';

export * from './ag-ui.js';
