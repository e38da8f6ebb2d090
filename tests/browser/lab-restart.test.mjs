// A setting changed while the player's step is in flight restarts the run, which then plays on:
// the earlier run's step must not count as in flight for the new one (it did: the lab stayed at
// k = 0, "busy", for good).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveSite, launchBrowser, openPage } from './harness.mjs';

let site, browser;
before(async () => { site = await serveSite(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await site?.close(); });

test('a setting changed mid-step restarts a run that keeps playing', { timeout: 60000 }, async () => {
  const { page, problems, context } = await openPage(browser, `${site.url}?autoplay=0#s=paths2d`);
  try {
    await page.waitForFunction(() => window.__ready === true || window.__error, null, { timeout: 30000 });
    await page.waitForFunction(() => !window.__lab.busy, null, { timeout: 30000 });
    await page.evaluate(() => window.__lab.play());
    await page.waitForFunction(() => window.__lab.iteration > 20, null, { timeout: 20000 });
    // the change lands on an animation frame whose step is still in the worker
    await page.evaluate(() => new Promise((resolve) => {
      const f = () => { if (window.__lab.busy) { window.__lab.set({ lr: 0.2 }); resolve(); } else requestAnimationFrame(f); };
      f();
    }));
    await page.waitForFunction(() => window.__lab.state.lr === 0.2 && window.__lab.iteration > 20, null, { timeout: 20000 });
    assert.equal(await page.evaluate(() => window.__lab.playing), true);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
