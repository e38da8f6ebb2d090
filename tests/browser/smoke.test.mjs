// Smoke test of the built site: the page loads the wasm module and shows a live computation.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveSite, launchBrowser, openPage, shot } from './harness.mjs';

let site, browser;
before(async () => { site = await serveSite(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await site?.close(); });

test('the page loads the wasm engine and computes', async () => {
  const { page, problems, context } = await openPage(browser, site.url);
  await page.waitForFunction(() => window.__ready === true || window.__error, null, { timeout: 30000 });
  assert.equal(await page.evaluate(() => window.__error ?? null), null);
  await shot(page, 'smoke-desktop');
  assert.deepEqual(problems, []);
  await context.close();
});
