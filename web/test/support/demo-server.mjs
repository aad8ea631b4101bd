// The demo server (cmd/agui-demo) and the relay (cmd/agui-relay) for Node
// tests: built once per process with go build (or AGUI_DEMO_BIN,
// AGUI_RELAY_BIN), started on a free loopback port, stopped by the
// returned stop().
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const built = new Map();

function binary(name, env) {
  if (process.env[env]) return process.env[env];
  if (!built.has(name)) {
    const bin = path.join(mkdtempSync(path.join(tmpdir(), `${name}-bin-`)), name);
    execFileSync('go', ['build', '-o', bin, `./cmd/${name}`], { cwd: repoRoot, stdio: ['ignore', 'inherit', 'inherit'] });
    built.set(name, bin);
  }
  return built.get(name);
}

/** Starts agui-demo with args; resolves to {url, stop()} (url ends with /). */
export function startDemo(args = []) {
  return start(binary('agui-demo', 'AGUI_DEMO_BIN'), args, /open (http:\/\/\S+)/);
}

/** Starts agui-relay (memory store) in front of upstream; resolves to {url, stop()}. */
export function startRelay(upstream, args = []) {
  return start(binary('agui-relay', 'AGUI_RELAY_BIN'), ['-upstream', upstream, '-store', 'memory:', ...args], /listening on (http:\/\/\S+)/);
}

function start(bin, args, printed) {
  const proc = spawn(bin, ['-addr', '127.0.0.1:0', ...args], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  proc.stderr.on('data', (d) => { log += d; });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { proc.kill('SIGKILL'); reject(new Error(`${bin} did not start:\n${log}`)); }, 60_000);
    let out = '';
    proc.stdout.on('data', (d) => {
      out += d;
      const m = out.match(printed);
      if (m) {
        clearTimeout(timer);
        resolve({
          url: m[1].replace('localhost', '127.0.0.1'),
          log: () => log,
          stop: () => new Promise((r) => { if (proc.exitCode !== null) r(); else { proc.once('exit', r); proc.kill('SIGTERM'); } }),
        });
      }
    });
    proc.on('exit', (code) => { clearTimeout(timer); reject(new Error(`${bin} exited (${code}):\n${log}`)); });
  });
}
