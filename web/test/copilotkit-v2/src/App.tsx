// CopilotKit v2 (@copilotkit/core 1.75 under @copilotkit/react-core/v2) with an AG-UI agent passed in
// directly, no CopilotKit runtime: its chat component, a tool-call
// renderer, an interrupt handler and the agent's shared state through
// useAgent.
import {
  CopilotChat,
  CopilotKitProvider,
  useAgent,
  useFrontendTool,
  useInterrupt,
  useRenderTool,
} from '@copilotkit/react-core/v2';
import '@copilotkit/react-core/v2/styles.css';
import { agent, which } from './agent.ts';

function Tools() {
  useRenderTool({
    name: '*',
    render: ({ name, status, parameters, result }) => (
      <div className="tool-call" data-status={status}>
        {name}({JSON.stringify(parameters)}){status === 'complete' ? ` → ${result}` : ''}
      </div>
    ),
  }, []);
  useInterrupt({
    render: ({ interrupt, resolve, cancel }) => (
      <div className="interrupt">
        <p>{interrupt?.message}</p>
        <button type="button" className="approve" onClick={() => resolve({ approved: true })}>Approve</button>
        <button type="button" className="reject" onClick={() => cancel()}>Cancel</button>
      </div>
    ),
  });
  // A frontend tool: answered in the page, and CopilotKit starts the next
  // run at once with its result.
  useFrontendTool({
    name: 'read_theme',
    description: 'Reads the colour theme of the page',
    handler: async () => 'teal',
  }, []);
  return null;
}

function SharedState() {
  const { agent } = useAgent();
  return <pre className="shared-state">{JSON.stringify(agent.state)}</pre>;
}

export default function App() {
  return (
    <CopilotKitProvider agents__unsafe_dev_only={{ default: agent }}>
      <main data-agent={which}>
        <Tools />
        <SharedState />
        <CopilotChat />
      </main>
    </CopilotKitProvider>
  );
}
