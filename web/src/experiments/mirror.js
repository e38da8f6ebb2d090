// The mirror-descent paper's figures (SPEC 5.2): md-convergence (per training p, D_p and corr
// against the l_q Att-SVMs, q in {1.75, 2, 3}, bands over seeds (bands.js: D_p on a log axis, the
// median and 10-90 % of the seeds; corr, linear, mean ± std), each p on its own
// iteration axis; and the 3 x 3 tables of final values as heatmaps with the numbers written in),
// and joint-wv (per p, the token plane with the paths of W(k) z_i, the l_p SVM directions
// W^mm_p z_i, and the head's v^mm_p).
import { drawBands } from './bands.js';
import { createTokenPlane } from '../plots/tokenplane.js';
import { seqScale, themeColors } from '../plots/theme.js';
import { SVG_NS, svgAppender } from '../plots/svg.js';
import { unit, finalOf, planeTokens, normalizedPaths } from './token-paths.js';
import { columnName, indexedName } from './metrics.js';

export const MD_QS = [1.75, 2, 3];
const fmt = (x, d = 3) => (Number.isFinite(x) ? (Math.abs(x) >= 1e-3 ? x.toFixed(d) : x.toExponential(1)) : '–');

// The 3 x 3 table {rows: training p, cols: q, mean[r][c], std[r][c]} of a finished run; metric 'div'
// or 'corr' (the columns "q1.75/div", ...).
export function mdTable(res, metric) {
  const rows = res.settings.map((s) => s.options.p);
  const mean = res.settings.map((s) => MD_QS.map((q) => s.result.finals[columnName(`q${q}`, metric)]?.mean ?? NaN));
  const std = res.settings.map((s) => MD_QS.map((q) => s.result.finals[columnName(`q${q}`, metric)]?.std ?? NaN));
  return { rows, cols: MD_QS, mean, std };
}

// A heatmap (SVG) of table.mean with "mean ± std" written in each cell; colour by log10 of the
// mean (divergence) or by the mean itself (corr); the smallest divergence of each row is outlined.
export function drawTableHeatmap(container, table, { title, log = false, best = 'min' } = {}) {
  const c = themeColors();
  const cell = 96, h = 46, left = 78, top = 40;
  const W = left + cell * table.cols.length + 8, H = top + h * table.rows.length + 8;
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  svg.setAttribute('width', W);
  svg.setAttribute('height', H);
  svg.setAttribute('role', 'img');
  svg.setAttribute('class', 'md-table');
  svg.setAttribute('aria-label', title ?? 'table');
  const add = svgAppender(svg);
  const vals = table.mean.flat().filter(Number.isFinite).map((v) => (log ? Math.log10(Math.max(v, 1e-300)) : v));
  const lo = Math.min(...vals), hi = Math.max(...vals);
  const t = (v) => (hi > lo ? ((log ? Math.log10(Math.max(v, 1e-300)) : v) - lo) / (hi - lo) : 0.5);
  add('text', { x: left + (cell * table.cols.length) / 2, y: 14, 'text-anchor': 'middle', fill: c.fg, 'font-size': 12 }, 'SVM q');
  add('text', { x: 8, y: top - 8, fill: c.fg, 'font-size': 12 }, 'training p');
  table.cols.forEach((q, j) => add('text', { x: left + j * cell + cell / 2, y: top - 8, 'text-anchor': 'middle', fill: c.fg, 'font-size': 12 }, `q = ${q}`));
  table.rows.forEach((p, i) => {
    add('text', { x: left - 8, y: top + i * h + h / 2 + 4, 'text-anchor': 'end', fill: c.fg, 'font-size': 12 }, `p = ${p}`);
    const row = table.mean[i];
    const finite = row.map((v, j) => [v, j]).filter(([v]) => Number.isFinite(v));
    const pick = finite.length ? finite.reduce((a, b) => ((best === 'min' ? b[0] < a[0] : b[0] > a[0]) ? b : a))[1] : -1;
    row.forEach((v, j) => {
      const x = left + j * cell, y = top + i * h;
      // viridis without its faint yellow end; dark text on the light half
      const k = Number.isFinite(v) ? 0.85 * t(v) : 0;
      add('rect', { x, y, width: cell - 2, height: h - 2, fill: Number.isFinite(v) ? seqScale(k) : c.grid,
        stroke: j === pick ? c.fg : 'none', 'stroke-width': j === pick ? 2.5 : 0 });
      const ink = k > 0.5 ? '#111' : '#fff';
      add('text', { x: x + cell / 2 - 1, y: y + 19, 'text-anchor': 'middle', fill: ink, 'font-size': 12, 'font-weight': j === pick ? 700 : 400 },
        fmt(v));
      add('text', { x: x + cell / 2 - 1, y: y + 35, 'text-anchor': 'middle', fill: ink, 'font-size': 10 }, `± ${fmt(table.std[i][j])}`);
    });
  });
  container.replaceChildren(svg);
  return svg;
}

// box(title) -> a holder; first: settings[0]'s aggregate; res: the whole run (every training p).
export function drawMdConvergence(box, first, res) {
  const settings = res?.settings ?? [{ label: '', options: { p: 1.75 }, result: first }];
  if (res && settings.length > 1) {
    drawTableHeatmap(box('final D_p(W^mm_q, W): training p (rows) against the l_q SVM (columns), mean ± std over seeds; outlined: the smallest of the row'),
      mdTable(res, 'div'), { title: 'final divergence', log: true, best: 'min' });
    drawTableHeatmap(box('final corr(W, W^mm_q), mean ± std over seeds; outlined: the largest of the row'),
      mdTable(res, 'corr'), { title: 'final correlation', log: false, best: 'max' });
  }
  for (const s of settings) {
    const r = s.result, p = s.options.p;
    const curves = (metric) => MD_QS.map((q) => ({ label: `q = ${q}`, ...r.series[columnName(`q${q}`, metric)] }))
      .filter((cv) => cv.mean);
    drawBands(box(`p = ${p}: D_p(W^mm_q, W(k)) in the training p (${r.iters} iterations; median, 10–90 % of ${r.seeds.length} seeds)`),
      r.iteration, curves('div'), { y: { label: `D_${p}`, log: true } });
    drawBands(box(`p = ${p}: corr(W(k), W^mm_q) (mean ± std)`), r.iteration, curves('corr'), { y: { label: 'corr', log: false } });
  }
}

// joint-wv: one token plane per p.
export function drawJointWv(box, r) {
  const { n } = r;
  const v = finalOf(r);
  const tokens = planeTokens(r);
  for (const P of Object.keys(r.selections)) {
    const sel = r.selections[P]?.[0] ?? [];
    const of = (metric) => v(columnName(P, metric));
    const holder = box(`${P.replace('p', 'p = ')}: selection (${sel.join(', ')}); paths of W(k) z_i / max‖W(k) z_i‖, arrows W^mm_p z_i ` +
      `(corrW ${of('corrW').toFixed(4)}, D_W ${fmt(of('divW'))}; corrV ${of('corrV').toFixed(4)}, D_v ${fmt(of('divV'))})`);
    const paths = normalizedPaths(r, P);
    const arrows = Array.from({ length: n }, (_, i) => ({ seq: i, ref: 'lp', to: unit([of(indexedName('Wmmz', i, 0)), of(indexedName('Wmmz', i, 1))]) }))
      .filter((a) => a.to.every(Number.isFinite));
    createTokenPlane(holder).update({ tokens, paths, arrows, selected: sel, xlabel: 'x₁', ylabel: 'x₂', draggable: false, domainKey: P });
  }
}
