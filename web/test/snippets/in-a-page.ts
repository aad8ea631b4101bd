// docs/getting-started.md, "In a page" (run, with the hooks its test reads, as web/test/bundlers/app/main.ts):
import { loadReducer, createWorkerReducer, LoadError } from '@agui-reducer/web';
import type { AgentState, Message } from '@agui-reducer/web';

const app = document.querySelector<HTMLDivElement>('#app')!;

// Message content is a string, content parts, or an object (activity messages).
function textOf(m: Message): string {
  if (typeof m.content === 'string') return m.content;
  if (Array.isArray(m.content)) return m.content.map((p) => (p.type === 'text' ? p.text : '')).join('');
  return '';
}

function render(s: AgentState): void {
  const rows = s.messages.map((m) => {
    const p = document.createElement('p');
    p.textContent = `${m.role}: ${textOf(m)}`;
    return p;
  });
  const tools = s.toolCalls.map((t) => {
    const p = document.createElement('p');
    p.textContent = `${t.name}(${t.argsText}) → ${t.result ?? '…'}`;
    return p;
  });
  app.replaceChildren(...rows, ...tools);
}

const useWorker = new URLSearchParams(location.search).get('mode') === 'worker';
try {
  const agent = useWorker
    ? await createWorkerReducer()                // the wasm runs in a Web Worker
    : (await loadReducer()).createReducer();     // the wasm runs on this thread
  agent.subscribe(() => render(agent.state));
  render(agent.state);
  await agent.addUserMessage("What's the weather in Paris?");
  console.log(await agent.run('/agent'));        // 'completed', 'failed', 'aborted', 'incomplete'
} catch (err) {
  app.textContent = err instanceof LoadError
    ? `Could not load the reducer from ${err.url} (HTTP ${err.status ?? 'n/a'}).`
    : `Error: ${err}`;
}
