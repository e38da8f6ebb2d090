// Print (issue 24): the lecture-notes example printed to PDF with Chromium (what students do before an
// exam) holds each figure as a picture of its state at that moment, with the link to the live figure;
// the lab and a lone iframe embed print their panels likewise (the lab also its formulas, SVG named by
// the spoken formula: scripts/tex-svg.mjs). Pictures are <img>s made on beforeprint
// (access/figure-access.js); a tagged PDF names each as a /Figure with its alt text, the text
// alternative of the figure (what it shows, with the iteration), which is how this test finds them
// (tests/browser/pdf-inspect.mjs). Chromium's tagged PDF leaves out the structure of iframes, so
// the notes' iframe figures are checked in their frames (each made its pictures on beforeprint) and
// an iframe embed is also printed alone. The pages are rendered to PNG (pdftoppm, Debian's
// poppler-utils) into artifacts/print/ to be looked at.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { launchBrowser, openPage, repoRoot, waitFiguresSettled } from './harness.mjs';
import { serveLab, waitReady, waitReal } from './lab-helpers.mjs';
import { scrollThrough, PAGES } from './page-audit.mjs';
import { figureAlts } from './pdf-inspect.mjs';
import { SCENARIO_INFO } from '../../web/src/lab/scenarios.js';
import { texToSpeech } from '../../scripts/tex-svg.mjs';

const outDir = resolve(repoRoot, 'artifacts/print');
let site, browser;
before(async () => {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  site = await serveLab();
  browser = await launchBrowser();
});
after(async () => { await browser?.close(); await site?.close(); });

const A4 = { format: 'A4', tagged: true, margin: { top: '12mm', bottom: '12mm', left: '12mm', right: '12mm' } };
function toPng(pdf, prefix) {
  execFileSync('pdftoppm', ['-r', '50', '-png', pdf, resolve(outDir, prefix)]);
  const pages = readdirSync(outDir).filter((f) => f.startsWith(`${prefix}-`) && f.endsWith('.png'));
  for (const p of pages) assert.ok(statSync(resolve(outDir, p)).size > 3000, `${p} is not blank`);
  return pages;
}
const pdfText = (pdf) => execFileSync('pdftotext', ['-layout', pdf, '-']).toString();
// the share of the first page's pixels darker than a quarter of white (pdftoppm's grey PGM, 20 dpi)
function darkShare(pdf) {
  const pgm = execFileSync('pdftoppm', ['-r', '20', '-gray', '-f', '1', '-l', '1', pdf]);
  const header = pgm.toString('latin1', 0, 40).match(/^P5\s+(\d+)\s+(\d+)\s+255\s/);
  const pixels = pgm.subarray(header[0].length);
  let dark = 0;
  for (const v of pixels) if (v < 64) dark++;
  return dark / pixels.length;
}

