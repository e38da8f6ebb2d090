// The embedded figure's renderer: the lab's panel components (web/src/plots) in the shell's panel
// bodies, drawn from the lab's view functions (lab/views.js: run state -> each panel's data), with
// the figure's own short notes (the lab's subtitles are written for a full page).
//
// createFigurePanels(bodies: {id: {body, note}}) -> { ids, draw(ctx, { force, playing, domainKey }),
//   drawOne(id, ctx, { domainKey }), resize(), destroy() }
//   drawOne: one panel now (the figure's first drawing, a panel per task: figure.js)
//   ctx: the lab's view context (lab/views.js); domainKey: the token plane's zoom key.
// Each drawn panel registers its text alternative (lab/describe.js, as in the lab) and its print
// picture (its SVG export) with access/figure-access.js.
import { planeView, softmaxView, currentSoftmaxView, corrView, normsView, refName, spectrumView, weightsView,
  readoutView, fmt, PER_QUERY_ATTENTION } from '../lab/views.js';
import { createTokenPlane } from '../plots/tokenplane.js';
import { createTimeHeatmap, createMatrices } from '../plots/heatmaps.js';
import { createCurves } from '../plots/curves-svg.js'; // SVG curves: no uPlot in the embeds' budget
import { createSpectrum } from '../plots/spectrum.js';
import { createReadout } from '../plots/readout.js';
import { OKABE_ITO, themeColors } from '../plots/theme.js';
import { registerFigure } from '../access/figure-access.js';
import { setText } from '../lab/dom-write.js';
import { describePanel } from '../lab/describe.js';
import { PANEL_TITLES } from './params.js';
import { SVG_NS } from '../plots/svg.js';
import { createPathPanel } from '../path/embed-path.js';

// While playing, the canvases (token paths, softmax raster) are redrawn at ~30 Hz; the SVG curves and
// the current softmax (SVG: each redraw writes ~90-170 DOM nodes/attributes, linechart.js) at ~10 Hz;
// the panels that change slowly at ~4 Hz. An embed is one figure among the text of a page, often
// beside others: it spends less of the reader's CPU than the lab, which draws its canvases every frame.
// Measured on the iframe embed (plane + corr) over 3 s of playing on a busy 2-core machine: the main
// thread was busy 2.3 s of 3 with every panel redrawn every frame, 1.0 s with the curves at 10 Hz
// (most of it the browser's own painting and compositing).
const CANVAS_MS = 30, CURVES_MS = 100, SLOW_MS = 250;

const CREATE = {
  plane: (body) => createTokenPlane(body, {}),
  softmax: (body) => createTimeHeatmap(body),
  current: (body) => createMatrices(body),
  corr: (body) => createCurves(body, { xlabel: 'iteration k', y: { label: '1 − corr', log: true }, series: [], height: 200 }),
  norms: (body) => createCurves(body, {
    xlabel: 'iteration k', y: { label: 'norm of W(k)' }, height: 160,
    series: [
      { label: '‖W‖_F', color: OKABE_ITO.blue },
      { label: '‖W‖_*', color: OKABE_ITO.vermillion, dash: [2, 3] },
    ],
  }),
  spectrum: (body) => createSpectrum(body),
  weights: (body) => createMatrices(body),
  readout: (body) => createReadout(body),
  path: (body) => createPathPanel(body),  // (the regularization path: an engine worker of its own, web/src/path/)
};

function planeNote(v, ctx) {
  return v.message ?? [
    ctx.cfg.model.param === 'prompt' ? 'Path: W_kᵀp(k) (scaled by max ‖p(k)‖); arrows: the SVM direction.'
      : 'Paths: W(k) z_i (scaled by max ‖W(k)‖); arrows: W^mm z_i; dashed lines: margins.',
    ctx.projection.note ?? '',
  ].filter(Boolean).join(' ');
}

function corrNote(ctx) {
  const cNow = ctx.trace.correlations();
  const names = Object.keys(ctx.trace.refs);
  return names.length
    ? `Log scale; 0 = same direction. Now: ${names.map((r) => `${refName(r, ctx)} corr = ${fmt(cNow[r], 5)}`).join(', ')}.`
    : 'No reference SVM for this selection.';
}

