#!/usr/bin/env node
// The lab's main-thread tasks by their thread CPU time (the trace's tdur), which a loaded machine's
// descheduling does not inflate as it does wall time: at 1280 x 800 with autoplay, from the engine's
// answers to the first run (the page's fifth worker message: init, version, names, scenario, validate)
// to 3 s later, the tasks over 12.5 ms and over 50 ms of CPU, the longest, their sum, and the CPU in
// tasks until the first-frame mark (lab-first-frame; its wall time is printed as ff).
//   node bench/browser/task-cpu.mjs DIST [RUNS]   (A/B: alternate two DISTs, one run each)
import { launchBrowser, serveSite } from '../../tests/browser/harness.mjs';
import { traceLoad } from '../../tests/browser/trace-load.mjs';
const [dist, n = 3] = process.argv.slice(2);
const site = await serveSite({ dist });
const browser = await launchBrowser();
for (let i = 0; i < Number(n); i++) {
  const { events, result: ff, ms, onMain } = await traceLoad(browser, site.url, {
    viewport: { width: 1280, height: 800 },
    until: async (page) => {
      await page.waitForFunction(() => window.__lab?.ready, null, { timeout: 60000, polling: 50 });
      await page.waitForTimeout(2500);
      return page.evaluate(() => performance.getEntriesByName('lab-first-frame')[0]?.startTime);
    },
  });
  const main = events.filter((e) => onMain(e) && e.ph === 'X');
  // the first run's message: the first HandlePostMessage after the engine's answers start (the step's frame)
  const tasks = main.filter((e) => e.name === 'RunTask').map((e) => ({ t: ms(e.ts), cpu: (e.tdur ?? e.dur) / 1000, wall: e.dur / 1000 }));
  const msgs = main.filter((e) => e.name === 'HandlePostMessage').map((e) => ms(e.ts));
  const t0 = msgs.length ? msgs[Math.min(msgs.length - 1, 4)] : 0;   // (after init, version, names, scenario, validate)
  const after = tasks.filter((x) => x.t >= t0 - 1 && x.t <= t0 + 3000);
  const long = after.filter((x) => x.cpu > 12.5);
  const toFF = tasks.filter((x) => x.t >= t0 - 1 && x.t <= ff).reduce((a, x) => a + x.cpu, 0);
  console.log(`${dist.split('/').pop()} ff=${ff?.toFixed(0)} msg5=${t0.toFixed(0)} cpuToFF=${toFF.toFixed(0)} n12=${long.length} n50=${after.filter((x) => x.cpu > 50).length} maxCpu=${Math.max(0, ...after.map((x) => x.cpu)).toFixed(0)} sum12=${long.reduce((a, x) => a + x.cpu, 0).toFixed(0)} | ${long.map((x) => `${x.t.toFixed(0)}:${x.cpu.toFixed(0)}`).join(' ')}`);
}
await browser.close(); await site.close?.(); process.exit(0);
