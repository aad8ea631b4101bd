// Counts the renders of each message: one that the stream does not touch
// must not render again while another message streams.
import { memo } from 'react';
import { textOf, type Agent } from '@agui-reducer/web';
import { useAgent, useAgentState } from '@agui-reducer/web/react';

declare global {
  interface Window { renders: Record<string, number>; send?: (text: string) => Promise<unknown> }
}
window.renders = {};

const MessageView = memo(function MessageView({ agent, id }: { agent: Agent; id: string }) {
  const message = useAgentState(agent, (s) => s.messages.find((m) => m.id === id));
  window.renders[id] = (window.renders[id] ?? 0) + 1;
  return <p className={message?.role} data-id={id}>{message ? textOf(message) : ''}</p>;
});

export function Renders() {
  const { state: ids, agent, send, ready } = useAgent({ url: '/agent' }, (s) => s.messages.map((m) => m.id).join(' '));
  const status = useAgentState(agent, (s) => s.status);
  window.send = send;
  return (
    <section data-ready={ready} data-status={status}>
      {ids.split(' ').filter(Boolean).map((id) => <MessageView key={id} agent={agent} id={id} />)}
    </section>
  );
}
