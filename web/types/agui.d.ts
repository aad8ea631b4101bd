// Types of agui.js: the AG-UI event reducer (Go compiled to WebAssembly) as a
// plain ES module. See README.md, "Web module".

export * from './agui/state.js';
export * from './agui/records.js';
export * from './agui/options.js';
export * from './agui/reducer.js';
export * from './agui/rendering.js';
export * from './agui/agent.js';
export * from './agui/thread.js';
