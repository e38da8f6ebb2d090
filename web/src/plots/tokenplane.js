// The token plane (d3): tokens coloured by sequence, the selected token starred, the optimal token
// ringed, support tokens haloed, paths of W(k) z_i, SVM directions W^mm z_i as arrows (Frobenius
// dashed, nuclear dotted, l_p dash-dot), each sequence's margin line, and draggable tokens.
//
// createTokenPlane(container, { onDrag(i, t, xy, phase) }) -> { update(data), svg(), resize(),
//   tokenClientPosition(i, t) }
// data: {
//   tokens: [[ [x, y], ... ] per sequence], queries?: [[x, y] | null per sequence],
//   selected?: number[], optimal?: number[], support?: number[][],
//   paths?: [{ seq, points: [[x, y], ...] }], arrows?: [{ seq, ref, to: [x, y] }],
//   lines?: [{ seq, normal: [a, b], offset: c }]  (the line a x + b y = c),
//   xlabel, ylabel, draggable: bool, domainKey: any (the view refits only when it changes)
// }
import { select } from 'd3-selection';
import { scaleLinear } from 'd3-scale';
import { axisBottom, axisLeft } from 'd3-axis';
import { line, symbol, symbolStar, symbolDiamond } from 'd3-shape';
import { drag } from 'd3-drag';
import { seqColor, REF_STYLE, themeColors } from './theme.js';
import { styleAxis } from './svg.js';

const SVG_NS = 'http://www.w3.org/2000/svg';
let uid = 0;

