// The real-images study (SPEC 6.1) and regime ladder (6.2) as figures of the lab's real-images view and
// of the embeds (web/src/real/plan-*.js), in headless Chromium, at a tiny size (study: 2 seeds; ladder:
// n = 8, 16):
// - the page's tables are the engine's: the same plan run by the JS API under node (the same wasm, so
//   the same doubles), and, when a native CLI is found (ATTNSVM_CLI, or build/native-release/cli/attnsvm),
//   the CLI's `attnsvm experiment real-study` / `real-ladder` output for the same settings (study: the
//   same doubles; ladder: the SVM's corr along k to 1e-7, as tests/wasm/real-study.test.mjs);
// - the figures show those numbers (the table cells, the caption, the text alternative);
// - the URL round-trips (sseeds, lmax, run; Run adds run=study to the link; the link restores it);
// - axe-core: no violation in light and dark with both figures drawn (lab and iframe embed);
// - bad link values are warned about (decodeHash problems) and the page keeps its state when a run fails.
// Needs the site build (npx vite build) with the attnsvm-experiments module and Debian's
// dataset-fashion-mnist. About a minute on an idle machine.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findNativeCli, launchBrowser, openPage } from './harness.mjs';
import { serveLab } from './lab-helpers.mjs';
import { axeScan, PAGES } from './page-audit.mjs';
import { decodeHash, encodeHash, defaultState } from '../../web/src/lab/state.js';
import { studySettings, ladderSettings, studyRows, ladderRows } from '../../web/src/real/plan-text.js';

const DIR = process.env.ATTNSVM_FASHION_MNIST || '/usr/share/datasets/fashion-mnist';
const haveData = existsSync(join(DIR, 'train-images-idx3-ubyte.gz'));
const cli = await findNativeCli();

const TINY = { scenario: 'real-images', classA: 7, classB: 9, seed: 0, studySeeds: 2, ladderMax: 16 };
const HASH = 's=real-images&ntr=100&nte=100&it=20&sseeds=2&lmax=16';

let site, browser, expected;
// Typed arrays and plain arrays alike; NaN as null (JSON)
function plain(x) {
  if (ArrayBuffer.isView(x)) return Array.from(x, plain);
  if (Array.isArray(x)) return x.map(plain);
  if (typeof x === 'number') return Number.isNaN(x) ? null : x;
  if (x && typeof x === 'object') return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, plain(v)]));
  return x;
}

// The same plans run by the JS API under node (tests/wasm/helpers.mjs loads web/public/wasm).
async function nodeTables() {
  const { loadEngine } = await import('../wasm/helpers.mjs');
  const { realImagesFiles, fetchFromFiles } = await import('../../scripts/make-real-images-asset.mjs');
  const { loadPair } = await import('../../web/src/real/asset.js');
  const { RealStudyPlanner, RealLadderPlanner, executeStudyRun, executeLadderRun, runPlan } = await import('../../web/src/engine/real-study.js');
  const fetchImpl = fetchFromFiles(realImagesFiles(DIR));
  const engine = await loadEngine('attnsvm-experiments');
  const pair = await loadPair('http://x/', 7, 9, { fetchImpl, pool: true });
  const study = new RealStudyPlanner(engine.module, studySettings(TINY));
  const ladder = new RealLadderPlanner(engine.module, ladderSettings(TINY));
  try {
    return {
      study: await runPlan(study, (run) => executeStudyRun(engine.module, pair, run, { chunk: 5 }), { concurrency: 2 }),
      ladder: await runPlan(ladder, (run) => executeLadderRun(engine.module, pair.train, run, { chunk: 5000 }), { concurrency: 2 }),
    };
  } finally { study.dispose(); ladder.dispose(); }
}

function cliTable(name, settings) {
  const out = join(mkdtempSync(join(tmpdir(), 'attnsvm-realfig-')), `${name}.json`);
  execFileSync(cli, ['experiment', name, '--settings', JSON.stringify(settings), '--threads', '2', '--quiet', '--out', out], { stdio: ['ignore', 'ignore', 'inherit'] });
  return JSON.parse(readFileSync(out, 'utf8'));
}

before(async () => {
  if (!haveData) return;
  site = await serveLab();
  browser = await launchBrowser();
  expected = await nodeTables();
});
after(async () => { await browser?.close(); await site?.close(); });

const skip = haveData ? false : 'dataset-fashion-mnist is not installed';

