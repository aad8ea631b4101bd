import { loadThread, type Reducer } from '@agui-reducer/web';

declare const chat: Reducer;
declare const threadId: string;
declare const threadKey: string;
// docs/api.md, "Threads on a relay":
const loaded = await loadThread(chat, '/agent', threadId, {
  threadKey,      // the thread's credential on a relay without auth (newThreadKey() makes one)
  persist: true,  // keep the last snapshot in IndexedDB: painted before the relay answers
});
// (end of the page's code)
console.log(loaded.source, loaded.live, loaded.outcome);
await loaded.persist?.stop();
