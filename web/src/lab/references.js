// The run's reference SVMs in the lab (reference-follower.js solves them, shared with the embedded
// figures): the first frame's (the run controller's, run.js), re-solved for the selection (or the
// dragged data), following the run's selection as it decides, and the generalized SVM of ReLU heads.
// Answers of a superseded run (its AbortSignal, session.run.signal) or of a superseded solve (a newer
// refresh: run.js latest) are dropped by run.js whenCurrent.
// The session's reference fields (refs, refSelection, report, headSvm, generalizedRef) are written
// here only.
import { REF_LABEL } from './scenarios.js';
import { currentSelection, defaultSelection, solveReferences, createFollower, referenceProblem, traceReferences } from './reference-follower.js';
import { whenCurrent, latest, solvedSelection } from './run.js';

// createReferences({ session, setMessage(key, text), scheduleRender() }) ->
//   { refresh(selection?, dataset?) -> Promise, adopt(references) -> Promise, refreshGeneralized() -> Promise,
//     clear(), follower, solving }
export function createReferences({ session: s, setMessage, scheduleRender }) {
  let solving = 0;
  const nextSolve = latest();

  // A solve's answer { refs, headSvm, report, selection } into the session, while its signal holds.
  async function take(signal, answer) {
    solving++;
    try {
      await whenCurrent(signal, answer, (out) => {
        s.headSvm = out.headSvm;
        s.refs = out.refs;
        s.refSelection = out.selection;
        s.report = out.report;
        applyTraceReferences();
        const bad = referenceProblem(s.refs);
        setMessage('svm', bad ? `The ${REF_LABEL[bad[0]]} SVM has no solution for this selection: ${bad[1].message || bad[1].status}` : null);
        scheduleRender();
      });
    } finally {
      solving--;
    }
  }

  // The run's first references (run.references: solved by the controller for its first frame).
  const adopt = (answer) => take(nextSolve(s.run.signal), answer);

  async function refresh(selection = currentSelection(s.cfg, s.trace, s.state.selection) ?? defaultSelection(s.cfg, s.scores), dataset = s.cfg?.dataset) {
    if (!s.cfg || !dataset) return;
    const signal = nextSolve(s.run.signal);
    const solved = solveReferences(s.client, { cfg: s.cfg, dataset, selection, refList: s.effectiveRefs(), lpP: s.lpP() });
    const scores = s.scores;
    await take(signal, solved.then((out) => ({ ...out, selection: solvedSelection(selection, out, scores) })));
  }

  // A new run: no references until its own come.
  function clear() {
    nextSolve(null);  // (a solve in flight is dropped)
    follower.reset();
    s.refs = {}; s.report = null; s.refSelection = null; s.headSvm = null; s.generalizedRef = null;
  }

  function applyTraceReferences() {
    const { refs, head } = traceReferences(s.allRefs(), s.headSvm);
    s.trace.setReferences(refs, head, s.cfg?.train.traceP);
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
    const T = cfg.dataset.X[0].length;
    const softmax = Array.from({ length: last.selected.length }, (_, u) => Array.from(last.softmax.subarray(u * T, (u + 1) * T)));
    solving++;
    try {
      // the softmax carries the queries: generalized takes no attention kind
      const asked = s.client.generalized({ dataset: cfg.dataset, softmax, threshold: 1e-3, norm: 'fro', W });
      await whenCurrent(s.run.signal, asked.then((g) => g, () => null), (g) => {
        if (!g || g.direction.status !== 'optimal') { s.generalizedRef = null; return; }
        const R = g.radius ?? 0;
        const P = g.finite.map((row, a) => row.map((x, b) => x + R * g.direction.W[a][b]));
        s.generalizedRef = { ...g.direction, W: P, sets: g.selectedSets, radius: R };
        applyTraceReferences();
        scheduleRender();
      });
    } finally {
      solving--;
    }
  }

  const follower = createFollower({ refresh: (sel) => refresh(sel), solvedFor: () => s.refSelection, signal: () => s.run.signal });
  return {
    refresh, adopt, refreshGeneralized, clear, follower,
    get solving() { return solving; },
  };
}
