// The one line an app changes: HttpAgent from the package instead of
// @ag-ui/client. The page takes the official one with ?agent=official, so
// the test can compare what CopilotKit renders with each.
//
// The test's additions: a run that follows a frontend tool's answer (its
// last message a tool result) asks the demo server for the "text"
// scenario (forwardedProps.scenario), so that the conversation goes on
// instead of calling the tool again; and each run's start is logged with
// whether the package's reducer was ready then (reducerReady) and whether
// the run is folded by it (reducerState once its apply step began).
import { HttpAgent as OfficialHttpAgent } from '@ag-ui/client';
import type { RunAgentInput } from '@ag-ui/client';
import { HttpAgent, reducerReady } from '@agui-reducer/web/ag-ui';

export const which = new URLSearchParams(location.search).get('agent') === 'official' ? 'official' : 'reducer';

export interface RunLog { ready: boolean; folded: boolean | null }
export const runs: RunLog[] = [];
let ready = false;
if (which === 'reducer') reducerReady().then(() => { ready = true; }, () => {});
(globalThis as { aguiRuns?: RunLog[] }).aguiRuns = runs;

function followUp(input: RunAgentInput): RunAgentInput {
  const last = input.messages[input.messages.length - 1];
  return last?.role === 'tool' ? { ...input, forwardedProps: { ...(input.forwardedProps ?? {}), scenario: 'text' } } : input;
}

class Official extends OfficialHttpAgent {
  protected requestInit(input: RunAgentInput): RequestInit {
    return super.requestInit(followUp(input));
  }
}

class Ours extends HttpAgent {
  protected requestInit(input: RunAgentInput): RequestInit {
    return super.requestInit(followUp(input));
  }

  run(input: RunAgentInput) {
    runs.push({ ready, folded: null });
    return super.run(input);
  }

  // The apply step decides, as it starts, which step folds the run.
  apply(...args: Parameters<HttpAgent['apply']>) {
    const out = super.apply(...args);
    const last = runs[runs.length - 1];
    if (last !== undefined && last.folded === null) last.folded = this.reducerState !== undefined;
    return out;
  }
}

export const agent = which === 'official'
  ? new Official({ url: '/agent' })
  : new Ours({ url: '/agent' });
