// The two figures of the real-images study and ladder, drawn as SVG with d3 scales (vector: they print
// and export as they are). drawStudy: per method the test accuracy's mean with its 95% CI whisker and
// the chosen step, and the paired difference to GD with its CI. drawLadder: 1 − corr(W(k), Att-SVM)
// against k, both on log axes, one line per n, one facet per head; each line ends in its n's certified
// feasibility (disc: feasible, cross: infeasible, half disc: mixed (seeds differ), ?: undecided).
import { scaleLinear, scaleLog } from 'd3-scale';
import { interpolateViridis } from 'd3-scale-chromatic';
import { svgAppender } from '../plots/svg.js';
import { themeColors, OKABE_ITO } from '../plots/theme.js';
import { stepText } from './plan-text.js';


function reset(svg, width, height) {
  svg.replaceChildren();
  svg.setAttribute('width', width);
  svg.setAttribute('height', height);
  svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
  svg.setAttribute('font-family', 'system-ui, sans-serif');
  svg.setAttribute('font-size', '11');
  const add = svgAppender(svg);
  add('rect', { x: 0, y: 0, width, height, fill: themeColors().bg });
  return add;
}


// rows: plan-text.js's studyRows. Returns the height drawn.
export function drawStudy(svg, rows, { width = 600 } = {}) {
  const c = themeColors();
  const rowH = 34, top = 34, bottom = 38, labelW = Math.min(118, Math.max(86, width * 0.2)), gapW = 40;
  const height = top + rows.length * rowH + bottom;
  const add = reset(svg, width, height);
  const panelW = (width - labelW - gapW - 24) / 2;
  const x0 = labelW, x1 = labelW + panelW + gapW;
  // a CI past 100% (few seeds) is drawn to 100%: accuracy is at most 1
  const clip = (v) => Math.max(0, Math.min(1, v));
  const accs = rows.flatMap((r) => [r.accuracy.lo, r.accuracy.hi, r.accuracy.mean]).filter(Number.isFinite).map(clip);
  const lo = Math.max(0, Math.min(...accs) - 0.01), hi = Math.min(1, Math.max(...accs) + 0.01);
  const xa = scaleLinear().domain(accs.length ? [lo, hi] : [0.5, 1]).nice(4).range([x0, x0 + panelW]);
  const ds = rows.flatMap((r) => (r.vsGd ? [r.vsGd.lo, r.vsGd.hi] : [])).filter(Number.isFinite);
  const dmax = Math.max(0.01, ...ds.map(Math.abs));
  const xd = scaleLinear().domain([-dmax, dmax]).nice(4).range([x1, x1 + panelW]);
  // narrow (a phone): short titles and fewer ticks, so that nothing meets its neighbour
  const narrow = panelW < 190;
  add('text', { x: x0, y: 14, fill: c.fg, 'font-weight': 600 }, narrow ? 'Test acc. (95% CI)' : 'Test accuracy (mean, 95% CI)');
  add('text', { x: x1, y: 14, fill: c.fg, 'font-weight': 600 }, narrow ? 'vs GD (95% CI)' : 'Difference to GD (paired, 95% CI)');
  const yOf = (i) => top + i * rowH + rowH / 2;
  const axisY = top + rows.length * rowH;
  for (const [sc, xs] of [[xa, xa.ticks(narrow ? 2 : 4)], [xd, xd.ticks(narrow ? 2 : 4)]]) {
    const [r0, r1] = sc.range();
    for (const t of xs) {
      add('line', { x1: sc(t), x2: sc(t), y1: top - 4, y2: axisY, stroke: c.grid });
      // the ticks at a panel's edges are written inward (the two panels' labels met between them)
      const anchor = sc(t) - r0 < 14 ? 'start' : r1 - sc(t) < 14 ? 'end' : 'middle';
      add('text', { x: sc(t), y: axisY + 14, fill: c.muted, 'text-anchor': anchor }, sc === xa ? `${Math.round(100 * t)}%` : `${t > 0 ? '+' : t < 0 ? '−' : ''}${Math.abs(Math.round(1000 * t) / 10)}`);
    }
  }
  add('text', { x: x1 + panelW / 2, y: axisY + 30, fill: c.muted, 'text-anchor': 'middle' }, 'percentage points');
  add('line', { x1: xd(0), x2: xd(0), y1: top - 4, y2: axisY, stroke: c.fg, 'stroke-width': 1.2 });
  rows.forEach((r, i) => {
    const y = yOf(i);
    const isGd = r.method === 'md:2';
    const color = isGd ? c.fg : r.method.startsWith('nmd') ? OKABE_ITO.blue : r.method === 'adam' ? OKABE_ITO.purple : OKABE_ITO.vermillion;
    if (i % 2 === 0) add('rect', { x: 0, y: y - rowH / 2, width, height: rowH, fill: c.grid, 'fill-opacity': 0.35 });
    add('text', { x: 4, y: y - 2, fill: c.fg, 'font-weight': isGd ? 700 : 400 }, r.label);
    add('text', { x: 4, y: y + 11, fill: c.muted, 'font-size': 10 }, `η = ${stepText(r.lr)}${r.atEdge ? ' (grid edge)' : ''}`);
    const a = r.accuracy;
    if (Number.isFinite(a.lo)) {
      add('line', { x1: xa(clip(a.lo)), x2: xa(clip(a.hi)), y1: y, y2: y, stroke: color, 'stroke-width': 2 });
      for (const v of [clip(a.lo), clip(a.hi)]) add('line', { x1: xa(v), x2: xa(v), y1: y - 5, y2: y + 5, stroke: color, 'stroke-width': 2 });
    }
    if (Number.isFinite(a.mean)) add('circle', { cx: xa(a.mean), cy: y, r: 4, fill: color });
    if (Number.isFinite(a.mean)) add('text', { x: xa(clip(a.mean)), y: y - 7, fill: c.muted, 'font-size': 10, 'text-anchor': 'middle' }, `${(100 * a.mean).toFixed(1)}%`);
    const d = r.vsGd;
    if (isGd) add('text', { x: xd(0) + 6, y: y + 4, fill: c.muted, 'font-size': 10 }, 'reference');
    else if (d && Number.isFinite(d.lo)) {
      const sig = d.lo > 0 || d.hi < 0;
      add('line', { x1: xd(d.lo), x2: xd(d.hi), y1: y, y2: y, stroke: color, 'stroke-width': 2 });
      for (const v of [d.lo, d.hi]) add('line', { x1: xd(v), x2: xd(v), y1: y - 5, y2: y + 5, stroke: color, 'stroke-width': 2 });
      add('rect', { x: xd(d.mean) - 4, y: y - 4, width: 8, height: 8, fill: sig ? color : c.bg, stroke: color, 'stroke-width': 1.5 });
    }
  });
  return height;
}

