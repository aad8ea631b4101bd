// docs/frameworks.md, "Any framework":
import { memo, useSyncExternalStore } from 'react';
import { textOf } from '@agui-reducer/web';
import type { Message, Reducer } from '@agui-reducer/web';

export function Chat({ chat }: { chat: Reducer }) {
  const state = useSyncExternalStore(chat.subscribe, chat.getSnapshot);
  return state.messages.map((m) => <MessageView key={m.id} message={m} />);
}
// memo: re-renders only the message that changed
const MessageView = memo(({ message }: { message: Message }) => <p>{textOf(message)}</p>);
