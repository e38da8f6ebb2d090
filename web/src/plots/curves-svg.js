// Streaming curves drawn as SVG with the d3 line chart (linechart.js), for the embeds: the same
// interface as curves.js (uPlot) without uPlot's ~22 KB gzipped, which an embed's budget (300 KB
// for HTML, JS, wasm and CSS; docs/BENCHMARKS.md, "Embeds") cannot carry next to the engine.
// An embed shows one or two small curve panels redrawn a few times a second, where SVG is cheap.
// createCurves(container, options) -> { root, update(data), setSeries(series[, data]), resize(w), rebuild(), svg(), destroy() }
//   setSeries(series, data): new series with their data, in one drawing (not setSeries and update's two)
//   options and data as in curves.js (y2 is not drawn: the embeds do not use a second axis).
import { themeColors } from './theme.js';
import { drawLineChart, decimatedIndices } from './linechart.js';

// At most this many points per series (every stride-th, the last always): a path of 20000 points
// redrawn while playing costs time without adding pixels to a chart a few hundred pixels wide.
const MAX_POINTS = 400;

export function createCurves(container, options) {
  const root = document.createElement('div');
  root.className = 'curves curves-svg';
  container.append(root);
  const svgEl = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  root.append(svgEl);
  let data = { x: [], ys: options.series.map(() => []) };
  let knownWidth = null;

  function spec(maxPoints) {
    const idx = decimatedIndices(data.x.length, maxPoints);
    // picked from the streamed arrays as they are (not copied first: a copy of a 20000-point history
    // on each redraw, to keep 400 of its points)
    const pick = (arr) => idx.map((i) => arr[i]);
    const c = themeColors();
    knownWidth ??= root.clientWidth || container.clientWidth;
    const main = options.series.map((s, k) => ({ s, k })).filter(({ s }) => s.scale !== 'y2');
    return {
      width: Math.max(200, knownWidth || 400), height: options.height ?? 220,
      x: pick(data.x), xdomain: [0, Math.max(data.xmax ?? data.x.at(-1) ?? 1, 1)],
      xlabel: options.xlabel, ylabel: options.y.label, ylog: options.y.log,
      series: main.map(({ s, k }) => ({
        label: s.label, color: s.color === 'fg' ? c.fg : s.color, dash: s.dash?.join(' '),
        values: pick(data.ys[k] ?? []),
      })),
    };
  }
  const draw = () => drawLineChart(svgEl, spec(MAX_POINTS));

  return {
    root,
    update(next) { data = next; draw(); },
    setSeries(series, next) {
      options.series = series;
      if (next) data = next;
      draw();
    },
    resize(w) {
      knownWidth = w ?? (root.clientWidth || container.clientWidth);
      draw();
    },
    rebuild: draw,
    // Vector export: every point, on a fresh element.
    svg() {
      const out = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
      const s = spec(Infinity);
      drawLineChart(out, { ...s, height: s.height + 20 });
      return out;
    },
    destroy() { root.remove(); },
  };
}
