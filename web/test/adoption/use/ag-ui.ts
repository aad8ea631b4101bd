// The drop-in agent as an app uses it: where @ag-ui/client's HttpAgent was,
// subscribed to and run as @ag-ui/client's agents are.
import type { AbstractAgent, AgentSubscriber } from '@ag-ui/client';
import { HttpAgent } from '@agui-reducer/web/ag-ui';

const agent = new HttpAgent({ url: '/agent', headers: { 'X-App': 'adoption' } });
const official: AbstractAgent = agent; // anywhere an @ag-ui/client agent is expected

const subscriber: AgentSubscriber = {
  onTextMessageContentEvent: ({ event }) => { console.log(event.delta); },
  onRunFinishedEvent: () => { console.log('finished'); },
};
agent.subscribe(subscriber);

export async function ask(text: string): Promise<number> {
  official.addMessage({ id: crypto.randomUUID(), role: 'user', content: text });
  await official.runAgent();
  return (agent.reducerState?.messages.length ?? 0) + official.messages.length;
}
