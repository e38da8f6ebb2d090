// Heatmaps (d3 scales and axes).
//  createTimeHeatmap: softmax probability of every token (rows, grouped by sequence) over
//    iterations (columns), drawn on a canvas under an SVG with the axes; exports as SVG with the
//    raster embedded.
//  createMatrices: several matrices side by side on one colour scale (rects), e.g. W(k)/||W(k)||
//    next to the SVM solutions, or the current softmax per sequence with the selected token marked.
import { select } from 'd3-selection';
import { scaleLinear, scaleBand } from 'd3-scale';
import { axisBottom, axisLeft, axisRight } from 'd3-axis';
import { themeColors, seqColor, seqScale, divScale } from './theme.js';
import { SVG_NS, setIf, styleAxis, emptyGroupInPlace } from './svg.js';

// '#rrggbb' or 'rgb(r, g, b)' -> [r, g, b]
export function parseColor(col) {
  if (col.startsWith('#')) return [1, 3, 5].map((k) => parseInt(col.slice(k, k + 2), 16));
  return col.match(/\d+/g).slice(0, 3).map(Number);
}

function colorbar(svg, { x0, y0, h, scale, domain, c, label }) {
  const steps = 40;
  const g = svg.append('g').attr('class', 'colorbar');
  for (let k = 0; k < steps; k++) {
    const t0 = k / steps;
    g.append('rect').attr('x', x0).attr('y', y0 + h - (k + 1) * (h / steps)).attr('width', 10).attr('height', h / steps + 0.5)
      .attr('fill', scale(t0 + 0.5 / steps));
  }
  const ax = g.append('g').attr('transform', `translate(${x0 + 10},0)`);
  colorbarAxis(ax, { y0, h, domain, c });
  if (label) g.append('text').attr('x', x0).attr('y', y0 - 4).attr('fill', c.fg).attr('font-size', 10).text(label);
  return g;
}

// The colour bar's axis, drawn into an empty group (a new domain: a new group in the old one's place,
// drawn as on a new bar; the bar's 40 colour steps do not depend on the domain).
function colorbarAxis(ax, { y0, h, domain, c }) {
  ax = select(emptyGroupInPlace(ax.node()));
  const s = scaleLinear().domain(domain).range([y0 + h, y0]);
  // one tick per ~28 px (six labels in a 58 px bar overlapped each other and the title)
  ax.call(axisRight(s).ticks(Math.max(2, Math.min(5, Math.floor(h / 28)))));
  styleAxis(ax, c);
  return ax;
}

