import type { ReducerFactory } from '@agui-reducer/web';

declare const factory: ReducerFactory; // await loadReducer()
const reducer = factory.createReducer({});
// docs/tool-validation.md, the verdict in the state:
const tc = reducer.state.toolCalls[0];
tc.argsStatus;  // 'streaming' | 'valid' | 'invalid' | 'unchecked'
tc.argsErrors;  // [{path: '/unit', keyword: 'enum', message: 'must be one of celsius, fahrenheit'}]
tc.safeArgs;    // {city: 'Paris'}: valid members only
// (end of the page's code)