export function createTokenPlane(container, { onDrag } = {}) {
  const id = `tp${++uid}`;
  const svgEl = document.createElementNS(SVG_NS, 'svg');
  svgEl.setAttribute('class', 'token-plane');
  svgEl.style.position = 'relative';          // painted above the path canvas
  // The paths of W(k) z_i change on every frame while playing: they are drawn on a canvas under
  // the SVG (a canvas redraw only re-rasters itself, where a changed SVG path made Chromium
  // re-layout the SVG and re-layerize the page each frame: ~8 ms of a 16 ms frame, measured).
  const pathCanvas = document.createElement('canvas');
  pathCanvas.className = 'token-paths';
  pathCanvas.setAttribute('aria-hidden', 'true');
  pathCanvas.width = 0; pathCanvas.height = 0;  // no box until the first drawing places it (layout shift)
  Object.assign(pathCanvas.style, { position: 'absolute', left: '0px', top: '0px', pointerEvents: 'none' });
  const wrap = document.createElement('div');
  wrap.className = 'token-plane-wrap';
  wrap.style.position = 'relative';
  wrap.append(pathCanvas, svgEl);
  // the plane goes into the container at its first drawing, after the container's width is read
  // (read with the plane's new elements in it, that width cost a style and layout pass of its own)
  let canvasKey = null;
  let plotBox = null;   // { left, top, pw, ph } of the last render
  const svg = select(svgEl);
  let data = null;
  let domain = null, domainKey;
  let dragging = null;
  let x, y;
  let lastStaticKey = null;
  let knownWidth = null;
  let fullRowsKey = null, fullRows = 0;      // (layout(): the legend's rows once the SVMs are in)
  let heavyParts = null, heavyJson = '';     // (layout(): the static key's larger parts)
  let legendKeyDrawn = null;                 // the legend drawn (renderLegend): rows, theme, margin

  function fitDomain(d) {
    const pts = d.tokens.flat();
    for (const a of d.arrows ?? []) pts.push(a.to);
    let [x0, x1, y0, y1] = [Infinity, -Infinity, Infinity, -Infinity];
    for (const [a, b] of pts) {
      if (!Number.isFinite(a) || !Number.isFinite(b)) continue;
      x0 = Math.min(x0, a); x1 = Math.max(x1, a); y0 = Math.min(y0, b); y1 = Math.max(y1, b);
    }
    x0 = Math.min(x0, 0); x1 = Math.max(x1, 0); y0 = Math.min(y0, 0); y1 = Math.max(y1, 0);
    if (!Number.isFinite(x0)) [x0, x1, y0, y1] = [-1, 1, -1, 1];
    const pad = 0.15 * Math.max(x1 - x0, y1 - y0, 0.5);
    return [x0 - pad, x1 + pad, y0 - pad, y1 + pad];
  }

  // The geometry of a drawing of `data` (sets the scales x, y): shared by render() and the stepped
  // first drawing (updateInSteps).
  function layout() {
    const c = themeColors();
    knownWidth ??= container.clientWidth;   // cached: reading layout every frame forces a reflow
    if (!wrap.parentNode) container.append(wrap);
    const width = Math.max(240, knownWidth || 400);
    const height = Math.max(240, Math.min(width, 600));
    const legendItems = legendFor(data);
    const legendRows = layoutLegend(legendItems, width - 58);
    // the plot starts below the legend as it will be once the SVMs are solved (data.expectRefs), so
    // that it does not move down when their arrows arrive (counted once per width and references:
    // a playing frame has the same)
    const fullKey = data.expectRefs ? `${width};${data.pathLabel};${data.expectRefs.join(',')};${data.expectRefs.includes('fro') || !!data.lines?.length}` : '';
    if (fullKey !== fullRowsKey) {
      fullRowsKey = fullKey;
      fullRows = data.expectRefs ? layoutLegend(legendFor({ ...data, support: [[0]], paths: [{ points: [[0, 0]] }],
        arrows: data.expectRefs.map((ref) => ({ ref })), lines: data.expectRefs.includes('fro') ? [{}] : data.lines }), width - 58).length : 0;
    }
    const m = { top: 10 + Math.max(legendRows.length, fullRows) * 18, right: 12, bottom: 36, left: 46 };
    if (!dragging && (domain === null || data.domainKey !== domainKey)) {
      domain = fitDomain(data);
      domainKey = data.domainKey;
    }
    // equal aspect ratio: widen the shorter side
    let [x0, x1, y0, y1] = domain;
    const pw = width - m.left - m.right, ph = height - m.top - m.bottom;
    const sx = pw / (x1 - x0), sy = ph / (y1 - y0);
    if (sx > sy) { const w = pw / sy, cx = (x0 + x1) / 2; x0 = cx - w / 2; x1 = cx + w / 2; } else {
      const h = ph / sx, cy = (y0 + y1) / 2; y0 = cy - h / 2; y1 = cy + h / 2;
    }
    x = scaleLinear().domain([x0, x1]).range([m.left, width - m.right]);
    y = scaleLinear().domain([y0, y1]).range([height - m.bottom, m.top]);

    // The SVG layers (axes, tokens, arrows, lines, legend) are rewritten only when they change; the
    // paths of W(k) z_i are redrawn on their canvas on every update.
    // (the data's larger parts written out again only when they are other objects: a playing frame's
    // view keeps them, lab/views.js)
    const heavy = [data.tokens, data.optimal, data.support, data.lines, data.arrows, data.queries];
    if (!heavyParts || heavy.some((v, k) => v !== heavyParts[k])) { heavyParts = heavy; heavyJson = JSON.stringify(heavy); }
    const staticKey = JSON.stringify([width, height, x0, x1, y0, y1, c.dark, data.selected, data.draggable, data.xlabel, data.ylabel,
      legendItems.map((it) => it.label)]) + heavyJson;
    const legendKey = JSON.stringify([c.dark, m.left, legendRows]);
    return { c, staticKey, legendKey, legendRows, geom: { width, height, m, pw, ph, x0, x1, y0, y1 } };
  }

  function render() {
    if (!data) return;
    stepGen++;  // a whole drawing supersedes a stepped one in progress
    const { c, staticKey, legendKey, legendRows, geom } = layout();
    if (staticKey !== lastStaticKey) {
      lastStaticKey = staticKey;
      sizeSvg(geom);
      renderStatic(c, geom);
      renderLegend(c, legendRows, geom.m, legendKey);
    }
    finish(c, geom);
  }

  function sizeSvg({ width, height }) { svg.attr('width', width).attr('height', height).attr('viewBox', `0 0 ${width} ${height}`); }
  function finish(c, { m, pw, ph }) {
    wrap.style.visibility = '';
    plotBox = { left: m.left, top: m.top, pw, ph };
    drawPaths(c);
  }

  // The same drawing as update(next) in four steps, for a caller that runs each in a task of its
  // own: a plane's first drawing runs cold code (d3's axes and number format, the tokens' SVG, the
  // canvas's first context: 50-90 ms in one task at a phone's start). The plane stays hidden until
  // the last step; an update(), resize() or refit() in between draws it whole and the remaining
  // steps do nothing.
  let stepGen = 0;
  function updateInSteps(next) {
    data = next;
    const my = ++stepGen;
    let L = null, axes = null;
    const step = (f) => () => { if (my === stepGen) f(); };
    const changed = () => L.staticKey !== lastStaticKey;
    return [
      step(() => {
        L = layout();
        if (!changed()) return;
        if (lastStaticKey === null) wrap.style.visibility = 'hidden';
        sizeSvg(L.geom); renderDefs(L.geom);
        axes = axesKeyOf(L.c, L.geom);
        if (axes !== axesKey) renderAxisX(L.c, L.geom);
      }),
      step(() => {
        if (!changed() || axes === axesKey) return;
        renderAxisY(L.c, L.geom); renderAxisLabels(L.c, L.geom);
        axesKey = axes;
      }),
      step(() => {
        if (!changed()) return;
        const grp = plotLayers();
        renderLines(grp, L.c, L.geom);
        renderArrows(grp);
        renderLabels(grp, L.c, renderTokens(grp, L.c, L.geom));
      }),
      step(() => {
        if (changed()) { lastStaticKey = L.staticKey; renderLegend(L.c, L.legendRows, L.geom.m, L.legendKey); }
        finish(L.c, L.geom);
      }),
    ];
  }

  // The paths of W(k) z_i (and a dot at their tip) on the canvas, clipped to the plot area.
  function drawPaths(c) {
    const { left, top, pw, ph } = plotBox;
    const dpr = Math.min(2, globalThis.devicePixelRatio || 1);
    const key = `${left};${top};${pw};${ph};${dpr}`;
    if (key !== canvasKey) {
      canvasKey = key;
      pathCanvas.width = Math.max(1, Math.round(pw * dpr));
      pathCanvas.height = Math.max(1, Math.round(ph * dpr));
      Object.assign(pathCanvas.style, { left: `${left}px`, top: `${top}px`, width: `${pw}px`, height: `${ph}px` });
    }
    const ctx = pathCanvas.getContext('2d');
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, pw, ph);
    ctx.translate(-left, -top);
    ctx.lineWidth = 2.2;
    ctx.lineJoin = 'round';
    ctx.globalAlpha = 0.9;
    const paths = (data.paths ?? []).filter((p) => p.points.length);
    for (const p of paths) {
      ctx.strokeStyle = seqColor(p.seq, c.dark);
      ctx.beginPath();
      p.points.forEach(([a, b], k) => (k ? ctx.lineTo(x(a), y(b)) : ctx.moveTo(x(a), y(b))));
      ctx.stroke();
    }
    ctx.globalAlpha = 1;
    ctx.lineWidth = 1;
    ctx.strokeStyle = c.bg;
    for (const p of paths) {
      const [a, b] = p.points.at(-1);
      ctx.fillStyle = seqColor(p.seq, c.dark);
      ctx.beginPath();
      ctx.arc(x(a), y(b), 3.5, 0, 2 * Math.PI);
      ctx.fill();
      ctx.stroke();
    }
  }

  // The same paths as SVG elements (for the vector export), inserted above the SVM arrows.
  function pathsSvg(c) {
    const g = document.createElementNS(SVG_NS, 'g');
    g.setAttribute('class', 'g-paths');
    const ln = line().x((p) => x(p[0])).y((p) => y(p[1]));
    for (const p of (data?.paths ?? []).filter((q) => q.points.length)) {
      const path = document.createElementNS(SVG_NS, 'path');
      const attrs = { d: ln(p.points), fill: 'none', stroke: seqColor(p.seq), 'stroke-width': 2.2, 'stroke-linejoin': 'round', opacity: 0.9 };
      for (const [k, v] of Object.entries(attrs)) path.setAttribute(k, v);
      const tip = document.createElementNS(SVG_NS, 'circle');
      const [a, b] = p.points.at(-1);
      const tattrs = { cx: x(a), cy: y(b), r: 3.5, fill: seqColor(p.seq), stroke: c.bg };
      for (const [k, v] of Object.entries(tattrs)) tip.setAttribute(k, v);
      g.append(path, tip);
    }
    return g;
  }

  // The SVG layers of the plane, in drawing order (what does not change between frames).
  // (updateInSteps runs the same calls, in the same order, split over its steps)
  function renderStatic(c, geom) {
    renderDefs(geom);
    renderAxes(c, geom);
    const grp = plotLayers();
    renderLines(grp, c, geom);
    renderArrows(grp);
    const toks = renderTokens(grp, c, geom);
    renderLabels(grp, c, toks);
  }

  // The plot's clip rectangle and the arrowheads.
  function renderDefs({ m, pw, ph }) {
    let defs = svg.select('defs');
    if (defs.empty()) {
      defs = svg.append('defs');
      defs.append('clipPath').attr('id', `${id}-clip`).append('rect');
    }
    defs.select('rect').attr('x', m.left).attr('y', m.top).attr('width', pw).attr('height', ph);
    // one arrowhead per sequence colour, and -1 for a prompt's arrow (shared by all sequences)
    const markers = defs.selectAll('marker').data([...data.tokens.map((_, i) => i), -1], (i) => i);
    markers.join((enter) => {
      const mk = enter.append('marker').attr('viewBox', '0 0 10 10').attr('refX', 9).attr('refY', 5)
        .attr('markerWidth', 7).attr('markerHeight', 7).attr('orient', 'auto-start-reverse');
      mk.append('path').attr('d', 'M0,0L10,5L0,10z');
      return mk;
    }).attr('id', (i) => `${id}-arrow${i}`).select('path').attr('fill', (i) => seqColor(i));
  }

  function layer(name) {
    let g = svg.select(`g.${name}`);
    if (g.empty()) g = svg.append('g').attr('class', name);
    return g;
  }

  // The axes and their labels are redrawn only when they change (a static redraw for new arrows or
  // margin lines keeps the view: d3-axis rewrote each tick's attributes with the same values).
  // (updateInSteps draws them in two steps: x; y and the labels)
  let axesKey = null;
  const axesKeyOf = (c, { width, height, m }) => JSON.stringify([width, height, m, x.domain(), y.domain(), c.dark, data.xlabel, data.ylabel]);
  function renderAxes(c, geom) {
    const key = axesKeyOf(c, geom);
    if (key === axesKey) return;
    axesKey = key;
    renderAxisX(c, geom); renderAxisY(c, geom); renderAxisLabels(c, geom);
  }
  function renderAxisX(c, { height, m, pw }) {
    const gx = layer('x-axis').attr('transform', `translate(0,${height - m.bottom})`).call(axisBottom(x).ticks(Math.max(3, Math.floor(pw / 70))));
    styleAxis(gx, c);
  }
  function renderAxisY(c, { m, ph }) {
    const gy = layer('y-axis').attr('transform', `translate(${m.left},0)`).call(axisLeft(y).ticks(Math.max(3, Math.floor(ph / 60))));
    styleAxis(gy, c);
  }
  function renderAxisLabels(c, { width, height, m }) {
    layer('labels').selectAll('text').data([
      { t: data.xlabel ?? 'x₁', x: (m.left + width - m.right) / 2, y: height - 4, r: 0 },
      { t: data.ylabel ?? 'x₂', x: 12, y: (m.top + height - m.bottom) / 2, r: -90 },
    ]).join('text').attr('text-anchor', 'middle').attr('fill', c.fg)
      .attr('transform', (d) => `translate(${d.x},${d.y}) rotate(${d.r})`).text((d) => d.t);
  }

  // The clipped plot's groups (created once, in painting order) -> grp(name).
  function plotLayers() {
    const plot = layer('plot').attr('clip-path', `url(#${id}-clip)`);
    if (plot.select('g.g-tokens').empty()) {
      for (const name of ['g-origin', 'g-margin', 'g-arrows', 'g-queries', 'g-halo', 'g-opt', 'g-labels', 'g-tokens']) plot.append('g').attr('class', name);
    }
    const grp = (name) => plot.select(`g.${name}`);
    return grp;
  }

  // The origin's cross and the margin lines.
  function renderLines(grp, c, { x0, x1, y0, y1 }) {
    // origin cross
    grp('g-origin').selectAll('path.origin').data([0]).join('path').attr('class', 'origin')
      .attr('d', `M${x(0) - 5},${y(0)}H${x(0) + 5}M${x(0)},${y(0) - 5}V${y(0) + 5}`).attr('stroke', c.muted);
    // margin lines a x + b y = c: the segment through the view (a short path: long dashed paths
    // are slow to rasterize)
    const cx = (x0 + x1) / 2, cy = (y0 + y1) / 2, half = Math.hypot(x1 - x0, y1 - y0) / 2;
    grp('g-margin').selectAll('path.margin').data(data.lines ?? []).join('path').attr('class', 'margin')
      .attr('d', ({ normal: [a, b], offset }) => {
        const nn = a * a + b * b;
        if (!(nn > 0)) return null;
        const r = (a * cx + b * cy - offset) / nn;
        const px = cx - r * a, py = cy - r * b;          // the point of the line nearest the centre
        if (Math.hypot(px - cx, py - cy) > half) return null;
        const dx = -b / Math.sqrt(nn), dy = a / Math.sqrt(nn);
        return `M${x(px - half * dx)},${y(py - half * dy)}L${x(px + half * dx)},${y(py + half * dy)}`;
      })
      .attr('stroke', (d) => seqColor(d.seq)).attr('stroke-width', 1).attr('stroke-dasharray', '4 4').attr('opacity', 0.75);
  }

  // The SVM arrows and the queries.
  function renderArrows(grp) {
    // SVM arrows from the origin
    grp('g-arrows').selectAll('line.arrow').data(data.arrows ?? []).join('line').attr('class', 'arrow')
      .attr('x1', x(0)).attr('y1', y(0)).attr('x2', (d) => x(d.to[0])).attr('y2', (d) => y(d.to[1]))
      .attr('stroke', (d) => seqColor(d.seq)).attr('stroke-width', 2)
      .attr('stroke-dasharray', (d) => REF_STYLE[d.ref]?.dash ?? null)
      .attr('marker-end', (d) => `url(#${id}-arrow${d.seq})`);
    // queries z_i (small diamonds) when shown
    const qs = (data.queries ?? []).map((q, i) => ({ q, i })).filter((d) => d.q);
    grp('g-queries').selectAll('path.query').data(qs).join('path').attr('class', 'query')
      .attr('d', symbol(symbolDiamond, 50)).attr('transform', (d) => `translate(${x(d.q[0])},${y(d.q[1])})`)
      .attr('fill', 'none').attr('stroke', (d) => seqColor(d.i)).attr('stroke-width', 1.5);
  }

  // The tokens (with their support halo and optimal ring), their keyboard and mouse dragging.
  function renderTokens(grp, c, { x0, x1, y0, y1 }) {
    // tokens
    const toks = [];
    data.tokens.forEach((seq, i) => seq.forEach((p, t) => toks.push({ i, t, p,
      selected: data.selected?.[i] === t, optimal: data.optimal?.[i] === t,
      support: data.support?.[i]?.includes(t) })));
    grp('g-halo').selectAll('circle.halo').data(toks.filter((d) => d.support), (d) => `${d.i}:${d.t}`).join('circle').attr('class', 'halo')
      .attr('cx', (d) => x(d.p[0])).attr('cy', (d) => y(d.p[1])).attr('r', 12)
      .attr('fill', (d) => seqColor(d.i)).attr('fill-opacity', 0.18).attr('stroke', (d) => seqColor(d.i)).attr('stroke-dasharray', '2 2');
    grp('g-opt').selectAll('circle.opt').data(toks.filter((d) => d.optimal), (d) => `${d.i}:${d.t}`).join('circle').attr('class', 'opt')
      .attr('cx', (d) => x(d.p[0])).attr('cy', (d) => y(d.p[1])).attr('r', 9)
      .attr('fill', 'none').attr('stroke', c.fg).attr('stroke-width', 1.5);
    const tokenSel = grp('g-tokens').selectAll('path.token').data(toks, (d) => `${d.i}:${d.t}`).join('path').attr('class', 'token')
      .attr('d', (d) => symbol(d.selected ? symbolStar : circleSym, d.selected ? 190 : 60)())
      .attr('transform', (d) => `translate(${x(d.p[0])},${y(d.p[1])})`)
      .attr('fill', (d) => seqColor(d.i)).attr('stroke', c.bg).attr('stroke-width', 1.2)
      .attr('data-seq', (d) => d.i).attr('data-token', (d) => d.t)
      .style('cursor', data.draggable ? 'grab' : null);
    tokenSel.attr('tabindex', data.draggable ? 0 : null).attr('role', data.draggable ? 'button' : null)
      .attr('aria-label', (d) => `sequence ${d.i}, token ${d.t}${d.selected ? ', selected' : ''}${d.optimal ? ', optimal' : ''}${d.support ? ', support token' : ''}${data.draggable ? '. Arrow keys move it (Shift: finer)' : ''}`)
      .on('keydown', data.draggable && onDrag ? (ev, d) => {
        const dirs = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };
        const dir = dirs[ev.key];
        if (!dir) return;
        ev.preventDefault();
        const step = (ev.shiftKey ? 0.01 : 0.05) * Math.max(x1 - x0, y1 - y0);
        onDrag(d.i, d.t, [d.p[0] + dir[0] * step, d.p[1] + dir[1] * step], 'end');
      } : null);
    tokenSel.selectAll('title').data((d) => [d]).join('title')
      .text((d) => `sequence ${d.i}, token ${d.t}${d.selected ? ' (selected)' : ''}${d.optimal ? ' (optimal)' : ''}${d.support ? ' (support)' : ''}`);
    if (data.draggable && onDrag) {
      tokenSel.call(drag()
        .on('start', (ev, d) => { dragging = d; })
        .on('drag', (ev, d) => { onDrag(d.i, d.t, [x.invert(ev.x), y.invert(ev.y)], 'move'); })
        .on('end', (ev, d) => { dragging = null; onDrag(d.i, d.t, [x.invert(ev.x), y.invert(ev.y)], 'end'); }));
    } else {
      tokenSel.on('.drag', null);
    }
    return toks;
  }

  function renderLabels(grp, c, toks) {
    // labels t for small problems
    const showLabels = toks.length <= 24;
    grp('g-labels').selectAll('text.tlabel').data(showLabels ? toks : [], (d) => `${d.i}:${d.t}`).join('text').attr('class', 'tlabel')
      .attr('x', (d) => x(d.p[0]) + 8).attr('y', (d) => y(d.p[1]) - 8).attr('font-size', 10).attr('fill', c.muted)
      .attr('pointer-events', 'none').text((d) => `${d.i},${d.t}`);
  }

  // Legend above the plot: marks and line styles actually drawn.
  function legendFor(d) {
    const items = [{ kind: 'star', label: 'selected' }, { kind: 'ring', label: 'optimal' }];
    if (d.support?.some((s) => s?.length)) items.push({ kind: 'halo', label: 'support' });
    if (d.paths?.some((p) => p.points.length)) items.push({ kind: 'line', dash: null, label: d.pathLabel ?? 'W(k) path' });
    const refs = [...new Set((d.arrows ?? []).map((a) => a.ref))];
    for (const r of refs) items.push({ kind: 'line', dash: REF_STYLE[r]?.dash, label: { fro: 'Frobenius', nuclear: 'nuclear', lp: 'l_p', gen: 'generalized' }[r] ?? r, arrow: true });
    if (d.lines?.length) items.push({ kind: 'line', dash: '4 4', thin: true, label: 'margin' });
    return items;
  }
  function layoutLegend(items, avail) {
    const rows = [[]];
    let w = 0;
    for (const it of items) {
      const iw = 30 + it.label.length * 6.3 + 12;
      if (w + iw > avail && rows.at(-1).length) { rows.push([]); w = 0; }
      rows.at(-1).push({ ...it, x: w });
      w += iw;
    }
    return rows;
  }
  // (rebuilt only when its rows, the theme or the margin changed: a new selection or new arrows
  // keep the legend's items)
  function renderLegend(c, rows, m, key) {
    const g = layer('legend');
    if (key === legendKeyDrawn && g.node().hasChildNodes()) return;
    legendKeyDrawn = key;
    g.selectAll('*').remove();
    rows.forEach((row, r) => row.forEach((it) => {
      const gi = g.append('g').attr('transform', `translate(${m.left + it.x},${12 + r * 18})`);
      if (it.kind === 'star') gi.append('path').attr('d', symbol(symbolStar, 110)()).attr('transform', 'translate(10,0)').attr('fill', c.muted);
      if (it.kind === 'ring') gi.append('circle').attr('cx', 10).attr('r', 6).attr('fill', 'none').attr('stroke', c.fg).attr('stroke-width', 1.5);
      if (it.kind === 'halo') gi.append('circle').attr('cx', 10).attr('r', 7).attr('fill', c.muted).attr('fill-opacity', 0.2).attr('stroke', c.muted).attr('stroke-dasharray', '2 2');
      if (it.kind === 'line') gi.append('line').attr('x1', 0).attr('x2', 22).attr('stroke', c.fg).attr('stroke-width', it.thin ? 1 : 2).attr('stroke-dasharray', it.dash ?? null);
      gi.append('text').attr('x', 27).attr('y', 4).attr('font-size', 11).attr('fill', c.fg).text(it.label);
    }));
  }

  const circleSym = { draw(ctx, size) { const r = Math.sqrt(size / Math.PI); ctx.moveTo(r, 0); ctx.arc(0, 0, r, 0, 2 * Math.PI); } };

  return {
    svgEl,
    update(next) { data = next; render(); },
    updateInSteps,
    resize(w) { knownWidth = w ?? container.clientWidth; render(); },
    refit() { domain = null; render(); },
    svg() {
      const clone = svgEl.cloneNode(true);
      clone.style.position = '';
      clone.querySelector('g.g-queries')?.before(pathsSvg(themeColors()));
      return clone;
    },
    tokenClientPosition(i, t) {
      const node = svgEl.querySelector(`path.token[data-seq="${i}"][data-token="${t}"]`);
      if (!node) return null;
      const r = node.getBoundingClientRect();
      return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
    },
    get scales() { return { x, y }; },
  };
}
