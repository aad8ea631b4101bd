// Loading and lifetime of reducers: load failures reject with a typed
// LoadError (code 'load_failed', the URL, the HTTP status); reducers
// garbage-collected without dispose() are freed; run() after dispose()
// rejects instead of throwing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { loadReducer, LoadError, createWorkerHost } from '../../entries/agui.node.js';
import { serve } from '../../src/worker/entry.js';
import { wasmURL } from '../support/helpers.mjs';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc');

/** A server answering every request with status and body. */
async function answering(status, body, type = 'application/wasm') {
  const server = http.createServer((req, res) => {
    res.writeHead(status, { 'Content-Type': type });
    res.end(body);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}/agui.wasm`, close: () => new Promise((r) => server.close(r)) };
}

function assertLoadError(err, url, status) {
  assert.ok(err instanceof LoadError, `a LoadError, got ${err}`);
  assert.equal(err.code, 'load_failed');
  assert.equal(err.url, String(url));
  assert.equal(err.status, status);
  return true;
}

test('load: an HTTP error rejects with load_failed, the URL and the status', async () => {
  const srv = await answering(404, 'not found', 'text/plain');
  try {
    await assert.rejects(loadReducer(srv.url), (err) => assertLoadError(err, srv.url, 404) && /HTTP 404/.test(err.message));
  } finally { await srv.close(); }
});

test('load: bytes that do not compile reject with load_failed and the URL', async () => {
  const srv = await answering(200, 'this is not wasm');
  try {
    await assert.rejects(loadReducer(srv.url), (err) => assertLoadError(err, srv.url, undefined) && /compil/.test(err.message));
  } finally { await srv.close(); }
});

test('load: an unreachable server and a missing file reject with load_failed', async () => {
  const srv = await answering(200, '');
  await srv.close(); // nothing listens there any more
  await assert.rejects(loadReducer(srv.url), (err) => assertLoadError(err, srv.url, undefined));
  const missing = new URL('./no-such.wasm', wasmURL);
  await assert.rejects(loadReducer(missing), (err) => assertLoadError(err, missing, undefined));
});

test('load: a glue of another toolchain (imports missing) is named as such', async () => {
  // A glue whose import object lacks the module's runtime imports.
  const glue = 'data:text/javascript,' + encodeURIComponent(
    'export class Go { constructor() { this.importObject = { gojs: {} }; } }');
  await assert.rejects(loadReducer(wasmURL, { wasmExecURL: glue }),
    (err) => assertLoadError(err, wasmURL, undefined) && /not built by the Go toolchain of its glue/.test(err.message));
});

test('load: a worker whose wasm fails to load rejects its calls with load_failed', async () => {
  const { port1, port2 } = new MessageChannel();
  serve(port2);
  const missing = new URL('./no-such.wasm', wasmURL);
  const host = createWorkerHost({ worker: port1, wasmURL: missing });
  await assert.rejects(host.createReducer(), (err) => assertLoadError(err, missing, undefined));
  host.terminate();
});

async function collect(until) {
  for (let i = 0; i < 50 && !until(); i++) {
    gc();
    await new Promise((r) => setTimeout(r, 10)); // finalizers run between tasks
  }
}

test('lifecycle: reducers garbage-collected without dispose() are freed', async () => {
  const factory = await loadReducer(wasmURL);
  const before = factory._live;
  (() => {
    for (let i = 0; i < 100; i++) factory.createReducer().apply({ type: 'RUN_STARTED', threadId: 't', runId: `r${i}` });
  })();
  assert.equal(factory._live, before + 100);
  await collect(() => factory._live === before);
  assert.equal(factory._live, before, 'every unreachable reducer was freed');
  // dispose() and the finalizer free a handle once between them.
  const kept = factory.createReducer();
  kept.dispose();
  kept.dispose();
  await collect(() => false);
  assert.equal(factory._live, before);
});

test('lifecycle: run() after dispose() returns a rejected promise', async () => {
  const factory = await loadReducer(wasmURL);
  const r = factory.createReducer();
  r.dispose();
  let p;
  assert.doesNotThrow(() => { p = r.run('http://127.0.0.1:9/agent'); });
  await assert.rejects(p, /disposed/);

  const { port1, port2 } = new MessageChannel();
  serve(port2);
  const host = createWorkerHost({ worker: port1, wasmURL });
  const w = await host.createReducer();
  w.dispose();
  let q;
  assert.doesNotThrow(() => { q = w.run('http://127.0.0.1:9/agent'); });
  await assert.rejects(q, /disposed/);
  host.terminate();
});

test('lifecycle: worker reducers garbage-collected without dispose() are disposed in the worker', async () => {
  const { port1, port2 } = new MessageChannel();
  serve(port2);
  const disposed = new Set();
  const post = port1.postMessage.bind(port1);
  port1.postMessage = (m, transfer) => {
    if (m.op === 'dispose') disposed.add(m.rid);
    post(m, transfer);
  };
  const host = createWorkerHost({ worker: port1, wasmURL });
  for (let i = 0; i < 20; i++) await host.createReducer(); // not kept
  const kept = await host.createReducer();
  await collect(() => disposed.size === 20);
  assert.equal(disposed.size, 20, 'every unreachable worker reducer was disposed');
  kept.dispose();
  assert.equal(disposed.size, 21);
  host.terminate();
});
