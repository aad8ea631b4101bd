// A drop-in for @ag-ui/client's agents whose apply step is the wasm
// reducer: replace
//
//   import { HttpAgent } from '@ag-ui/client';
// by
//   import { HttpAgent } from '@agui-reducer/web/ag-ui';
//
// and the agent keeps its constructor options, subscribers, middleware,
// verification and runAgent/connectAgent results, while agent.messages and
// agent.state are maintained by the reducer with structural sharing instead
// of a clone of the conversation per event. @ag-ui/client (1.0, or the
// 0.0.59 CopilotKit 1.74 depends on) is a peer dependency. See
// with-reducer.js and docs/ag-ui-agent.md.

import { AbstractAgent, HttpAgent as OfficialHttpAgent, transformHttpEventStream, EventType } from '@ag-ui/client';
import { withReducer, setReducerFactory } from './with-reducer.js';
import { withResume } from './resume.js';
import { preloadReducerFactory, reducerReady } from './factory.js';

// The default reducer factory is asked for now, at the import, and loads
// off the first run's way (src/ag-ui/factory.js): a run never waits for it;
// until it is ready, runs apply with @ag-ui/client's own apply step
// (docs/ag-ui-agent.md, "Cold start"). setReducerFactory, or an agent's
// reducer option, replaces it. A call here rather than a module imported
// for its effect: bundlers drop such an import from a package whose
// package.json lists the modules with side effects.
preloadReducerFactory();

/** AbstractAgent with the reducer as its apply step; subclasses implement run(input). */
export const ReducerAgent = withReducer(AbstractAgent);

/** @ag-ui/client's HttpAgent (same options, same transport) with the reducer as its apply step;
 *  its runs reconnect with Last-Event-ID when cut (src/ag-ui/resume.js). */
export const HttpAgent = withResume(withReducer(OfficialHttpAgent), { transformHttpEventStream, EventType });

export { withReducer, setReducerFactory, reducerReady };
