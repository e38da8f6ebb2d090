// window.__lab: the hook through which the browser tests (tests/browser) read the lab's state,
// frames, references and drawings, and drive it (set, play, step, export). The page itself does
// not use it.
import { PANELS } from './layout.js';
import { allFinite } from './linalg.js';
import { verdictOf } from './views.js';

// installTestHook({ session, readiness, messages, panels, loop, playback, references, restarter,
//   realView, engineScenarios })
export function installTestHook({ session: s, readiness, messages, panels, loop, playback, references, restarter, realView, engineScenarios }) {
  const { player } = playback;
  window.__lab = {
    get ready() { return readiness.ready; },
    get state() { return structuredClone(s.state); },
    get lastFrame() {
      const l = s.trace.last();
      return l && { iteration: l.iteration, selected: Array.from(l.selected), selectedProbability: Array.from(l.selectedProbability), loss: l.loss, normFro: l.normFro };
    },
    get playing() { return player.playing; },
    get done() { return s.done(); },
    get busy() { return player.inFlight || references.solving > 0 || restarter.restarting > 0; },
    // drawing: the curve charts' code is loading, or their first drawing waits in a task (a run can
    // end before the code is in: its curves are drawn then). Not part of busy, which the startup
    // audit waits for (page-audit.mjs): the code is fetched once the page is idle.
    get drawing() { return panels.loading || loop.curvesPending; },
    get iteration() { return s.trace.iterationNow(); },
    get maxIterations() { return s.cfg?.iterations ?? null; },
    get firstFrameMs() { return readiness.firstFrameAt; },
    get renders() { return loop.renders; },
    get resizes() { return loop.resizes; },
    redraw: () => loop.renderAll(true),
    _panels: panels,
    correlations: () => s.trace.correlations(),
    solution: (norm = 'fro') => {
      const r = s.allRefs()[norm];
      return r && structuredClone({ status: r.status, W: r.W, objective: r.objective, gap: r.gap, support: r.support, message: r.message });
    },
    referenceSelection: () => s.refSelection && [...s.refSelection],
    verdict: () => (s.report && !s.report.error ? s.report.verdict : null),
    verdictView: () => (s.cfg ? verdictOf(s.viewContext()) : null),
    report: () => s.report && structuredClone(s.report),
    scenarioNames: () => [...engineScenarios],
    real: () => realView.view?.info() ?? null,
    realView: () => realView.view,
    hierarchy: () => realView.hierarchy?.info() ?? null,  // (own-views.js: the hierarchy preset's numbers)
    messages: () => messages.values(),
    set: (patch) => s.setState(patch),
    play: playback.play, pause: playback.stop, step: (k) => playback.advance(k ?? s.state.speed), reset: () => restarter.restart(),
    exportPanel: async (id, fmt) => {
      const out = await loop.exportPanel(id, fmt);
      if (fmt === 'svg') return out;
      const buf = new Uint8Array(await out.arrayBuffer());
      let bin = ''; for (const b of buf) bin += String.fromCharCode(b);
      return `data:image/png;base64,${btoa(bin)}`;
    },
    panels: PANELS.map((p) => p.id),
    tokenClientPosition: (i, t) => panels.plane.tokenClientPosition(i, t),
    plotted: () => plottedData(s.trace),
    dataset: () => s.cfg && structuredClone(s.cfg.dataset),
  };
}

// What the curves and heatmaps were given to draw (finite checks, legends).
function plottedData(trace) {
  const tr = trace.series();
  const cs = trace.corrSeries();
  const hn = trace.headNorms();
  return {
    loss: Array.from(tr.loss), normFro: Array.from(tr.normFro), normNuc: Array.from(tr.normNuc), normLp: Array.from(tr.normLp),
    headNorm: hn ? hn.y.filter((v) => v !== null) : null,
    legends: Object.fromEntries(['corr', 'norms'].map((id) => [id, [...document.querySelectorAll(`#body-${id} .u-legend .u-series .u-label`)].map((e) => e.textContent)])),
    corr: Object.fromEntries(Object.entries(cs.series).map(([k, v]) => [k, v.filter((c) => c !== null)])),
    divergence: Object.fromEntries(Object.entries(trace.divergenceSeries().series).map(([k, v]) => [k, v.filter((c) => c !== null)])),
    divergenceP: trace.divergenceSeries().p,
    softmax: Array.from(trace.softmaxSeries().values),
    weights: trace.currentWeights(),
    finite: allFinite([tr.loss, tr.normFro, trace.currentWeights(), ...Object.values(cs.series).map((v) => v.filter((c) => c !== null))]),
  };
}
