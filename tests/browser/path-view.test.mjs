// The lab's regularization path view (web/src/path/, SPEC 5.3) in headless Chromium: a link with
// view=path&R=10 opens it at that radius; its numbers are the engine's `path` for the same problem
// (the wasm module run in node, field by field at 1e-9 relative); the slider (keyboard) moves R and
// the written rank / 1 - corr with it, and the hash follows; dragging a token (arrow keys) computes
// the path again and hands the moved data to the lab; no NaN; its section moves nothing while it
// fills in (layout shift <= 0.005); axe finds no violation in it; a bad R in the link is named; and
// the embed's `path` panel draws the same numbers.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { launchBrowser, openPage } from './harness.mjs';
import { serveLab } from './lab-helpers.mjs';
import { loadEngine } from '../wasm/helpers.mjs';
import { PATH_RADII, PATH_BALLS, pathRequest } from '../../web/src/path/path-model.js';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const FIELDS = ['radius', 'loss', 'corrOwn', 'corrGlobal', 'gap', 'relativeGap', 'logGradDual', 'norm'];
const close = (a, b, tol = 1e-9) => (Number.isNaN(a) && Number.isNaN(b)) || Math.abs(a - b) <= tol * Math.max(1, Math.abs(a), Math.abs(b));

let site, browser, engine;
before(async () => {
  site = await serveLab();
  browser = await launchBrowser();
  engine = await loadEngine();
});
after(async () => {
  await browser?.close();
  await site?.close();
});

// Opens the lab at `hash` with a layout-shift observer, and waits for the path view's answer.
async function openPath(hash, { viewport = { width: 1280, height: 900 } } = {}) {
  const opened = await openPage(browser, 'about:blank', { viewport });
  await opened.page.addInitScript(() => {
    window.__shifts = [];
    new PerformanceObserver((list) => {
      const name = (n) => { const el = n?.nodeType === 1 ? n : n?.parentElement; return el ? `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}.${[...el.classList].join('.')}` : '?'; };
      for (const e of list.getEntries()) if (!e.hadRecentInput) window.__shifts.push({ value: e.value, at: e.startTime, sources: e.sources.map((x) => name(x.node)) });
    }).observe({ type: 'layout-shift', buffered: true });
  });
  await opened.page.goto(`${site.url}?autoplay=0#${hash}`);
  await opened.page.waitForFunction(() => window.__labPath?.info().done || window.__error, null, { timeout: 90000, polling: 100 });
  return opened;
}
const info = (page) => page.evaluate(() => { const i = window.__labPath.info(); return JSON.parse(JSON.stringify(i, (k, v) => (typeof v === 'number' && !Number.isFinite(v) ? `${v}` : v))); });
const num = (v) => (typeof v === 'string' ? Number(v) : v);

