// The worker entry (src/worker/entry.js) starts serving by itself when loaded as a module worker
// (new Worker(url, {type: 'module'})); createWorkerReducer() in agui.js does
// that. serve() is exported for hosting it on another MessagePort.
export function serve(port: {
  postMessage(message: unknown): void;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  start?(): void;
}): void;
