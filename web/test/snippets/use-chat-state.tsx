// docs/frameworks.md, "Any framework":
import { useSyncExternalStore } from 'react';
import type { AgentState, Reducer } from '@agui-reducer/web';

export function useChatState(chat: Reducer): AgentState {
  useSyncExternalStore(chat.subscribe, chat.getVersion); // a number: cheap to compare
  return chat.state;                                     // built here, once per render
}