// data: { iterations: number[] (frames), T, units, unitSeq: number[] (sequence of each unit),
//         unitLabel: string[], values: Float64Array (frame-major: f*units*T + u*T + t) }
// The static parts (y axis, strips, colour bar) are rebuilt only when the layout changes; each
// update redraws the raster (one texel per column and token, scaled up without smoothing) and the
// iteration axis.
export function createTimeHeatmap(container) {
  const wrap = document.createElement('div');
  wrap.className = 'time-heatmap';
  wrap.style.position = 'relative';
  const canvas = document.createElement('canvas');
  canvas.style.position = 'absolute';
  canvas.style.imageRendering = 'pixelated';
  canvas.width = 0; canvas.height = 0;  // no box until the first drawing places it (layout shift)
  const svgEl = document.createElementNS(SVG_NS, 'svg');
  svgEl.style.position = 'relative';
  wrap.append(canvas, svgEl);
  container.append(wrap);
  let data = null;
  let geom = null;
  let layoutKey = null;
  let gx = null;
  let lut = null;

  function layout(c, width) {
    const rows = data.units * data.T;
    // rows of at most 40 px: a one-sequence prompt (3 rows) still gets a readable band and colour bar
    const rowPx = Math.max(2, Math.min(40, Math.floor(240 / Math.max(rows, 1))));
    const m = { top: 8, right: 58, bottom: 36, left: 58 };
    const ph = rows * rowPx, pw = width - m.left - m.right;
    const height = ph + m.top + m.bottom;
    geom = { m, pw, ph, width, height, rows };
    const svg = select(svgEl).attr('width', width).attr('height', height).attr('viewBox', `0 0 ${width} ${height}`);
    svg.selectAll('*').remove();
    canvas.style.left = `${m.left}px`; canvas.style.top = `${m.top}px`;
    canvas.style.width = `${pw}px`; canvas.style.height = `${ph}px`;
    const y = scaleBand().domain(data.unitLabel.map((_, u) => u)).range([m.top, m.top + ph]);
    const gy = svg.append('g').attr('transform', `translate(${m.left},0)`)
      .call(axisLeft(y).tickFormat((u) => data.unitLabel[u]).tickValues(y.domain().filter((u) => data.units <= 16 || u % Math.ceil(data.units / 16) === 0)));
    styleAxis(gy, c);
    svg.append('g').selectAll('line').data(data.unitLabel.map((_, u) => u).slice(1)).join('line')
      .attr('x1', m.left).attr('x2', m.left + pw).attr('y1', (u) => y(u)).attr('y2', (u) => y(u))
      .attr('stroke', c.bg).attr('stroke-width', 1);
    svg.append('g').selectAll('rect').data(data.unitLabel.map((_, u) => u)).join('rect')
      .attr('x', m.left - 4).attr('width', 3).attr('y', (u) => y(u)).attr('height', y.bandwidth())
      .attr('fill', (u) => seqColor(data.unitSeq[u]));
    svg.append('text').attr('x', m.left + pw / 2).attr('y', height - 4).attr('text-anchor', 'middle').attr('fill', c.fg).text('iteration k');
    colorbar(svg, { x0: m.left + pw + 10, y0: m.top + 12, h: Math.max(40, ph - 14), scale: seqScale, domain: [0, 1], c, label: 's_it' });
    gx = svg.append('g').attr('transform', `translate(0,${m.top + ph})`);
    lut = Array.from({ length: 256 }, (_, k) => parseColor(seqScale(k / 255)));
  }

  // Columns of the raster cover fixed iteration ranges of [0, xmax] (xmax: the run's length), so
  // an update only paints the columns reached since the last one.
  let img = null, drawn = 0, drawnFrames = 0, xmaxDrawn = null, source = null;
  let knownWidth = null;
  function render() {
    if (!data) return;
    const c = themeColors();
    knownWidth ??= container.clientWidth;
    const width = Math.max(240, knownWidth || 400);
    const key = [width, data.units, data.T, c.dark, data.unitLabel.join('|')].join(';');
    const frames = data.iterations.length;
    const lastIt = frames ? data.iterations[frames - 1] : 0;
    const xmax = Math.max(1, data.xmax ?? lastIt);
    if (key !== layoutKey || xmax !== xmaxDrawn || frames < drawnFrames || data.source !== source) {
      source = data.source;
      if (key !== layoutKey) { layoutKey = key; layout(c, width); }
      xmaxDrawn = xmax;
      const x = scaleLinear().domain([0, xmax]).range([geom.m.left, geom.m.left + geom.pw]);
      gx.call(axisBottom(x).ticks(Math.max(2, Math.floor(geom.pw / 80))));
      styleAxis(gx, c);
      const cols = Math.max(1, geom.pw);
      canvas.width = cols; canvas.height = geom.rows;
      img = canvas.getContext('2d').createImageData(cols, geom.rows);
      const bg = c.dark ? [40, 42, 46] : [240, 240, 240];
      for (let o = 0; o < img.data.length; o += 4) { img.data[o] = bg[0]; img.data[o + 1] = bg[1]; img.data[o + 2] = bg[2]; img.data[o + 3] = 255; }
      drawn = 0;
    }
    drawnFrames = frames;
    if (!frames) { canvas.getContext('2d').putImageData(img, 0, 0); return; }
    const { rows } = geom;
    const cols = canvas.width;
    const upto = Math.min(cols, Math.floor((lastIt / xmax) * cols) + 1);   // columns whose start is reached
    let f = 0;
    const start = drawn;
    for (let px = start; px < upto; px++) {
      const it = (px / cols) * xmax;                      // the first recorded frame at or after the column start
      while (f + 1 < frames && data.iterations[f] < it) f++;
      for (let r = 0; r < rows; r++) {
        const val = data.values[f * rows + r];
        const rgb = Number.isFinite(val) ? lut[Math.max(0, Math.min(255, Math.round(val * 255)))] : [128, 128, 128];
        const o = (r * cols + px) * 4;
        img.data[o] = rgb[0]; img.data[o + 1] = rgb[1]; img.data[o + 2] = rgb[2]; img.data[o + 3] = 255;
      }
    }
    // the last column keeps changing until the next one starts
    drawn = Math.max(0, upto - 1);
    if (upto > start) canvas.getContext('2d').putImageData(img, 0, 0, start, 0, upto - start, rows);
  }

  return {
    update(next) { data = next; render(); },
    resize(w) { knownWidth = w ?? container.clientWidth; render(); },
    svg() {
      // the same axes with the raster embedded as an <image> (scaled without smoothing)
      const clone = svgEl.cloneNode(true);
      if (geom) {
        const big = document.createElement('canvas');
        big.width = geom.pw; big.height = geom.ph;
        const bctx = big.getContext('2d');
        bctx.imageSmoothingEnabled = false;
        bctx.drawImage(canvas, 0, 0, geom.pw, geom.ph);
        const img = document.createElementNS(SVG_NS, 'image');
        img.setAttribute('x', geom.m.left); img.setAttribute('y', geom.m.top);
        img.setAttribute('width', geom.pw); img.setAttribute('height', geom.ph);
        img.setAttribute('preserveAspectRatio', 'none');
        img.setAttribute('href', big.toDataURL('image/png'));
        clone.insertBefore(img, clone.firstChild);
      }
      clone.setAttribute('width', geom?.width ?? 400);
      clone.setAttribute('height', geom?.height ?? 200);
      return clone;
    },
  };
}

