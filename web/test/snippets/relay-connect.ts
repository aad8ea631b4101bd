import { HttpAgent } from '@agui-reducer/web/ag-ui';

declare const threadId: string;
declare const threadKey: string;
// docs/relay.md, the drop-in agent's connect path:
const agent = new HttpAgent({ url: '/agent', threadId, headers: { 'X-Agui-Thread-Key': threadKey } });
await agent.connectAgent(); // the conversation so far, then the run going on, if any
// (end of the page's code)
console.log(agent.messages.length);