// Each drawer: (panel, its {note}, ctx, { domainKey, lossChart }) -> draws the panel and its note.
const DRAW = {
  plane(p, b, ctx, { domainKey }) {
    const v = planeView(ctx);
    p.update({ ...v.data, draggable: false, domainKey });
    setText(b.note, planeNote(v, ctx));
  },
  softmax(p, b, ctx) {
    p.update(softmaxView(ctx).data);
    setText(b.note, 'Rows: tokens, grouped by sequence (left strip). Selection shows as one bright row per sequence.');
  },
  current(p, b, ctx) {
    const v = currentSoftmaxView(ctx);
    if (v) p.update(v.data);
    // (seq2seq and causal attention: a row per (sequence, query), no optimal-token marks)
    setText(b.note, PER_QUERY_ATTENTION.includes(ctx.cfg.model.attention) ? 'A T x T block per sequence, a row per query. Solid box: selected token.' : 'Solid box: selected token; dashed: optimal token.');
  },
  corr(p, b, ctx) {
    const v = corrView(ctx);
    // new series with their data in one drawing
    if (p.__key !== v.key) { p.__key = v.key; p.setSeries(v.series, v.data); } else p.update(v.data);
    setText(b.note, corrNote(ctx));
  },
  norms(p, b, ctx, { lossChart }) {
    const v = normsView(ctx);
    p.update({ ...v.norms, ys: v.norms.ys.slice(0, 2) });
    lossChart.update(v.loss);
    setText(b.note, 'The norm grows without bound; the direction converges.');
  },
  spectrum(p, b, ctx) {
    p.update(spectrumView(ctx, themeColors().fg).data);
    setText(b.note, 'Divided by the Frobenius norm. The nuclear solution is low rank.');
  },
  weights(p, b, ctx) {
    p.update(weightsView(ctx).data);
    setText(b.note, 'Each divided by its Frobenius norm; purple > 0, orange < 0.');
  },
  readout(p, b, ctx) { p.update(readoutView(ctx).data); },
  path(p, b, ctx) {
    p.update(ctx);  // (computes once per problem: the run's frames do not change it)
    setText(b.note, 'W(R) = argmin of the loss over ‖W‖ ≤ R per ball; each turns toward its own norm\'s SVM as R grows.');
  },
};
const CANVASES = ['plane', 'softmax'];
const CURVES = ['current', 'corr', 'norms'];
const SLOW = ['spectrum', 'weights', 'readout', 'path'];

// The norm and loss charts of one panel as one picture (print).
function stacked(a, b) {
  const out = document.createElementNS(SVG_NS, 'svg');
  let y = 0, w = 0;
  for (const s of [a, b]) {
    const g = document.createElementNS(SVG_NS, 'g');
    g.setAttribute('transform', `translate(0,${y})`);
    g.append(...[...s.childNodes].map((n) => n.cloneNode(true)));
    out.append(g);
    y += Number(s.getAttribute('height')) || 0;
    w = Math.max(w, Number(s.getAttribute('width')) || 0);
  }
  out.setAttribute('width', w); out.setAttribute('height', y);
  return out;
}

export function createFigurePanels(bodies) {
  const panels = {};
  for (const id of Object.keys(CREATE)) if (bodies[id]) panels[id] = CREATE[id](bodies[id].body);
  const lossChart = bodies.norms ? createCurves(bodies.norms.body, { xlabel: 'iteration k', y: { label: 'loss' }, height: 130, series: [{ label: 'loss', color: 'fg' }] }) : null;
  let lastSlow = 0, lastCurves = 0, lastCanvas = 0, last = null;
  const registered = {};
  const figures = Object.keys(panels).filter((id) => id !== 'readout').map((id) => registered[id] = registerFigure(bodies[id].body, {
    title: PANEL_TITLES[id],
    describe: () => (!last ? 'Loading.' : id === 'path' ? panels.path.describe() : describePanel(id, last)),
    snapshot: () => (!last ? null : id === 'norms' ? stacked(panels.norms.svg(), lossChart.svg()) : panels[id].svg()),
    // (the figure's one link, "Open in the lab", is printed in its header: figure.css)
  }));

  function drawGroup(ids, ctx, opts) {
    for (const id of ids) if (panels[id]) DRAW[id](panels[id], bodies[id], ctx, opts);
  }
  // While playing, the curves and the slow panels are drawn in an animation frame of their own, not in
  // one that drew the canvases: a frame that drew the token plane and the curves was the longest task
  // of a playing figure (20-30 ms on this machine, which Lighthouse's 4x CPU counts as blocking time);
  // the same drawings one frame apart are not. Their rates stay (~30, ~10 and ~4 Hz).
  let deferred = null; // { curves, slow } waiting for the next animation frame
  function drawDeferred() {
    const d = deferred;
    deferred = null;
    if (!d || !last) return;
    const opts = { domainKey: d.domainKey, lossChart };
    if (d.curves) drawGroup(CURVES, last, opts);
    if (d.slow) drawGroup(SLOW, last, opts);
  }
  function draw(ctx, { force, playing, domainKey }) {
    last = ctx;
    const now = performance.now();
    const opts = { domainKey, lossChart };
    const all = force || !playing;
    let drewCanvases = false;
    if (all || now - lastCanvas > CANVAS_MS) {
      lastCanvas = now;
      for (const id of CANVASES) if (panels[id]) { DRAW[id](panels[id], bodies[id], ctx, opts); drewCanvases = true; }
    }
    const curves = all || now - lastCurves > CURVES_MS;
    const slow = all || now - lastSlow > SLOW_MS;
    if (curves) lastCurves = now;
    if (slow) lastSlow = now;
    if (all || !drewCanvases) {
      if (curves) drawGroup(CURVES, ctx, opts);
      if (slow) drawGroup(SLOW, ctx, opts);
      if (all && deferred) deferred = { curves: false, slow: false, domainKey };
    } else if (curves || slow) {
      if (!deferred) requestAnimationFrame(drawDeferred);
      deferred = { curves: curves || !!deferred?.curves, slow: slow || !!deferred?.slow, domainKey };
    }
    for (const f of figures) f.update(all);
  }
  function drawOne(id, ctx, { domainKey }) {
    last = ctx;
    DRAW[id](panels[id], bodies[id], ctx, { domainKey, lossChart });
    registered[id]?.update(true);
  }
  function resize() {
    for (const p of Object.values(panels)) p.resize?.();
    lossChart?.resize();
  }
  return { ids: Object.keys(panels), draw, drawOne, resize, destroy: () => { last = null; figures.forEach((f) => f.destroy()); } };
}
