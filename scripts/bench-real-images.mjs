#!/usr/bin/env node
// Speed of the "Real images" scenario (SPEC section 6) in headless Chromium: one full default run
// (Sneaker vs Ankle boot, 1000 training and 1000 test images, 1000 iterations) per method, each alone
// in the lab (one worker), played to its end; prints one JSON line per run: the run's wall time in its
// worker (first step to last measurement; the player shares the cores with the page, duty 0.8), the
// final measurements, the longest main-thread tasks and drawing passes, and the machine's load average.
// Needs the site build (npx vite build) and the wasm module.
//
//   node scripts/bench-real-images.mjs [--methods nmd:1.1,nmd:2,nmd:3,adam]
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { launchBrowser, openPage } from '../tests/browser/harness.mjs';
import { serveLab } from '../tests/browser/lab-helpers.mjs';

const { values } = parseArgs({ options: { methods: { type: 'string', default: 'nmd:1.1,nmd:2,nmd:3,adam' }, extra: { type: 'string', default: '' } } });
const site = await serveLab();
const browser = await launchBrowser();
try {
  for (const m of values.methods.split(',')) {
    const [opt, p] = m.split(':');
    const hash = `s=real-images&opt=${opt}${p ? `&p=${p}` : ''}${values.extra ? `&${values.extra}` : ''}`;
    const { page, context, problems } = await openPage(browser, 'about:blank', { viewport: { width: 1400, height: 900 } });
    await page.addInitScript(() => {
      window.__lt = [];
      new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__lt.push(Math.round(e.duration)); }).observe({ type: 'longtask', buffered: true });
    });
    await page.goto(`${site.url}?autoplay=0#${hash}`);
    await page.waitForFunction(() => window.__lab?.real()?.loaded || window.__lab?.real()?.message, null, { timeout: 120000 });
    const load0 = loadavg()[0];
    const t0 = Date.now();
    await page.evaluate(() => { window.__lt.length = 0; window.__lab.realView().play(); });
    await page.waitForFunction(() => { const r = window.__lab.real(); return r.message || (r.done && r.runs.every((x) => x.analysis)); }, null, { timeout: 1800000, polling: 500 });
    const r = await page.evaluate(() => ({ real: window.__lab.real(), lt: window.__lt, draw: window.__lab.realView().drawStats() }));
    const run = r.real.runs[0];
    console.log(`REAL-BENCH ${JSON.stringify({
      method: m, hash, trainSeconds: run.seconds, wallSecondsToAnalysis: (Date.now() - t0) / 1000,
      testAccuracy: run.last.testAccuracy, trainAccuracy: run.last.trainAccuracy, testLoss: run.last.testLoss,
      testMaxSoftmax: run.last.testMaxSoftmax, sparsity: run.last.sparsity, verdict: run.analysis?.verdict, corr: run.analysis?.corr, divergence: run.analysis?.divergence,
      longTasksOver50: r.lt.length, maxLongTaskMs: Math.max(0, ...r.lt), drawMeanMs: Number((r.draw.total / r.draw.count).toFixed(2)), drawMaxMs: Math.round(r.draw.max),
      message: r.real.message ?? null, problems, loadAverage1m: Number(((load0 + loadavg()[0]) / 2).toFixed(1)),
    })}`);
    await context.close();
  }
} finally {
  await browser.close();
  await site.close();
}
