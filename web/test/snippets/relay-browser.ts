import { loadThread, newThreadKey, threadHeaders, type ReducerFactory } from '@agui-reducer/web';

declare const factory: ReducerFactory; // await loadReducer()
// docs/relay.md, in the browser:
const threadId = sessionStorage.getItem('thread') ?? crypto.randomUUID();
const threadKey = sessionStorage.getItem('threadKey') ?? newThreadKey(); // no -auth-header: the key is the credential
sessionStorage.setItem('thread', threadId);
sessionStorage.setItem('threadKey', threadKey);
const chat = factory.createReducer({ threadId });
const loaded = await loadThread(chat, '/agent', threadId, { threadKey, persist: true });
// loaded.source: 'relay' | 'cache' | 'none'; loaded.live: a run was going on and was followed
chat.addUserMessage('hello');
await chat.run('/agent', chat.runInput(), { headers: threadHeaders(threadKey) });
// (end of the page's code)
console.log(loaded.found);
