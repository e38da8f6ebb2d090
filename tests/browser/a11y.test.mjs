// The four public pages read to everyone (issue 24): axe-core finds no violation on the lab, the
// iframe embed, the real-images scenario and the lecture-notes example, in the light and the dark
// theme (and on a phone for the pages whose layout changes most); every figure's text alternative
// says what it shows now (the iteration, the selected tokens, the correlation), and the run is
// announced politely (at its end, not on every frame).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, openPage, waitFiguresSettled } from './harness.mjs';
import { serveLab, waitReady, frames } from './lab-helpers.mjs';
import { axeScan, PAGES } from './page-audit.mjs';

let site, browser;
before(async () => { site = await serveLab(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await site?.close(); });

const PHONE = { width: 390, height: 844 };
const show = (v) => v.map((x) => `${x.id} (${x.impact}, ${x.nodes} in ${x.frame}: ${x.targets.join(', ')})`).join('; ');

for (const id of Object.keys(PAGES)) {
  test(`axe-core: no violation on ${id}, light and dark`, { timeout: 150000 }, async () => {
    for (const theme of ['light', 'dark']) {
      const v = await axeScan(browser, site.url, id, theme);
      assert.equal(v.length, 0, `${id} ${theme}: ${show(v)}`);
    }
    if (id === 'lab' || id === 'notes') {
      const v = await axeScan(browser, site.url, id, 'light', { viewport: PHONE });
      assert.equal(v.length, 0, `${id} phone: ${show(v)}`);
    }
  });
}

// A figure's accessible name: the text its aria-labelledby points to.
const names = (page, sel) => page.evaluate((s) => [...document.querySelectorAll(s)].map((host) => ({
  id: host.id, role: host.getAttribute('role'),
  name: host.getAttribute('aria-labelledby')?.split(' ').map((i) => document.getElementById(i)?.textContent ?? '').join(' ') ?? '',
})), sel);

test('the lab\'s figures say what they show now; the run is announced once, when it ends', { timeout: 90000 }, async () => {
  const { page, context, problems } = await openPage(browser, `${site.url}?autoplay=0#s=paths2d&speed=50`);
  await waitReady(page);
  for (let k = 0; k < 6; k++) {
    await page.evaluate(() => window.__lab.step());
    await page.waitForFunction((n) => window.__lab.iteration >= n && !window.__lab.busy, 50 * (k + 1));
  }
  await page.evaluate(() => window.__lab.redraw());
  const now = await page.evaluate(() => ({ k: window.__lab.iteration, corr: window.__lab.correlations().fro, sel: window.__lab.lastFrame.selected }));
  const figs = await names(page, '.panel .body[aria-labelledby]');
  assert.deepEqual(figs.map((f) => f.id).sort(), ['body-corr', 'body-current', 'body-norms', 'body-plane', 'body-softmax', 'body-spectrum', 'body-weights']);
  const byId = Object.fromEntries(figs.map((f) => [f.id, f]));
  assert.equal(byId['body-plane'].role, 'group', 'the token plane holds focusable tokens: a group');
  assert.ok(figs.filter((f) => f.id !== 'body-plane').every((f) => f.role === 'img'));
  const plane = byId['body-plane'].name;
  assert.match(plane, new RegExp(`^Token plane\\. 2 sequences of 3 tokens in 2 dimensions\\. At k = ${now.k} of 2000: sequence 0 selects token ${now.sel[0]} \\(softmax 0\\.\\d+\\); sequence 1 selects token ${now.sel[1]}`), plane);
  const corr = String(Number(now.corr.toPrecision(5)));
  assert.ok(plane.includes(`Frobenius SVM direction ${corr}`), `the plane's name has the correlation ${corr}: ${plane}`);
  assert.ok(byId['body-corr'].name.includes(`Frobenius SVM direction ${corr}`), byId['body-corr'].name);
  assert.match(byId['body-norms'].name, new RegExp(`iterations 0 to ${now.k}: ‖W‖_F 0 → \\d`));

  // playing: no live region changes on every frame; one polite announcement when the run ends
  await page.evaluate(() => {
    window.__live = [];
    const watch = (el) => new MutationObserver(() => window.__live.push(`${el.className || el.id}: ${el.textContent}`))
      .observe(el, { childList: true, characterData: true, subtree: true });
    document.querySelectorAll('[aria-live]:not([aria-live="off"]), [role="status"], [role="alert"]').forEach(watch);
    new MutationObserver((ms) => ms.forEach((m) => m.addedNodes.forEach((n) => { if (n.nodeType === 1 && n.matches('.fig-announce')) { watch(n); window.__live.push(`fig-announce: ${n.textContent}`); } })))
      .observe(document.body, { childList: true });
  });
  await page.evaluate(() => window.__lab.set({ speed: 100 }));
  await page.evaluate(() => window.__lab.play());
  await page.waitForFunction(() => window.__lab.done && !window.__lab.busy, null, { timeout: 60000 });
  await page.waitForTimeout(300);
  const live = await page.evaluate(() => window.__live);
  assert.equal(live.length, 1, `one announcement: ${JSON.stringify(live)}`);
  assert.match(live[0], /The run ended at k = 2000 of 2000: sequence 0 selects token \d .*correlation with the Frobenius SVM direction 0\.99/);
  assert.equal(await page.evaluate(() => document.querySelector('.fig-announce').getAttribute('aria-live')), 'polite');
  assert.deepEqual(problems, []);
  await context.close();
});

test('embedded figures (iframe and element) and the real-images view name their figures by what they show', { timeout: 120000 }, async () => {
  const { page, context, problems } = await openPage(browser, `${site.url}embed.html#s=local-convergence&panels=softmax,corr,weights&autoplay=0&speed=50`);
  await page.waitForFunction(() => window.__embed?.ready);
  await page.evaluate(() => window.__embed.play());
  await page.waitForFunction(() => window.__embed.info().iteration >= 300);
  await page.evaluate(() => window.__embed.pause());
  // (the last frame in flight delivered, then its names written: at most a frame later)
  await waitFiguresSettled(page, () => [window.__embed]);
  await frames(page);
  const k = await page.evaluate(() => window.__embed.info().iteration);
  const figs = await names(page, '.af-body[aria-labelledby]');
  assert.equal(figs.length, 3);
  assert.ok(figs.every((f) => f.name.includes(String(k))), `each says k = ${k}: ${figs.map((f) => f.name).join(' | ')}`);
  assert.match(figs[0].name, /^Softmax of every token over iterations\. .*sequence 0 selects token \d/);
  assert.match(figs[2].name, /^W\(k\)\/‖W\(k\)‖ next to W\^mm\. W\(k\)\/‖W\(k\)‖ at k = \d+ of 2000 as a 10 × 10 colour grid, beside the Frobenius, nuclear SVM solutions/);
  assert.deepEqual(problems, []);
  await context.close();

  const real = await openPage(browser, `${site.url}?autoplay=0#s=real-images&it=40`);
  await real.page.waitForFunction(() => window.__lab.real()?.loaded, null, { timeout: 90000 });
  await real.page.evaluate(() => window.__lab.realView().play());
  await real.page.waitForFunction(() => window.__lab.real().done, null, { timeout: 90000 });
  // (text alternatives follow at most every 1.5 s while playing: wait until the accuracy's says the end)
  const realNames = () => [...document.querySelectorAll('#real-images .body[aria-labelledby]')]
    .map((h) => document.getElementById(h.getAttribute('aria-labelledby')).textContent);
  await real.page.waitForFunction(`(${realNames})().some((t) => /^Accuracy .*at k = 40 of 40/.test(t))`, null, { timeout: 10000, polling: 100 });
  const rf = await real.page.evaluate(realNames);
  assert.equal(rf.length, 7);
  assert.ok(rf.some((t) => /^Accuracy .*at k = 40 of 40: .*test \d+\.\d%, train \d+\.\d%/.test(t)), rf.join(' | '));
  assert.ok(rf.some((t) => /^Test images and where attention looks\. 24 test images of .* \d+ of 24 classified correctly/.test(t)), rf.join(' | '));
  assert.deepEqual(real.problems, []);
  await real.context.close();
});
