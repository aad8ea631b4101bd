// Shared by the browser tests: Debian's headless Chromium through
// playwright-core (no browser download), and the demo server started as a
// child process.

import { existsSync, rmSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { chromium } from 'playwright-core';

/** The flags this machine needs: no sandbox as root, and no background
 *  networking (the network is closed; Chromium's calls out are refused). */
export const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--disable-quic',
];

/** Launches Chromium with a fresh profile in profileDir; options go to
 *  launchPersistentContext (viewport, bypassCSP…).
 *
 *  A browser that dies while starting (CI once saw Chromium exit with
 *  SIGSEGV before its first page, with nothing of ours loaded yet) is
 *  launched again, up to three times, each time on an emptied profile: a
 *  crash at start-up says nothing about the code under test, and a test
 *  that fails for it hides what the suite would have found. */
export async function launchChromium(profileDir, options = {}) {
  const executablePath = process.env.CHROMIUM || '/usr/bin/chromium';
  if (!existsSync(executablePath)) throw new Error(`${executablePath} is missing: apt-get install chromium`);
  const attempts = 3;
  for (let i = 1; ; i++) {
    let context;
    try {
      context = await chromium.launchPersistentContext(profileDir, { executablePath, headless: true, args: CHROMIUM_ARGS, ...options });
      // A page proves the browser is up, not only its pipe.
      const probe = await context.newPage();
      await probe.close();
      return context;
    } catch (e) {
      await context?.close().catch(() => {});
      if (i >= attempts) throw e;
      console.error(`# Chromium failed to start (attempt ${i} of ${attempts}), launching again: ${String(e.message).split('\n')[0]}`);
      rmSync(profileDir, { recursive: true, force: true });
      await new Promise((r) => setTimeout(r, 1000 * i));
    }
  }
}

/** Starts the demo server binary and resolves to {proc, url}, the URL it
 *  prints ("open http://…"). */
export function startDemoServer(bin, args, cwd) {
  const proc = spawn(bin, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  proc.stderr.on('data', (d) => { log += d; });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not print its URL:\n${log}`)), 30_000);
    let out = '';
    proc.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/open (http:\/\/\S+)/);
      if (m) { clearTimeout(timer); resolve({ proc, url: m[1] }); }
    });
    proc.on('exit', (code) => { clearTimeout(timer); reject(new Error(`server exited (${code}):\n${log}`)); });
  });
}
