// The drop-in agent's tool-argument validation against @ag-ui/client 0.0.59
// (the client CopilotKit 1.74/1.75 use): the scenarios of
// web/test/ag-ui/tool-validation-agent.mjs. No timing.

import { test } from 'node:test';
import * as client from '@ag-ui/client';
import { loadReducer } from '../../web/entries/agui.node.js';
import { withReducer, setReducerFactory } from '../../web/src/ag-ui/with-reducer.js';
import { withResume } from '../../web/src/ag-ui/resume.js';
import { toolValidationTests } from '../../web/test/ag-ui/tool-validation-agent.mjs';

const Ours = withResume(withReducer(client.HttpAgent), { transformHttpEventStream: client.transformHttpEventStream, EventType: client.EventType });

const WASM = '../../web/dist/agui.wasm';

test.before(async () => {
  setReducerFactory(await loadReducer(new URL(WASM, import.meta.url)));
});

toolValidationTests(test, client, Ours, '@ag-ui/client 0.0.59', () => loadReducer(new URL(WASM, import.meta.url)));
