#!/usr/bin/env node
// What the lab's formulas cost after its first frame (issue 24, round 8): at a phone's viewport (412 x 823,
// Lighthouse's), no autoplay (no playing frames in the window), a Chromium trace from navigation until
// 2 s after the lab is ready; the window is from the request of the formulas' chunk (KaTeX's
// katex-render-*.js before round 8, an SVG chunk lab-formulas-*.js after) to 1.5 s later. Printed: the
// main-thread tasks in the window over 12.5 ms of CPU (the trace's tdur: what counts toward Lighthouse's
// TBT under its 4x slowdown), the longest, the CPU of all tasks in the window, its style recalcs
// (UpdateLayoutTree) and layouts, and the font files the page requested.
//   node bench/browser/formula-cost.mjs DIST [RUNS]   (A/B: alternate two DISTs, one run each)
import { launchBrowser, serveSite } from '../../tests/browser/harness.mjs';
import { traceLoad } from '../../tests/browser/trace-load.mjs';
const [dist, n = 3] = process.argv.slice(2);
const site = await serveSite({ dist });
const browser = await launchBrowser();
const FORMULAS = /\/assets\/(katex-render|_virtual_lab-formulas)[\w-]*\.js$/;
for (let i = 0; i < Number(n); i++) {
  const { events, ms, onMain } = await traceLoad(browser, `${site.url}?autoplay=0`, {
    viewport: { width: 412, height: 823 },
    until: async (page) => {
      await page.waitForFunction(() => window.__lab?.ready && document.querySelector('#sc-formulas .formula > *'), null, { timeout: 60000, polling: 50 });
      await page.waitForTimeout(2000);
    },
  });
  const sends = events.filter((e) => e.name === 'ResourceSendRequest').map((e) => ({ t: ms(e.ts), url: e.args?.data?.url ?? '' }));
  const chunk = sends.find((s) => FORMULAS.test(s.url));
  const fonts = sends.filter((s) => /\.(woff2?|ttf|otf|eot)(\?|$)/.test(s.url)).length;
  if (!chunk) { console.log(`${dist.split('/').pop()} no formulas chunk requested`); continue; }
  const main = events.filter((e) => onMain(e) && e.ph === 'X');
  const inWindow = (e) => ms(e.ts) >= chunk.t && ms(e.ts) <= chunk.t + 1500;
  const tasks = main.filter((e) => e.name === 'RunTask' && inWindow(e)).map((e) => ({ t: ms(e.ts), cpu: (e.tdur ?? e.dur) / 1000 }));
  const sum = (name) => main.filter((e) => e.name === name && inWindow(e)).reduce((a, e) => a + (e.tdur ?? e.dur) / 1000, 0);
  const long = tasks.filter((x) => x.cpu > 12.5);
  console.log(`${dist.split('/').pop()} chunk@${chunk.t.toFixed(0)} n12=${long.length} maxCpu=${Math.max(0, ...tasks.map((x) => x.cpu)).toFixed(1)} cpu=${tasks.reduce((a, x) => a + x.cpu, 0).toFixed(0)} style=${sum('UpdateLayoutTree').toFixed(1)} layout=${sum('Layout').toFixed(1)} fonts=${fonts} | ${long.map((x) => `${x.t.toFixed(0)}:${x.cpu.toFixed(0)}`).join(' ')}`);
}
await browser.close(); await site.close?.(); process.exit(0);
