// The README's "In a page" code (README.md, "Web module"), as each fixture
// app's src/main.ts. Not part of that code: ?mode=worker picks worker mode,
// ?agent=URL the agent endpoint, and the data-* attributes the test reads.
import { loadReducer, createWorkerReducer, LoadError } from '@agui-reducer/web';
import type { AgentState, Message } from '@agui-reducer/web';

const params = new URLSearchParams(location.search);
const agentURL = params.get('agent') ?? '/agent';
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
    p.className = `message ${m.role}`;
    p.textContent = `${m.role}: ${textOf(m)}`;
    return p;
  });
  const tools = s.toolCalls.map((t) => {
    const p = document.createElement('p');
    p.className = `tool ${t.status}`;
    p.textContent = `${t.name}(${t.argsText}) → ${t.result ?? '…'}`;
    return p;
  });
  app.replaceChildren(...rows, ...tools);
  app.dataset.status = s.status;
}

try {
  const agent = params.get('mode') === 'worker'
    ? await createWorkerReducer()                // the wasm runs in a Web Worker
    : (await loadReducer()).createReducer();     // the wasm runs on this thread
  agent.subscribe(() => render(agent.state));
  render(agent.state);
  await agent.addUserMessage("What's the weather in Paris?");
  app.dataset.outcome = await agent.run(agentURL); // 'completed', 'failed', …
} catch (err) {
  app.textContent = err instanceof LoadError
    ? `Could not load the reducer from ${err.url} (HTTP ${err.status ?? 'n/a'}).`
    : `Error: ${err}`;
  app.dataset.outcome = 'load_failed';
}
