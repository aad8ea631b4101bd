import type { Reducer } from '@agui-reducer/web';

declare const chat: Reducer;
// docs/resumable-runs.md, restore and resume after a reload:
chat.subscribe(() => sessionStorage.setItem('chat', JSON.stringify(chat.snapshot()))); // or throttled
// … on load:
const saved = sessionStorage.getItem('chat');
if (saved) {
  chat.restore(saved);
  if (chat.state.status === 'running') await chat.resume('/agent'); // Last-Event-ID: state.lastEventId
}
