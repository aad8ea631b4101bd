// The drop-in agent at run time with the app's @ag-ui/client: an
// @ag-ui/client agent (instanceof its AbstractAgent and HttpAgent).
import { AbstractAgent, HttpAgent as OfficialHttpAgent } from '@ag-ui/client';
import { HttpAgent } from '@agui-reducer/web/ag-ui';

const agent = new HttpAgent({ url: 'http://127.0.0.1:9/agent', threadId: 't1' });
if (!(agent instanceof AbstractAgent) || !(agent instanceof OfficialHttpAgent)) throw new Error('not an @ag-ui/client agent');
agent.addMessage({ id: 'u1', role: 'user', content: 'hello' });
if (agent.messages.length !== 1 || agent.threadId !== 't1') throw new Error(`messages ${JSON.stringify(agent.messages)}`);
console.log(`ok: an @ag-ui/client HttpAgent with ${agent.messages.length} message`);
