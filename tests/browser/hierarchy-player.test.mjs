// Issue 40: the lab's hierarchy preset stepped by the lab's own player (lab/hierarchy-player.js,
// bound to the top bar by own-views.js): the two-layer run computed in one go, then its 41
// snapshots walked by play, step, pause and reset from the keyboard; the counter and the
// screen-reader announcements say where it is (the snapshot's numbers, the run's own); the curves
// grow a snapshot at a time; the buttons are the token runs' again on another preset.
// Run alone: node --test --test-concurrency=1 tests/browser/hierarchy-player.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser } from './harness.mjs';
import { serveLab, openLab, waitReady } from './lab-helpers.mjs';

let site, browser;
before(async () => { site = await serveLab(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await site?.close(); });

// points of the first curve of a layer's chart (its path's commands)
const points = (page, id) => page.evaluate((i) => {
  const p = [...document.querySelectorAll(`#hier-body-${i} path:not(.domain)`)].find((e) => /^M/.test(e.getAttribute('d') ?? ''));
  return p ? (p.getAttribute('d').match(/[ML]/g) ?? []).length : 0;
}, id);

test('hierarchy: play, step, pause and reset from the keyboard walk the snapshots; the counter and announcements say where', { timeout: 240000 }, async () => {
  const { page, context } = await openLab(browser, site.url, 's=hierarchy&seed=2&it=400', { viewport: { width: 1280, height: 1000 }, timeout: 120000 });
  try {
    await page.waitForFunction(() => window.__lab.hierarchy()?.numbers, null, { timeout: 120000 });
    const h = await page.evaluate(() => window.__lab.hierarchy().numbers);
    assert.deepEqual(h.iteration.slice(0, 4), [0, 10, 20, 30]);
    assert.equal(await points(page, 'layer1'), 1, 'the first snapshot only');
    // step three times with the keyboard (Enter on the focused Step button)
    await page.focus('#btn-step');
    for (let k = 0; k < 3; k++) await page.keyboard.press('Enter');
    const s = await page.evaluate(() => ({ h: window.__lab.hierarchy(), iter: document.getElementById('iter-out').textContent,
      said: document.querySelector('.fig-announce')?.textContent ?? '', label: document.getElementById('hier-body-layer1').getAttribute('aria-label'),
      readout: document.querySelector('#hier-body-readout table:not([aria-hidden])').textContent }));
    assert.equal(s.h.index, 3);
    assert.equal(s.iter, 'k = 30 / 400');
    assert.match(s.readout, /Seed 2 at k = 30 \(snapshot 4 of 41\)/, 'the snapshot said in the readout\'s caption');
    assert.match(s.said, /^Snapshot 4 of 41, k = 30 of 400: layer 1 selected softmax/);
    assert.ok(s.said.includes(h.series.softmax1[3].toFixed(4)), `the snapshot's own number said: ${s.said}`);
    assert.match(s.label, /at k = 30:/);
    assert.match(s.readout, /At the end/);
    assert.doesNotMatch(s.readout, /Picture holds/, 'the finals not shown before the end');
    assert.equal(await points(page, 'layer1'), 4, 'the curve grows a snapshot a step');
    // Space on Play: it plays; Space again: paused, and where it is said
    await page.focus('#btn-play');
    await page.keyboard.press('Space');
    await page.waitForFunction(() => window.__lab.hierarchy().index >= 6, null, { timeout: 20000 });
    await page.keyboard.press('Space');
    const p = await page.evaluate(() => ({ h: window.__lab.hierarchy(), said: document.querySelector('.fig-announce').textContent,
      lbl: document.querySelector('#btn-play .lbl').textContent, step: document.getElementById('btn-step').disabled }));
    assert.equal(p.h.playing, false);
    assert.equal(p.lbl, 'Play');
    assert.equal(p.step, false);
    assert.match(p.said, new RegExp(`^Paused\\. Snapshot ${p.h.index + 1} of 41, k = ${h.iteration[p.h.index]} of 400`));
    // on to the end: the finals, Done, the end said
    await page.keyboard.press('Space');
    await page.waitForFunction(() => window.__lab.hierarchy().done, null, { timeout: 30000 });
    const e = await page.evaluate(() => ({ lbl: document.querySelector('#btn-play .lbl').textContent, disabled: document.getElementById('btn-play').disabled,
      said: document.querySelector('.fig-announce').textContent, readout: document.getElementById('hier-body-readout').textContent }));
    assert.equal(e.lbl, 'Done');
    assert.ok(e.disabled);
    assert.match(e.said, /^The run ended\. Snapshot 41 of 41, k = 400 of 400/);
    assert.match(e.readout, /Picture holds/);
    assert.equal(await points(page, 'layer1'), 41);
    // Reset: the first snapshot again
    await page.focus('#btn-reset');
    await page.keyboard.press('Enter');
    assert.equal(await page.evaluate(() => window.__lab.hierarchy().index), 0);
    assert.equal(await points(page, 'layer1'), 1);
    // another preset: the top bar's buttons play its token run again
    await page.evaluate(() => window.__lab.set({ scenario: 'paths2d' }));
    await waitReady(page);
    await page.evaluate(() => document.getElementById('btn-step').click());
    await page.waitForFunction(() => window.__lab.iteration > 0, null, { timeout: 20000 });
    assert.equal(await page.evaluate(() => window.__lab.hierarchy().playing), false);
  } finally { await context.close(); }
});

test('hierarchy opened with autoplay: the player walks the snapshots by itself', { timeout: 180000 }, async () => {
  const { page, context } = await openLab(browser, site.url, 's=hierarchy&seed=2&it=400', { autoplay: true, timeout: 120000 });
  try {
    await page.waitForFunction(() => window.__lab.hierarchy()?.index >= 3, null, { timeout: 120000 });
    assert.match(await page.textContent('#iter-out'), /^k = \d+ \/ 400$/);
  } finally { await context.close(); }
});
