// The benchmarks' headless Chromium: Debian's browser through playwright-core
// (no browser download), with the garbage collector exposed, and a bench
// page opened with everything that goes wrong on it gathered.

/** The browser the benchmarks drive; CHROMIUM overrides it. */
export const executablePath = process.env.CHROMIUM ?? '/usr/bin/chromium';

/** The flags this machine needs (no sandbox as root, no background
 *  networking: the network is closed), and gc() for the pages, which
 *  collect garbage before measured windows. */
const ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--disable-quic', '--js-flags=--expose-gc',
  // performance.memory unquantised (agent.mjs's peak heap).
  '--enable-precise-memory-info',
];

/** Launches Chromium with a fresh profile in profileDir. playwright-core
 *  loads only here, so that Node-only runs do not need it. */
export async function launchBenchChromium(profileDir) {
  const { chromium } = await import('playwright-core');
  return chromium.launchPersistentContext(profileDir, { executablePath, headless: true, args: ARGS });
}

/** Launches Chromium without a profile, for fresh contexts (browser.newContext(): empty
 *  caches, as a first visit; agent.mjs's cold runs). */
export async function launchBenchBrowser() {
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath, headless: true, args: ARGS });
}

/** Opens serverUrl + path in page and waits for the bench page to set window.benchReady.
 *  Returns the list the page's problems go to (console errors, uncaught
 *  errors, requests leaving serverUrl); lines starting "[chromium" are
 *  progress and go to stderr. */
export async function openBenchPage(page, serverUrl, path) {
  page.setDefaultTimeout(0);
  const problems = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
    else if (m.text().startsWith('[chromium')) console.error(`  ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('request', (r) => { if (!r.url().startsWith(serverUrl)) problems.push(`request outside 127.0.0.1: ${r.url()}`); });
  await page.goto(serverUrl + path);
  await page.waitForFunction(() => window.benchReady === true || undefined, null, { timeout: 60_000 }).catch(() => {
    throw new Error(`the bench page did not load: ${problems.join('; ')}`);
  });
  return problems;
}
