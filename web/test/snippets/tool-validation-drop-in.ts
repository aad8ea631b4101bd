import { HttpAgent } from '@agui-reducer/web/ag-ui';
// docs/tool-validation.md, refusing a call with the drop-in agent:
const agent = new HttpAgent({
  url: '/agent',
  onInvalidToolCall: ({ errors }) => ({ result: { error: 'invalid arguments', details: errors } }),
});
// (end of the page's code)
console.log(agent.reducerState?.toolCalls.map((t) => t.argsErrors));
