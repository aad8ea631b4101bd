// Types of agui.js: rendering (re-exported by ../agui.d.ts).

import type { Message } from './state.js';
import type { run } from './reducer.js';

/** The Svelte store contract. */
export interface Readable<T> {
  subscribe(run: (value: T) => void): () => void;
}

/**
 * The text of a message or of its content: a string as it is, the text parts of an
 * InputContent[] joined with newlines, "" for anything else (activity objects, image parts).
 */
export function textOf(message: Message | Message['content'] | null | undefined): string;