async function runInLab(page, kinds) {
  for (const k of kinds) await page.evaluate((k) => window.__lab.realView().planPanel(k).start(), k);
  // (a live result: the panels open with the shipped native one, info().native)
  await page.waitForFunction((ks) => ks.every((k) => { const i = window.__lab.realView().plan(k); return (i.table && !i.native) || i.error; }), kinds, { timeout: 240000, polling: 250 });
  return page.evaluate((ks) => Object.fromEntries(ks.map((k) => [k, window.__lab.realView().plan(k)])), kinds);
}

const pct1 = (x) => (100 * x).toFixed(1);

test('the lab\'s study and ladder figures show the engine\'s numbers (node JS API; the CLI when built)', { skip, timeout: 400000 }, async () => {
  const { page, problems, context } = await openPage(browser, `${site.url}?autoplay=0#${HASH}`, { viewport: { width: 1400, height: 900 } });
  await page.waitForFunction(() => window.__lab?.realView?.(), null, { timeout: 60000 });
  const got = await runInLab(page, ['study', 'ladder']);
  for (const k of ['study', 'ladder']) assert.equal(got[k].error, null, `${k}: ${got[k].error}`);
  assert.deepEqual(got.study.settings, studySettings(TINY));
  assert.deepEqual(got.ladder.settings, ladderSettings(TINY));
  // the same doubles as the JS API under node (same wasm, the plan independent of the order of results)
  assert.deepEqual(plain(got.study.table.rows), plain(expected.study.rows));
  assert.deepEqual(plain(got.ladder.table.rows), plain(expected.ladder.rows));
  assert.deepEqual(plain(got.ladder.table.summary), plain(expected.ladder.summary));
  if (cli) {
    const c = cliTable('real-study', studySettings(TINY));
    assert.deepEqual(plain(got.study.table.rows), plain(c.table), 'the page\'s study table is the CLI\'s');
    const l = cliTable('real-ladder', ladderSettings(TINY));
    assert.equal(got.ladder.table.rows.length, l.table.length);
    for (const [i, row] of got.ladder.table.rows.entries()) {
      for (const key of ['head', 'n', 'feasible', 'infeasible', 'undecided', 'limitReached', 'minSoftmax', 'trainAccuracy']) assert.equal(row[key], l.table[i][key], `ladder row ${i}: ${key}`);
      const a = Array.from(row.corrAlongK), b = l.table[i].corrAlongK.map((x) => x ?? NaN);
      a.forEach((x, j) => assert.ok((Number.isNaN(x) && Number.isNaN(b[j])) || Math.abs(x - b[j]) <= 1e-7, `ladder row ${i} corr[${j}] ${x} vs CLI ${b[j]}`));
    }
    console.log(`# compared with the CLI ${cli}`);
  } else console.log('# no native CLI found (ATTNSVM_CLI): compared with the JS API under node only');

  // the figures show these numbers: the study's table cells and the caption, the ladder's rows
  const rows = studyRows(expected.study);
  const cells = await page.$$eval('#real-body-study tbody tr', (trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));
  assert.equal(cells.length, rows.length);
  rows.forEach((r, i) => {
    assert.equal(cells[i][0], r.label);
    assert.ok(cells[i][2].startsWith(`${pct1(r.accuracy.mean)} ± ${pct1(r.std)}%`), `${r.label}: ${cells[i][2]}`);
    assert.equal(Number(cells[i][1].replace(' (edge)', '')), Number(r.lr.toPrecision(3)));
  });
  const markers = await page.$$eval('#real-body-study .plan-chart svg circle', (cs) => cs.length);
  assert.equal(markers, rows.filter((r) => Number.isFinite(r.accuracy.mean)).length, 'one mean marker per method');
  const lrows = ladderRows(expected.ladder);
  const lcells = await page.$$eval('#real-body-ladder tbody tr', (trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));
  assert.equal(lcells.length, lrows.length);
  lrows.forEach((r, i) => {
    assert.ok(lcells[i][0].endsWith(`n = ${r.n}`) && lcells[i][0].startsWith(r.head), lcells[i][0]);
    assert.equal(lcells[i][1], r.feasibility);
    if (Number.isFinite(r.corrFinal)) assert.equal(lcells[i][2], r.corrFinal.toFixed(4));
    assert.equal(lcells[i][4], r.limit ? 'reached' : 'not reached');
    if (!r.limit) assert.ok(lcells[i][5].length > 0, `n = ${r.n} ${r.head}: the failing condition is named`);
  });
  const paths = await page.$$eval('#real-body-ladder .plan-chart svg path[fill="none"]', (ps) => ps.length);
  assert.equal(paths, lrows.filter((r) => r.corr.some(Number.isFinite)).length, 'one line per (head, n) with an SVM');
  // text alternatives: what the figure shows now (the caption's numbers)
  const alt = await page.evaluate(() => [...document.querySelectorAll('#real-body-study .plan-chart[aria-labelledby], #real-body-ladder .plan-chart[aria-labelledby]')]
    .map((h) => document.getElementById(h.getAttribute('aria-labelledby')).textContent));
  assert.equal(alt.length, 2);
  const gd = rows.find((r) => r.method === 'md:2');
  assert.ok(alt[0].includes(`${pct1(gd.accuracy.mean)}%`) || alt[0].includes('Highest mean: GD'), alt[0]);
  assert.match(alt[1], /Frozen head \(GD|Frozen head \(NGD\)/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('the URL round-trips: sseeds, lmax and run in the lab\'s hash; Run adds run= to the link; bad values are problems', { skip, timeout: 120000 }, async () => {
  const s = { ...defaultState(), ...TINY, realRun: ['study', 'ladder'] };
  const h = encodeHash(s);
  assert.match(h, /sseeds=2/); assert.match(h, /lmax=16/); assert.match(h, /run=study%2Cladder|run=study,ladder/);
  const back = decodeHash(h);
  assert.deepEqual(back.problems, []);
  for (const k of ['studySeeds', 'ladderMax', 'realRun', 'seed', 'classA', 'classB']) assert.deepEqual(back.state[k], s[k], k);
  const bad = decodeHash('#s=real-images&sseeds=1&lmax=5000&run=stduy');
  assert.deepEqual(bad.problems.map((p) => p.param).sort(), ['lmax', 'run', 'sseeds']);

  // the page: controls from the link, Run puts run=study into the link (the setting that starts it)
  const { page, context } = await openPage(browser, `${site.url}?autoplay=0#${HASH}&seed=3`, { viewport: { width: 1400, height: 900 } });
  await page.waitForFunction(() => window.__lab?.realView?.(), null, { timeout: 60000 });
  assert.equal(await page.inputValue('#real-sseeds'), '2');
  assert.equal(await page.inputValue('#real-lmax'), '16');
  const st = await page.evaluate(() => window.__lab.realView().plan('study').settings);
  assert.equal(st.seedBase, 4, 'seed 3 runs the study\'s seeds 4, 5');
  await page.click('#real-body-study .plan-run');
  await page.waitForFunction(() => /run=study/.test(location.hash), null, { timeout: 10000 });
  // cancel: the page keeps its state and says so
  await page.click('#real-body-study .plan-run');
  await page.waitForFunction(() => { const i = window.__lab.realView().plan('study'); return !i.running && i.error; }, null, { timeout: 60000 });
  assert.match(await page.textContent('#real-body-study .plan-error'), /cancelled/);
  assert.ok(await page.evaluate(() => window.__lab.real().loaded !== undefined));
  // changing the seeds in the control goes to the link
  await page.fill('#real-sseeds', '4');
  await page.dispatchEvent('#real-sseeds', 'change');
  await page.waitForFunction(() => /sseeds=4/.test(location.hash), null, { timeout: 10000 });
  await context.close();

  // a link without sseeds / lmax: the controls show the defaults the figures run (the seeds' input showed
  // 3 while the study ran 5); at load no figure is empty: each shows the native result shipped with the
  // page (its command and date said), and Run offers the reduced live rerun
  const plain = await openPage(browser, `${site.url}?autoplay=0#s=real-images`, { viewport: { width: 1400, height: 900 } });
  await plain.page.waitForFunction(() => window.__lab?.realView?.(), null, { timeout: 60000 });
  const seeds = await plain.page.evaluate(() => window.__lab.realView().plan('study').settings.seeds);
  assert.equal(seeds, 5);
  assert.equal(await plain.page.inputValue('#real-sseeds'), String(seeds));
  assert.match(await plain.page.textContent('#real-body-study .plan-size'), new RegExp(`${seeds} seeds`));
  assert.equal(await plain.page.inputValue('#real-lmax'), '128');
  for (const id of ['study', 'ladder', 'phase']) {
    await plain.page.evaluate((pid) => document.getElementById(`real-panel-${pid}`).scrollIntoView(), id);  // (made when near)
    await plain.page.waitForFunction((pid) => window.__lab.realView().plan(pid).table, id, { timeout: 20000 });
    const info = await plain.page.evaluate((pid) => { const i = window.__lab.realView().plan(pid); return { native: i.native, rows: i.table.rows.length, caption: i.caption }; }, id);
    assert.ok(info.native && info.rows > 0, `${id}: the native result at load (${info.rows} rows)`);
    assert.ok(await plain.page.isHidden(`#real-body-${id} .plan-placeholder`), `${id}: no empty placeholder`);
    const marks = await plain.page.evaluate((pid) => document.querySelectorAll(`#real-body-${pid} svg rect, #real-body-${pid} svg path, #real-body-${pid} svg circle`).length, id);
    assert.ok(marks > 10, `${id}: a drawn figure (${marks} marks)`);
    assert.ok(await plain.page.$$eval(`#real-body-${id} .plan-table tbody tr`, (t) => t.length) > 0, `${id}: its table`);
    assert.match(await plain.page.textContent(`#real-body-${id} .plan-source`), /^Native result, computed by the CLI on \d{4}-\d\d-\d\d/);
    assert.match(await plain.page.textContent(`#real-body-${id} .plan-run`), /Run it in this browser/);
    assert.match(info.caption, /^Native result/);
  }
  await plain.context.close();
});

test('axe-core: no violation with the study and the ladder drawn, light and dark (lab and iframe embed)', { skip, timeout: 600000 }, async () => {
  PAGES['real-plans'] = {
    path: `index.html#${HASH}&run=study,ladder`,
    ready: () => { const v = window.__lab?.realView?.(); return !!v && ['study', 'ladder'].every((k) => v.plan(k).table); },
  };
  PAGES['real-plans-embed'] = {
    path: `embed.html#${HASH}&panels=gallery,study,ladder&run=study,ladder`, darkHash: '&theme=dark',
    ready: () => { const p = window.__embed?.info()?.plans; return !!p && ['study', 'ladder'].every((k) => p[k]?.table); },
  };
  try {
    for (const id of ['real-plans', 'real-plans-embed']) {
      for (const theme of ['light', 'dark']) {
        const v = await axeScan(browser, site.url, id, theme);
        assert.equal(v.length, 0, `${id} ${theme}: ${v.map((x) => `${x.id} (${x.nodes} in ${x.frame}: ${x.targets.join(', ')})`).join('; ')}`);
      }
    }
  } finally { delete PAGES['real-plans']; delete PAGES['real-plans-embed']; }
});

test('the gallery marks each attended patch gamma-optimal or not, and says how many (SPEC 6.3)', { skip, timeout: 180000 }, async () => {
  const { page, context, problems } = await openPage(browser, `${site.url}#s=real-images&ntr=100&nte=100&it=40`, { viewport: { width: 1400, height: 900 } });
  await page.waitForFunction(() => { const r = window.__lab?.real(); return r?.done && r.runs.every((x) => x.analysis); }, null, { timeout: 120000, polling: 200 });
  await page.evaluate(() => window.__lab.realView().select(0));  // a redraw with the final scores
  await page.waitForFunction(() => window.__lab.real().detail, null, { timeout: 30000 });
  await page.evaluate(() => new Promise((r) => setTimeout(r, 600)));
  // the share from the run's own s_it and gamma_it (argmax_t s_it == argmax_t gamma_it), as the gallery draws it
  const got = await page.evaluate(() => {
    const run = window.__lab.realView().session().runs[0];
    const n = window.__lab.realView().session().gallery.length, T = run.softmax.length / n;
    let marked = 0, optimal = 0;
    for (let j = 0; j < n; j++) {
      let best = 0, opt = 0, mx = 0;
      for (let t = 0; t < T; t++) {
        if (run.softmax[j * T + t] > run.softmax[j * T + best]) best = t;
        if (run.gamma[j * T + t] > run.gamma[j * T + opt]) opt = t;
        mx = Math.max(mx, run.softmax[j * T + t]);
      }
      if (mx - 1 / T > 1e-9) { marked++; if (best === opt) optimal++; }
    }
    return { marked, optimal, n, label: document.querySelector('#real-images canvas.real-gallery').getAttribute('aria-label'),
      count: document.getElementById('real-gamma-count').textContent };
  });
  assert.ok(got.marked > 0, 'after 40 steps attention is not uniform');
  assert.ok(got.label.includes(`${got.optimal} of ${got.marked} attended patches gamma-optimal`), got.label);
  assert.equal(got.count, `${got.optimal} of ${got.marked} attended patches are γ-optimal now.`);
  assert.deepEqual(problems, []);
  await context.close();
});
