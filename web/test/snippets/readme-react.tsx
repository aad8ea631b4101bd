// README.md, "React":
import { useState } from 'react';
import type { FormEvent } from 'react';
import { textOf } from '@agui-reducer/web';
import type { RunOutcome } from '@agui-reducer/web';
import { useAgent } from '@agui-reducer/web/react';

export function Chat() {
  const { state, send, error } = useAgent({ url: '/agent' }); // loads the wasm in an effect
  const [text, setText] = useState('');
  const [outcome, setOutcome] = useState<RunOutcome | null>(null);
  if (error) return <p role="alert">Could not load the agent: {String(error)}</p>;

  async function submit(e: FormEvent) {
    e.preventDefault();
    setText('');
    setOutcome(await send(text)); // 'completed', 'failed', 'aborted' or 'incomplete'
  }
  return (
    <form onSubmit={submit}>
      {state.messages.filter((m) => m.role !== 'tool').map((m) => <p key={m.id} className={m.role}>{textOf(m)}</p>)}
      {state.toolCalls.map((t) => <pre key={t.id}>{t.name}({t.argsText}) → {t.result}</pre>)}
      {state.error && <p role="alert">The run failed: {state.error.message}</p>}
      {outcome === 'incomplete' && <p>The answer was cut off.</p>}
      <input value={text} onChange={(e) => setText(e.target.value)} />
      <button disabled={state.isLoading}>Send</button>
    </form>
  );
}
