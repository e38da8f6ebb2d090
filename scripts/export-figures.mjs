#!/usr/bin/env node
// Exports the figures of docs/RESULTS.md from the web lab itself, so the figures in the docs are the ones a
// reader sees on the page: for each scenario, open the built lab (dist/) in headless Chromium at the
// scenario's default state, play the run to its end, and save chosen panels through the lab's own
// PNG/SVG export (window.__lab.exportPanel); then run the seeded experiments at the papers' full settings in
// the lab's experiment panel (its worker pool) and save its band plots (mean ± std on linear axes, the
// median and 10-90 % of the seeds on log axes: web/src/experiments/bands.js) and the basin map as
// screenshots of the panel. And the README's picture of the lab (lab.png: the page at 1400 x 900 in the
// middle of a run, the paths bending toward the SVM arrows). Needs `npm run build` first.
//
//   node scripts/export-figures.mjs [--out docs/figures] [--only lab,local-convergence,rank] [--panels-only] [--help]
//   (--panels-only: the scenarios' panels alone, not the real images nor the experiments of the same names)
import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { launchBrowser, repoRoot } from '../tests/browser/harness.mjs';
import { openLab, runToEnd, serveLab } from '../tests/browser/lab-helpers.mjs';

// Which panels illustrate which experiment of docs/RESULTS.md.
const FIGURES = [
  { scenario: 'local-convergence', panels: ['corr', 'softmax'] },
  { scenario: 'rank', panels: ['spectrum'] },
  { scenario: 'multitoken', panels: ['corr'] },
  { scenario: 'prompt-global-local', panels: ['plane'] },
  { scenario: 'loss-function', panels: ['corr'] },
  { scenario: 'joint-pv', panels: ['corr'] },
  { scenario: 'mirror-descent', panels: ['weights', 'corr'] },
  { scenario: 'md-convergence', panels: ['corr', 'weights'] },
  { scenario: 'joint-wv', panels: ['plane', 'corr'] },
  { scenario: 'overparam', panels: ['corr'] },
  { scenario: 'paths2d', panels: ['plane'] },
];

// Experiments run in full in the lab's experiment panel (web/src/experiments): name -> what to save.
const EXPERIMENT_FIGURES = ['local-convergence', 'rates', 'mirror-descent', 'rank', 'prompt-global-local', 'loss-function',
  'joint-pv', 'paths2d', 'paths2d-t5', 'md-convergence', 'joint-wv', 'reg-path', 'seq2seq-convergence', 'hierarchy'];

const { values } = parseArgs({ options: { out: { type: 'string', default: 'docs/figures' }, only: { type: 'string' }, 'panels-only': { type: 'boolean', default: false },
  help: { type: 'boolean', default: false } } });
if (values.help) {
  console.log(`node scripts/export-figures.mjs [--out docs/figures] [--only NAME,...] [--panels-only]  (after npm run build)
  --only: lab, a scenario's panels (${FIGURES.map((f) => f.scenario).join(', ')}), real-images,
          an experiment of the panel (${EXPERIMENT_FIGURES.join(', ')}), basin-map
          (a name that is both a scenario and an experiment exports both)
  --panels-only: the scenarios' panels alone`);
  process.exit(0);
}
const panelsOnly = values['panels-only'];
const outDir = resolve(repoRoot, values.out);
const only = values.only ? new Set(values.only.split(',')) : null;
mkdirSync(outDir, { recursive: true });

