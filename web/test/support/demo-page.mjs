// Driving the demo page (web/demo) in a browser: open it fresh, send
// messages with a chosen scenario, and the scripted conversation the layout
// tests and the docs' screenshots use (text, a tool call with its result,
// shared state with sources, custom events).

export const tid = (id) => `[data-testid="${id}"]`;

/** Opens the demo at url (a fresh origin state) and waits for the reducer; page.problems collects page errors. */
export async function openDemo(context, url, { viewport, timeout = 60_000 } = {}) {
  const page = await context.newPage();
  if (viewport) await page.setViewportSize(viewport);
  const problems = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
  page.problems = problems;
  await page.goto(url);
  await page.evaluate(() => { localStorage.clear(); sessionStorage.clear(); });
  await page.reload();
  await demoReady(page, timeout);
  return page;
}

export async function demoReady(page, timeout = 60_000) {
  await page.waitForFunction(() => document.body.dataset.ready !== 'false', null, { timeout });
  const ready = await page.evaluate(() => document.body.dataset.ready);
  if (ready !== 'true') throw new Error(`the demo did not load: ${await page.textContent(tid('error-banner'))}`);
}

/** Sends text (with scenario picked in the settings when given) and waits for the run's end. */
export async function sendMessage(page, text, { scenario, timeout = 60_000 } = {}) {
  if (scenario) {
    // On a phone the settings are folded behind ⚙: selectOption works on the hidden select.
    await page.selectOption(tid('scenario'), scenario, { force: true });
  }
  const runs = Number(await page.evaluate(() => document.body.dataset.runs));
  await page.fill(tid('input'), text);
  await page.click(tid('send'));
  await page.waitForFunction((k) => Number(document.body.dataset.runs) >= k, runs + 1, { timeout });
  await frames(page);
}

/** Two animation frames: the page renders on the next one. */
export function frames(page) {
  return page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/**
 * The scripted conversation: a text answer (a custom event), a tool call
 * with its result (another), a research answer with shared state and
 * sources.
 */
export async function converse(page, options = {}) {
  await sendMessage(page, 'Hello! What can you do?', { scenario: 'text', ...options });
  await sendMessage(page, "What's the weather in Lisbon? Use a tool.", { scenario: 'tools', ...options });
  await sendMessage(page, 'Research how WebAssembly memory works, with sources', { scenario: 'state', ...options });
}

/** Whether the page is laid out for a phone (the side panel folded). */
export function narrow(page) {
  return page.evaluate(() => matchMedia('(max-width: 900px)').matches);
}

/** Opens (open = true) or closes the Inspect panel. */
export async function setInspector(page, open) {
  const pressed = (await page.getAttribute(tid('inspect-toggle'), 'aria-pressed')) === 'true';
  if (pressed !== open) await page.click(open ? tid('inspect-toggle') : tid('inspect-close'));
  await page.waitForFunction((o) => (document.body.dataset.inspect === 'true') === o, open);
  await frames(page);
}