test('view=path&R=10 opens the view at R = 10; its path is the engine\'s, radius by radius', async () => {
  const { page, context, problems } = await openPath('s=paths2d&view=path&R=10');
  try {
    const i = await info(page);
    assert.equal(i.index, 4, 'R = 10 is the schedule\'s fifth radius');
    assert.match(await page.textContent('#labpath-rval'), /R = 10$/);
    assert.equal(await page.getAttribute('#labpath-slider', 'aria-valuetext'), 'R = 10');
    // the engine in node, the same request (the view's dataset, model and p)
    for (const ball of PATH_BALLS) {
      const req = pathRequest({ model: i.request.model }, i.request.dataset, ball, i.request.lpP);
      const want = engine.path(req).points;
      const got = i.result.paths[ball];
      assert.equal(got.length, PATH_RADII.length);
      got.forEach((p, k) => {
        for (const f of FIELDS) assert.ok(close(num(p[f]), want[k][f]), `${ball} R=${PATH_RADII[k]} ${f}: ${p[f]} vs ${want[k][f]}`);
        for (const f of ['rank', 'certified', 'lossResolved', 'iterations', 'globallyOptimal']) assert.equal(p[f], want[k][f], `${ball} ${f}`);
        assert.deepEqual(p.selection, want[k].selection);
        p.W.flat().forEach((x, j) => assert.ok(close(num(x), want[k].W.flat()[j]), `${ball} R=${PATH_RADII[k]} W`));
        for (const f of ['radius', 'loss', 'corrOwn', 'relativeGap', 'norm']) assert.ok(Number.isFinite(num(p[f])), `${ball} ${f} finite`);
      });
      assert.equal(i.result.svms[ball].status, 'optimal', `${ball} SVM`);
    }
    // what the table writes is the point's rank and 1 - corr
    const row = await page.$$eval('#labpath-table tr[data-ball="nuclear"] td', (tds) => tds.map((t) => t.textContent));
    const p = i.result.paths.nuclear[4];
    assert.equal(row[1], String(p.rank));
    assert.equal(Number(row[0]), Number((1 - p.corrOwn).toPrecision(2)));
    assert.match(i.text, /At R = 10: Frobenius ball: 1 − corr/);
    assert.doesNotMatch(i.text + row.join(' '), /NaN|undefined/);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('the slider moves R by keyboard: the text, the table and the hash follow; a drag recomputes and keeps the page', async () => {
  const { page, context, problems } = await openPath('s=paths2d&view=path&R=10');
  try {
    const before = await page.textContent('#labpath-status');
    await page.focus('#labpath-slider');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => window.__labPath.info().index === 6);
    assert.equal(await page.textContent('#labpath-rval'), 'R = 31.6');
    const after = await page.textContent('#labpath-status');
    assert.notEqual(after, before);
    assert.match(after, /At R = 31\.6/);
    const i = await info(page);
    const rankText = await page.$eval('#labpath-table tr[data-ball="fro"] td:nth-of-type(2)', (td) => td.textContent);
    assert.equal(rankText, String(i.result.paths.fro[6].rank));
    assert.match(await page.evaluate(() => location.hash), /view=path/);
    assert.equal(Number(new URLSearchParams((await page.evaluate(() => location.hash)).slice(1)).get('R')), PATH_RADII[6]);
    // a token of the view's plane, moved with the keyboard (as a drag): a new path, the lab's data
    const was = JSON.stringify(i.result.paths.fro.at(-1).W);
    const tok = await page.$('#labpath-plane path.token');
    await tok.focus();
    await page.keyboard.press('ArrowUp');
    await page.waitForFunction(() => window.__labPath.info().dragRequests >= 1 && window.__labPath.info().done && !window.__labPath.info().busy, null, { timeout: 60000 });
    await page.waitForFunction(() => window.__lab.state.data !== null, null, { timeout: 30000 });
    const j = await info(page);
    assert.notEqual(JSON.stringify(j.result.paths.fro.at(-1).W), was, 'the moved token changes W(R)');
    assert.equal(j.index, 6, 'the radius is kept');
    assert.match(await page.evaluate(() => location.hash), /view=path/, 'the view stays in the link');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

// A token dragged with the mouse: the previews answer as it moves (path-compute.js: at most one in
// flight, warm-started), and once it is dropped the path drawn is the engine's path of the dropped
// tokens, radius by radius (no warm start, the engine's defaults: the previews leave no trace).
test('a mouse drag previews the path as the token moves; dropped, the path is the engine\'s', async () => {
  const { page, context, problems } = await openPath('s=paths2d&view=path&R=10');
  try {
    const box = await (await page.$$('#labpath-plane path.token'))[1].boundingBox();
    const x = box.x + box.width / 2, y = box.y + box.height / 2;
    await page.mouse.move(x, y);
    await page.mouse.down();
    for (let k = 1; k <= 5; k++) await page.mouse.move(x + 3 * k, y - 2 * k);
    await page.waitForFunction(() => window.__labPath.info().dragTimings.length >= 1, null, { timeout: 60000 });
    await page.mouse.up();
    await page.waitForFunction(() => window.__lab.state.data !== null, null, { timeout: 30000 });
    await page.waitForFunction(() => { const i = window.__labPath.info(); return i.done && !i.busy && !window.__lab.busy; }, null, { timeout: 60000 });
    await page.waitForTimeout(300);
    await page.waitForFunction(() => { const i = window.__labPath.info(); return i.done && !i.busy; }, null, { timeout: 60000 });
    const i = await info(page);
    assert.ok(i.dragRequests >= 2, `previews requested as the token moved (${i.dragRequests})`);
    assert.deepEqual(i.request.dataset.X, (await page.evaluate(() => window.__lab.dataset())).X, 'the view\'s tokens are the lab\'s');
    for (const ball of PATH_BALLS) {
      const want = engine.path(pathRequest({ model: i.request.model }, i.request.dataset, ball, i.request.lpP)).points;
      const got = i.result.paths[ball];
      got.forEach((p, k) => {
        for (const f of FIELDS) assert.ok(close(num(p[f]), want[k][f]), `${ball} R=${PATH_RADII[k]} ${f}: ${p[f]} vs ${want[k][f]}`);
        for (const f of ['certified', 'iterations']) assert.equal(p[f], want[k][f], `${ball} R=${PATH_RADII[k]} ${f}`);
        p.W.flat().forEach((v, j) => assert.ok(close(num(v), want[k].W.flat()[j]), `${ball} R=${PATH_RADII[k]} W`));
      });
    }
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('the view moves nothing while it fills in (layout shift <= 0.005) and axe finds no violation in it', async () => {
  const { page, context } = await openPath('s=paths2d&view=path&R=100');
  try {
    await page.waitForTimeout(500);
    const shifts = await page.evaluate(() => window.__shifts);
    const total = shifts.reduce((a, s) => a + s.value, 0);
    assert.ok(total <= 0.005, `layout shift ${total.toFixed(4)} (${JSON.stringify(shifts)})`);
    await page.evaluate(AXE_SOURCE);
    const res = await page.evaluate(() => window.axe.run({ include: [['#path-view']] }, { resultTypes: ['violations'] }));
    assert.deepEqual(res.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`), []);
  } finally {
    await context.close();
  }
});

test('a bad R in the link is named, and the view opens at its default', async () => {
  const opened = await openPage(browser, `${site.url}?autoplay=0#s=paths2d&view=path&R=abc`);
  try {
    await opened.page.waitForFunction(() => window.__labPath?.info().done, null, { timeout: 90000, polling: 100 });
    const msgs = JSON.stringify(await opened.page.evaluate(() => window.__lab.messages()));
    assert.match(msgs, /pathR must be a finite number \(got \\?"abc\\?"\)/);
    assert.equal((await info(opened.page)).index, 0);
  } finally {
    await opened.context.close();
  }
});

test('the embed\'s path panel draws the engine\'s path', async () => {
  const opened = await openPage(browser, `${site.url}embed.html#s=paths2d&panels=path,corr&autoplay=0`);
  try {
    await opened.page.waitForFunction(() => /At R = 1:/.test(document.querySelector('.af-panel-path .path-status')?.textContent ?? ''), null, { timeout: 90000, polling: 200 });
    await opened.page.waitForFunction(() => /l_\d.*: 1 − corr/.test(document.querySelector('.af-panel-path .path-status').textContent), null, { timeout: 90000, polling: 200 });
    const text = await opened.page.textContent('.af-panel-path .path-status');
    const sc = engine.scenario('paths2d');
    const fro = engine.path(pathRequest({ model: sc.model }, sc.dataset, 'fro', 2)).points[0];
    assert.match(text, new RegExp(`Frobenius: 1 − corr ${Number((1 - fro.corrOwn).toPrecision(2))}, rank ${fro.rank}, gap `));
    assert.deepEqual(opened.problems, []);
  } finally {
    await opened.context.close();
  }
});

test('Full experiments: reg-path (2 seeds, 30 Frank-Wolfe steps a radius) draws its five charts against R', async () => {
  const opened = await openPage(browser, `${site.url}?autoplay=0`);
  try {
    await opened.page.waitForFunction(() => window.__attnsvmExperiment, null, { timeout: 60000 });
    const r = await opened.page.evaluate(() => window.__attnsvmExperiment.run({ name: 'reg-path', seeds: 2, iters: 30 })
      .then((res) => ({ x: Array.from(res.settings[0].result.series.radius.mean), global: Array.from(res.settings[0].result.series['fro/global'].mean) })));
    assert.equal(r.x.length, 17);
    assert.ok(Math.abs(r.x.at(-1) - 1e4) < 1e-6 && r.x[0] === 1, 'the x axis is the radius, 1 to 10^4');
    assert.ok(r.global.every((v) => v >= 0 && v <= 1));
    const charts = await opened.page.evaluate(() => window.__attnsvmExperiment.charts().map((c) => c.title));
    assert.equal(charts.length, 5, charts.join(' | '));
    assert.match(charts[0], /own norm\) against the radius R/);
    assert.deepEqual(opened.problems, []);
  } finally {
    await opened.context.close();
  }
});
