// The Svelte binding at run time with the app's Svelte: agentStore taken by
// svelte/store's derived and get, as `$store` takes it in a component.
import { derived, get } from 'svelte/store';
import { agentStore } from '@agui-reducer/web/svelte';

const chat = agentStore({ url: '/agent' });
const count = derived(chat, ($chat) => `${$chat.messages.length} messages, loading ${$chat.isLoading}`);
const read = get(count);
if (read !== '0 messages, loading false') throw new Error(`read ${read}`);
if (get(chat.error) !== null) throw new Error('an error before loading');
chat.dispose();
console.log(`ok: ${read}`);
