// The Svelte binding as an app uses it: agentStore is a Svelte store, so
// svelte/store's derived and get take it (and `$chat` in a component).
import { derived, get } from 'svelte/store';
import type { Readable } from 'svelte/store';
import { textOf } from '@agui-reducer/web';
import type { AgentState, Message } from '@agui-reducer/web';
import { agentStore } from '@agui-reducer/web/svelte';

export const chat = agentStore({ url: '/agent' });
const asSvelteStore: Readable<AgentState> = chat;
export const shown: Readable<Message[]> = derived(asSvelteStore, ($chat) => $chat.messages.filter((m) => m.role !== 'tool'));
export const texts: Readable<string[]> = derived(shown, ($shown) => $shown.map((m) => textOf(m)));
export const messageCount = agentStore(chat.agent, (s) => s.messages.length);
export const failed: Readable<unknown> = chat.error;

export async function ask(text: string): Promise<string> {
  const outcome = await chat.send(text);
  return `${outcome}: ${get(messageCount)} messages, ready ${chat.ready}, error ${String(get(failed))}`;
}
