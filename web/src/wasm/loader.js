// Loading the wasm module: fetch (or read) agui.wasm, start the Go runtime
// of the glue built with it (dist/wasm_exec.js), and hand back its Core
// (core.js). Nothing here names the module's own URL (package-files.js does), so
// a worker bundle that imports this file does not emit a second copy of the
// wasm.

import { Core } from './core.js';
import { Go as BundledGo, goVersion } from '../../dist/wasm_exec.js';
import { setFileReader, fileReader } from './file-reader.js';

/** What a failed load rejects with: code 'load_failed', the URL, the HTTP status. */
export class LoadError extends Error {
  constructor(message, { url, status, cause } = {}) {
    super(`agui reducer: ${message}`, cause === undefined ? undefined : { cause });
    this.name = 'LoadError';
    this.code = 'load_failed';
    this.url = url === undefined ? undefined : String(url);
    this.status = status;
  }
}

/** Sets the function that reads file: URLs (file-reader.js; agui.node.js sets node:fs's). */
export { setFileReader };

export function baseURL() {
  return globalThis.location?.href ?? import.meta.url;
}

/** Loads the wasm module and returns its low-level Core. */
export async function loadCore(wasmURL, options = {}) {
  if (wasmURL === undefined || wasmURL === null) throw new TypeError('agui reducer: loadCore needs the wasm URL');
  const isLocation = typeof wasmURL === 'string' || wasmURL instanceof URL;
  const url = isLocation ? new URL(wasmURL, baseURL()) : undefined;
  const Go = options?.wasmExecURL ? await goClass(String(options.wasmExecURL)) : BundledGo;
  const go = new Go();
  go.argv = ['agui'];
  let exitCode = null;
  go.exit = (code) => {
    exitCode = code;
    if (code !== 0) console.error(`agui reducer: the Go runtime exited with code ${code}`);
  };
  const instance = await instantiate(url ?? wasmURL, go.importObject, url);
  // go.run() runs the Go program synchronously until main() blocks (or the
  // program exits), so once it returns the exports are callable: no ready
  // callback is needed (wasm/main_js.go). Its promise resolves only when Go
  // exits: not awaited.
  const exited = go.run(instance);
  if (go.exited) {
    await exited;
    throw new LoadError(`the Go runtime exited while starting (exit code ${exitCode})`, { url });
  }
  if (instance.exports.ready() !== 1) throw new LoadError('the Go program did not start', { url });
  return new Core(go, instance, () => exitCode);
}

/**
 * Fetches (or reads) and compiles the module at wasmURL, without starting
 * it: a WebAssembly.Module that loadCore (and loadReducer) take in place of
 * the URL. Compiling runs off the main thread (compileStreaming while the
 * bytes arrive); starting the Go runtime does not, so a caller can choose
 * when to pay for it. Failures are LoadErrors.
 */
export async function compileModule(wasmURL) {
  if (wasmURL === undefined || wasmURL === null) throw new TypeError('agui reducer: compileModule needs the wasm URL');
  const isLocation = typeof wasmURL === 'string' || wasmURL instanceof URL;
  const url = isLocation ? new URL(wasmURL, baseURL()) : undefined;
  try {
    return await compile(url ?? wasmURL, url);
  } catch (err) {
    if (err instanceof LoadError) throw err;
    throw new LoadError(`compiling ${url ?? 'the wasm module'} failed: ${err?.message ?? err}`, { url, cause: err });
  }
}

const goClasses = new Map(); // glue URL → the Go class it defined

// An explicit options.wasmExecURL: either the ES module glue of
// cmd/wasm-build (exports Go) or the toolchain's classic wasm_exec.js
// (defines globalThis.Go; strict-mode clean, so it also loads as a module).
// The class is kept per URL, in case another script later redefines
// globalThis.Go with another Go version's.
async function goClass(url) {
  let Go = goClasses.get(url);
  if (!Go) {
    let mod;
    try {
      mod = await import(/* webpackIgnore: true */ /* turbopackIgnore: true */ /* @vite-ignore */ url);
    } catch (err) {
      throw new LoadError(`importing ${url} failed: ${err?.message ?? err}`, { url, cause: err });
    }
    Go = mod.Go ?? globalThis.Go;
    if (typeof Go !== 'function') throw new LoadError(`${url} did not define Go`, { url });
    goClasses.set(url, Go);
  }
  return Go;
}

/**
 * Compiles and instantiates source; every failure is a LoadError naming
 * url. A module built by another Go toolchain than the glue's imports
 * functions the glue does not define: reported as such, not as a bare
 * LinkError.
 */
async function instantiate(source, imports, url) {
  let module;
  try {
    module = await compile(source, url);
  } catch (err) {
    if (err instanceof LoadError) throw err;
    throw new LoadError(`compiling ${url ?? 'the wasm module'} failed: ${err?.message ?? err}`, { url, cause: err });
  }
  const missing = WebAssembly.Module.imports(module)
    .filter((imp) => imports[imp.module]?.[imp.name] === undefined)
    .map((imp) => `${imp.module}.${imp.name}`);
  if (missing.length > 0) {
    throw new LoadError(`${url ?? 'the wasm module'} was not built by the Go toolchain of its glue (${goVersion}): `
      + `it imports ${missing.slice(0, 3).join(', ')}${missing.length > 3 ? ', …' : ''}, which the glue does not define; rebuild both with make wasm`, { url });
  }
  try {
    return await WebAssembly.instantiate(module, imports);
  } catch (err) {
    throw new LoadError(`instantiating ${url ?? 'the wasm module'} failed: ${err?.message ?? err}`, { url, cause: err });
  }
}

async function compile(source, url) {
  if (source instanceof WebAssembly.Module) return source;
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) return WebAssembly.compile(source);
  let response = source;
  if (source instanceof URL) {
    if (source.protocol === 'file:') {
      const read = fileReader();
      if (!read) throw new LoadError(`cannot read ${source}: file: URLs are read by the package's node entry (entries/agui.node.js)`, { url: source });
      let bytes;
      try {
        bytes = await read(source);
      } catch (err) {
        throw new LoadError(`reading ${source} failed: ${err?.message ?? err}`, { url: source, cause: err });
      }
      return WebAssembly.compile(bytes);
    }
    try {
      response = await fetch(source);
    } catch (err) {
      throw new LoadError(`fetching ${source} failed: ${err?.message ?? err}`, { url: source, cause: err });
    }
  }
  response = await response;
  if (typeof Response !== 'undefined' && response instanceof Response) {
    const where = url ?? (response.url || undefined);
    if (!response.ok) {
      response.body?.cancel().catch(() => {});
      throw new LoadError(`fetching ${where ?? 'the wasm module'} failed: HTTP ${response.status} ${response.statusText}`.trimEnd(),
        { url: where, status: response.status });
    }
    const type = (response.headers.get('Content-Type') || '').split(';')[0].trim();
    if (typeof WebAssembly.compileStreaming === 'function' && type === 'application/wasm') {
      return WebAssembly.compileStreaming(response);
    }
    let bytes;
    try {
      bytes = await response.arrayBuffer();
    } catch (err) {
      throw new LoadError(`reading ${where ?? 'the wasm module'} failed: ${err?.message ?? err}`, { url: where, status: response.status, cause: err });
    }
    return WebAssembly.compile(bytes);
  }
  throw new TypeError('agui reducer: wasm source must be a URL, a Response, bytes or a WebAssembly.Module');
}
