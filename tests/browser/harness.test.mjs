// The harness's own promise: every waitForFunction of a page or frame it opened polls by a POLL_MS
// timer unless the call asks otherwise (harness.mjs pollByTimer). That default is set by patching
// Playwright's classes, so an upgrade that moved waitForFunction elsewhere would silently bring back
// polling on every animation frame (60 polls a second on an idle page): this test makes that loud.
// It times the calls of the polled function itself, in the page's own world.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, openPage, POLL_MS } from './harness.mjs';

let browser;
before(async () => { browser = await launchBrowser(); });
after(async () => { await browser?.close(); });

// Waits until the predicate has been polled `calls` times; returns the median gap between polls (ms).
async function medianPollGap(target, calls = 7) {
  await target.evaluate(() => { window.__polls = []; });
  await target.waitForFunction((n) => {
    window.__polls.push(performance.now());
    return window.__polls.length >= n;
  }, calls, { timeout: 10000 });
  const times = await target.evaluate(() => window.__polls);
  const gaps = times.slice(1).map((t, i) => t - times[i]).sort((a, b) => a - b);
  return gaps[Math.floor(gaps.length / 2)];
}

test('waitForFunction polls by the harness timer in pages and their frames', async () => {
  const { page, context } = await openPage(browser, 'about:blank');
  await page.setContent('<iframe srcdoc="<p>frame</p>"></iframe>');
  const frame = page.frames()[1];
  assert.ok(frame, 'the iframe is attached');
  // Polling by animation frames would give about 16.7 ms gaps; by the timer about POLL_MS.
  for (const [where, target] of [['page', page], ['iframe', frame]]) {
    const gap = await medianPollGap(target);
    assert.ok(gap >= 0.7 * POLL_MS, `${where}: median gap ${gap.toFixed(1)} ms between polls, expected about ${POLL_MS} ms`);
  }
  await context.close();
});
