import type { Reducer, RunAgentInput } from '@agui-reducer/web';

declare const chat: Reducer;
declare const input: RunAgentInput;
declare function showBanner(text: string): void; // the page's
// docs/resumable-runs.md, the reconnects:
chat.on('reconnect', ({ reconnects, delay, lastEventId, reason }) => showBanner('reconnecting…'));
const outcome = await chat.run('/agent', input, {
  resume: { attempts: 5, delay: 500, factor: 2, maxDelay: 15000, jitter: 0.5 }, // the defaults
});
chat.lastRun; // {outcome, reconnects, lastEventId, reason?}
// (end of the page's code)
console.log(outcome);
