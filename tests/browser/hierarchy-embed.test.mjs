// Issue 40: the two-layer hierarchy as an embedded figure (embed/hierarchy-figure.js), in the iframe
// (embed.html#s=hierarchy) and as <attnsvm-figure scenario="hierarchy"> (its code a script of its
// own next to the element's: embed/figure-scripts.js). Per form: the engine's numbers for the seed
// (seed 2, 400 steps, within 1e-9, as the lab's view; the engine is the CLI's: hierarchy-reference.mjs),
// the player walking the 41 snapshots (the curves grow; the finals at the end), no layout
// shift while it loads and plays (<= 0.005, desktop and phone), paused when scrolled out of view.
// Run alone: node --test --test-concurrency=1 tests/browser/hierarchy-embed.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, openPage } from './harness.mjs';
import { serveLab } from './lab-helpers.mjs';
import { layoutShifts } from './page-audit.mjs';
import { hierarchyReference, assertHierarchyNumbers } from './hierarchy-reference.mjs';

let site, browser;
before(async () => { site = await serveLab(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await site?.close(); });

const SIZES = { desktop: { width: 1280, height: 1080 }, phone: { width: 412, height: 823 } };
const BOUND = 0.005;
const HASH = 's=hierarchy&seed=2&it=400';

// The figure's numbers against the engine's (finals, the softmax and corr series, layer 2's selection).
async function assertEngineNumbers(h, who) {
  assert.equal(h.seed, 2); assert.equal(h.iters, 400); assert.equal(h.iteration.length, 41);
  assertHierarchyNumbers(h, await hierarchyReference({ seed: 2, iters: 400 }), who);
}

// The drawn curves of a panel body: paths with more than a point.
const drawnCurves = (root, id) => [...root.querySelectorAll(`.af-panel-${id} path:not(.domain)`)].filter((p) => (p.getAttribute('d') ?? '').length > 20).length;

test('iframe embed of s=hierarchy: the engine\'s numbers, played snapshot by snapshot, no layout shift', { timeout: 240000 }, async () => {
  for (const [size, viewport] of Object.entries(SIZES)) {
    const r = await layoutShifts(browser, site.url, 'embed', { viewport, path: `embed.html#${HASH}`, settleMs: 7000 });
    console.log(`LAYOUT-SHIFT embed hierarchy ${size} (playing): ${r.afterParse} (total ${r.total})`);
    assert.ok(r.afterParse <= BOUND, `embed hierarchy ${size}: ${r.afterParse} ${JSON.stringify(r.shifts)}`);
  }
  const { page, context } = await openPage(browser, `${site.url}embed.html#${HASH}&autoplay=0`, { viewport: SIZES.desktop });
  try {
    await page.waitForFunction(() => window.__embed?.ready || window.__embed?.info()?.error, null, { timeout: 120000 });
    const first = await page.evaluate(() => ({ info: window.__embed.info(), problems: window.__embed.problems.map((p) => p.message),
      panels: [...document.querySelectorAll('.af-panel')].map((p) => p.dataset.panel), iter: document.querySelector('.af-iter').textContent }));
    assert.equal(first.info.error, null);
    assert.deepEqual(first.problems, []);
    assert.deepEqual(first.panels, ['layer1', 'layer2', 'finals']);
    assert.equal(first.info.snapshot, 0);
    assert.equal(first.iter, 'k = 0 / 400');
    await assertEngineNumbers(first.info.numbers, 'iframe');
    // played: the snapshots walked one by one, the curves grow, the finals at the end
    await page.evaluate(() => window.__embed.play());
    await page.waitForFunction(() => window.__embed.info().snapshot >= 5, null, { timeout: 30000 });
    const mid = await page.evaluate(() => ({ info: window.__embed.info(), finals: document.querySelector('.af-panel-finals table:not([aria-hidden])').textContent }));
    assert.ok(mid.info.snapshot < 40, 'not at the end yet');
    assert.doesNotMatch(mid.finals, /Picture holds/);
    await page.waitForFunction(() => window.__embed.info().done, null, { timeout: 60000 });
    const end = await page.evaluate((f) => ({ info: window.__embed.info(), finals: document.querySelector('.af-panel-finals table:not([aria-hidden])').textContent,
      curves: ['layer1', 'layer2'].map((id) => eval(f)(document, id)), iter: document.querySelector('.af-iter').textContent,
      play: document.querySelector('.af-primary').textContent }), drawnCurves.toString());
    assert.equal(end.info.snapshot, 40);
    assert.equal(end.info.playing, false);
    assert.deepEqual(end.curves, [3, 3], 'three curves per layer');
    assert.match(end.finals, /Picture holds/);
    assert.doesNotMatch(end.finals, /NaN|undefined/);
    assert.equal(end.iter, 'k = 400 / 400');
    assert.match(end.play, /Done/);
    // reset: back to the first snapshot
    await page.evaluate(() => window.__embed.reset());
    assert.equal(await page.evaluate(() => window.__embed.info().snapshot), 0);
  } finally { await context.close(); }
});

test('<attnsvm-figure scenario="hierarchy">: the same numbers, its code a script of its own, paused offscreen', { timeout: 240000 }, async () => {
  // a plain page of the site's folder (served by the browser's router) with the element below a tall paragraph
  const context = await browser.newContext({ viewport: SIZES.desktop });
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>x</title></head><body>
<p style="height:1400px">Text above the figure.</p>
<attnsvm-figure id="h" scenario="hierarchy" state="seed=2&amp;it=400"></attnsvm-figure>
<p style="height:2400px">Text below.</p>
<script src="attnsvm-figure.js"></script></body></html>`;
  await context.route(`${site.url}hier-element.html`, (route) => route.fulfill({ body: html, contentType: 'text/html' }));
  const page = await context.newPage();
  const requests = [];
  page.on('request', (r) => requests.push(new URL(r.url()).pathname));
  try {
    await page.goto(`${site.url}hier-element.html`);
    await page.evaluate(() => document.getElementById('h').scrollIntoView({ block: 'center' }));
    await page.waitForFunction(() => document.getElementById('h').info()?.ready || document.getElementById('h').info()?.error, null, { timeout: 120000 });
    const info = await page.evaluate(() => document.getElementById('h').info());
    assert.equal(info.error, null);
    assert.deepEqual(await page.evaluate(() => document.getElementById('h').problems), []);
    await assertEngineNumbers(info.numbers, 'element');
    assert.ok(requests.some((p) => p.endsWith('/attnsvm-figure-hierarchy.js')), `the hierarchy script fetched: ${requests.join(' ')}`);
    // in view: it plays by itself; scrolled away: it pauses, and resumes when back
    await page.waitForFunction(() => document.getElementById('h').info().snapshot >= 3, null, { timeout: 30000 });
    await page.evaluate(() => scrollTo(0, 0));
    await page.waitForFunction(() => !document.getElementById('h').playing, null, { timeout: 10000 });
    const held = await page.evaluate(() => document.getElementById('h').info().snapshot);
    await page.waitForTimeout(800);
    assert.equal(await page.evaluate(() => document.getElementById('h').info().snapshot), held, 'offscreen: no snapshot walked');
    assert.ok(held < 40);
    await page.evaluate(() => document.getElementById('h').scrollIntoView({ block: 'center' }));
    await page.waitForFunction(() => document.getElementById('h').info().done, null, { timeout: 60000 });
    const curves = await page.evaluate((f) => ['layer1', 'layer2'].map((id) => eval(f)(document.getElementById('h').shadowRoot, id)), drawnCurves.toString());
    assert.deepEqual(curves, [3, 3]);
  } finally { await context.close(); }
});