test('the lecture notes print every figure as a picture of its current state, with its link', { timeout: 150000 }, async () => {
  const { page, context, problems } = await openPage(browser, `${site.url}examples/lecture-notes.html`, { viewport: { width: 1000, height: 800 } });
  await scrollThrough(page);
  await page.waitForFunction(PAGES.notes.ready, null, { timeout: 90000, polling: 100 });
  // let each figure run a little (until each has taken a step), then pause them all and wait until none
  // has a frame in flight: the print shows that state
  const figures = () => [...document.querySelectorAll('iframe')].map((f) => f.contentWindow.__embed).concat([...document.querySelectorAll('attnsvm-figure')]);
  await page.evaluate(`(${figures})().forEach((f) => f.play())`);
  await page.waitForFunction(`(${figures})().every((f) => f.info().iteration > 0)`, null, { timeout: 30000 });
  await page.evaluate(`(${figures})().forEach((f) => f.pause())`);
  await waitFiguresSettled(page, figures);
  const element = await page.evaluate(() => { const e = document.querySelector('attnsvm-figure'); return { k: e.iteration, panels: e.info().panels }; });
  const frames = page.frames().filter((f) => /embed\.html#/.test(f.url()));
  assert.equal(frames.length, 2);
  const frameK = await Promise.all(frames.map((f) => f.evaluate(() => ({ k: window.__embed.info().iteration, panels: window.__embed.info().panels }))));
  assert.ok(element.k > 0 && frameK.every((f) => f.k > 0), `the figures ran: ${element.k}, ${frameK.map((f) => f.k)}`);

  const pdf = resolve(outDir, 'lecture-notes.pdf');
  await page.pdf({ path: pdf, ...A4 });
  // the element's panels: /Figure elements whose alt text is the panel's state at print time
  const alts = figureAlts(await import('node:fs').then((fs) => fs.readFileSync(pdf)));
  assert.equal(alts.length, element.panels.length, `one picture per panel of the element: ${JSON.stringify(alts)}`);
  for (const alt of alts) assert.match(alt, new RegExp(`(iterations 0 to ${element.k}|k = ${element.k} of 2000)`), alt);
  assert.ok(alts.some((a) => /^Softmax of every token/.test(a) && /sequence 0 selects token \d|no token selected yet/.test(a)), alts.join(' | '));
  assert.ok(alts.some((a) => /^Direction: 1 − corr/.test(a) && /correlation with the Frobenius SVM direction 0\.\d+/.test(a)), alts.join(' | '));
  // the iframes made their pictures on beforeprint, of their state then
  for (const [i, f] of frames.entries()) {
    const made = await f.evaluate(() => globalThis.__attnsvmPrint);
    assert.equal(made?.prints, 1, `${f.url()}: printed once`);
    assert.equal(made.pictures, frameK[i].panels.length, `${f.url()}: a picture per panel`);
  }
  // the live figures are back after printing
  assert.equal(await page.evaluate(() => document.querySelector('attnsvm-figure').shadowRoot.querySelectorAll('.fig-print').length), 0);
  // each figure's link is written out
  const text = pdfText(pdf);
  for (const s of ['#s=paths2d', '#s=local-convergence', '#s=mirror-descent']) assert.ok(text.includes(s), `the PDF shows the link ${s}`);
  const pages = toPng(pdf, 'lecture-notes');
  assert.ok(pages.length >= 4, `${pages.length} pages`);
  assert.deepEqual(problems, []);
  await context.close();
});

// The figures start near the view or in the background a few seconds after the load (one at a time:
// web/src/embed/start-queue.js), and the notes load their lazy iframes then: a student who prints at
// once gets each figure's address, one who prints a few seconds later every figure, without scrolling.
// (The notes load their iframes and the element's script near the view, or all of them 8 s after the
// load: the element then starts in the background 8 s after its script ran.)
test('the lecture notes printed without scrolling: at once the figures\' addresses, seconds later every figure', { timeout: 150000 }, async () => {
  const { page, context, problems } = await openPage(browser, `${site.url}examples/lecture-notes.html`, { viewport: { width: 1000, height: 800 } });
  const early = resolve(outDir, 'lecture-notes-at-once.pdf');
  // (the notes load the element's script only near the view or once idle: at load it is not even defined,
  // and prints its address from its light DOM)
  assert.notEqual(await page.evaluate(() => document.querySelector('attnsvm-figure').ready), true, 'the element has not started at load');
  await page.pdf({ path: early, ...A4 });
  assert.match(pdfText(early).replace(/\s+/g, ' '), /This live figure had not started when the page was printed/);
  assert.equal(await page.evaluate(() => document.querySelector('attnsvm-figure').shadowRoot?.querySelectorAll('.fig-print').length ?? 0), 0);

  // no scrolling: every figure (the lazy iframes too) starts in the background and is printed
  await page.waitForFunction(PAGES.notes.ready, null, { timeout: 90000, polling: 200 });
  assert.equal(await page.evaluate(() => scrollY), 0, 'not scrolled');
  const element = await page.evaluate(() => { const e = document.querySelector('attnsvm-figure'); return { k: e.iteration, started: e.started, panels: e.info().panels }; });
  assert.equal(element.started, false, 'started in the background, not playing');
  const pdf = resolve(outDir, 'lecture-notes-unscrolled.pdf');
  await page.pdf({ path: pdf, ...A4 });
  const alts = figureAlts(await import('node:fs').then((fs) => fs.readFileSync(pdf)));
  assert.equal(alts.length, element.panels.length, `one picture per panel of the element: ${JSON.stringify(alts)}`);
  for (const alt of alts) assert.match(alt, /(iterations 0 to 0|k = 0 of 2000)/, alt);
  const frames = page.frames().filter((f) => /embed\.html#/.test(f.url()));
  assert.equal(frames.length, 2);
  for (const f of frames) {
    const [made, panels] = await f.evaluate(() => [globalThis.__attnsvmPrint, window.__embed.info().panels.length]);
    assert.equal(made?.pictures, panels, `${f.url()}: a picture per panel`);
  }
  assert.doesNotMatch(pdfText(pdf), /had not started/);
  toPng(pdf, 'lecture-notes-unscrolled');
  assert.deepEqual(problems, []);
  await context.close();
});

test('an iframe embed alone and the lab print their panels as pictures, in the light theme', { timeout: 120000 }, async () => {
  // the embed page in the dark theme: printed light (paper), its two panels as /Figure
  const { page, context, problems } = await openPage(browser, `${site.url}embed.html#s=paths2d&panels=plane,corr&theme=dark&autoplay=0`, { viewport: { width: 720, height: 700 } });
  await page.waitForFunction(() => window.__embed?.ready);
  await page.evaluate(() => window.__embed.play());
  await page.waitForFunction(() => window.__embed.info().iteration >= 100);
  await page.evaluate(() => window.__embed.pause());
  const k = await page.evaluate(() => window.__embed.info().iteration);
  const pdf = resolve(outDir, 'embed.pdf');
  await page.pdf({ path: pdf, ...A4 });
  const alts = figureAlts(await import('node:fs').then((fs) => fs.readFileSync(pdf)));
  assert.equal(alts.length, 2, JSON.stringify(alts));
  assert.match(alts[0], new RegExp(`^Token plane\\. 2 sequences of 3 tokens in 2 dimensions\\. At k = ${k} of 2000: sequence 0 selects token \\d`));
  assert.ok(pdfText(pdf).includes('index.html#s=paths2d'), 'the link to the live figure is printed');
  toPng(pdf, 'embed');
  // on paper the light theme: the dark panels (a quarter of the page) would be dark pixels
  assert.ok(darkShare(pdf) < 0.05, `the embed printed light (dark pixels: ${darkShare(pdf).toFixed(3)})`);
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark', 'the theme is back after printing');
  assert.deepEqual(problems, []);
  await context.close();

  // the lab, dark: every drawn panel as a picture (the readout is text), the lab's link once
  const lab = await openPage(browser, `${site.url}?autoplay=0#s=local-convergence`, { viewport: { width: 1280, height: 900 }, colorScheme: 'dark' });
  await waitReady(lab.page);
  for (let k = 30; k <= 300; k += 30) {  // ten frames: ten points of each curve
    await lab.page.evaluate(() => window.__lab.step(30));
    await lab.page.waitForFunction((n) => window.__lab.iteration >= n && !window.__lab.busy, k);
  }
  await lab.page.waitForFunction(() => document.querySelector('#sc-formulas svg'));  // the formulas (put in after the first frame)
  const labPdf = resolve(outDir, 'lab.pdf');
  await lab.page.pdf({ path: labPdf, ...A4 });
  const printed = figureAlts(await import('node:fs').then((fs) => fs.readFileSync(labPdf)));
  // the scenario's formulas print (SVG pictures named by the spoken formula), then the panels
  const spoken = await Promise.all(SCENARIO_INFO['local-convergence'].formulas.map((tex) => texToSpeech(tex)));
  assert.deepEqual(printed.slice(0, spoken.length), spoken, 'the formulas, as pictures');
  const labAlts = printed.slice(spoken.length);
  assert.equal(labAlts.length, 7, labAlts.map((a) => a.slice(0, 40)).join(' | '));
  assert.ok(labAlts.every((a) => /300/.test(a)), 'each says the iteration it shows');
  const labText = pdfText(labPdf);
  assert.match(labText, /The live lab: http:\/\/127\.0\.0\.1:\d+\/\?autoplay=0#s=local-convergence/);
  assert.equal(await lab.page.evaluate(() => document.documentElement.dataset.theme), 'dark', 'the theme is back after printing');
  toPng(labPdf, 'lab');
  assert.deepEqual(lab.problems, []);
  await lab.context.close();
});

test('the real-images view prints its panels across the page as pictures, with its link', { timeout: 180000 }, async () => {
  const { page, context, problems } = await openPage(browser, `${site.url}?autoplay=0#s=real-images&ntr=200&nte=200&it=60&opt=nmd&p=2`, { viewport: { width: 1280, height: 900 } });
  await waitReal(page);
  await page.evaluate(() => window.__lab.realView().play());
  await waitReal(page, 'done', 150000);
  // on paper the panels take the page's width, one under the other (the view's own grid put them in
  // the controls' 290 px column, its table cut at the right)
  await page.emulateMedia({ media: 'print' });
  const widths = await page.evaluate(() => ({
    body: document.body.getBoundingClientRect().width,
    summary: document.getElementById('real-panel-summary').getBoundingClientRect().width,
    table: document.querySelector('#real-body-summary table')?.scrollWidth ?? 0,
    tableBox: document.getElementById('real-body-summary').clientWidth,
    buttons: [...document.querySelectorAll('#real-images button')].filter((b) => b.getClientRects().length).map((b) => b.textContent.trim()),
  }));
  await page.emulateMedia({ media: null });
  assert.ok(widths.summary > 0.9 * widths.body, `the summary panel spans the page (${widths.summary} of ${widths.body} px)`);
  assert.ok(widths.table > 0 && widths.table <= widths.tableBox + 1, `the summary table fits its panel (${widths.table} in ${widths.tableBox} px)`);
  assert.deepEqual(widths.buttons, [], 'no buttons on paper');
  const pdf = resolve(outDir, 'real.pdf');
  await page.pdf({ path: pdf, ...A4 });
  const all = figureAlts(await import('node:fs').then((fs) => fs.readFileSync(pdf)));
  // The study, ladder and phase diagram open drawn from the native results (issue 41) and print as
  // pictures too, each saying it is the CLI's result; the run's panels are the others.
  const native = all.filter((a) => a.includes('Native result (computed by the CLI'));
  const alts = all.filter((a) => !native.includes(a));
  assert.equal(native.length, 3, `the native study, ladder and phase diagram as pictures: ${all.map((a) => a.slice(0, 60)).join(' | ')}`);
  // (the gallery, the four curves, the histogram and W, each saying what it shows at k = 60)
  assert.equal(alts.length, 7, `the panels as pictures: ${alts.map((a) => a.slice(0, 40)).join(' | ')}`);
  assert.match(alts[0], /^Test images and where attention looks\. 24 test images of Sneaker and Ankle boot .*\(p = 2, k = 60 of 60\): \d+ of 24 classified correctly/);
  assert.ok(alts.every((a) => /k = 60 of 60/.test(a)), 'each says the iteration it shows');
  const text = pdfText(pdf);
  assert.match(text, /The live lab: http:\/\/127\.0\.0\.1:\d+\/\?autoplay=0#s=real-images/);
  assert.match(text, /sparsity/);
  toPng(pdf, 'real');
  assert.deepEqual(problems, []);
  await context.close();
});
