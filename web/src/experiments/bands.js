// uPlot chart of mean ± std bands over iterations (one colour per curve, the band filled between
// mean + std and mean − std, as the papers plot seeds).
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { themeColors, seqColor } from '../plots/theme.js';

// curves: [{label, mean: number[], std: number[], color?, dash?}]; x: iterations (or opts.x.label's
// quantity, e.g. d for the rank experiment); opts: {x: {log, label}, y: {label, log}}
export function drawBands(container, x, curves, opts = {}) {
  container.replaceChildren();
  const c = themeColors();
  const ylog = !!opts.y?.log, xlog = !!opts.x?.log;
  const ok = (v, log) => (Number.isFinite(v) && (!log || v > 0) ? v : null);
  const xs = Array.from(x, (v) => (xlog && v <= 0 ? null : v));
  const keep = xs.map((v) => v !== null);
  const cut = (a) => Array.from(a).filter((_, i) => keep[i]);
  const data = [cut(xs)];
  const xLabel = opts.x?.label ?? 'iteration';
  const series = [{ label: xLabel }];
  const bands = [];
  curves.forEach((cv, k) => {
    const color = cv.color ?? seqColor(k, c.dark);
    const dash = cv.dash ? { dash: cv.dash } : {};
    const m = cut(cv.mean), s = cut(cv.std);
    data.push(m.map((v) => ok(v, ylog)));
    data.push(m.map((v, i) => ok(v + s[i], ylog)));
    data.push(m.map((v, i) => ok(v - s[i], ylog)));
    const base = series.length;
    series.push({ label: cv.label, stroke: color, width: 2, points: { show: !!opts.points }, spanGaps: true, ...dash });
    // The band edges: thin, and left out of the legend (class hides them, see panel.css).
    series.push({ label: '+std', stroke: color, width: 0.5, points: { show: false }, spanGaps: true, class: 'exp-band-edge' });
    series.push({ label: '−std', stroke: color, width: 0.5, points: { show: false }, spanGaps: true, class: 'exp-band-edge' });
    bands.push({ series: [base + 1, base + 2], fill: `${color}33` });
  });
  const axis = (label) => ({ label, stroke: c.fg, grid: { stroke: c.grid, width: 1 }, ticks: { stroke: c.grid, width: 1 },
    font: c.font, labelFont: c.font });
  const width = Math.max(280, container.clientWidth || 640);
  return new uPlot({
    width, height: opts.height ?? 300,
    // a log x axis ends at the last iteration (uPlot's default rounds it up to the next decade)
    scales: { x: { time: false, distr: xlog ? 3 : 1, ...(xlog ? { range: (u, min, max) => [Math.max(min, 1), max] } : {}) },
      y: { distr: ylog ? 3 : 1 } },
    axes: [axis(xLabel), axis(opts.y?.label ?? '')],
    series, bands,
    legend: { show: true, live: false },
    cursor: { drag: { x: true, y: false }, points: { show: false } },
  }, data, container);
}
