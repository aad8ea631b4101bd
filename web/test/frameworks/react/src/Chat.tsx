import { useState } from 'react';
import { textOf } from '@agui-reducer/web';
import { useAgent } from '@agui-reducer/web/react';

export function Chat({ worker = false }: { worker?: boolean }) {
  const { state, send, error } = useAgent({ url: '/agent', worker });
  const [text, setText] = useState('');
  if (error) return <p role="alert">Could not load the agent: {String(error)}</p>;
  return (
    <form onSubmit={(e) => { e.preventDefault(); void send(text); setText(''); }}>
      {state.messages.filter((m) => m.role !== 'tool').map((m) => <p key={m.id} className={m.role}>{textOf(m)}</p>)}
      {state.toolCalls.map((t) => <pre key={t.id}>{t.name}({t.argsText}) → {t.result}</pre>)}
      <input value={text} onChange={(e) => setText(e.target.value)} />
      <button disabled={state.isLoading}>Send</button>
    </form>
  );
}
