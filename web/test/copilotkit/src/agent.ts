// The one line an app changes: HttpAgent from the package instead of
// @ag-ui/client. The page takes the official one with ?agent=official, so
// the test can compare what CopilotKit renders with each.
import { HttpAgent as OfficialHttpAgent } from '@ag-ui/client';
import { HttpAgent } from '@agui-reducer/web/ag-ui';

export const which = new URLSearchParams(location.search).get('agent') === 'official' ? 'official' : 'reducer';

// ?thread=1: the conversation is a thread of the server's relay
// (/relay/agent), kept across reloads: the tab keeps its thread id, and the
// thread key the relay handed out with the first run (the agent keeps it in
// its headers); CopilotKit's chat, given the threadId, connects
// (connectAgent) on load and shows the thread.
const threaded = new URLSearchParams(location.search).get('thread') === '1';
export const threadId = threaded ? (sessionStorage.getItem('thread') ?? `ck-${crypto.randomUUID()}`) : undefined;
const threadKey = sessionStorage.getItem('threadKey');
if (threadId) sessionStorage.setItem('thread', threadId);

export const agent = which === 'official'
  ? new OfficialHttpAgent({ url: '/agent' })
  : threaded
    ? new HttpAgent({ url: '/relay/agent', threadId, headers: threadKey ? { 'X-Agui-Thread-Key': threadKey } : {} })
    : new HttpAgent({ url: '/agent' });

if (threaded) {
  agent.subscribe({
    onRunFinalized: () => {
      const key = (agent.headers as Record<string, string>)['X-Agui-Thread-Key'];
      if (key) sessionStorage.setItem('threadKey', key);
    },
  });
}