const site = await serveLab();
const browser = await launchBrowser();
let failures = 0;
try {
  // The README's screenshot: the lab as a reader first sees it, a few hundred iterations into the
  // default scenario (the paths bending toward the dashed SVM arrows), the formulas typeset.
  if (!only || only.has('lab')) {
    const { page, problems, context } = await openLab(browser, site.url, 's=paths2d-t5&speed=20', { viewport: { width: 1400, height: 900 } });
    try {
      for (let k = 0; k < 12; k++) {
        await page.evaluate(() => window.__lab.step());
        await page.waitForFunction((n) => window.__lab.iteration >= n && !window.__lab.busy, 20 * (k + 1));
      }
      await page.waitForFunction(() => document.querySelector('#sc-formulas svg'), null, { timeout: 20000 });
      await page.evaluate(() => document.fonts.ready);
      const file = resolve(outDir, 'lab.png');
      await page.screenshot({ path: file });
      console.log(`wrote ${file}`);
      if (problems.length) throw new Error(problems.join('\n'));
    } catch (e) {
      failures++;
      console.error(`lab: ${e.message}`);
    } finally {
      await context.close();
    }
  }
  for (const { scenario, panels } of FIGURES) {
    if (only && !only.has(scenario)) continue;
    const { page, problems, context } = await openLab(browser, site.url, `s=${scenario}&speed=1000`);
    try {
      await runToEnd(page, 180000);
      for (const panel of panels) {
        const png = await page.evaluate((id) => window.__lab.exportPanel(id, 'png'), panel);
        const file = resolve(outDir, `${scenario}-${panel}.png`);
        writeFileSync(file, Buffer.from(png.replace(/^data:image\/png;base64,/, ''), 'base64'));
        console.log(`wrote ${file}`);
      }
      if (problems.length) throw new Error(problems.join('\n'));
    } catch (e) {
      failures++;
      console.error(`${scenario}: ${e.message}`);
    } finally {
      await context.close();
    }
  }
  // Real images (web/src/real/): the compare mode at the default settings (SPEC section 6), played to
  // its end; the accuracy curves, the |W_jk| histograms, the W heatmaps and a shot of the gallery.
  if (!panelsOnly && (!only || only.has('real-images'))) {
    const { page, problems, context } = await openLab(browser, site.url, 's=real-images&cmp=1', { viewport: { width: 1400, height: 900 } });
    try {
      await page.waitForFunction(() => window.__lab.real()?.loaded || window.__lab.real()?.message, null, { timeout: 60000 });
      const t0 = Date.now();
      await page.evaluate(() => window.__lab.realView().play());
      await page.waitForFunction(() => { const r = window.__lab.real(); return r.message || (r.done && r.runs.every((x) => x.analysis)); }, null, { timeout: 900000, polling: 500 });
      const r = await page.evaluate(() => window.__lab.real());
      if (r.message) throw new Error(r.message);
      console.log(`real-images (browser, compare mode, ${Math.round((Date.now() - t0) / 1000)} s): ${JSON.stringify(r.runs.map((x) => ({ p: x.p, seconds: x.seconds, ...x.last, histogram: undefined, analysis: x.analysis && { ...x.analysis, selection: undefined } })))}`);
      for (const panel of ['accuracy', 'hist', 'weights']) {
        const blob = await page.evaluate(async (id) => {
          const b = await window.__lab.realView().exportPanel(id);
          const buf = new Uint8Array(await b.arrayBuffer());
          let bin = ''; for (const x of buf) bin += String.fromCharCode(x);
          return btoa(bin);
        }, panel);
        const file = resolve(outDir, `real-images-${panel}.png`);
        writeFileSync(file, Buffer.from(blob, 'base64'));
        console.log(`wrote ${file}`);
      }
      // the gallery with the attention of each run (p = 1.1, 2, 3)
      for (const [k, p] of [[0, '1.1'], [1, '2'], [2, '3']]) {
        await page.selectOption('#real-focus', String(k));
        await page.evaluate(() => new Promise((res) => requestAnimationFrame(() => requestAnimationFrame(res))));
        const file = resolve(outDir, `real-images-gallery-p${p}.png`);
        await (await page.$('#real-panel-gallery')).screenshot({ path: file });
        console.log(`wrote ${file}`);
      }
      if (problems.length) throw new Error(problems.join('\n'));
    } catch (e) {
      failures++;
      console.error(`real-images: ${e.message}`);
    } finally {
      await context.close();
    }
  }
  const wanted = EXPERIMENT_FIGURES.filter((n) => !only || only.has(n));
  if (!panelsOnly && (wanted.length || !only || only.has('basin-map'))) {
    const { page, problems, context } = await openLab(browser, site.url, '', { viewport: { width: 1280, height: 900 } });
    try {
      await page.waitForFunction(() => window.__attnsvmExperiment, null, { timeout: 30000 });
      await page.evaluate(() => { document.querySelector('#experiment-panel details').open = true; });
      for (const name of wanted) {
        const summary = await page.evaluate((n) => window.__attnsvmExperiment.run({ name: n })
          .then((r) => ({ ms: Math.round(r.ms), workers: r.workers, settings: r.settings?.length ?? r.cells.length })), name);
        const file = resolve(outDir, `experiment-${name}.png`);
        // scrolled there first and settled: the lab's panels above draw as they come into view, and a
        // box measured before they did was shifted (a cut key under the last plot)
        const plots = await page.$('#experiment-panel .exp-plots');
        await plots.scrollIntoViewIfNeeded();
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
        await page.waitForTimeout(500);
        await plots.screenshot({ path: file });
        console.log(`wrote ${file} (${JSON.stringify(summary)})`);
      }
      if (!only || only.has('basin-map')) {
        const ms = await page.evaluate(() => window.__attnsvmExperiment.basin({ grid: 200 }).then((r) => Math.round(r.ms)));
        const file = resolve(outDir, 'basin-map.png');
        await (await page.$('#experiment-panel .exp-basin')).screenshot({ path: file });
        console.log(`wrote ${file} (200 x 200 starts in ${ms} ms)`);
      }
      if (problems.length) throw new Error(problems.join('\n'));
    } catch (e) {
      failures++;
      console.error(`experiments: ${e.message}`);
    } finally {
      await context.close();
    }
  }
} finally {
  await browser.close();
  await site.close();
}
process.exit(failures ? 1 : 0);
