// The run's reference SVMs in the lab (reference-follower.js solves them, shared with the embedded
// figures): re-solved for the selection (or the dragged data), following the run's selection as it
// decides, and the generalized SVM of ReLU heads; answers of a superseded run or solve are dropped.
import { REF_LABEL } from './scenarios.js';
import { currentSelection, defaultSelection, solveReferences, createFollower } from './reference-follower.js';

// The head SVM's solution as a vector (its W is d x 1), or null.
function headVector(h) {
  if (!h || !(h.status === 'optimal' || h.status === 'max_iterations' || h.status === 'boundary') || !h.W) return null;
  return h.W.flat();
}

// createReferences({ session, setMessage(key, text), scheduleRender() }) ->
//   { refresh(selection?, dataset?) -> Promise, refreshGeneralized() -> Promise, follower, solving }
export function createReferences({ session: s, setMessage, scheduleRender }) {
  let refGen = 0;
  let solving = 0;

  async function refresh(selection = currentSelection(s.cfg, s.trace, s.state.selection) ?? defaultSelection(s.cfg, s.scores), dataset = s.cfg?.dataset) {
    if (!s.cfg || !dataset) return;
    const my = s.gen, mine = ++refGen;
    solving++;
    try {
      const out = await solveReferences(s.client, { cfg: s.cfg, dataset, selection, refList: s.effectiveRefs(), lpP: s.lpP() });
      if (my !== s.gen || mine !== refGen) return;
      s.headSvm = out.headSvm;
      s.refs = out.refs;
      s.refSelection = selection ?? out.report?.selection ?? s.scores?.optimal ?? null;
      s.report = out.report;
      applyTraceReferences();
      const bad = Object.entries(s.refs).find(([, r]) => r.status === 'infeasible' || r.status === 'boundary' || r.status === 'error');
      setMessage('svm', bad ? `The ${REF_LABEL[bad[0]]} SVM has no solution for this selection: ${bad[1].message || bad[1].status}` : null);
      scheduleRender();
    } finally {
      solving--;
    }
  }

  function applyTraceReferences() {
    s.trace.setReferences(Object.fromEntries(Object.entries(s.allRefs())
      .filter(([, r]) => r.status === 'optimal' || r.status === 'max_iterations' || r.status === 'boundary').map(([k, r]) => [k, r.W])), headVector(s.headSvm),
      s.cfg?.train.traceP);
  }

  // ReLU heads keep several tokens: the generalized SVM (SPEC section 3) of the current softmax,
  // with W_fin + R W_dir (R fitted to the current W) as an extra reference. Solved when the run
  // pauses or ends (the kept sets are only meaningful once the softmax has settled).
  async function refreshGeneralized() {
    const cfg = s.cfg;
    if (!cfg || cfg.model.head !== 'relu' || cfg.model.param === 'prompt' || !['cross', 'self'].includes(cfg.model.attention)) return;
    const last = s.trace.last();
    const W = s.trace.currentWeights();
    if (!last?.softmax || !W || s.trace.iterationNow() === 0) return;
    const my = s.gen;
    const T = cfg.dataset.X[0].length;
    const softmax = Array.from({ length: last.selected.length }, (_, u) => Array.from(last.softmax.subarray(u * T, (u + 1) * T)));
    solving++;
    try {
      // the softmax carries the queries: generalized takes no attention kind
      const g = await s.client.generalized({ dataset: cfg.dataset, softmax, threshold: 1e-3, norm: 'fro', W });
      if (my !== s.gen) return;
      if (g.direction.status !== 'optimal') { s.generalizedRef = null; return; }
      const R = g.radius ?? 0;
      const P = g.finite.map((row, a) => row.map((x, b) => x + R * g.direction.W[a][b]));
      s.generalizedRef = { ...g.direction, W: P, sets: g.selectedSets, radius: R };
      applyTraceReferences();
      scheduleRender();
    } catch (e) {
      if (my === s.gen) s.generalizedRef = null;
    } finally {
      solving--;
    }
  }

  const follower = createFollower({ refresh: (sel) => refresh(sel), solvedFor: () => s.refSelection, generation: () => s.gen });
  return {
    refresh, refreshGeneralized, follower,
    get solving() { return solving; },
  };
}
