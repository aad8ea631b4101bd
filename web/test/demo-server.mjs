// The demo server (cmd/agui-demo) for Node tests that need a relay: built
// once per process with go build (or AGUI_DEMO_BIN), started on a free
// loopback port, stopped by the returned stop().
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
let built = null;

function binary() {
  if (process.env.AGUI_DEMO_BIN) return process.env.AGUI_DEMO_BIN;
  if (!built) {
    built = path.join(mkdtempSync(path.join(tmpdir(), 'agui-demo-bin-')), 'agui-demo');
    execFileSync('go', ['build', '-o', built, './cmd/agui-demo'], { cwd: repoRoot, stdio: ['ignore', 'inherit', 'inherit'] });
  }
  return built;
}

/** Starts agui-demo with args; resolves to {url, stop()} (url ends with /). */
export function startDemo(args = []) {
  const proc = spawn(binary(), ['-addr', '127.0.0.1:0', ...args], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  proc.stderr.on('data', (d) => { log += d; });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { proc.kill('SIGKILL'); reject(new Error(`agui-demo did not start:\n${log}`)); }, 60_000);
    let out = '';
    proc.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/open (http:\/\/\S+)/);
      if (m) {
        clearTimeout(timer);
        resolve({
          url: m[1].replace('localhost', '127.0.0.1'),
          log: () => log,
          stop: () => new Promise((r) => { if (proc.exitCode !== null) r(); else { proc.once('exit', r); proc.kill('SIGTERM'); } }),
        });
      }
    });
    proc.on('exit', (code) => { clearTimeout(timer); reject(new Error(`agui-demo exited (${code}):\n${log}`)); });
  });
}
