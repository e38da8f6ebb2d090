#!/usr/bin/env node
// Exports the figures of docs/RESULTS.md from the web lab itself, so the figures in the docs are the ones a
// reader sees on the page: for each scenario, open the built lab (dist/) in headless Chromium at the
// scenario's default state, play the run to its end, and save chosen panels through the lab's own
// PNG/SVG export (window.__lab.exportPanel). Needs `npm run build` first.
//
//   node scripts/export-figures.mjs [--out docs/figures] [--only local-convergence,rank]
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
  { scenario: 'overparam', panels: ['corr'] },
  { scenario: 'paths2d', panels: ['plane'] },
];

const { values } = parseArgs({ options: { out: { type: 'string', default: 'docs/figures' }, only: { type: 'string' } } });
const outDir = resolve(repoRoot, values.out);
const only = values.only ? new Set(values.only.split(',')) : null;
mkdirSync(outDir, { recursive: true });

const site = await serveLab();
const browser = await launchBrowser();
let failures = 0;
try {
  for (const { scenario, panels } of FIGURES) {
    if (only && !only.has(scenario)) continue;
    const { page, problems, context } = await openLab(browser, site.url, `scenario=${scenario}`);
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
} finally {
  await browser.close();
  await site.close();
}
process.exit(failures ? 1 : 0);
