// The lab's regularization path view (SPEC 5.3): the section under the panels (its markup is in the
// built page, path-layout.js), filled in here. It follows the lab's current problem (the tokens and
// model of the run, session.cfg): whenever that changes and the view is on screen, the path is
// computed again on the three balls in an engine worker of its own (the lab's worker keeps playing
// the run: a path is 0.1-1 s of compute). Dragging a token in the view's plane recomputes the path
// as the token moves (at most one request in flight, stale ones dropped, previews warm-started from
// the previous position's path: path-compute.js) and, when it is dropped, gives the moved
// data to the lab (its run restarts on it, as a drag in the lab's own plane does). The radius is
// in the URL's hash (view=path&R=...), written without restarting the run.
//
// mountLabPath({ section, session, onRun(fn) -> unsubscribe }) -> { figure, info(), stop() }
//   onRun: the lab's restarts (restart.js), each a new problem to follow when on screen
import { createWorkerEngine } from '../engine/worker-engine.js';
import { computeProjection } from '../lab/views.js';
import { dot } from '../lab/linalg.js';
import { roundDataset } from '../lab/state.js';
import { createPathFigure } from './path-figure.js';
import { createPathComputer } from './path-compute.js';
import { LAB_PATH_PREFIX } from './path-layout.js';
import { PATH_RADII, pathUnsupported, radiusIndex } from './path-model.js';

let enginePromise = null;
const pathEngine = () => (enginePromise ??= createWorkerEngine().catch((e) => { enginePromise = null; throw e; }));

export function mountLabPath({ section, session: s, onRun }) {
  const body = section.querySelector('#path-body');
  let dataset = null;        // the tokens of the path on screen (the lab's, or moved by a drag here)
  let problemCfg = null;     // the lab's cfg the path was computed for
  let visible = false;
  let dragRequests = 0;
  const timings = [];        // a drag's last move -> its path drawn, ms (bench/browser/path-drag.mjs)

  const figure = createPathFigure(body, {
    prefix: LAB_PATH_PREFIX,
    onRadius: (R) => writeHash(R),
    onDrag,
  });
  const computer = createPathComputer({
    engine: pathEngine,
    onUpdate(result) {
      figure.message(null);
      figure.setResult(result);
      // (only the newest request gets here done: an older one's answers are dropped)
      if (result.done && result.problem.dragAt !== undefined) timings.push(performance.now() - result.problem.dragAt);
    },
    onError(message) { figure.message(`The path could not be computed: ${message}`); },
  });

  // (through the session, the state's one writer: these fields neither restart the run nor sync)
  function writeHash(R) {
    s.setState({ pathView: 'path', pathR: R }, { fromUser: false });
  }

  function problem() {
    const cfg = s.cfg;
    return { cfg, dataset, lpP: s.lpP(), projection: s.projection ?? computeProjection(cfg, s.baseDataset), domainKey: cfg };
  }

  // The lab's problem changed (a restart, restart.js onRun): compute its path if the view is on screen.
  function follow() {
    if (!visible || s.cfg === problemCfg) return;
    problemCfg = s.cfg;
    const why = pathUnsupported(s.cfg);
    if (why || !s.projection) {
      computer.cancel();
      figure.message(why ?? 'Waiting for the lab\'s run.');
      return;
    }
    dataset = structuredClone(s.cfg.dataset);
    figure.setResult(null);
    figure.setProblem(problem());
    computer.request(problem());
  }

  // A token of the view's plane moved (pointer or arrow keys): as the lab's drag (drag.js), in the
  // plane of the projection.
  function onDrag(i, t, xy, phase) {
    if (!dataset || !s.projection) return;
    const [e1, e2] = s.projection.axes;
    const x = dataset.X[i][t];
    const p1 = dot(x, e1), p2 = dot(x, e2);
    const moved = x.map((v, k) => v + (xy[0] - p1) * e1[k] + (xy[1] - p2) * e2[k]);
    if (!moved.every(Number.isFinite)) return;
    dataset = { ...dataset, X: dataset.X.map((seq, a) => (a === i ? seq.map((tok, b) => (b === t ? moved : tok)) : seq)) };
    delete dataset.alpha;
    dragRequests++;
    const next = { ...problem(), dragAt: performance.now(), preview: phase === 'move' };
    figure.setProblem(next);
    computer.request(next);  // (path-compute.js: at most one in flight, the newest pending, previews warm-started)
    if (phase === 'end') {
      // the lab takes the moved tokens (its run restarts on them, and the path follows the new
      // configuration once it is there: problemCfg stays the old one until then)
      s.setState({ data: roundDataset(dataset) });
    }
  }

  // On screen: computing and playing; off screen: the player holds.
  const io = new IntersectionObserver((entries) => {
    visible = entries.some((e) => e.isIntersecting);
    figure.setVisible(visible);
    follow();
  }, { rootMargin: '200px 0px' });
  io.observe(section);
  const unsubscribe = onRun(follow);

  // A link with view=path opens here, at its radius.
  if (s.state.pathR != null) figure.setIndex(radiusIndex(s.state.pathR));
  if (s.state.pathView === 'path') section.scrollIntoView({ block: 'start' });

  const api = {
    figure,
    stop() { unsubscribe(); io.disconnect(); computer.cancel(); },
    info: () => ({
      index: figure.index, radius: PATH_RADII[figure.index], playing: figure.playing,
      busy: computer.busy, lastMs: computer.lastMs, dragRequests, dragTimings: [...timings],
      done: !!figure.result?.done, text: figure.describe(),
      result: figure.result && { paths: figure.result.paths, svms: Object.fromEntries(Object.entries(figure.result.svms).map(([k, v]) => [k, { status: v.status, W: v.W }])) },
      request: dataset && s.cfg ? { dataset, model: s.cfg.model, lpP: s.lpP() } : null,
    }),
  };
  window.__labPath = api;  // (the browser tests and bench/browser/path-drag.mjs read it)
  return api;
}
