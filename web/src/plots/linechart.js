// A static line/point chart drawn with d3 (scales, axes, shapes) into an <svg>. Used for the
// spectrum panel and to export the streaming uPlot curves as vector SVG.
import { select } from 'd3-selection';
import { scaleLinear, scaleLog } from 'd3-scale';
import { axisBottom, axisLeft } from 'd3-axis';
import { line } from 'd3-shape';
import { themeColors } from './theme.js';
import { SVG_NS, setIf, styleAxis, emptyGroupInPlace } from './svg.js';

// The leading digit of v > 0 (2 for 0.2, 5 for 500): which of a log axis's splits get a grid line or a label.
export const mantissa = (v) => Math.round(v / 10 ** Math.floor(Math.log10(v) + 1e-9));

// Indices of at most ~maxPoints of n streamed points: every stride-th, the last always (a long run's
// history adds no pixels to a chart a few hundred pixels wide, but costs time on every redraw).
export function decimatedIndices(n, maxPoints) {
  const stride = Math.max(1, Math.ceil(n / maxPoints));
  const idx = [];
  for (let i = 0; i < n; i += stride) idx.push(i);
  if (n && idx.at(-1) !== n - 1) idx.push(n - 1);
  return idx;
}

// spec: { width, height, x: number[] | number[][] (per series), series: [{ label, color, dash,
//   values: number[], points?: bool, line?: bool, x?: number[] }], xlabel, ylabel, ylog, xdomain,
//   ydomain, xticks, xlog?: bool, xtickValues?: number[] (a log x axis's labelled ticks) }
const labelWidths = new Map(); // legend label -> rendered width (px); one font per page

export function drawLineChart(svgEl, spec) {
  const c = themeColors();
  const width = spec.width, height = spec.height;
  // legend items flow left to right and wrap by their text's width (a fixed 150 px column clipped
  // long labels such as "Frobenius W^mm" at phone width). The width is measured in this svg (same
  // font); a per-character estimate under-measured wide system fonts and items overlapped. A
  // detached svg (figure export) measures 0: the estimate is the fallback there.
  // Cached per label: measuring forces a layout, and the embeds redraw their curves during a run.
  let probe = null;
  const textWidth = (label) => {
    if (labelWidths.has(label)) return labelWidths.get(label);
    probe ??= select(svgEl).append('text').attr('visibility', 'hidden');
    const measured = probe.text(label).node().getComputedTextLength?.() ?? 0;
    if (measured > 0) labelWidths.set(label, measured);
    return measured > 0 ? measured : label.length * 6.6;
  };
  const legend = [];
  {
    let lx = 0, row = 0;
    const avail = width - 54 - 8;
    for (const s of spec.series) {
      const w = 27 + textWidth(s.label) + 14;
      if (lx > 0 && lx + w > avail) { lx = 0; row++; }
      legend.push({ s, x: lx, row });
      lx += w;
    }
    probe?.remove();
  }
  const legendRows = legend.length ? legend.at(-1).row + 1 : 0;
  const m = { top: 16 + legendRows * 16, right: 22, bottom: 36, left: 54 };
  const pts = [];
  for (const s of spec.series) {
    const xs = s.x ?? spec.x;
    s.values.forEach((y, i) => {
      if (Number.isFinite(y) && Number.isFinite(xs[i]) && (!spec.ylog || y > 0) && (!spec.xlog || xs[i] > 0)) pts.push([xs[i], y]);
    });
  }
  let xd = spec.xdomain ?? extent(pts.map((p) => p[0]), [0, 1]);
  let yd = spec.ydomain ?? extent(pts.map((p) => p[1]), spec.ylog ? [1e-3, 1] : [0, 1]);
  if (xd[0] === xd[1]) xd = spec.xlog ? [xd[0] / 10, xd[1] * 10] : [xd[0] - 1, xd[1] + 1];
  if (yd[0] === yd[1]) yd = spec.ylog ? [yd[0] / 10, yd[1] * 10] : [yd[0] - 1, yd[1] + 1];
  const x = (spec.xlog ? scaleLog() : scaleLinear()).domain(xd).range([m.left, width - m.right]);
  const y = (spec.ylog ? scaleLog() : scaleLinear()).domain(yd).range([height - m.bottom, m.top]);
  if (!spec.ylog && !spec.ydomain) y.nice();
  // A redraw of the same chart (same size, labels, legend and series styles: a streaming curve
  // while playing) keeps its elements: each axis is redrawn only when its scale changed, the
  // lines and points get their new data in place. Anything else builds the chart anew.
  const frameKey = JSON.stringify([width, height, c.dark, spec.xlabel, spec.ylabel, !!spec.ylog, spec.xticks,
    legend.map(({ s, x: lx, row }) => [s.label, s.color, s.dash, s.width, s.radius, !!s.points, !!s.hollow, s.line !== false, lx, row])]);
  let st = charts.get(svgEl);
  if (!st || st.frameKey !== frameKey || st.svgChildren !== svgEl.childElementCount) {
    st = buildFrame(svgEl, spec, { c, width, height, m, legend, frameKey });
    charts.set(svgEl, st);
  }
  const xticks = spec.xticks ?? Math.max(2, Math.floor(width / 80));
  const xKey = JSON.stringify([x.domain(), x.range(), xticks, spec.xtickValues]);
  if (xKey !== st.xKey) {
    st.xKey = xKey;
    const ax = spec.xtickValues ? axisBottom(x).tickValues(spec.xtickValues).tickFormat((v) => String(v)) : axisBottom(x).ticks(xticks);
    st.gx = select(emptyGroupInPlace(st.gx.node())).call(ax);
    styleAxis(st.gx, c);
  }
  const yKey = JSON.stringify([y.domain(), y.range()]);
  if (yKey !== st.yKey) {
    st.yKey = yKey;
    const gy = st.gy = select(emptyGroupInPlace(st.gy.node())).call(spec.ylog ? axisLeft(y).ticks(4, '~e') : axisLeft(y).ticks(5));
    styleAxis(gy, c);
    // grid lines: on a log axis at the decades only (2 and 5 too when a decade is >= 60 px tall), and
    // its minor ticks only when a decade has >= 30 px: d3 puts a tick at 1..9 x 10^e, and a grid line
    // at each read as hatching on a small chart
    const decadePx = spec.ylog ? Math.abs(y(yd[0]) - y(yd[1])) / Math.max(1e-9, Math.abs(Math.log10(yd[1] / yd[0]))) : Infinity;
    const gridAt = (v) => !spec.ylog || mantissa(v) === 1 || (decadePx >= 60 && (mantissa(v) === 2 || mantissa(v) === 5));
    if (spec.ylog && decadePx < 30) gy.selectAll('.tick').filter((v) => mantissa(v) !== 1).select('line').remove();
    gy.selectAll('.tick').filter(gridAt).select('line').clone().attr('x2', width - m.left - m.right).attr('stroke', c.grid);
  }
  spec.series.forEach((s, k) => {
    const xs = s.x ?? spec.x;
    const data = s.values.map((v, i) => [xs[i], v]).filter(([a, b]) => Number.isFinite(a) && Number.isFinite(b) && (!spec.ylog || b > 0) && (!spec.xlog || a > 0));
    const { path, dots } = st.series[k];
    if (path) setIf(path, 'd', line().x((d) => x(d[0])).y((d) => y(d[1]))(data));
    if (dots) {
      select(dots).selectAll('circle').data(data).join((enter) => enter.append('circle')
        .attr('r', s.radius ?? 3.5).attr('fill', s.hollow ? c.bg : s.color).attr('stroke', s.color).attr('stroke-width', 1.5))
        .each(function (d) { setIf(this, 'cx', x(d[0])); setIf(this, 'cy', y(d[1])); });
    }
  });
  return { x, y };
}

