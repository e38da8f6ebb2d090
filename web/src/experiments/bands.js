// uPlot chart of seed bands over iterations (one colour per curve, a line and a shaded band).
// Which band (the engine's numbers, attnsvm/experiments/seed_spread.hpp, as `attnsvm experiment`
// writes them):
// - a linear y axis: the mean, shaded mean ± std over the seeds, as the papers plot them;
// - a log y axis: the median, shaded between the 10 % and 90 % quantiles of the seeds. Where the
//   seeds spread over decades the std exceeds the mean, and mean − std <= 0 has no place on a log
//   axis (the band's edge used to dive across a gap to a tick labelled "0"); quantiles of positive
//   values are positive. A quantile <= 0 (a seed at exactly 0) is drawn at the axis' lowest value,
//   so the band stays continuous and never goes below the axis.
// A key under the chart says which band it is.
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { themeColors, seqColor } from '../plots/theme.js';
import { logGrid, logTicks, logLabels, positiveRange } from '../plots/log-axis.js';
import { tickLabels } from '../plots/number-format.js';
import { el } from './dom.js';

// The keys under the charts (and in the figures' captions, docs/RESULTS.md).
export const BAND_KEYS = {
  linear: 'line: mean over seeds · shaded: mean ± 1 std (linear axis)',
  log: 'line: median over seeds · shaded: 10–90 % of the seeds (log axis)',
};

const charts = new WeakMap(); // container -> {u, ylog, xlog, curves: [{label, line, lo, hi}]}

// The line and band edges of a curve: mean ± std on a linear axis; median, q10, q90 on a log axis
// (no band there when the curve has no quantiles, e.g. a single run).
function lineAndBand(cv, ylog) {
  if (!ylog) {
    const m = Array.from(cv.mean), s = Array.from(cv.std ?? m.map(() => 0));
    return { line: m, lo: m.map((v, i) => v - s[i]), hi: m.map((v, i) => v + s[i]) };
  }
  if (cv.median && cv.q10 && cv.q90) return { line: Array.from(cv.median), lo: Array.from(cv.q10), hi: Array.from(cv.q90) };
  return { line: Array.from(cv.mean ?? cv.median), lo: null, hi: null };
}

// curves: [{label, mean, std, median?, q10?, q90?, color?, dash?}]; x: iterations (or opts.x.label's
// quantity, e.g. d for the rank experiment); opts: {x: {log, label}, y: {label, log}, points, height}
export function drawBands(container, x, curves, opts = {}) {
  container.replaceChildren();
  const c = themeColors();
  const ylog = !!opts.y?.log, xlog = !!opts.x?.log;
  const finite = (v) => (Number.isFinite(v) ? v : null);
  const xs = Array.from(x, (v) => (xlog && v <= 0 ? null : v));
  const keep = xs.map((v) => v !== null);
  const cut = (a) => (a ? Array.from(a).filter((_, i) => keep[i]) : null);
  const drawn = curves.map((cv) => {
    const { line, lo, hi } = lineAndBand(cv, ylog);
    return { label: cv.label, line: cut(line).map(finite), lo: cut(lo)?.map(finite) ?? null, hi: cut(hi)?.map(finite) ?? null };
  });
  // a log axis: its range over the positive values drawn; an edge <= 0 (where the line is drawn)
  // goes to the range's bottom, a line <= 0 is left out
  let yRange = null;
  if (ylog) {
    yRange = positiveRange(drawn.flatMap((d) => [d.line, d.lo ?? [], d.hi ?? []]), uPlot.rangeLog);
    const floor = yRange?.[0] ?? null;
    const pos = (v) => (v !== null && v > 0 ? v : null);
    for (const d of drawn) {
      // (the edges where the line is finite, positive or not: the band has no gap where the line has one)
      const edge = (v, i) => (d.line[i] === null ? null : pos(v) ?? floor);
      if (d.lo) { d.lo = d.lo.map(edge); d.hi = d.hi.map(edge); }
      d.line = d.line.map(pos);
    }
  }
  const data = [cut(xs)];
  const xLabel = opts.x?.label ?? 'iteration';
  const series = [{ label: xLabel }];
  const bands = [];
  let shaded = false;
  curves.forEach((cv, k) => {
    const color = cv.color ?? seqColor(k, c.dark);
    const dash = cv.dash ? { dash: cv.dash } : {};
    const d = drawn[k];
    data.push(d.line);
    const base = series.length;
    series.push({ label: cv.label, stroke: color, width: 2, points: { show: !!opts.points }, spanGaps: true, ...dash });
    if (!d.lo) return;
    shaded ||= d.lo.some((v, i) => v !== null && v !== d.hi[i]);
    data.push(d.hi, d.lo);
    // The band edges: thin, and left out of the legend (class hides them, see panel.css).
    series.push({ label: 'upper', stroke: color, width: 0.5, points: { show: false }, spanGaps: true, class: 'exp-band-edge' });
    series.push({ label: 'lower', stroke: color, width: 0.5, points: { show: false }, spanGaps: true, class: 'exp-band-edge' });
    bands.push({ series: [base + 1, base + 2], fill: `${color}33` });
  });
  const axis = (label, log) => ({ label, stroke: c.fg, grid: { stroke: c.grid, width: 1, ...(log ? { filter: logGrid } : {}) },
    ticks: { stroke: c.grid, width: 1, ...(log ? { filter: logTicks } : {}) }, font: c.font, labelFont: c.font,
    values: log ? logLabels : linearLabels });
  const width = Math.max(280, container.clientWidth || 640);
  const u = new uPlot({
    width, height: opts.height ?? 300,
    // a log x axis ends at the last iteration (uPlot's default rounds it up to the next decade)
    scales: { x: { time: false, distr: xlog ? 3 : 1, ...(xlog ? { range: (u, min, max) => [Math.max(min, 1), max] } : {}) },
      y: { distr: ylog ? 3 : 1, ...(yRange ? { range: () => yRange } : {}) } },
    axes: [axis(xLabel, xlog), axis(opts.y?.label ?? '', ylog)],
    series, bands,
    legend: { show: true, live: false },
    cursor: { drag: { x: true, y: false }, points: { show: false } },
  }, data, container);
  if (shaded) container.append(el('p', { className: 'exp-band-key', textContent: ylog ? BAND_KEYS.log : BAND_KEYS.linear }));
  charts.set(container, { u, ylog, xlog, curves: drawn });
  return u;
}

const linearLabels = tickLabels();

// What a chart drawn by drawBands into `container` shows (the tests read it): per axis its scale
// (log or not, min, max) and tick labels; per curve the drawn line and band edges (null: a gap).
export function describeBands(container) {
  const ch = charts.get(container);
  if (!ch) return null;
  const { u } = ch;
  const axis = (k, log) => ({ log, min: u.scales[u.axes[k].scale].min, max: u.scales[u.axes[k].scale].max,
    labels: Array.from(u.axes[k]._values ?? []), splits: Array.from(u.axes[k]._splits ?? []) });
  return { x: axis(0, ch.xlog), y: axis(1, ch.ylog), curves: ch.curves, key: container.querySelector('.exp-band-key')?.textContent ?? null };
}
