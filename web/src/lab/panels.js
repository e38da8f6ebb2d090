// The lab's panels: the plots made in the layout's panel bodies, and each drawn panel's text
// alternative and printed picture (access/figure-access.js; the readout is text already).
import { PANELS } from './layout.js';
import { NORM_SERIES } from './views.js';
import { createLabRenderer } from './render.js';
import { panelSvg } from './lab-export.js';
import { describePanel } from './describe.js';
import { createTokenPlane } from '../plots/tokenplane.js';
import { createTimeHeatmap, createMatrices } from '../plots/heatmaps.js';
import { createSpectrum } from '../plots/spectrum.js';
import { createReadout } from '../plots/readout.js';
import { registerFigure, onPrint } from '../access/figure-access.js';
import { warmPlotFonts } from '../plots/font-warmup.js';

// The curve charts (uPlot: 50 KB of code, the largest part of the lab's) are a chunk of their own,
// loaded when a curve panel is first drawn (render.js), exported, or once the page is idle after the
// first frame (app.js, so that printing finds them): a phone's first frame has no curve in view.
const CURVE_PANELS = new Set(['corr', 'norms']);

// createPanels($, { session, onDrag(i, t, xy, phase), renderAll(force), curvesLoaded() }) ->
//   { panels, lossChart, renderer (render.js), describeFigures(now) }
// panels.ready(id): whether panel id's plot can be made now; panels.load(id) -> Promise: once it can
// (the lab then draws again).
export function createPanels($, { session, onDrag, renderAll, curvesLoaded }) {
  let createCurves = null, curvesLoad = null;
  const loadCurves = () => (curvesLoad ??= import('../plots/curves.js').then((m) => {
    createCurves = m.createCurves;
    curvesLoaded();
  }));
  // Each plot is made when first drawn (or exported, printed): a panel below the fold costs nothing
  // at the lab's start (render-loop.js draws the panels in view and the others as they come near).
  // The norms panel holds two charts, the norms' and the loss's, made together in that order.
  const makers = {
    plane: () => createTokenPlane($('body-plane'), { onDrag }),
    softmax: () => createTimeHeatmap($('body-softmax')),
    current: () => createMatrices($('body-current')),
    corr: () => createCurves($('body-corr'), { xlabel: 'iteration k', y: { label: '1 − corr · D_p (dotted)', log: true }, series: [], height: 220 }),
    norms: () => {
      const norms = createCurves($('body-norms'), { xlabel: 'iteration k', y: { label: 'norm' }, height: 170, series: NORM_SERIES });
      loss = createCurves($('body-norms'), {
        xlabel: 'iteration k', y: { label: 'loss L(W(k))' }, height: 150,
        series: [{ label: 'loss', color: 'fg' }],
      });
      return norms;
    },
    spectrum: () => createSpectrum($('body-spectrum')),
    weights: () => createMatrices($('body-weights')),
    readout: () => createReadout($('body-readout')),
  };
  const made = {};
  let loss = null;
  const panels = {};
  // presize(widths: Map id -> px): the widths the plots about to be drawn are to be made with
  // (render-loop.js reads them at once before a run's first drawing writes anything; each plot read
  // its own at its first drawing, after the previous panel's writes: a forced style and layout in
  // each of the drawing's tasks). Each call replaces the last one's (a width read for a drawing that
  // a newer run superseded is not used later).
  let widths = new Map();
  const make = (id) => {
    const plot = makers[id]();
    if (widths.has(id)) { plot.resize(widths.get(id)); widths.delete(id); }
    return plot;
  };
  for (const id of Object.keys(makers)) {
    Object.defineProperty(panels, id, { enumerable: true, get: () => (made[id] ??= make(id)) });
  }
  Object.defineProperty(panels, 'presize', { value: (w) => { widths = new Map([...w].filter(([id]) => !(id in made))); } });
  // made(id): whether panel id's plot exists (a resize before its first drawing has nothing to do)
  Object.defineProperty(panels, 'made', { value: (id) => id in made });
  const ready = (id) => !CURVE_PANELS.has(id) || createCurves !== null;
  Object.defineProperty(panels, 'ready', { value: ready });
  Object.defineProperty(panels, 'load', { value: (id) => (ready(id) ? Promise.resolve() : loadCurves()) });
  // loading: the curve charts' code is on its way (the curve panels in view are drawn once it is in)
  Object.defineProperty(panels, 'loading', { get: () => curvesLoad !== null && createCurves === null });
  const lossOf = () => { if (!loss) void panels.norms; return loss; };
  const lossChart = {
    update: (data) => lossOf().update(data),
    resize: (w) => loss?.resize(w),
    svg: () => lossOf().svg(),
  };
  const renderer = createLabRenderer({ $, panels, lossChart });
  // The plots' fonts, resolved in the first idle moment (the lab waits for the engine's answer then):
  // not in the first drawing's tasks (plots/font-warmup.js).
  if (typeof requestIdleCallback === 'function') requestIdleCallback(() => warmPlotFonts(getComputedStyle($('body-plane')).fontFamily));

  // Each drawn panel says what it shows now (its text alternative) and prints as a picture of it.
  const figures = Object.fromEntries(PANELS.filter((p) => p.id !== 'readout').map((p) => [p.id, registerFigure($(`body-${p.id}`), {
    title: p.title,
    describe: () => (session.cfg ? describePanel(p.id, session.viewContext()) : 'Loading.'),
    snapshot: () => (session.cfg && ready(p.id) ? panelSvg(p.id, panels, lossChart) : null),
    interactive: p.id === 'plane',
  })]));
  const describeFigures = (now = false) => { for (const f of Object.values(figures)) f.update(now); };
  // Printing: every panel drawn as of now, in the light theme (paper is white), then back.
  let printTheme = null;
  onPrint({
    before() {
      $('print-link').textContent = location.href;
      printTheme = document.documentElement.dataset.theme;
      if (printTheme !== 'light') document.documentElement.dataset.theme = 'light';
      renderAll(true);
    },
    after() {
      if (printTheme && printTheme !== 'light') { document.documentElement.dataset.theme = printTheme; renderAll(true); }
      printTheme = null;
    },
  });
  return { panels, lossChart, renderer, describeFigures };
}
