// The embed's `path` panel (web/src/embed/figure-panels.js): the regularization path figure,
// compact (the controls, the plane and the chart stacked, the current radius in one paragraph),
// for the figure's problem (its scenario, overrides and tokens: the view context's cfg). The path is
// computed in an engine worker of the panel's own when the panel first comes near the view and
// again when the figure's problem changes; its player holds while the panel is off screen. The
// radius starts at the link's R (state.js: R=, checked there with the other settings).
//
// createPathPanel(body, { engine?: () => Promise<engine with path and solve> }) ->
//   { update(ctx, state), svg(), resize(), describe(), destroy() }
import './path.css';
import { createWorkerEngine } from '../engine/worker-engine.js';
import { computeProjection } from '../lab/views.js';
import { createPathFigure } from './path-figure.js';
import { createPathComputer } from './path-compute.js';
import { pathUnsupported, radiusIndex } from './path-model.js';

// The panels' engine worker (one per page): by default the engine's worker.js from the page's
// folder; the single-script element, which has no such file, sets its inlined one (element.js).
let shared = null;
let makeEngine = () => createWorkerEngine();
export function setPathEngine(factory) { makeEngine = factory; shared = null; }
const ownEngine = () => (shared ??= makeEngine().catch((e) => { shared = null; throw e; }));

export function createPathPanel(body, { engine = ownEngine } = {}) {
  const figure = createPathFigure(body, { compact: true });
  let cfg = null, pending = null, near = false, startR = null;
  const computer = createPathComputer({
    engine,
    onUpdate: (result) => { figure.message(null); figure.setResult(result); },
    onError: (message) => figure.message(`The path could not be computed: ${message}`),
  });
  function start() {
    if (!near || !pending) return;
    const ctx = pending;
    pending = null;
    const why = pathUnsupported(ctx.cfg);
    if (why) { figure.message(why); return; }
    const problem = { cfg: ctx.cfg, dataset: ctx.cfg.dataset, lpP: ctx.lpP ?? 2,
      projection: ctx.projection ?? computeProjection(ctx.cfg, null), domainKey: ctx.cfg };
    figure.setProblem(problem);
    if (startR !== null) { figure.setIndex(radiusIndex(startR)); startR = null; }
    computer.request(problem);
  }
  const io = new IntersectionObserver((entries) => {
    near = entries.some((e) => e.isIntersecting);
    figure.setVisible(near);
    start();
  }, { rootMargin: '200px 0px' });
  io.observe(body);
  return {
    // ctx: the figure's view context (lab/views.js); state: its lab state (for R)
    update(ctx, state) {
      if (!ctx?.cfg || ctx.cfg === cfg) return;
      cfg = ctx.cfg;
      if (state?.pathR != null) startR = state.pathR;
      pending = ctx;
      start();
    },
    svg: () => figure.chartSvg(),
    resize: () => figure.resize(),
    describe: () => figure.describe(),
    destroy() { io.disconnect(); computer.cancel(); figure.pause(); },
    get info() { return { index: figure.index, result: figure.result }; },
  };
}
