// Browser timing of the real-images study and ladder figures (web/src/real/plan-*.js) at the page's
// default (reduced) sizes: the lab's real-images view in headless Chromium starts the plan, and we
// read the wall time from Run to the drawn figure, the main thread's long tasks (PerformanceObserver
// 'longtask': every task over 50 ms of wall time), the longest task's wall and CPU time from a Chromium
// trace (tests/browser/real-images-tasks.mjs: on a loaded machine wall time includes waiting for a
// core) and the longest gap between animation frames while it runs.
//
//   npx vite build && node bench/browser/real-study.mjs [--what study,ladder] [--repeat 1] [--hash 'sseeds=5&lmax=128']
//
// Prints one line per run, with the machine's load average (uptime) beside it.
import { loadavg, cpus } from 'node:os';
import { launchBrowser, openPage } from '../../tests/browser/harness.mjs';
import { serveLab } from '../../tests/browser/lab-helpers.mjs';
import { tasksBetween, TRACE_CATEGORIES } from '../../tests/browser/real-images-tasks.mjs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const args = Object.fromEntries(process.argv.slice(2).reduce((a, x, i, all) => (x.startsWith('--') ? [...a, [x.slice(2), all[i + 1]]] : a), []));
const kinds = (args.what ?? 'study,ladder').split(',');
const repeat = Number(args.repeat ?? 1);
const extra = args.hash ? `&${args.hash}` : '';

const site = await serveLab();
const browser = await launchBrowser();
try {
  for (let r = 0; r < repeat; r++) {
    for (const kind of kinds) {
      const { page, context, problems } = await openPage(browser, `${site.url}?autoplay=0#s=real-images&ntr=100&nte=100&it=20${extra}`, { viewport: { width: 1400, height: 900 } });
      await page.waitForFunction(() => window.__lab?.real()?.loaded, null, { timeout: 120000 });
      const load = loadavg()[0];
      const tracePath = join(tmpdir(), `attnsvm-plan-${kind}-${process.pid}.json`);
      await browser.startTracing(page, { path: tracePath, categories: TRACE_CATEGORIES });
      await page.evaluate((k) => {
        performance.mark('plan-start');
        window.__bench = { long: [], maxGap: 0 };
        new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__bench.long.push(e.duration); }).observe({ type: 'longtask' });
        let last = performance.now();
        const tick = () => { const now = performance.now(); window.__bench.maxGap = Math.max(window.__bench.maxGap, now - last); last = now; if (!window.__bench.end) requestAnimationFrame(tick); };
        requestAnimationFrame(tick);
        window.__lab.realView().planPanel(k).start().then(() => requestAnimationFrame(() => { window.__bench.end = true; performance.mark('plan-end'); }));
      }, kind);
      await page.waitForFunction(() => window.__bench.end, null, { timeout: 600000, polling: 500 });
      await page.waitForTimeout(200);
      await browser.stopTracing();
      const tasks = tasksBetween(tracePath, 'plan-start', 'plan-end');
      const longest = tasks.reduce((a, t) => (t.wallMs > a.wallMs ? t : a), { wallMs: 0, cpuMs: 0 });
      const maxCpu = Math.max(0, ...tasks.map((t) => t.cpuMs));
      const heavy = tasks.filter((t) => t.cpuMs > 30).map((t) => `${t.cpuMs.toFixed(0)} ms CPU: ${JSON.stringify(t.parts)}`);
      const out = await page.evaluate((k) => ({ ...window.__bench, info: window.__lab.realView().plan(k) }), kind);
      const runs = out.info.progress?.planned;
      console.log(`${kind}: ${out.info.error ?? `${out.info.seconds.toFixed(1)} s`} (${runs} runs), long tasks ${out.long.length}` +
        `${out.long.length ? ` (max ${Math.max(...out.long).toFixed(0)} ms wall)` : ''}, longest task ${longest.wallMs.toFixed(0)} ms wall / ${longest.cpuMs.toFixed(0)} ms CPU, ` +
        `most CPU in one task ${maxCpu.toFixed(1)} ms, longest frame gap ${out.maxGap.toFixed(0)} ms; ` +
        `load ${load.toFixed(1)} -> ${loadavg()[0].toFixed(1)} on ${cpus().length} cores; settings ${JSON.stringify(out.info.settings)}`);
      if (problems.length) console.log('  console:', problems.join(' | '));
      if (heavy.length) console.log(`  tasks over 30 ms of CPU: ${heavy.join(' | ')}`);
      await context.close();
    }
  }
} finally {
  await browser.close();
  await site.close();
}
