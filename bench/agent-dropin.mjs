// The package's exported HttpAgent (web/entries/ag-ui.node.js) as an app imports
// it: web/src/ag-ui/drop-in.js imports its peer dependency @ag-ui/client by name, and
// web/ has none installed, so the specifier is resolved from bench/ (as an
// app's node_modules would), the same @ag-ui/client 1.0.0 the official side
// uses. Call peerHook() before importing the drop-in.

import { register } from 'node:module';

let registered = false;

/** Resolves '@ag-ui/client' (and rxjs) imported from web/ to bench/node_modules. */
export function peerHook() {
  if (registered) return;
  registered = true;
  const hook = `export async function resolve(s, c, next) {
    return s === '@ag-ui/client' || s === 'rxjs' ? next(s, { ...c, parentURL: ${JSON.stringify(import.meta.url)} }) : next(s, c);
  }`;
  register('data:text/javascript,' + encodeURIComponent(hook));
}

/** The drop-in HttpAgent class. */
export async function dropIn() {
  peerHook();
  return (await import('../web/entries/ag-ui.node.js')).HttpAgent;
}
