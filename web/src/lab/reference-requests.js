// The requests that solve a run's reference SVMs and analyze its selection (SPEC section 4), built
// from the run's configuration alone: shared by the lab's solves (reference-follower.js) and its
// first run computed ahead (first-run.js; for the default link at build time), whose answers serve
// the page's own requests only if they are equal value for value. No DOM and no views: the engine's
// worker imports it.

// The units that select a token: one per sequence, or per (sequence, query) for sequence-to-sequence
// and causal attention.
export const PER_QUERY_ATTENTION = ['seq2seq', 'causal'];
export const unitsOf = (cfg) => (PER_QUERY_ATTENTION.includes(cfg.model.attention)
  ? cfg.dataset.X.length * cfg.dataset.X[0].length : cfg.dataset.X.length);

// Sequence-to-sequence and causal attention select one token per (sequence, query) unit.
export const perQuery = (cfg) => cfg.model.param !== 'prompt' && (cfg.model.attention === 'seq2seq' || cfg.model.attention === 'causal');

// A frame's selection once every one of its `units` has decided (its selected token has softmax
// >= 0.5), else null. last: { selected, selectedProbability } of one frame (the trace's last, or the
// first step's in the first run computed ahead).
export function decidedSelection(last, units) {
  const decided = last.selectedProbability.every((p) => p >= 0.5);
  return decided && last.selected.length === units ? Array.from(last.selected) : null;
}

// Before the run decides: the data's own selection or the optimal tokens (one per sequence); none
// for sequence-to-sequence / causal attention (one token per (sequence, query) unit).
export function defaultSelection(cfg, scores) {
  if (!cfg || perQuery(cfg)) return null;
  return cfg.dataset.alpha ?? scores?.optimal ?? null;
}

// referenceRequests({ cfg, dataset (default cfg.dataset), selection (null: the engine's default),
//   refList, lpP }, headSupport (the head SVM's support under joint training of a prompt, else null))
//   -> { solves: [[norm, solve request]], analyze: analyze request | null }
// The verdict's request: the attention SVM's analysis (cross, self; seq2seq and causal per (sequence,
// query) unit, once a selection is known) or the prompt SVM's; none under joint training (the token
// scores move with the head).
export function referenceRequests({ cfg, dataset = cfg.dataset, selection, refList, lpP }, headSupport = null) {
  const prompt = cfg.model.param === 'prompt';
  const sel = selection ? { selection } : {};
  const common = { dataset, attention: cfg.model.attention, ...sel };
  const solves = refList.map((norm) => {
    const req = { ...common, norm, ...(norm === 'lp' ? { p: lpP } : {}) };
    if (prompt) {
      req.problem = headSupport ? 'relaxed-prompt' : 'prompt';
      req.Wk = cfg.model.Wk;
      if (headSupport) req.headSupport = headSupport;
    }
    return [norm, req];
  });
  const analyze = prompt ? (cfg.train.trainHead ? null : { dataset, problem: 'prompt', Wk: cfg.model.Wk, ...sel })
    : (perQuery(cfg) && !selection ? null : common);
  return { solves, analyze };
}
