// What the experiment panel plots: the titles of the core's series (as the papers label their
// panels) and their grouping into one plot a metric.

// Titles of the plotted metrics (the core's series names).
export const METRIC_TITLES = {
  softmax: 'softmax probability of the selected token',
  corr_fro: 'corr(W(k), W^mm): Frobenius SVM of the final selection',
  corr_nuclear: 'corr(W(k), W^mm_*): nuclear-norm SVM of the final selection',
  corr_lp: 'corr(W(k), W^mm_p): ℓp SVM of the final selection',
  one_minus_corr: '1 − corr(W(k), SVM of the final selection)',
  one_minus_corr_generalized: '1 − corr with the generalized-SVM prediction',
  one_minus_corr_wmm: '1 − corr with W^mm (optimal tokens)',
  one_minus_corr_one_token: '1 − corr with the one-token SVM of the final selection',
  min_softmax: 'smallest selected softmax probability',
  sparsity: 'sparsity of W(k)',
  corr_p_relaxed: 'corr(p(k), relaxed prompt SVM)',
  corr_p_plain: 'corr(p(k), prompt SVM of the final selection)',
  corr_v_head: 'corr(v(k), head SVM v^mm)',
  mean_softmax: 'mean softmax probability of the selected tokens',
  mean_logistic: 'mean logistic probability 1 / (1 + exp(−Y f))',
  corr_W: 'corr(W(k), W^mm_p): ℓp Att-SVM of the final selection',
  div_W: 'D_p(W^mm_p, W(k)): Bregman divergence of the directions (log)',
  corr_v: 'corr(v(k), v^mm_p): ℓp head SVM of the selected tokens',
  div_v: 'D_p(v^mm_p, v(k)) (log)',
};

// One plot per metric; runs of one seed that differ by parameterization ("W_corr_fro",
// "KQ_corr_fro") share the plot of their metric, as in the papers' figures.
// A single-run experiment's catalog entry groups its runs' series itself (e.group).
const byParam = (n) => {
  const m = /^(W|KQ)_(.+)$/.exec(n);
  return { key: m ? m[2] : n, label: m ? m[1] : '' };
};

// names -> Map(metric key -> [{name, label, color}]), in the order the names come.
export function groupSeries(names, group = byParam) {
  const out = new Map();
  for (const n of names) {
    const { key, label, color } = group(n);
    if (!out.has(key)) out.set(key, []);
    out.get(key).push({ name: n, label, color });
  }
  return out;
}
