#!/usr/bin/env node
// Screenshots to look at (issue 24): the four public pages at desktop (1400 x 900) and phone (390 x 844)
// sizes, the iframe embed at embed sizes (720 and 360 px wide), light and dark, the reveal.js deck's two
// figure slides, plus the lecture-notes
// example printed to PDF (Chromium) and its pages rendered to PNG (pdftoppm, Debian's poppler-utils).
// Also the lab's first paint (its modules blocked: the HTML and its inline first-paint script only), to
// see the reserved frame.
// Needs the site build. Output: artifacts/look/*.png and notes.pdf.
//
//   node scripts/look.mjs [--only lab,embed,real,notes,print,shell,slides]
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { execFileSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { launchBrowser, repoRoot } from '../tests/browser/harness.mjs';
import { serveLab } from '../tests/browser/lab-helpers.mjs';
import { PAGES, scrollThrough } from '../tests/browser/page-audit.mjs';

const { values } = parseArgs({ options: { only: { type: 'string', default: 'lab,embed,real,notes,print,shell,slides' } } });
const only = new Set(values.only.split(','));
const out = resolve(repoRoot, 'artifacts/look');
mkdirSync(out, { recursive: true });
const SIZES = { desktop: { width: 1400, height: 900 }, phone: { width: 390, height: 844 } };

const site = await serveLab();
const browser = await launchBrowser();
const shots = [];
async function shot(name, path, { viewport, theme = 'light', fullPage = false, wait = PAGES.lab.ready, modules = true, settle = 600 } = {}) {
  const context = await browser.newContext({ viewport, colorScheme: theme, reducedMotion: 'reduce' });
  const page = await context.newPage();
  if (!modules) await page.route(/\/assets\/.*\.js$/, (route) => route.abort());
  await page.goto(site.url + path);
  if (modules && wait) await page.waitForFunction(wait, null, { timeout: 90000, polling: 100 });
  await page.waitForTimeout(settle);
  const file = resolve(out, `${name}.png`);
  await page.screenshot({ path: file, fullPage });
  shots.push(file);
  await context.close();
}

try {
  for (const theme of ['light', 'dark']) {
    for (const [size, viewport] of Object.entries(SIZES)) {
      if (only.has('lab')) await shot(`lab-${size}-${theme}`, 'index.html#s=paths2d', { viewport, theme });
      if (only.has('real')) await shot(`real-${size}-${theme}`, PAGES.real.path, { viewport, theme, wait: PAGES.real.ready, settle: 1500 });
      if (only.has('notes')) await shot(`notes-${size}-${theme}`, PAGES.notes.path, { viewport, theme, wait: null, settle: 1500 });
      if (only.has('shell')) await shot(`shell-${size}-${theme}`, 'index.html#s=local-convergence', { viewport, theme, modules: false });
    }
    if (only.has('embed')) {
      for (const width of [720, 360]) {
        const hash = `${PAGES.embed.path}${theme === 'dark' ? PAGES.embed.darkHash : ''}`;
        await shot(`embed-${width}-${theme}`, hash, { viewport: { width, height: 560 }, theme, wait: PAGES.embed.ready, fullPage: true });
      }
    }
  }
  if (only.has('slides')) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${site.url}examples/slides.html`);
    await page.waitForFunction(() => window.__deck?.isReady());
    for (const [h, ready] of [[1, () => document.getElementById('fig-paths').contentWindow?.__embed?.ready], [3, () => document.getElementById('fig-local').ready]]) {
      await page.evaluate((n) => window.__deck.slide(n), h);
      await page.waitForFunction(ready, null, { timeout: 60000 });
      await page.waitForTimeout(2500);
      const file = resolve(out, `slides-${h + 1}.png`);
      await page.screenshot({ path: file });
      shots.push(file);
    }
    await context.close();
  }
  if (only.has('print')) {
    const context = await browser.newContext({ viewport: { width: 1000, height: 800 }, reducedMotion: 'reduce' });
    const page = await context.newPage();
    await page.goto(site.url + PAGES.notes.path);
    await scrollThrough(page);
    await page.waitForFunction(PAGES.notes.ready, null, { timeout: 90000, polling: 100 });
    const pdf = resolve(out, 'notes.pdf');
    await page.pdf({ path: pdf, format: 'A4', tagged: true, margin: { top: '15mm', bottom: '15mm', left: '15mm', right: '15mm' } });
    execFileSync('pdftoppm', ['-r', '60', '-png', pdf, resolve(out, 'notes-pdf')]);
    shots.push(`${pdf} (pages: notes-pdf-*.png)`);
    await context.close();
  }
} finally {
  await browser.close();
  await site.close();
}
console.log(shots.join('\n'));
