// Driving a chat app built on the package in headless Chromium, against the
// demo server's recorded `tools` scenario: the test apps' pages (a form of
// <p class="ROLE"> per message, a <pre> per tool call, an input and a
// button) answer "What is the weather in Lisbon?" with a tool call.
import assert from 'node:assert/strict';

/**
 * Opens url in context, sends a message through the page's form and waits
 * for the answer and its tool call. In worker mode (the app's ?worker) the
 * page must have started a Web Worker (the reducer's), in page mode none.
 * Each tool result is on the page once: with its call, not again as a
 * message.
 */
export async function chat(context, url, { worker = false, ready, timeout = 60_000 } = {}) {
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(new Error(m.text())); });
  try {
    await page.goto(worker ? `${url}?worker` : url);
    if (ready) await page.waitForSelector(ready, { state: 'attached', timeout });
    await page.fill('input', 'What is the weather in Lisbon?');
    await page.click('button');
    await page.waitForFunction(() => [...document.querySelectorAll('p.assistant')].some((p) => p.textContent.includes('°C')), null, { timeout });
    await page.waitForFunction(() => !document.querySelector('button').disabled, null, { timeout });
    const texts = await page.$$eval('p', (ps) => ps.map((p) => `${p.className}: ${p.textContent}`));
    const tools = await page.$$eval('pre', (ps) => ps.map((p) => p.textContent));
    assert.equal(texts[0], 'user: What is the weather in Lisbon?');
    assert.ok(texts.some((t) => t.startsWith('assistant: Let me look up')), texts.join('\n'));
    assert.ok(tools.some((t) => t.startsWith('get_weather({') && t.includes('Lisbon')), tools.join('\n'));
    const body = await page.evaluate(() => document.body.textContent);
    for (const tool of tools) {
      const result = tool.slice(tool.indexOf(' → ') + 3);
      assert.ok(result.length > 0, `the tool call has no result: ${tool}`);
      assert.equal(body.split(result).length - 1, 1, `the tool result is on the page ${body.split(result).length - 1} times:\n${texts.join('\n')}\n${tools.join('\n')}`);
    }
    assert.deepEqual(errors, []);
    assert.equal(page.workers().length > 0, worker, worker ? 'no Web Worker runs the reducer' : 'a worker in page mode');
    return { texts, tools };
  } finally {
    await page.close();
  }
}
