// The reference SVMs of a run and the verdict on its selection, shared by the lab (references.js) and the
// embedded figures (embed/figure.js): which selection to solve for, the solves themselves (in the
// worker), and following the run's selection as it decides without piling up solves.
// No DOM and no views: the run controller (run.js) imports it, in the engine's worker too.
import { isMD } from './config.js';
import { decidedSelection, defaultSelection, referenceRequests, unitsOf } from './reference-requests.js';

export { defaultSelection };

// The run's selection once every unit has decided (its selected token has softmax >= 0.5), else
// null; null too when the state asks for the optimal tokens instead.
export function currentSelection(cfg, trace, mode) {
  const last = trace.last();
  if (!cfg || !last || mode === 'optimal') return null;
  return decidedSelection(last, unitsOf(cfg));
}

// Solves the chosen reference SVMs of `selection` and analyzes the selection (SPEC section 4).
//   ctx: { cfg, dataset (default cfg.dataset), selection (null: the engine's default), refList,
//          lpP }
//   -> { refs: norm -> Solution | {status:'error'}, headSvm: Solution | null, report: SelectionReport
//        | { error } | null }
// Under joint training: the head SVM first (l_p for the W model under l_p MD); for prompts then the
// relaxed prompt SVM with its support.
// The verdict: the attention SVM's analysis (cross, self; seq2seq and causal per (sequence,
// query) unit, once a selection is known) or the prompt SVM's; none under joint training (the
// token scores move with the head).
export async function solveReferences(client, ctx) {
  const { cfg, dataset = cfg.dataset, selection } = ctx;
  const prompt = cfg.model.param === 'prompt';
  const sel = selection ? { selection } : {};
  let headSvm = null, headSupport = null;
  if (cfg.train.trainHead) {
    // joint l_p training (joint-wv, W with the head): the head SVM in the head's l_p norm (SPEC 5.2)
    const lpHead = !prompt && isMD(cfg.train.headOptimizer) && cfg.train.headP !== 2;
    try {
      headSvm = await client.solve({ dataset, problem: 'head', ...(lpHead ? { norm: 'lp', p: cfg.train.headP } : { norm: 'fro' }), ...sel });
      if (headSvm.status === 'optimal') headSupport = [...new Set(headSvm.support.map(([i]) => i))];
    } catch (e) { headSvm = { status: 'error', message: e.message }; }
  }
  const { solves, analyze } = referenceRequests(ctx, headSupport);
  const refs = {};
  await Promise.all(solves.map(async ([norm, req]) => {
    try { refs[norm] = await client.solve(req); } catch (e) { refs[norm] = { status: 'error', message: e.message }; }
  }));
  let report = null;
  if (analyze) {
    try { report = await client.analyze(analyze); } catch (e) { report = { error: e.message }; }
  }
  return { refs, headSvm, report };
}

// A solution whose W is a direction to compare with: the one test of it (the trace's correlations,
// the token plane's arrows, the head SVM's vector). A boundary solve counts: its status says the
// problem is numerically on the boundary of feasibility (feasibility margin proven <= 1e-6,
// solvers/margin.hpp) and its W is the best feasible direction the solver found; the lab drew
// its arrow and correlation, the embeds drew its arrow but dropped its correlation (issue 39).
// Kept everywhere, and said in the message line (referenceProblem), so a reader sees the curve
// with the warning rather than a missing curve without a reason.
export const usableSolution = (sol) => !!sol && !!sol.W
  && (sol.status === 'optimal' || sol.status === 'max_iterations' || sol.status === 'boundary');

// The first reference the message line speaks of: [norm, solution] for one without a certified
// solution (infeasible, on the boundary, or an error), else null.
export const referenceProblem = (refs) => Object.entries(refs)
  .find(([, r]) => r.status === 'infeasible' || r.status === 'boundary' || r.status === 'error') ?? null;

// What a trace compares its snapshots with (trace.js setReferences): the usable references' W by
// norm and the head SVM's vector (its W is d x 1) under joint training, or null.
export function traceReferences(refs, headSvm) {
  const ws = Object.fromEntries(Object.entries(refs).filter(([, r]) => usableSolution(r)).map(([k, r]) => [k, r.W]));
  return { refs: ws, head: usableSolution(headSvm) ? headSvm.W.flat() : null };
}

// At most one re-solve for the run's selection in flight; the latest wanted selection wins.
//   createFollower({ refresh(selection) -> Promise, solvedFor() -> number[] | null,
//                    signal() -> the run's AbortSignal (its abort drops the pending selection) })
export function createFollower({ refresh, solvedFor, signal }) {
  let wanted = null, busy = false;
  const same = (a, b) => !!a && !!b && a.join(',') === b.join(',');
  return {
    follow(sel) {
      if (same(solvedFor(), sel) && !busy) return;
      wanted = sel;
      if (busy) return;
      const run = signal();
      const next = () => {
        if (run?.aborted || !wanted) { busy = false; return; }
        const want = wanted;
        wanted = null;
        if (same(solvedFor(), want)) { next(); return; }
        busy = true;
        refresh(want).finally(next);
      };
      next();
    },
    reset() { wanted = null; busy = false; },
  };
}
