// docs/inspector.md, "Use it":
import { loadReducer } from '@agui-reducer/web';
import '@agui-reducer/web/inspector';          // registers <agui-inspector>

const reducer = (await loadReducer()).createReducer();
const inspector = document.createElement('agui-inspector');
inspector.style.height = '600px';             // it fills the box it is given
document.body.append(inspector);
await inspector.attach(reducer);              // follows it live from now on
await reducer.run('/agent', reducer.runInput());
