// Streaming curves with uPlot (fast canvas; axes, legend and log scales by the library).
// createCurves(container, options) -> { update(data), resize(), svg(), destroy() }
//   options: { xlabel, series: [{ label, color ('fg': the theme's text colour), dash: [a,b], scale: 'y' | 'y2' }],
//              y: { label, log }, y2?: { label, log }, height }
//   data:    { x: number[], ys: number[][] } (one array per series; non-finite or, on a log
//            scale, non-positive values are left out, never plotted as NaN)
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { themeColors } from './theme.js';
import { drawLineChart, decimatedIndices } from './linechart.js';
import { logGrid, logTicks, logLabels } from './log-axis.js';
import { tickLabels } from './number-format.js';

export function createCurves(container, options) {
  const root = document.createElement('div');
  root.className = 'curves';
  container.append(root);
  let plot = null;
  let data = { x: [], ys: options.series.map(() => []) };
  let builtFor = null;
  let knownWidth = null;

  function clean(values, log) {
    return Array.from(values, (v) => (Number.isFinite(v) && (!log || v > 0) ? v : null));
  }

  // At most MAX_POINTS points per series go to uPlot (every stride-th, the last always): the
  // streamed history of a long run grows to 20000 iterations, and copying and drawing all of it
  // on every redraw costs time without adding pixels (the chart is < 1000 px wide).
  const MAX_POINTS = 1000;
  function aligned() {
    const seriesScale = (s) => (s.scale === 'y2' ? options.y2 : options.y);
    const n = data.x.length;
    const idx = decimatedIndices(n, MAX_POINTS);
    const pick = (arr) => (idx.length === n ? arr : idx.map((i) => arr[i]));
    return [Array.from(pick(data.x)), ...options.series.map((s, k) => clean(pick(data.ys[k] ?? []), seriesScale(s)?.log))];
  }

  function build() {
    plot?.destroy();
    const c = themeColors();
    knownWidth ??= root.clientWidth || container.clientWidth;
    const width = Math.max(200, knownWidth || 400);
    const height = options.height ?? 220;
    // y axes as wide as their longest tick label (a fixed width let "20,000" run into the axis
    // label); 7 px per character of the 12 px font, plus the label and tick gaps
    const ySize = (u, values) => Math.max(44, 26 + 7 * Math.max(0, ...(values ?? []).map((v) => String(v ?? '').length)));
    const axis = (label, side, scale) => {
      const log = !!(scale && (scale === 'y2' ? options.y2 : options.y)?.log);
      return {
        label, side, ...(scale ? { scale } : {}), stroke: c.fg, labelSize: 16, size: side === 2 ? 36 : ySize,
        // a log axis: uPlot puts a split at 1..9 x 10^e; grid lines at every one read as hatching
        // on a small chart, so the minor ones get a short tick only (logGrid)
        grid: { stroke: c.grid, width: 1, ...(log ? { filter: logGrid } : {}) },
        ticks: { stroke: c.grid, width: 1, ...(log ? { filter: logTicks } : {}) },
        font: c.font, labelFont: c.font,
        // (a linear axis: uPlot's own labels, without Intl's cold start in the first build: number-format.js)
        values: log ? logLabels : linearLabels,
      };
    };
    // x from 0 to the run's length when known (curves grow left to right on a fixed axis)
    const scales = { x: { time: false, range: (u, min, max) => [0, Math.max(data.xmax ?? max ?? 1, 1)] }, y: { distr: options.y.log ? 3 : 1 } };
    if (options.y2) scales.y2 = { distr: options.y2.log ? 3 : 1 };
    const axes = [axis(options.xlabel, 2), axis(options.y.label, 3, 'y')];
    if (options.y2) axes.push({ ...axis(options.y2.label, 1, 'y2'), grid: { show: false } });
    plot = new uPlot({
      width, height,
      scales,
      axes,
      cursor: { drag: { x: false, y: false }, points: { show: false } },
      legend: { show: true, live: false },
      series: [
        { label: options.xlabel },
        ...options.series.map((s) => ({
          label: s.label, stroke: colorOf(s, c), width: 2, dash: s.dash, scale: s.scale ?? 'y',
          points: { show: false }, spanGaps: true,
        })),
      ],
    }, aligned(), root);
    builtFor = c.dark;
  }

  return {
    root,
    update(next) {
      data = next;
      if (!plot || builtFor !== themeColors().dark) build();
      else plot.setData(aligned());
    },
    setSeries(series) {
      options.series = series;
      build();
    },
    resize(w) {
      knownWidth = w ?? (root.clientWidth || container.clientWidth);
      if (!plot) return;
      const width = Math.max(200, knownWidth);
      if (Math.abs(width - plot.width) > 1) plot.setSize({ width, height: plot.height });
    },
    rebuild: build,
    // Vector export of the same data (d3), with both scales when there is a second axis.
    svg() {
      const svgEl = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
      const width = plot?.width ?? 480, height = (plot?.height ?? 220) + 20;
      const main = options.series.map((s, k) => ({ s, k })).filter(({ s }) => s.scale !== 'y2');
      drawLineChart(svgEl, {
        width, height, x: Array.from(data.x), xdomain: data.xmax ? [0, data.xmax] : undefined, xlabel: options.xlabel, ylabel: options.y.label, ylog: options.y.log,
        series: main.map(({ s, k }) => ({ label: s.label, color: colorOf(s, themeColors()), dash: s.dash?.join(' '), values: Array.from(data.ys[k] ?? []) })),
      });
      return svgEl;
    },
    destroy() { plot?.destroy(); root.remove(); },
    get plot() { return plot; },
  };
}

const linearLabels = tickLabels();

// color 'fg': the theme's text colour, resolved at each build (a theme switch rebuilds the chart)
const colorOf = (s, c) => (s.color === 'fg' ? c.fg : s.color);
