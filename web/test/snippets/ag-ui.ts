// README.md, "Using it with CopilotKit / @ag-ui/client":
// import { HttpAgent } from '@ag-ui/client';
import { HttpAgent } from '@agui-reducer/web/ag-ui';
// (end of the README's code) The same constructor and runAgent as the official HttpAgent:
const agent = new HttpAgent({ url: '/agent' });
const { newMessages } = await agent.runAgent();
console.log(newMessages);