// The grid of matrices: as many per row as fit with cells >= 7 px, each item at least as wide as
// its label allows.
function matricesLayout(data, width) {
  const rows = data.items[0].M.length, cols = data.items[0].M[0]?.length ?? 1;
  const k = data.items.length;
  const barW = 46;
  const gap = 14;
  const labelW = data.rowNames ? 44 : 18;
  const avail = width - barW - labelW - 4;
  let perRow = k;
  const labelPx = Math.max(...data.items.map((it) => it.label.length * 6.2));
  const cellFor = (pr) => Math.min(data.maxCell ?? 40, Math.floor((avail - gap * (pr - 1)) / (pr * cols)));
  while (perRow > 1 && (cellFor(perRow) < 7 || cellFor(perRow) * cols + gap < labelPx * 0.8)) perRow--;
  const cell = Math.max(3, cellFor(perRow));
  const itemH = rows * cell;
  const itemW = Math.max(cols * cell, Math.min(labelPx, (avail - gap * (perRow - 1)) / perRow));
  const gridRows = Math.ceil(k / perRow);
  const top = 18;
  const height = gridRows * (itemH + top + 10) + 8 + (data.colNames ? 10 : 0);
  return { width, rows, cols, k, barW, gap, labelW, perRow, cell, itemH, itemW, top, height };
}

// The colour domain: the data's, else symmetric (div) or from 0 (seq) to the largest |value|.
function matricesDomain(data) {
  if (data.domain) return data.domain;
  let mx = 1e-12;
  for (const it of data.items) for (const row of it.M) for (const v of row) if (Number.isFinite(v) && Math.abs(v) > mx) mx = Math.abs(v);
  mx = Number(mx.toPrecision(2));
  return data.scheme === 'div' ? [-mx, mx] : [0, mx];
}

// The items' frames (label, cell/value/mark groups, border, row and column names) and the colour
// bar's group, rebuilt when the layout changes.
function buildMatrices(svg, data, L, c) {
  const { width, perRow, itemW, itemH, gap, top, labelW, cell, cols, height } = L;
  svg.attr('width', width).attr('height', Math.max(height, 90)).attr('viewBox', `0 0 ${width} ${Math.max(height, 90)}`);
  svg.selectAll('*').remove();
  data.items.forEach((it, idx) => {
    const gx0 = labelW + (idx % perRow) * (itemW + gap), gy0 = Math.floor(idx / perRow) * (itemH + top + 10) + top;
    const g = svg.append('g').attr('class', 'item').attr('transform', `translate(${gx0},${gy0})`);
    g.append('text').attr('class', 'label').attr('x', 0).attr('y', -5).attr('fill', c.fg).attr('font-size', 11);
    g.append('g').attr('class', 'cells');
    g.append('g').attr('class', 'vals');
    g.append('g').attr('class', 'marks');
    g.append('rect').attr('width', cols * cell).attr('height', itemH).attr('fill', 'none').attr('stroke', c.muted).attr('stroke-width', 0.5);
    if (data.colNames) {
      g.selectAll('text.cn').data(data.colNames).join('text').attr('class', 'cn').attr('x', (_, cc) => cc * cell + cell / 2).attr('y', itemH + 11)
        .attr('text-anchor', 'middle').attr('font-size', 9).attr('fill', c.muted).text((d) => d);
    }
    if (data.rowNames && idx % perRow === 0) {
      g.selectAll('text.rn').data(data.rowNames).join('text').attr('class', 'rn').attr('x', -4).attr('y', (_, r) => r * cell + cell / 2 + 3.5)
        .attr('text-anchor', 'end').attr('font-size', 9).attr('fill', (_, r) => (data.rowSeq === false ? c.muted : seqColor(data.rowSeq?.[r] ?? r))).text((d) => d);
    }
  });
  svg.append('g').attr('class', 'cbar');
}