const FEAS_LABEL = { feasible: 'SVM feasible (certified)', infeasible: 'SVM infeasible', mixed: 'mixed (seeds differ)', undecided: 'undecided' };

function feasMark(add, x, y, kind, color, c) {
  if (kind === 'feasible') add('circle', { cx: x, cy: y, r: 5, fill: color, stroke: c.bg, 'stroke-width': 1 });
  else if (kind === 'infeasible') {
    add('path', { d: `M${x - 5},${y - 5}L${x + 5},${y + 5}M${x - 5},${y + 5}L${x + 5},${y - 5}`, stroke: color, 'stroke-width': 2.5 });
  } else if (kind === 'mixed') {
    add('circle', { cx: x, cy: y, r: 5, fill: c.bg, stroke: color, 'stroke-width': 1.5 });
    add('path', { d: `M${x},${y - 5}A5,5 0 0 0 ${x},${y + 5}Z`, fill: color });
  } else add('text', { x, y: y + 4, fill: color, 'text-anchor': 'middle', 'font-weight': 700, 'font-size': 13 }, '?');
}

// rows: plan-text.js's ladderRows. Returns the height drawn.
export function drawLadder(svg, rows, { width = 600, target = 0.99 } = {}) {
  const c = themeColors();
  const groups = [...new Set(rows.map((r) => `${r.head}|${r.method}`))].sort((a, b) => (a.startsWith('frozen') ? -1 : 1) - (b.startsWith('frozen') ? -1 : 1));
  const side = width >= 640;
  const cols = side ? Math.max(1, groups.length) : 1;
  const facetW = (width - 10) / cols, facetH = side ? 250 : 210;
  const ns = [...new Set(rows.map((r) => r.n))].sort((a, b) => a - b);
  // the legend's items (n colours, then the feasibility marks) flow and wrap at the width
  const items = [{ text: 'n =', w: 26 }, ...ns.map((n) => ({ n, w: 24 + 7 * String(n).length })),
    ...['feasible', 'mixed', 'infeasible', 'undecided'].map((kind) => ({ kind, w: 22 + 6.2 * FEAS_LABEL[kind].length, br: kind === 'feasible' }))];
  let lx = 6, line = 0;
  for (const it of items) {
    if (it.br || lx + it.w > width - 4) { if (lx > 6) line++; lx = 6; }
    it.x = lx; it.line = line; lx += it.w;
  }
  const legendH = 24 + 20 * line;
  const height = (side ? 1 : groups.length) * (facetH + 8) + legendH;
  const add = reset(svg, width, height);
  // viridis without its darkest end on a dark page (and its lightest on a light one): every line visible
  const [v0, v1] = c.dark ? [0.3, 0.98] : [0.05, 0.85];
  const color = (n) => interpolateViridis(ns.length > 1 ? v0 + (v1 - v0) * ns.indexOf(n) / (ns.length - 1) : 0.5);
  const kmax = Math.max(10, ...rows.flatMap((r) => r.k));
  const floor = 1e-4;
  groups.forEach((g, gi) => {
    const [head, method] = g.split('|');
    const ox = side ? gi * facetW : 0, oy = side ? 0 : gi * (facetH + 8);
    const m = { l: 46, r: 12, t: 22, b: 34 };
    const xs = scaleLog().domain([1, kmax]).range([ox + m.l, ox + facetW - m.r]);
    const ys = scaleLog().domain([floor, 1]).range([oy + facetH - m.b, oy + m.t]).clamp(true);
    add('text', { x: ox + m.l, y: oy + 13, fill: c.fg, 'font-weight': 600 }, `${head === 'frozen' ? 'Frozen head' : 'Joint head'} (${method === 'nmd:2' ? 'normalized GD' : method})`);
    for (const t of xs.ticks().filter((t) => Math.abs(Math.log10(t) - Math.round(Math.log10(t))) < 1e-9)) {
      add('line', { x1: xs(t), x2: xs(t), y1: oy + m.t, y2: oy + facetH - m.b, stroke: c.grid });
      add('text', { x: xs(t), y: oy + facetH - m.b + 14, fill: c.muted, 'text-anchor': 'middle' }, t >= 1000 ? `10^${Math.round(Math.log10(t))}` : String(t));
    }
    for (const t of [1e-4, 1e-3, 1e-2, 1e-1, 1]) {
      add('line', { x1: ox + m.l, x2: ox + facetW - m.r, y1: ys(t), y2: ys(t), stroke: c.grid });
      add('text', { x: ox + m.l - 4, y: ys(t) + 4, fill: c.muted, 'text-anchor': 'end' }, t === 1 ? '1' : `1e${Math.round(Math.log10(t))}`);
    }
    add('line', { x1: ox + m.l, x2: ox + facetW - m.r, y1: ys(1 - target), y2: ys(1 - target), stroke: c.fg, 'stroke-dasharray': '5 4' });
    add('text', { x: ox + m.l + 4, y: ys(1 - target) + 12, fill: c.fg, 'font-size': 10 }, `corr = ${target}`);
    add('text', { x: ox + (m.l + facetW - m.r) / 2, y: oy + facetH - 4, fill: c.muted, 'text-anchor': 'middle' }, 'iteration k (log)');
    add('text', { x: ox + 11, y: oy + (m.t + facetH - m.b) / 2, fill: c.muted, 'text-anchor': 'middle', transform: `rotate(-90 ${ox + 11} ${oy + (m.t + facetH - m.b) / 2})` }, '1 − corr(W(k), Att-SVM) (log)');
    for (const r of rows.filter((q) => q.head === head && q.method === method)) {
      const pts = r.k.map((k, i) => [k, r.corr[i]]).filter(([k, v]) => k >= 1 && Number.isFinite(v));
      const col = color(r.n);
      if (pts.length) {
        const d = pts.map(([k, v], i) => `${i ? 'L' : 'M'}${xs(k).toFixed(1)},${ys(Math.max(floor, 1 - v)).toFixed(1)}`).join('');
        add('path', { d, fill: 'none', stroke: col, 'stroke-width': 1.8 });
        const [k, v] = pts.at(-1);
        feasMark(add, xs(k), ys(Math.max(floor, 1 - v)), r.feasibility, col, c);
      } else {
        // no SVM to compare with (infeasible or undecided): the mark at the top right, at the run's end
        feasMark(add, xs(Math.max(1, r.steps)), ys(1) + 8 + 10 * ns.indexOf(r.n) % 40, r.feasibility, col, c);
      }
    }
  });
  const ly0 = height - legendH + 14;
  for (const it of items) {
    const y = ly0 + 20 * it.line;
    if (it.text) add('text', { x: it.x, y: y + 4, fill: c.fg }, it.text);
    else if (it.n !== undefined) {
      add('line', { x1: it.x, x2: it.x + 14, y1: y, y2: y, stroke: color(it.n), 'stroke-width': 3 });
      add('text', { x: it.x + 17, y: y + 4, fill: c.fg }, String(it.n));
    } else {
      feasMark(add, it.x + 5, y, it.kind, c.fg, c);
      add('text', { x: it.x + 14, y: y + 4, fill: c.fg }, FEAS_LABEL[it.kind]);
    }
  }
  return height;
}

