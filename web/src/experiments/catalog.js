// The seeded experiments the lab can run in full (the core's runExperimentSeed; the same names and
// defaults as `attnsvm experiment NAME`). settings: one entry per curve family / table row.
// kind 'rank': a grid of cells, each keeping its first `seeds` feasible instances (rank.js).
export const EXPERIMENTS = {
  'local-convergence': {
    title: 'Local convergence: normalized GD on W and (K,Q) vs the Frobenius / nuclear SVM of its selection',
    seeds: 100, iters: 2000,
    settings: [{ label: '', options: {} }],
    y: { label: 'mean ± std over seeds', log: false },
  },
  rates: {
    title: 'Rates: 1 − corr with the SVM of the final selection (GD, NGD, ℓp mirror descent)',
    seeds: 20, iters: 2000,
    settings: ['gd', 'ngd', 'md_p1.75', 'md_p3'].map((m) => ({ label: m, options: { method: m } })),
    x: { log: true }, y: { label: '1 − corr', log: true },
  },
  overparam: {
    title: 'Overparameterization: fraction of runs reaching the globally optimal selection against d',
    seeds: 200, iters: 2000,
    settings: [2, 4, 6, 8, 10, 16, 32].map((d) => ({ label: `d=${d}`, options: { d } })),
  },
  'mirror-descent': {
    title: 'ℓp mirror descent: correlation with the ℓp and Frobenius SVMs',
    seeds: 20, iters: 2000,
    settings: [1.75, 2, 3].map((p) => ({ label: `p=${p}`, options: { p } })),
    y: { label: 'corr', log: false },
  },
  rank: {
    kind: 'rank',
    title: 'Rank of the Frobenius and nuclear Att-SVM solutions against d (sphere data; first 100 feasible instances per cell)',
    seeds: 100, iters: null,
  },
  multitoken: {
    title: 'Relu head: 1 − corr with the generalized-SVM prediction, W^mm and the one-token SVM',
    seeds: 500, iters: 2001,
    settings: [4, 6, 8, 10].map((d) => ({ label: `d=${d}`, options: { d } })),
    y: { label: '1 − corr', log: true },
  },
};
