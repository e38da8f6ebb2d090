// The reference SVMs of a run and the verdict on its selection, shared by the lab (references.js) and the
// embedded figures (embed/figure.js): which selection to solve for, the solves themselves (in the
// worker), and following the run's selection as it decides without piling up solves.
import { unitsOf } from './views.js';
import { isMD } from './config.js';
import { decidedSelection, defaultSelection, referenceRequests } from './reference-requests.js';

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

// At most one re-solve for the run's selection in flight; the latest wanted selection wins.
//   createFollower({ refresh(selection) -> Promise, solvedFor() -> number[] | null,
//                    generation() -> any (a change drops the pending selection) })
export function createFollower({ refresh, solvedFor, generation }) {
  let wanted = null, busy = false;
  const same = (a, b) => !!a && !!b && a.join(',') === b.join(',');
  return {
    follow(sel) {
      if (same(solvedFor(), sel) && !busy) return;
      wanted = sel;
      if (busy) return;
      const my = generation();
      const next = () => {
        if (my !== generation() || !wanted) { busy = false; return; }
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
