// The drop-in agent's tool-argument validation against @ag-ui/client 1.0.0
// (tool-validation-agent.mjs; bench/ag-ui-059 runs the same against 0.0.59).

import { test } from 'node:test';
import * as client from '@ag-ui/client';
import { loadReducer } from '../../entries/agui.node.js';
import { withReducer, setReducerFactory } from '../../src/ag-ui/with-reducer.js';
import { withResume } from '../../src/ag-ui/resume.js';
import { toolValidationTests } from './tool-validation-agent.mjs';

const Ours = withResume(withReducer(client.HttpAgent), { transformHttpEventStream: client.transformHttpEventStream, EventType: client.EventType });

const WASM = '../../dist/agui.wasm';

test.before(async () => {
  setReducerFactory(await loadReducer(new URL(WASM, import.meta.url)));
});

toolValidationTests(test, client, Ours, '@ag-ui/client 1.0.0', () => loadReducer(new URL(WASM, import.meta.url)));
