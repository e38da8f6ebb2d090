// What the experiment panel plots: the titles of the core's series (as the papers label their
// panels) and their grouping into one plot a metric. Column names (docs/NAMES.md): a metric is
// camelCase; a scope (a parameterization W / KQ, an exponent p1.75 / q3, a case and start
// global/3, a loss and C logistic/C10, a variant v0) comes first and the parts are joined by '/';
// indices are in brackets (X[0][1][0], p2/Wz[0][1]).

// The parts of a column name ('global/3/corrOwnSvm' -> ['global', '3', 'corrOwnSvm']) and back.
export const columnParts = (name) => name.split('/');
export const columnName = (...parts) => parts.join('/');
// 'Wz', 0, 1 -> 'Wz[0][1]'
export const indexedName = (name, ...indices) => name + indices.map((k) => `[${k}]`).join('');

// Titles of the plotted metrics (the core's series names).
export const METRIC_TITLES = {
  softmax: 'softmax probability of the selected token',
  corrFro: 'corr(W(k), W^mm): Frobenius SVM of the final selection',
  corrNuclear: 'corr(W(k), W^mm_*): nuclear-norm SVM of the final selection',
  corrLp: 'corr(W(k), W^mm_p): ℓp SVM of the final selection',
  oneMinusCorr: '1 − corr(W(k), SVM of the final selection)',
  oneMinusCorrGeneralized: '1 − corr with the generalized-SVM prediction',
  oneMinusCorrWmm: '1 − corr with W^mm (optimal tokens)',
  oneMinusCorrOneToken: '1 − corr with the one-token SVM of the final selection',
  minSoftmax: 'smallest selected softmax probability',
  sparsity: 'sparsity of W(k)',
  corrPRelaxed: 'corr(p(k), relaxed prompt SVM)',
  corrPPlain: 'corr(p(k), prompt SVM of the final selection)',
  corrVHead: 'corr(v(k), head SVM v^mm)',
  meanSoftmax: 'mean softmax probability of the selected tokens',
  meanLogistic: 'mean logistic probability 1 / (1 + exp(−Y f))',
  corrW: 'corr(W(k), W^mm_p): ℓp Att-SVM of the final selection',
  divW: 'D_p(W^mm_p, W(k)): Bregman divergence of the directions (log)',
  corrV: 'corr(v(k), v^mm_p): ℓp head SVM of the selected tokens',
  divV: 'D_p(v^mm_p, v(k)) (log)',
  // hierarchy (two layers)
  softmax1: 'layer 1: mean selected softmax probability',
  softmax2: 'layer 2: mean selected softmax probability',
  softmax2Set: 'layer 2: attention on its selected set O_i',
  residual1: 'layer 1: 1 − selected softmax',
  residual2: 'layer 2: 1 − selected softmax',
  corrW2: 'corr(W2(k), SVM of layer 2\'s selected set on the current H)',
  corrW1All: 'corr(W1(k), seq2seq SAtt-SVM of layer 1, all units)',
  corrW1Attended: 'corr(W1(k), seq2seq SAtt-SVM of layer 1, units layer 2 attends to)',
  holds: 'share of seeds with both layers at corr ≥ 0.99',
  normW1: '‖W1(k)‖_F',
  normW2: '‖W2(k)‖_F',
};

// One plot per metric; runs of one seed that differ by their scope ("W/corrFro", "KQ/corrFro")
// share the plot of their metric, as in the papers' figures.
// A single-run experiment's catalog entry groups its runs' series itself (e.group).
const byScope = (n) => {
  const parts = columnParts(n);
  return { key: parts.at(-1), label: parts.slice(0, -1).join(' ') };
};

// names -> Map(metric key -> [{name, label, color}]), in the order the names come.
export function groupSeries(names, group = byScope) {
  const out = new Map();
  for (const n of names) {
    const { key, label, color } = group(n);
    if (!out.has(key)) out.set(key, []);
    out.get(key).push({ name: n, label, color });
  }
  return out;
}
