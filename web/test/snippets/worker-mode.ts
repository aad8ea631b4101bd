import type { AgentState } from '@agui-reducer/web';

declare function render(state: AgentState): void; // the page's view
// docs/getting-started.md, "Worker mode":
import { createWorkerReducer } from '@agui-reducer/web';

const chat = await createWorkerReducer();    // the package's worker, started on first use
chat.subscribe(() => render(chat.state));
await chat.addUserMessage('Hi');             // every method returns a Promise
await chat.run('/agent');                    // fetch, SSE parsing and reducing in the worker
