// Loading the wasm module: fetch (or read) agui.wasm, start the Go runtime
// of the matching wasm_exec.js, and hand back its Core (core.js).

import { Core } from './core.js';

export function defaultWasmURL() {
  return new URL('../dist/agui.wasm', import.meta.url);
}

export function baseURL() {
  return globalThis.location?.href ?? import.meta.url;
}

/** Loads the wasm module and returns its low-level Core. */
export async function loadCore(wasmURL = defaultWasmURL(), options = {}) {
  const isLocation = typeof wasmURL === 'string' || wasmURL instanceof URL;
  const wasmExecURL = options.wasmExecURL
    ?? (isLocation ? new URL('wasm_exec.js', new URL(wasmURL, baseURL())) : new URL('../dist/wasm_exec.js', import.meta.url));
  const Go = await goClass(String(wasmExecURL));
  const go = new Go();
  go.argv = ['agui'];
  let exitCode = null;
  go.exit = (code) => {
    exitCode = code;
    if (code !== 0) console.error(`agui reducer: the Go runtime exited with code ${code}`);
  };
  const instance = await instantiate(isLocation ? new URL(wasmURL, baseURL()) : wasmURL, go.importObject);
  // go.run() runs the Go program synchronously until main() blocks (or the
  // program exits), so once it returns the exports are callable: no ready
  // callback is needed (wasm/main_js.go). Its promise resolves only when Go
  // exits: not awaited.
  const exited = go.run(instance);
  if (go.exited) {
    await exited;
    throw new Error(`agui reducer: the Go runtime exited while starting (exit code ${exitCode})`);
  }
  if (instance.exports.ready() !== 1) throw new Error('agui reducer: the Go program did not start');
  return new Core(go, instance, () => exitCode);
}

const goClasses = new Map(); // wasm_exec.js URL → the Go class it defined

// wasm_exec.js is a classic script that defines globalThis.Go; it is
// strict-mode clean and exports nothing, so it also loads as a module. The
// class is kept per URL, in case another script later redefines
// globalThis.Go with another Go version's.
async function goClass(url) {
  let Go = goClasses.get(url);
  if (!Go) {
    await import(url);
    Go = globalThis.Go;
    if (typeof Go !== 'function') throw new Error(`agui reducer: ${url} did not define globalThis.Go`);
    goClasses.set(url, Go);
  }
  return Go;
}

async function instantiate(source, imports) {
  if (source instanceof WebAssembly.Module) return WebAssembly.instantiate(source, imports);
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) {
    return (await WebAssembly.instantiate(source, imports)).instance;
  }
  let response = source;
  if (source instanceof URL) {
    if (source.protocol === 'file:') { // Node: fetch() cannot read files
      const { readFile } = await import('node:fs/promises');
      return (await WebAssembly.instantiate(await readFile(source), imports)).instance;
    }
    response = fetch(source);
  }
  response = await response;
  if (typeof Response !== 'undefined' && response instanceof Response) {
    if (!response.ok) {
      throw new Error(`agui reducer: fetching ${response.url} failed: HTTP ${response.status} ${response.statusText}`);
    }
    const type = (response.headers.get('Content-Type') || '').split(';')[0].trim();
    if (typeof WebAssembly.instantiateStreaming === 'function' && type === 'application/wasm') {
      return (await WebAssembly.instantiateStreaming(response, imports)).instance;
    }
    return (await WebAssembly.instantiate(await response.arrayBuffer(), imports)).instance;
  }
  throw new TypeError('agui reducer: wasm source must be a URL, a Response, bytes or a WebAssembly.Module');
}
