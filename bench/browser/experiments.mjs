#!/usr/bin/env node
// Full experiments in headless Chromium, as the lab's experiment panel runs them (its worker pool, one
// worker per core): wall time of `window.__attnsvmExperiment.run({name})` / `.basin({grid})` in one lab
// page, each repeated; prints one JSON line per run and the median per experiment with the machine's
// load average. The first run of the page also starts the pool (each worker compiles the module): it is
// reported but left out of the median. Needs the site build (`npx vite build`) and the wasm module.
//
//   node bench/browser/experiments.mjs [--only local-convergence,md-convergence,basin] [--runs 5]
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { launchBrowser } from '../../tests/browser/harness.mjs';
import { openLab, serveLab } from '../../tests/browser/lab-helpers.mjs';

const { values } = parseArgs({
  options: {
    only: { type: 'string', default: 'local-convergence,md-convergence,basin' },
    runs: { type: 'string', default: '5' },
  },
});
const runs = Number(values.runs);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const site = await serveLab();
const browser = await launchBrowser();
try {
  const { page, problems } = await openLab(browser, site.url);
  await page.waitForFunction(() => window.__attnsvmExperiment, null, { timeout: 30000 });
  // Start the pool once (a tiny run), so that every timed run has its workers ready.
  const warm = await page.evaluate(async () => (await window.__attnsvmExperiment.run({ name: 'local-convergence', seeds: 2, iters: 10 })).ms);
  console.log(`pool start + tiny run: ${(warm / 1000).toFixed(2)} s`);
  for (const name of values.only.split(',')) {
    const seconds = [];
    const load0 = loadavg()[0];
    for (let r = 0; r < runs; r++) {
      const t0 = Date.now();
      await page.evaluate(async (n) => {
        const hook = window.__attnsvmExperiment;
        return n === 'basin' ? hook.basin({ grid: 200 }) : hook.run({ name: n });
      }, name);
      seconds.push((Date.now() - t0) / 1000);
      console.log(`EXPERIMENT-BENCH ${JSON.stringify({ name, run: r + 1, seconds: seconds.at(-1), loadAverage1m: loadavg()[0] })}`);
    }
    console.log(`${name}: median ${median(seconds).toFixed(2)} s of ${runs} (${seconds.map((s) => s.toFixed(2)).join(', ')}), load ${load0.toFixed(1)} -> ${loadavg()[0].toFixed(1)}`);
  }
  if (problems.length) console.log(`page problems: ${problems.join('; ')}`);
} finally {
  await browser.close();
  await site.close();
}
