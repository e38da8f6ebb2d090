// Performance of the lab in headless Chromium: time to the first plotted frame, plotted frames per
// second while playing, and main-thread long tasks (PerformanceObserver 'longtask', > 50 ms).
// Prints one JSON line per case (copied into docs/BENCHMARKS.md, "Web lab") with the machine's
// 1-minute load average next to it (a shared machine slows the browser). The bar of issue 6
// (>= 50 fps, no task over 50 ms while playing) is asserted with LAB_PERF_STRICT=1 (an idle
// machine); without it only that frames keep coming.
import { loadavg } from 'node:os';
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, openPage } from './harness.mjs';
import { serveLab } from './lab-helpers.mjs';

let site, browser;
before(async () => { site = await serveLab(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await site?.close(); });

const SECONDS = 4;

const STRICT = process.env.LAB_PERF_STRICT === '1';
// [name, hash, panel scrolled into view before playing (the curves are redrawn only when visible)]
const CASES = [
  ['paths2d', 's=paths2d&speed=2', null],
  ['local-convergence', 's=local-convergence&speed=2', null],
  ['local-convergence, curves in view', 's=local-convergence&speed=2', 'panel-corr'],
];
for (const [name, hash, scrollTo] of CASES) {
  test(`performance: ${name}`, async () => {
    const { page, context, problems } = await openPage(browser, 'about:blank');
    await page.addInitScript(() => {
      window.__longTasks = [];
      try {
        new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__longTasks.push(e.duration); })
          .observe({ type: 'longtask', buffered: true });
      } catch { /* not supported */ }
    });
    const t0 = Date.now();
    await page.goto(`${site.url}?autoplay=0#${hash}`);
    // (polled every 50 ms, not in every animation frame: playwright's check in each frame of the load
    // is work on the page's main thread that delayed the first frame it measures by ~100-150 ms)
    await page.waitForFunction(() => window.__lab?.ready, null, { timeout: 30000 });
    const loadMs = Date.now() - t0;
    const first = await page.evaluate(() => window.__lab.firstFrameMs);
    const nav = await page.evaluate(() => {
      const m = performance.getEntriesByName('lab-first-frame')[0];
      return m ? m.startTime : null;
    });
    const loadLongTasks = await page.evaluate(() => window.__longTasks.slice());
    if (scrollTo) {
      await page.evaluate((id) => document.getElementById(id).scrollIntoView(), scrollTo);
      await page.evaluate(() => new Promise((r) => setTimeout(r, 300)));
    }
    const load0 = loadavg()[0];
    const res = await page.evaluate(async (seconds) => {
      const lab = window.__lab;
      window.__longTasks.length = 0;
      const r0 = lab.renders, i0 = lab.iteration;
      let raf = 0;
      let running = true;
      const count = () => { raf++; if (running) requestAnimationFrame(count); };
      requestAnimationFrame(count);
      const t = performance.now();
      lab.play();
      await new Promise((r) => setTimeout(r, seconds * 1000));
      running = false;
      lab.pause();
      const dt = (performance.now() - t) / 1000;
      return { plottedFps: (lab.renders - r0) / dt, rafFps: raf / dt, iterationsPerSecond: (lab.iteration - i0) / dt,
        longTasks: window.__longTasks.slice(), maxLongTask: Math.max(0, ...window.__longTasks) };
    }, SECONDS);
    const out = { scenario: name, firstPlottedFrameMs: Math.round(nav ?? first), pageLoadToReadyMs: loadMs,
      plottedFps: Number(res.plottedFps.toFixed(1)), rafFps: Number(res.rafFps.toFixed(1)),
      iterationsPerSecond: Math.round(res.iterationsPerSecond), longTasksOver50ms: res.longTasks.length, maxLongTaskMs: Math.round(res.maxLongTask),
      loadLongTasksMs: loadLongTasks.map(Math.round), loadAverage1m: Number(((load0 + loadavg()[0]) / 2).toFixed(2)) };
    console.log(`LAB-PERF ${JSON.stringify(out)}`);
    // a measurement (the machine may be shared): only require that frames keep coming
    assert.ok(out.plottedFps >= 5, `plotted fps ${out.plottedFps}`);
    if (STRICT) {
      assert.ok(out.rafFps >= 50 && out.plottedFps >= 50, `fps ${out.rafFps} (plotted ${out.plottedFps}) < 50`);
      assert.ok(out.maxLongTaskMs <= 50, `a main-thread task took ${out.maxLongTaskMs} ms while playing`);
    }
    assert.deepEqual(problems, []);
    await context.close();
  });
}