// One item's label, cell fills, value texts and marks. Per update only what changed is written:
// cell geometry on a layout change, fills and value texts when their value moved (the current
// softmax updates many times a second while playing; rewriting every attribute made Chromium
// re-layout the SVG each time).
function updateMatrix(g, it, { cell, showValues, fill, toT, c }) {
  setIf(g.select('text.label').node(), 'text', it.label);
  const cells = [];
  it.M.forEach((row, r) => row.forEach((v, cc) => cells.push({ r, c: cc, v })));
  g.select('g.cells').selectAll('rect').data(cells).join((enter) => enter.append('rect')
    .attr('x', (d) => d.c * cell).attr('y', (d) => d.r * cell).attr('width', cell).attr('height', cell))
    .each(function (d) { setIf(this, 'fill', fill(d.v)); });
  if (showValues && cell >= 22) {
    g.select('g.vals').selectAll('text').data(cells).join((enter) => enter.append('text')
      .attr('x', (d) => d.c * cell + cell / 2).attr('y', (d) => d.r * cell + cell / 2 + 3.5).attr('text-anchor', 'middle')
      .attr('font-size', 9))
      .each(function (d) {
        setIf(this, 'fill', toT(d.v) > 0.6 ? '#111' : '#fff');
        setIf(this, 'text', Number.isFinite(d.v) ? d.v.toFixed(2).replace(/^0\./, '.') : '');
      });
  }
  g.select('g.marks').selectAll('rect').data(it.marks ?? []).join((enter) => enter.append('rect')
    .attr('fill', 'none'))
    .each(function (d) {
      setIf(this, 'x', d.c * cell + 1); setIf(this, 'y', d.r * cell + 1);
      setIf(this, 'width', cell - 2); setIf(this, 'height', cell - 2);
      setIf(this, 'stroke', d.kind === 'selected' ? c.fg : c.muted);
      setIf(this, 'stroke-width', d.kind === 'selected' ? 2 : 1.2);
      setIf(this, 'stroke-dasharray', d.kind === 'optimal' ? '2 2' : null);
    });
}

// data: { items: [{ label, M: number[][], marks?: [{ r, c, kind: 'selected' | 'optimal' }] }],
//         scheme: 'seq' | 'div', domain?: [lo, hi], rowLabel, colLabel, showValues, rowNames?, colNames?,
//         rowSeq?: the sequence of each row (its name's colour), false: no sequence colour (rows not sequences) }
export function createMatrices(container) {
  const svgEl = document.createElementNS(SVG_NS, 'svg');
  container.append(svgEl);
  let data = null;
  let layoutKey = null, colorKey = null, colorBarKey = null;
  let knownWidth = null;

  function render() {
    if (!data || !data.items.length) { select(svgEl).selectAll('*').remove(); layoutKey = null; return; }
    const c = themeColors();
    knownWidth ??= container.clientWidth;
    const L = matricesLayout(data, Math.max(240, knownWidth || 400));
    const svg = select(svgEl);
    const key = [L.width, L.k, L.rows, L.cols, c.dark, !!data.showValues, data.scheme, (data.rowNames ?? []).join('|'), (data.colNames ?? []).join('|'), L.cell, L.perRow, L.itemW].join(';');
    if (key !== layoutKey) {
      layoutKey = key;
      colorKey = null; colorBarKey = null;
      buildMatrices(svg, data, L, c);
    }
    const [lo, hi] = matricesDomain(data);
    const scale = data.scheme === 'div' ? divScale : seqScale;
    const toT = (v) => (hi > lo ? (v - lo) / (hi - lo) : 0.5);
    const fill = (v) => (Number.isFinite(v) ? scale(Math.max(0, Math.min(1, toT(v)))) : c.grid);
    const groups = svg.selectAll('g.item').nodes();
    data.items.forEach((it, idx) => updateMatrix(select(groups[idx]), it, { cell: L.cell, showValues: data.showValues, fill, toT, c }));
    // the bar is drawn once per layout, scheme and label; its axis again when the domain changes
    const bar = { x0: L.width - L.barW + 2, y0: L.top + 4, h: Math.max(50, Math.min(140, L.height - L.top - 24)), scale, domain: [lo, hi], c, label: data.colorLabel ?? '' };
    const barKey = `${data.scheme};${bar.label}`;
    const ck = `${lo};${hi}`;
    if (barKey !== colorBarKey) {
      colorBarKey = barKey;
      colorKey = ck;
      const cb = svg.select('g.cbar');
      cb.selectAll('*').remove();
      colorbar(cb, bar);
    } else if (ck !== colorKey) {
      colorKey = ck;
      colorbarAxis(svg.select('g.cbar g.colorbar > g'), bar);
    }
  }

  return {
    update(next) { data = next; render(); },
    resize(w) { knownWidth = w ?? container.clientWidth; render(); },
    svg() { return svgEl; },
  };
}
