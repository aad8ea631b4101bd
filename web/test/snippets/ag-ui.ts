// docs/ag-ui-agent.md, the import:
// import { HttpAgent } from '@ag-ui/client';
import { HttpAgent } from '@agui-reducer/web/ag-ui';
// (end of the page's code) The same constructor and runAgent as the official HttpAgent:
const agent = new HttpAgent({ url: '/agent' });
const { newMessages } = await agent.runAgent();
console.log(newMessages);
