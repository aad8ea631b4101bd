// The React binding as an app uses it: useAgent in a component, useAgentState
// in a child given the agent, a selector with its own equality.
import { useState } from 'react';
import type { FormEvent } from 'react';
import { textOf } from '@agui-reducer/web';
import type { Agent, AgentState, RunOutcome, ToolCall } from '@agui-reducer/web';
import { useAgent, useAgentState } from '@agui-reducer/web/react';

const runningTools = (s: AgentState): ToolCall[] => s.toolCalls.filter((t) => t.status === 'running');
const sameIds = (a: ToolCall[], b: ToolCall[]) => a.length === b.length && a.every((t, i) => t.id === b[i].id);

function Running({ agent }: { agent: Agent }) {
  const tools = useAgentState(agent, runningTools, sameIds);
  const count: number = useAgentState(agent, (s) => s.messages.length);
  return <p>{count} messages, running: {tools.map((t) => t.name).join(', ')}</p>;
}

export function Chat() {
  const { state, agent, ready, error, send, stop } = useAgent({ url: '/agent' });
  const [outcome, setOutcome] = useState<RunOutcome | null>(null);
  if (error) return <p role="alert">{String(error)}</p>;
  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    setOutcome(await send('hello'));
  }
  return (
    <form onSubmit={submit}>
      {state.messages.filter((m) => m.role !== 'tool').map((m) => <p key={m.id}>{textOf(m)}</p>)}
      <Running agent={agent} />
      <button disabled={!ready || state.isLoading}>Send</button>
      <button type="button" onClick={() => stop()}>Stop</button>
      {outcome && <output>{outcome}</output>}
    </form>
  );
}
