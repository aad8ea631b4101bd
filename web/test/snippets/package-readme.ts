import type { AgentState } from '@agui-reducer/web';

declare function render(state: AgentState): void; // the page's view
// web/README.md:
import { loadReducer } from '@agui-reducer/web';

const factory = await loadReducer();          // finds agui.wasm next to the package
const agent = factory.createReducer();
agent.subscribe(() => render(agent.state));   // state: { messages, state, … }
agent.addUserMessage('Hello');
await agent.run('/agent');                    // POST RunAgentInput, stream the SSE answer
