// The page of resume.e2e.mjs: one reducer whose runs reconnect when the
// server cuts them. Every change is saved to sessionStorage, so that a page
// reloaded mid-run restores the state and resumes the run (the README's
// reload recipe).
import { loadReducer } from '../../agui.js';

const SAVED = 'agui-resume-test:state';
const ENDPOINT = 'agui-resume-test:endpoint';

const factory = await loadReducer();
const reducer = factory.createReducer();
const reconnects = [];
reducer.on('reconnect', (info) => reconnects.push(info));
reducer.subscribe(() => sessionStorage.setItem(SAVED, JSON.stringify(reducer.snapshot())));

const report = (outcome) => ({ outcome, lastRun: reducer.lastRun, reconnects, state: reducer.snapshot() });

window.aguiTest = {
  reducer,
  /** A run of scenario at endpoint; resolves to its report. */
  async run(endpoint, scenario, options = {}) {
    sessionStorage.setItem(ENDPOINT, endpoint);
    const outcome = await reducer.run(endpoint, reducer.runInput({ forwardedProps: { scenario } }), options);
    return report(outcome);
  },
  /** Resolves when the run resumed after a reload has ended. */
  resumed: null,
};

// A reload mid-run: restore, then resume from the saved lastEventId.
const saved = sessionStorage.getItem(SAVED);
if (saved && JSON.parse(saved).status === 'running') {
  reducer.restore(saved);
  window.aguiTest.resumed = reducer.resume(sessionStorage.getItem(ENDPOINT)).then(report);
}
document.body.dataset.ready = 'true';