// The (d, n) phase diagram (SPEC 6.5): one facet per (head, method), a grid of cells, n across (the
// training images), d up (the token dimension); a cell's fill is the share of seeds whose W reaches the
// limit (corr >= target with the Att-SVM of its selection: the theory's regime), its text the mean final
// corr; a cross marks degenerate runs (chance accuracy), a dashed border an SVM not certified feasible
// for every seed. rows: plan-text.js's phaseRows. Returns the height drawn.
export function drawPhase(svg, rows, { width = 600 } = {}) {
  const c = themeColors();
  const groups = [...new Set(rows.map((r) => `${r.head}|${r.method}`))];
  const dims = [...new Set(rows.map((r) => r.dim))].sort((a, b) => a - b);
  const ns = [...new Set(rows.map((r) => r.n))].sort((a, b) => a - b);
  const cols = width >= 640 ? Math.min(2, groups.length) : 1;
  const facetW = (width - 10) / cols;
  // the left margin holds "d = 512" at the embed's larger text (a fixed 52 px cut "d = 128" off)
  const m = { l: Math.max(52, 14 + 7.5 * `d = ${Math.max(...dims)}`.length), r: 8, t: 24, b: 34 };
  const cellH = 26, facetH = m.t + dims.length * cellH + m.b;
  // The legend's rows: its three items wrap at a generous 7.5 px per character (the embed's text is larger
  // than the lab's: fixed positions overlapped there).
  const LEGEND = ['every seed reaches corr ≥ target', 'none (number: mean corr)', 'SVM not certified for every seed; × degenerate'];
  const legendRows = [];
  LEGEND.reduce((x, label) => {
    const w = 18 + label.length * 7.5 + 14;
    if (legendRows.length === 0 || x + w > width) { legendRows.push([]); x = 6; }
    legendRows.at(-1).push({ label, x });
    return x + w;
  }, 6);
  const legendH = 16 + 18 * legendRows.length;
  const height = Math.ceil(groups.length / cols) * (facetH + 8) + legendH;
  const add = reset(svg, width, height);
  // the share of seeds as the accent's opacity (from faint: none, to full: every seed); no rows: grid
  const fill = (share) => (Number.isFinite(share) ? share : c.grid);
  groups.forEach((g, gi) => {
    const [head, method] = g.split('|');
    const ox = (gi % cols) * facetW, oy = Math.floor(gi / cols) * (facetH + 8);
    const cellW = (facetW - m.l - m.r) / ns.length;
    add('text', { x: ox + m.l, y: oy + 14, fill: c.fg, 'font-weight': 600 }, `${head === 'frozen' ? 'Frozen head' : 'Joint head'} (${method === 'nmd:2' ? 'normalized GD' : method === 'nmd:1.1' ? 'normalized l_1.1 MD' : method})`);
    dims.forEach((d, di) => {
      const y = oy + m.t + (dims.length - 1 - di) * cellH;
      add('text', { x: ox + m.l - 6, y: y + cellH / 2 + 4, fill: c.muted, 'text-anchor': 'end' }, `d = ${d}`);
      ns.forEach((n, ni) => {
        const x = ox + m.l + ni * cellW;
        const r = rows.find((q) => q.head === head && q.method === method && q.dim === d && q.n === n);
        if (!r) return;
        const share = fill(r.share);
        add('rect', { x: x + 1, y: y + 1, width: cellW - 2, height: cellH - 2, fill: typeof share === 'number' ? OKABE_ITO.blue : share,
          'fill-opacity': typeof share === 'number' ? 0.12 + 0.88 * share : 1,
          stroke: r.feasibility === 'feasible' ? 'none' : c.fg, 'stroke-dasharray': r.feasibility === 'feasible' ? null : '3 2' });
        const dark = typeof share === 'number' && share > 0.5;
        add('text', { x: x + cellW / 2, y: y + cellH / 2 + 4, fill: dark ? '#fff' : c.fg, 'text-anchor': 'middle', 'font-size': 10 },
          Number.isFinite(r.corr) ? r.corr.toFixed(2) : '—');
        if (r.degenerate > 0) {
          const s = 5, cx = x + cellW - 8, cy = y + 8;
          add('path', { d: `M${cx - s / 2},${cy - s / 2}L${cx + s / 2},${cy + s / 2}M${cx - s / 2},${cy + s / 2}L${cx + s / 2},${cy - s / 2}`, stroke: OKABE_ITO.vermillion, 'stroke-width': 2 });
        }
      });
    });
    ns.forEach((n, ni) => add('text', { x: ox + m.l + (ni + 0.5) * cellW, y: oy + m.t + dims.length * cellH + 14, fill: c.muted, 'text-anchor': 'middle' }, String(n)));
    add('text', { x: ox + m.l + (facetW - m.l - m.r) / 2, y: oy + facetH - 4, fill: c.muted, 'text-anchor': 'middle' }, 'training images n');
  });
  const swatch = [{ fill: OKABE_ITO.blue, 'fill-opacity': 1 }, { fill: OKABE_ITO.blue, 'fill-opacity': 0.12 },
    { fill: 'none', stroke: c.fg, 'stroke-dasharray': '3 2' }];
  legendRows.forEach((row, ri) => row.forEach(({ label, x }) => {
    const ly = height - legendH + 14 + 18 * ri;
    add('rect', { x, y: ly - 8, width: 14, height: 12, ...swatch[LEGEND.indexOf(label)] });
    add('text', { x: x + 18, y: ly + 2, fill: c.fg }, label);
  }));
  return height;
}