const charts = new WeakMap(); // svg element -> its drawn frame (buildFrame) and axis keys

// The chart's elements in drawing order: the axes' groups (filled by the caller), the axis labels,
// the plot's lines and points (their data set by the caller) and the legend.
function buildFrame(svgEl, spec, { c, width, height, m, legend, frameKey }) {
  const svg = select(svgEl).attr('width', width).attr('height', height)
    .attr('viewBox', `0 0 ${width} ${height}`);
  svg.selectAll('*').remove();
  const gx = svg.append('g').attr('transform', `translate(0,${height - m.bottom})`);
  const gy = svg.append('g').attr('transform', `translate(${m.left},0)`);
  svg.append('text').attr('x', (m.left + width - m.right) / 2).attr('y', height - 4)
    .attr('text-anchor', 'middle').attr('fill', c.fg).text(spec.xlabel ?? '');
  svg.append('text').attr('transform', `translate(12,${(m.top + height - m.bottom) / 2}) rotate(-90)`)
    .attr('text-anchor', 'middle').attr('fill', c.fg).text(spec.ylabel ?? '');
  const plot = svg.append('g');
  const series = spec.series.map((s) => {
    const path = s.line !== false ? plot.append('path')
      .attr('fill', 'none').attr('stroke', s.color).attr('stroke-width', s.width ?? 1.8)
      .attr('stroke-dasharray', s.dash ?? null).node() : null;
    const dots = s.points ? plot.append('g').node() : null;
    return { path, dots };
  });
  // legend
  const lg = svg.append('g').attr('class', 'legend');
  legend.forEach(({ s, x: lx, row }) => {
    const gx0 = m.left + lx, gy0 = 10 + row * 16;
    const g = lg.append('g').attr('transform', `translate(${gx0},${gy0})`);
    g.append('line').attr('x1', 0).attr('x2', 22).attr('y1', 0).attr('y2', 0)
      .attr('stroke', s.color).attr('stroke-width', 2).attr('stroke-dasharray', s.dash ?? null);
    if (s.points) g.append('circle').attr('cx', 11).attr('cy', 0).attr('r', 3).attr('fill', s.hollow ? c.bg : s.color).attr('stroke', s.color);
    g.append('text').attr('x', 27).attr('y', 4).attr('fill', c.fg).text(s.label);
  });
  return { frameKey, gx, gy, series, xKey: null, yKey: null, svgChildren: svgEl.childElementCount };
}

function extent(values, fallback) {
  let lo = Infinity, hi = -Infinity;
  for (const v of values) { if (v < lo) lo = v; if (v > hi) hi = v; }
  return Number.isFinite(lo) ? [lo, hi] : fallback;
}

export function newSvg(parent) {
  const svg = document.createElementNS(SVG_NS, 'svg');
  parent.append(svg);
  return svg;
}
