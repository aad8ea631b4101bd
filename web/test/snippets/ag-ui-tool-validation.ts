import { HttpAgent } from '@agui-reducer/web/ag-ui';
// docs/ag-ui-agent.md, Tool arguments, refusing a call:
const agent = new HttpAgent({
  url: '/agent',
  onInvalidToolCall: ({ toolCall, errors }) => {
    console.warn(`${toolCall.name}: invalid arguments`, errors);
    return { result: { error: 'invalid arguments', details: errors } };
  },
});
// (end of the page's code)
const status: 'streaming' | 'valid' | 'invalid' | 'unchecked' | undefined = agent.reducerState?.toolCalls[0]?.argsStatus;
console.log(status);
