#!/usr/bin/env node
// The lab's regularization path view (web/src/path/) answering a drag: in headless Chromium, the
// lab opened on the view (view=path), a token of the view's plane dragged with the mouse (five
// moves, the path computed again in the view's engine worker as the token moves: web/src/path/
// path-compute.js, a preview of at most 100 Frank-Wolfe iterations a radius) and held; the time
// from the last move to the three balls' paths and SVMs drawn (the view's own clock, lab-path.js:
// waiting + worker compute + drawing), median over the repeats. Then the token is
// dropped (the lab restarts its run on the moved data, and the view computes the full path of the
// new data: its time, worker compute + drawing, is the second number) and the next repeat waits
// for the view to settle.
//   node bench/browser/path-drag.mjs [--scenario paths2d] [--repeats 9] [--dist DIR]   (after the site's build;
//   --dist: another build to measure, e.g. a copy of dist/ from before a change, for side-by-side runs)
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { launchBrowser, openPage } from '../../tests/browser/harness.mjs';
import { serveLab } from '../../tests/browser/lab-helpers.mjs';
import { serveSite } from '../../tests/browser/harness.mjs';

const { values } = parseArgs({ options: { scenario: { type: 'string', default: 'paths2d' }, repeats: { type: 'string', default: '9' }, dist: { type: 'string' } } });
const repeats = Number(values.repeats);
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; };

const site = values.dist ? await serveSite({ dist: values.dist }) : await serveLab();
const browser = await launchBrowser();
try {
  const { page, context } = await openPage(browser, `${site.url}?autoplay=0#s=${values.scenario}&view=path`, { viewport: { width: 1280, height: 900 } });
  const settled = () => page.waitForFunction(() => { const i = window.__labPath?.info(); return i && i.done && !i.busy; }, null, { timeout: 120000, polling: 50 });
  await settled();
  const first = await page.evaluate(() => window.__labPath.info().lastMs);
  const times = [], full = [];
  for (let r = 0; r < repeats; r++) {
    const box = await (await page.$$('#labpath-plane path.token'))[r % 3].boundingBox();
    const x = box.x + box.width / 2, y = box.y + box.height / 2;
    const n0 = await page.evaluate(() => window.__labPath.info().dragTimings.length);
    await page.mouse.move(x, y);
    await page.mouse.down();
    for (let k = 1; k <= 5; k++) await page.mouse.move(x + 3 * k * (r % 2 ? -1 : 1), y - 2 * k);
    await page.waitForFunction((n) => window.__labPath.info().dragTimings.length > n, n0, { timeout: 120000, polling: 20 });
    times.push(await page.evaluate(() => window.__labPath.info().dragTimings.at(-1)));
    const before = await page.evaluate(() => window.__labPath.info().lastMs);
    await page.mouse.up();
    await page.waitForFunction((b) => { const i = window.__labPath.info(); return i.done && !i.busy && i.lastMs !== b; }, before, { timeout: 120000, polling: 50 });
    full.push(await page.evaluate(() => window.__labPath.info().lastMs));
    await page.waitForTimeout(500);
    await settled();
  }
  console.log(JSON.stringify({ dist: values.dist ?? 'dist', scenario: values.scenario, firstPathMs: Math.round(first), dragToPathMs: { median: Math.round(median(times)), min: Math.round(Math.min(...times)), max: Math.round(Math.max(...times)), all: times.map(Math.round) },
    fullPathAfterDropMs: { median: Math.round(median(full)), all: full.map(Math.round) }, load: loadavg()[0] }));
  await context.close();
} finally {
  await browser.close();
  await site.close();
}
