// Seed bands on log axes (issue 43; web/src/experiments/bands.js, web/src/plots/log-axis.js): the lab's
// experiment panel plots a set of synthetic runs whose spread crosses zero in a linear sense (one seed
// stuck at 0.5 while the others fall to 1e-4, three of them to exactly 0: mean − std < 0) on the
// rates plot's log-log axes. The drawn line is the median and the band the 10-90 % quantiles (the
// engine's seriesSpread, through the panel's worker pool); the band stays positive, never below the
// axis' lowest value, and continuous (no gap wherever the line is drawn); no log axis of the panel or
// of the lab's own curves has a tick labelled "0"; the chart says which band it draws. The old
// mean ± std band fails every one of these (its lower edge had gaps, spanned by a dive to a "0" tick).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, shot } from './harness.mjs';
import { serveLab, openLab, runToEnd, showCurves, frames, idle } from './lab-helpers.mjs';

let site, browser, page, problems;
before(async () => {
  site = await serveLab();
  browser = await launchBrowser();
  ({ page, problems } = await openLab(browser, site.url, 's=local-convergence'));
  await page.waitForFunction(() => window.__attnsvmExperiment, null, { timeout: 10000 });
});
after(async () => { await browser?.close(); await site?.close(); });

// A "0" tick label, however it is written ("0", "0.0", "-0", "0e0").
const zeroLabel = (s) => /^-?0(\.0*)?(e[+-]?\d+)?$/.test(String(s).trim());

test('a spread that crosses zero draws a positive, continuous 10-90 % band on the log axis, with no "0" tick', async () => {
  const r = await page.evaluate(async () => {
    document.querySelector('#experiment-panel details').open = true;
    // 20 seeds, 61 log-spaced snapshots 0..1000 of 1 − corr: seed 0 stuck at 0.5, seeds 1..19 falling
    // from 0.5 to 1e-4 at their own rates; seeds 1..3 at exactly 0 over the last 10 snapshots; seed 4
    // undefined (NaN) at the first snapshot
    const I = 61;
    const iteration = Int32Array.from({ length: I }, (_, i) => (i === 0 ? 0 : Math.round(10 ** (3 * i / (I - 1)))));
    const chunk = (start, count) => {
      const series = new Float64Array(count * I);
      for (let j = 0; j < count; j++) {
        const s = start + j;
        for (let i = 0; i < I; i++) {
          const t = iteration[i] / 1000;
          let v = s === 0 ? 0.5 : 0.5 * (2e-4) ** (t ** (0.3 + s / 10));
          if (s >= 1 && s <= 3 && i >= I - 10) v = 0;
          if (s === 4 && i === 0) v = NaN;
          series[j * I + i] = v;
        }
      }
      return { experiment: 'rates', count, n: 6, T: 8, d: 10, iters: 1000, every: 0, seeds: Array.from({ length: count }, (_, j) => start + j),
        iteration, seriesNames: ['oneMinusCorr'], series, valueNames: [], values: new Float64Array(0), labelNames: [],
        labels: Array.from({ length: count }, () => []), selectionNames: [], selections: Array.from({ length: count }, () => []) };
    };
    // two chunks, later seeds first (as a pool may finish them)
    const res = await window.__attnsvmExperiment.plot({ name: 'rates', settings: [{ label: 'synthetic', options: {}, chunks: [chunk(10, 10), chunk(0, 10)] }] });
    const s = res.settings[0].result.series.oneMinusCorr;
    await new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok)));
    return { mean: Array.from(s.mean), std: Array.from(s.std), median: Array.from(s.median), q10: Array.from(s.q10),
      charts: window.__attnsvmExperiment.charts() };
  });
  // the case of the issue: mean − std < 0 somewhere (a linear band would cross zero)
  const crossing = r.mean.filter((m, i) => m - r.std[i] < 0).length;
  assert.ok(crossing >= 10, `mean − std < 0 at ${crossing} snapshots`);
  assert.ok(r.q10.slice(-10).every((v) => v === 0), 'three of 20 seeds at 0: q10 is 0 at the last snapshots (drawn at the floor)');
  assert.equal(r.charts.length, 1);
  const { chart } = r.charts[0];
  assert.ok(chart.y.log && chart.x.log, 'log-log axes');
  assert.ok(chart.y.min > 0, `y axis from ${chart.y.min}`);
  assert.match(chart.key, /median.*10–90 %/, 'the chart says which band it draws');
  const [cv] = chart.curves;
  // the line is the engine's median (iteration 0 cut by the log x axis)
  assert.deepEqual(cv.line, r.median.slice(1).map((v) => (v > 0 ? v : null)));
  const drawn = cv.line.map((v, i) => i).filter((i) => cv.line[i] !== null);
  assert.ok(drawn.length >= 55, `line drawn at ${drawn.length} snapshots`);
  for (let i = drawn[0]; i <= drawn.at(-1); i++) {
    for (const [edge, v] of [['lower', cv.lo[i]], ['upper', cv.hi[i]]]) {
      assert.ok(v !== null, `${edge} edge has a gap at snapshot ${i}`);
      assert.ok(v > 0 && v >= chart.y.min * (1 - 1e-12) && v <= chart.y.max * (1 + 1e-12), `${edge} edge ${v} outside (0, axis] at ${i}`);
    }
    assert.ok(cv.lo[i] <= cv.hi[i], `band inverted at ${i}`);
  }
  assert.ok(cv.lo.slice(-10).every((v) => v === chart.y.min), 'a quantile at 0 is drawn at the axis\' lowest value');
  for (const a of [chart.x, chart.y]) {
    assert.ok(a.labels.length > 0, 'tick labels drawn');
    assert.deepEqual(a.labels.filter(zeroLabel), [], `a log axis labels a tick "0": ${a.labels.join(' | ')}`);
    assert.ok(a.splits.every((v) => v == null || v > 0), `a log axis has a split <= 0: ${a.splits}`);
  }
  const plots = await page.$('#experiment-panel .exp-plots');
  await plots.scrollIntoViewIfNeeded();   // (the lab's panels above draw as they come into view: settle first)
  await frames(page);
  await idle(page);
  await shot(plots, 'log-bands');
  assert.deepEqual(problems, []);
});

test('no log axis of the lab\'s curves labels a tick "0"', async () => {
  await showCurves(page);
  await runToEnd(page);
  const axes = await page.evaluate(() => {
    const out = [];
    for (const [id, panel] of Object.entries(window.__lab._panels)) {
      const plot = panel?.plot;
      if (!plot?.axes) continue;
      for (const a of plot.axes) {
        if (plot.scales[a.scale]?.distr !== 3) continue;
        out.push({ id, scale: a.scale, labels: Array.from(a._values ?? []), splits: Array.from(a._splits ?? []) });
      }
    }
    return out;
  });
  assert.ok(axes.length >= 1, 'the convergence panel has a log axis');
  for (const a of axes) {
    assert.deepEqual(a.labels.filter(zeroLabel), [], `${a.id} ${a.scale}: ${a.labels.join(' | ')}`);
    assert.ok(a.splits.every((v) => v == null || v > 0), `${a.id} ${a.scale}: a split <= 0`);
  }
  assert.deepEqual(problems, []);
});
