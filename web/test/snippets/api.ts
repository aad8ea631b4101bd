import type { AgentState, ReducerFactory } from '@agui-reducer/web';

declare const factory: ReducerFactory;            // await loadReducer()
declare function render(state: AgentState): void; // the page's view
declare const token: string;
// docs/api.md, "A reducer":
const chat = factory.createReducer({});      // one per chat or thread; many per page
let frame = 0;                               // render once per frame, however many events
chat.subscribe(() => { frame ||= requestAnimationFrame(() => { frame = 0; render(chat.state); }); });
chat.on('custom', (e) => console.log(e));    // {type:'custom',name,value} | {type:'state_update',state}
chat.on('diagnostic', (d) => console.warn(d.code, d.message));
const controller = new AbortController();
const outcome = await chat.run('/agent', chat.runInput({ tools: [] }), {
  signal: controller.signal, headers: { Authorization: `Bearer ${token}` },
});
// (end of the page's code)
console.log(outcome);
