#!/usr/bin/env node
// Full experiments in headless Chromium, as the lab's experiment panel runs them (its worker pool, one
// worker per core): wall time of `window.__attnsvmExperiment.run({name})` / `.basin({grid})` in one lab
// page, each repeated; prints one JSON line per run and the median per experiment with the machine's
// load average. The first run of the page also starts the pool (each worker compiles the module): it is
// reported but left out of the median. Needs the site build (`npx vite build`) and the wasm module.
//
//   node bench/browser/experiments.mjs [--only local-convergence,md-convergence,basin] [--runs 5]
//   node bench/browser/experiments.mjs --dist /tmp/dist-a,/tmp/dist-b [--only ...] [--runs 5]
// With --dist (two or more `npx vite build` outputs), one lab page per build, each started and warmed
// once, and the runs alternate between them (A B A B ...: an interleaved comparison in one session); the
// medians are per build, with the median of the per-round ratios to the first build.
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { launchBrowser, serveSite } from '../../tests/browser/harness.mjs';
import { openLab, serveLab } from '../../tests/browser/lab-helpers.mjs';

const { values } = parseArgs({
  options: {
    only: { type: 'string', default: 'local-convergence,md-convergence,basin' },
    runs: { type: 'string', default: '5' },
    dist: { type: 'string' },
  },
});
const runs = Number(values.runs);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const dists = values.dist ? values.dist.split(',') : [null];
const sites = await Promise.all(dists.map((d) => (d ? serveSite({ dist: d }) : serveLab())));
const browser = await launchBrowser();
try {
  const pages = [];
  for (const [i, site] of sites.entries()) {
    const { page, problems } = await openLab(browser, site.url);
    await page.waitForFunction(() => window.__attnsvmExperiment, null, { timeout: 30000 });
    // Start the pool once (a tiny run), so that every timed run has its workers ready.
    const warm = await page.evaluate(async () => (await window.__attnsvmExperiment.run({ name: 'local-convergence', seeds: 2, iters: 10 })).ms);
    console.log(`${dists[i] ?? 'site'}: pool start + tiny run: ${(warm / 1000).toFixed(2)} s`);
    pages.push({ page, problems, label: dists[i] ?? 'site' });
  }
  for (const name of values.only.split(',')) {
    const seconds = pages.map(() => []);
    const load0 = loadavg()[0];
    for (let r = 0; r < runs; r++) {
      for (const [i, { page, label }] of pages.entries()) {
        const t0 = Date.now();
        // poolSeconds: the runner's own time (the pool's chunks and the aggregation, res.ms); the rest
        // of `seconds` is the panel's drawing of the figures and the table on the main thread.
        const poolMs = await page.evaluate(async (n) => {
          const hook = window.__attnsvmExperiment;
          return (await (n === 'basin' ? hook.basin({ grid: 200 }) : hook.run({ name: n }))).ms;
        }, name);
        seconds[i].push((Date.now() - t0) / 1000);
        console.log(`EXPERIMENT-BENCH ${JSON.stringify({ name, build: label, run: r + 1, seconds: seconds[i].at(-1), poolSeconds: poolMs / 1000, loadAverage1m: loadavg()[0] })}`);
      }
    }
    for (const [i, { label }] of pages.entries()) {
      const ratio = i ? `, ratio to ${pages[0].label} ${median(seconds[i].map((s, r) => s / seconds[0][r])).toFixed(3)}` : '';
      console.log(`${name}${pages.length > 1 ? ` [${label}]` : ''}: median ${median(seconds[i]).toFixed(2)} s of ${runs} (${seconds[i].map((s) => s.toFixed(2)).join(', ')})${ratio}, load ${load0.toFixed(1)} -> ${loadavg()[0].toFixed(1)}`);
    }
  }
  for (const { problems, label } of pages) if (problems.length) console.log(`page problems (${label}): ${problems.join('; ')}`);
} finally {
  await browser.close();
  for (const site of sites) await site.close();
}
