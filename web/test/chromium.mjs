// Shared by the browser tests: Debian's headless Chromium through
// playwright-core (no browser download), and the demo server started as a
// child process.

import { existsSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { chromium } from 'playwright-core';

/** The flags this machine needs: no sandbox as root, and no background
 *  networking (the network is closed; Chromium's calls out are refused). */
export const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--disable-quic',
];

/** Launches Chromium with a fresh profile in profileDir; options go to
 *  launchPersistentContext (viewport, bypassCSP…). */
export async function launchChromium(profileDir, options = {}) {
  const executablePath = process.env.CHROMIUM || '/usr/bin/chromium';
  if (!existsSync(executablePath)) throw new Error(`${executablePath} is missing: apt-get install chromium`);
  return chromium.launchPersistentContext(profileDir, { executablePath, headless: true, args: CHROMIUM_ARGS, ...options });
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
