import type { JSONValue, ReducerFactory } from '@agui-reducer/web';

declare const factory: ReducerFactory; // await loadReducer()
declare function runTool(name: string, args: JSONValue): void; // the app's frontend tools
const reducer = factory.createReducer({});
// docs/tool-validation.md, refusing a call:
for (const tc of reducer.state.toolCalls) {
  if (tc.status === 'running' || tc.result !== undefined) continue;
  if (tc.argsStatus === 'invalid') {
    reducer.addToolResult(tc.id, { error: 'invalid arguments', details: tc.argsErrors ?? [] });
  } else {
    runTool(tc.name, tc.args);
  }
}
// (end of the page's code)
