// The React binding at run time with the app's React: useAgent rendered on
// the server (react-dom/server), where it shows the empty state and loads
// nothing (useSyncExternalStore's server snapshot).
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { useAgent } from '@agui-reducer/web/react';

function Chat() {
  const { state, ready, error } = useAgent({ url: '/agent' });
  return createElement('p', null, `${state.messages.length} messages, ready ${ready}, error ${error}`);
}
const html = renderToString(createElement(Chat));
if (html !== '<p>0 messages, ready false, error null</p>') throw new Error(`rendered ${html}`);
console.log(`ok: ${html}`);
