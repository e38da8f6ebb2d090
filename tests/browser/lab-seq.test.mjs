// Issue 40 in the lab: the seq2seq and causal presets (each sequence's T x T attention in the
// current-softmax panel, n small matrices side by side, reserved before the first paint from the scenario's
// sizes and attention) and the two-layer hierarchy preset (one seed of `experiment hierarchy`
// through the experiment API). Per preset: it loads, draws no NaN, moves nothing while it loads
// (layout shift <= 0.005 after the parse, a desktop and a phone), and its URL state round-trips.
// Run alone: node --test --test-concurrency=1 tests/browser/lab-seq.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, openPage } from './harness.mjs';
import { serveLab, openLab, waitReady } from './lab-helpers.mjs';
import { layoutShifts, axeScan, PAGES } from './page-audit.mjs';
import { hierarchyReference, assertHierarchyNumbers } from './hierarchy-reference.mjs';

let site, browser;
before(async () => { site = await serveLab(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await site?.close(); });

const SIZES = { desktop: { width: 1280, height: 1080 }, phone: { width: 412, height: 823 } };
const BOUND = 0.005;

async function shiftsOf(hash) {
  const out = {};
  for (const [size, viewport] of Object.entries(SIZES)) {
    const r = await layoutShifts(browser, site.url, 'lab', { viewport, path: `index.html?autoplay=0#${hash}`, settleMs: 1000 });
    out[size] = r;
    console.log(`LAYOUT-SHIFT ${hash} ${size}: ${r.afterParse} after the parse (total ${r.total})${r.shifts.length ? ` largest ${JSON.stringify(r.shifts[0])}` : ''}`);
  }
  return out;
}

for (const [s, attention] of [['seq2seq', 'seq2seq'], ['causal', 'causal']]) {
  test(`${s}: loads, n T rows of T x T attention, no NaN, the panel's height kept from the first paint`, { timeout: 180000 }, async () => {
    const shifts = await shiftsOf(`s=${s}`);
    for (const [size, r] of Object.entries(shifts)) assert.ok(r.afterParse <= BOUND, `${s} ${size}: ${r.afterParse} ${JSON.stringify(r.shifts)}`);
    const { page, context } = await openLab(browser, site.url, `s=${s}`, { viewport: SIZES.desktop });
    try {
      await page.evaluate(() => window.__lab.step(200));
      await waitReady(page);
      const r = await page.evaluate(() => {
        const body = document.getElementById('body-current');
        return {
          title: document.getElementById('sc-title').textContent,
          attention: window.__lab.state.attention, dataset: window.__lab.dataset(), frame: window.__lab.lastFrame,
          plotted: window.__lab.plotted(), corr: window.__lab.correlations(),
          rows: getComputedStyle(body).getPropertyValue('--current-rows').trim(),
          cells: body.querySelectorAll('rect').length, height: body.getBoundingClientRect().height,
          items: body.querySelectorAll('g.item').length, minHeight: parseFloat(getComputedStyle(body).minHeight),
          svgHeight: Number(body.querySelector('svg')?.getAttribute('height')),
          sub: document.getElementById('sub-current').textContent,
        };
      });
      const n = r.dataset.X.length, T = r.dataset.X[0].length;
      assert.deepEqual([n, T], [4, 5]);
      assert.equal(r.frame.selected.length, n * T, 'a selection per (sequence, query) unit');
      assert.equal(r.rows, String(n * T), 'the panel reserves n T rows');
      assert.ok(r.plotted.finite, 'loss, norms, weights and corr finite');
      assert.ok(r.plotted.softmax.every(Number.isFinite), 'softmax finite');
      assert.ok(Object.values(r.corr).every((c) => c === null || Number.isFinite(c)), JSON.stringify(r.corr));
      assert.match(r.sub, /T x T block per sequence/);
      // compact: a small T x T matrix per sequence, side by side (the 20 rows stacked were ~846 px tall),
      // the reservation (lab.css) the drawing's height
      assert.equal(r.items, n, 'a matrix per sequence');
      assert.ok(r.height <= 260, `the panel is ${r.height} px tall`);
      assert.equal(r.minHeight, Math.max(126, r.svgHeight), `reserved ${r.minHeight} px, drawn ${r.svgHeight} px`);
      if (attention === 'causal') {
        // query k attends to t <= k: each sequence's T x T block lower triangular
        const sm = r.plotted.softmax.slice(-n * T * T);
        for (let u = 0; u < n * T; u++) for (let t = (u % T) + 1; t < T; t++) assert.ok(sm[u * T + t] < 1e-12, `unit ${u} token ${t}: ${sm[u * T + t]}`);
      }
      // the URL state round-trips: the link's n, T and seed give that run and are written back
      await page.evaluate(() => window.__lab.set({ seed: 3, n: 3, T: 4 }));
      await waitReady(page);
      const back = await page.evaluate(() => ({ hash: location.hash, state: window.__lab.state, X: window.__lab.dataset().X }));
      assert.equal(back.X.length, 3); assert.equal(back.X[0].length, 4);
      const q = new URLSearchParams(back.hash.slice(1));
      assert.deepEqual([q.get('s'), q.get('seed'), q.get('n'), q.get('T')], [s, '3', '3', '4']);
      // reopened from that link: the same state and data, the panel's reservation of 3 x 4 rows before any module
      const again = await openPage(browser, `${site.url}index.html?autoplay=0${back.hash}`, { viewport: SIZES.desktop });
      try {
        await waitReady(again.page);
        const a = await again.page.evaluate(() => ({ state: window.__lab.state, X: window.__lab.dataset().X,
          rows: getComputedStyle(document.documentElement).getPropertyValue('--current-rows').trim() }));
        assert.deepEqual(a.X, back.X);
        assert.deepEqual([a.state.scenario, a.state.seed, a.state.n, a.state.T], [s, 3, 3, 4]);
        assert.equal(a.rows, '12', 'prepaint.js: n T rows from the link\'s n and T');
      } finally { await again.context.close(); }
    } finally { await context.close(); }
  });
}

test('seq2seq and causal as embeds: the T x T attention and the convergence curve, no layout shift, bad panels named', { timeout: 120000 }, async () => {
  for (const s of ['seq2seq', 'causal']) {
    for (const [size, viewport] of Object.entries(SIZES)) {
      const pageId = 'embed';
      const r = await layoutShifts(browser, site.url, pageId, { viewport, path: `embed.html#s=${s}&autoplay=0` });
      console.log(`LAYOUT-SHIFT embed ${s} ${size}: ${r.afterParse} (total ${r.total})`);
      assert.ok(r.afterParse <= BOUND, `embed ${s} ${size}: ${r.afterParse} ${JSON.stringify(r.shifts)}`);
    }
    const { page, context } = await openPage(browser, `${site.url}embed.html#s=${s}&autoplay=0&panels=current,corr,nope`, { viewport: SIZES.desktop });
    try {
      await page.waitForFunction(() => window.__embed?.ready, null, { timeout: 60000 });
      await page.evaluate(() => window.__embed.play());
      await page.waitForFunction(() => window.__embed.info().iteration >= 100, null, { timeout: 60000 });
      await page.evaluate(() => window.__embed.pause());
      const r = await page.evaluate(() => ({
        panels: [...document.querySelectorAll('.af-panel')].map((p) => p.dataset.panel),
        rows: getComputedStyle(document.querySelector('.af-panel-current .af-body')).getPropertyValue('--current-rows').trim(),
        cells: document.querySelectorAll('.af-panel-current rect').length,
        note: document.querySelector('.af-panel-corr .af-note').textContent,
        problems: window.__embed.problems.map((p) => p.message),
      }));
      assert.deepEqual(r.panels, ['current', 'corr']);
      assert.equal(r.rows, '20');
      assert.ok(r.cells >= 100, `the 20 x 5 cells drawn (${r.cells} rects)`);
      assert.match(r.note, /corr = \d/);
      assert.doesNotMatch(r.note, /NaN/);
      assert.equal(r.problems.length, 1);
      assert.match(r.problems[0], /unknown panel "nope"/);
    } finally { await context.close(); }
  }
  // (the hierarchy's embed figure: tests/browser/hierarchy-embed.test.mjs)
});

// The view's numbers for one seed are the engine's (and so the CLI's: hierarchy-reference.mjs).

test('hierarchy: one seed of the experiment, both layers drawn, the engine\'s numbers, URL state round-trip, no layout shift', { timeout: 240000 }, async () => {
  const shifts = await shiftsOf('s=hierarchy&seed=2&it=400');
  for (const [size, r] of Object.entries(shifts)) assert.ok(r.afterParse <= BOUND, `hierarchy ${size}: ${r.afterParse} ${JSON.stringify(r.shifts)}`);
  const { page, context } = await openLab(browser, site.url, 's=hierarchy&seed=2&it=400', { viewport: SIZES.desktop, timeout: 120000 });
  try {
    // the top bar's player walks the snapshots: at the first one until played (autoplay=0)
    await page.waitForFunction(() => window.__lab.hierarchy()?.numbers, null, { timeout: 120000 });
    const atFirst = await page.evaluate(() => ({ h: window.__lab.hierarchy(), iter: document.getElementById('iter-out').textContent,
      playShown: !!document.getElementById('btn-play').getClientRects().length, playDisabled: document.getElementById('btn-play').disabled }));
    assert.equal(atFirst.h.index, 0);
    assert.equal(atFirst.h.count, 41);
    assert.equal(atFirst.iter, 'k = 0 / 400');
    assert.ok(atFirst.playShown && !atFirst.playDisabled, 'the player shown and enabled');
    await page.evaluate(() => document.getElementById('btn-play').click());
    await page.waitForFunction(() => window.__lab.hierarchy().done, null, { timeout: 60000 });
    const r = await page.evaluate(() => ({
      info: window.__lab.hierarchy(), hash: location.hash, view: document.documentElement.dataset.view,
      tokenShown: !!document.querySelector('.layout:not(.real-layout)').getClientRects().length,
      paths: ['layer1', 'layer2'].map((id) => [...document.querySelectorAll(`#hier-body-${id} path:not(.domain)`)].filter((p) => (p.getAttribute('d') ?? '').length > 20).length),
      readout: document.getElementById('hier-body-readout').textContent, status: document.getElementById('hier-status').textContent,
      seedInput: document.getElementById('hier-seed').value, itersInput: document.getElementById('hier-iters').value,
    }));
    assert.equal(r.view, 'hierarchy');
    assert.equal(r.tokenShown, false, 'the token panels are not shown');
    assert.equal(r.info.error, null);
    const h = r.info.numbers;
    assert.equal(h.seed, 2); assert.equal(h.iters, 400);
    assert.equal(h.iteration.length, 41);
    assert.ok(h.series.softmax1.every(Number.isFinite) && h.series.softmax2.every(Number.isFinite) && h.series.softmax2Set.every(Number.isFinite), 'softmax series finite');
    assert.ok(h.series.softmax1.at(-1) > h.series.softmax1[0], 'layer 1 sharpens');
    for (const k of ['corrW1Attended', 'corrW1All', 'corrW2']) assert.ok(h.series[k].some(Number.isFinite), `${k} drawn somewhere`);
    assert.deepEqual(r.paths, [3, 3], 'three curves per layer');
    assert.doesNotMatch(r.readout, /NaN|undefined/);
    assert.match(r.status, /Seed 2, 400 NGD steps, 41 snapshots: computed in .* play or step walks them/);
    assert.deepEqual([r.seedInput, r.itersInput], ['2', '400']);
    assertHierarchyNumbers(h, await hierarchyReference({ seed: 2, iters: 400 }), 'lab', ['softmax1']);
    // the seed typed in the view: a new run, written to the link; a bad value said, the run kept
    await page.fill('#hier-seed', '-1');
    await page.dispatchEvent('#hier-seed', 'change');
    assert.match(await page.textContent('#hier-status'), /Not applied: The seed must be between 0/);
    assert.equal((await page.evaluate(() => window.__lab.hierarchy().numbers.seed)), 2);
    await page.fill('#hier-seed', '5');
    await page.dispatchEvent('#hier-seed', 'change');
    await waitReady(page, 120000);
    await page.waitForFunction(() => window.__lab.hierarchy()?.numbers?.seed === 5, null, { timeout: 120000 });
    const q = new URLSearchParams((await page.evaluate(() => location.hash)).slice(1));
    assert.deepEqual([q.get('s'), q.get('seed'), q.get('it')], ['hierarchy', '5', '400']);
    // to another preset and back: the token panels, then the view again
    await page.evaluate(() => window.__lab.set({ scenario: 'seq2seq' }));
    await waitReady(page);
    assert.equal(await page.evaluate(() => document.documentElement.dataset.view ?? null), null);
    assert.ok(await page.evaluate(() => !!document.getElementById('body-current').getClientRects().length));
    assert.equal(await page.evaluate(() => document.querySelector('[data-own-view="hierarchy"]').hidden), true);
  } finally { await context.close(); }
});

// axe-core on the new presets' pages (the lab's seq2seq and hierarchy views, a causal embed), light and
// dark, and on a phone: the audit's pages (page-audit.mjs) with these links.
test('axe-core: no violation on the seq2seq and hierarchy presets and a causal embed', { timeout: 300000 }, async () => {
  const labReady = PAGES.lab.ready;
  Object.assign(PAGES, {
    'lab-seq2seq': { path: 'index.html?autoplay=0#s=seq2seq', ready: labReady },
    'lab-hierarchy': { path: 'index.html?autoplay=0#s=hierarchy&it=200', ready: labReady },
    'embed-causal': { path: 'embed.html#s=causal&autoplay=0', darkHash: '&theme=dark', ready: PAGES.embed.ready },
  });
  const bad = [];
  try {
    for (const id of ['lab-seq2seq', 'lab-hierarchy', 'embed-causal']) {
      for (const [theme, viewport] of [['light', undefined], ['dark', undefined], ['light', SIZES.phone]]) {
        const v = await axeScan(browser, site.url, id, theme, viewport ? { viewport } : {});
        if (v.length) bad.push(`${id} ${theme}${viewport ? ' phone' : ''}: ${v.map((x) => `${x.id} (${x.impact}: ${x.targets.join(', ')})`).join('; ')}`);
      }
    }
  } finally {
    for (const id of ['lab-seq2seq', 'lab-hierarchy', 'embed-causal']) delete PAGES[id];
  }
  assert.deepEqual(bad, []);
});
