// The seeded experiments the lab can run in full (the core's runExperimentSeed; the same names and
// defaults as `attnsvm experiment NAME`). settings: one entry per curve family / table row.
// kind 'rank': a grid of cells, each keeping its first `seeds` feasible instances (rank.js).
// kind 'single': one deterministic run set (seed = the CLI's --seed-base), in one worker; group(name)
// -> {key, label, color?} puts its series (one per run) into plots; summary(res) adds plots of final values
// against a setting (e.g. C); draw(box, res) draws a figure of its own (box(title) -> a holder).
import { drawPaths2d } from './paths2d.js';
import { drawMdConvergence, drawJointWv } from './mirror.js';
import { drawRegPath } from './regpath.js';
import { seqScale } from '../plots/theme.js';
import { columnName, columnParts } from './metrics.js';

const single = { kind: 'single', seeds: 1, iters: 1000, settings: [{ label: '', options: {} }], y: { label: 'corr', log: false } };
const LOSS_CS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 100];
const LOSS_NAMES = { correlation: '−u (correlation) loss', logistic: 'logistic loss' };
const JOINT_WV_METRICS = ['corrW', 'divW', 'corrV', 'divV', 'meanSoftmax', 'meanLogistic'];
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
  'prompt-global-local': {
    ...single,
    title: 'Prompt, global vs local: corr of p(k) with the SVM direction of its own final token and with the global one, per start',
    // "global/3/corrOwnSvm": case, start, metric
    group: (name) => {
      const [kase, start, metric] = columnParts(name);
      return { key: `${kase} case · ${metric}`, label: `start ${start}` };
    },
  },
  'loss-function': {
    ...single,
    title: 'Loss function: corr of p(k) with p^mm (prompt SVM of the optimal tokens) for C in 1..10, 100',
    // "logistic/C10/corrPmm": loss, C, metric
    group: (name) => {
      const [loss, scopeC, metric] = columnParts(name);
      const C = Number(scopeC.slice(1));
      // C is ordered: one sequential scale (viridis, without its faint yellow end) instead of the
      // categorical palette, which has fewer colours than the 11 values of C
      const t = LOSS_CS.indexOf(C) / (LOSS_CS.length - 1);
      return { key: `${LOSS_NAMES[loss]} · ${metric}`, label: `C=${C}`, color: seqScale(0.85 * t) };  // '#rrggbb' (bands.js appends an alpha)
    },
    summary: (r) => [{
      // (the paper expects logistic to reach p^mm for every C and −u not to; see docs/RESULTS.md for what we find)
      title: 'final corr(p, p^mm) against C, both losses',
      x: LOSS_CS, opts: { x: { label: 'C', log: true }, y: { label: 'corr(p, p^mm)' }, points: true },
      curves: Object.entries(LOSS_NAMES).map(([loss, label]) => ({
        label, mean: LOSS_CS.map((C) => r.finals[columnName(loss, `C${C}`, 'corrPmm')].mean), std: LOSS_CS.map(() => 0) })),
    }],
  },
  'joint-pv': {
    ...single,
    title: 'Joint (p, v): p against the relaxed and the plain prompt SVM, v against the head SVM, mean softmax',
    // "v0/corrPRelaxed": variant, metric
    group: (name) => {
      const [variant, metric] = columnParts(name);
      return { key: metric, label: `variant ${variant.slice(1)}` };
    },
  },
  // The mirror-descent paper as its authors ran it (SPEC 5.2). iters null: each training p runs the
  // paper's count (1500 / 2000 / 20000 for p = 1.75 / 2 / 3), so each p has its own iteration axis.
  'md-convergence': {
    title: 'Mirror-descent paper: normalized ℓp MD (dual norm, η = 0.1, W0 ~ N(0, 1)) against every ℓq Att-SVM, q ∈ {1.75, 2, 3}',
    seeds: 100, iters: null,
    settings: [1.75, 2, 3].map((p) => ({ label: `p=${p}`, options: { p } })),
    draw: drawMdConvergence, series: false,
  },
  'joint-wv': {
    ...single, iters: 1500,
    title: 'Mirror-descent paper: joint ℓp training of W and v from 0 (p = 1.75, 2, 3), against the ℓp Att-SVM and ℓp head SVM of the selection reached',
    draw: drawJointWv,
    // "p1.75/divW": the run's p, metric (the token-plane columns "p1.75/Wz[0][1]", "p1.75/v[0]" are drawn by draw)
    group: (name) => {
      const [scope, metric] = columnParts(name);
      return JOINT_WV_METRICS.includes(metric) ? { key: metric, label: `p=${scope.slice(1)}` } : { key: null };
    },
    y: { label: '', log: false },
  },
  paths2d: {
    ...single, iters: 2000,
    title: 'GD paths in 2-D: W(k) z_i for W and (K,Q), with the Frobenius and nuclear SVM directions',
    draw: drawPaths2d, series: false,
  },
  'paths2d-t5': {
    ...single, iters: 2000,
    title: 'GD paths in 2-D, T = 5: W(k) z_i for W and (K,Q), with the Frobenius and nuclear SVM directions',
    draw: drawPaths2d, series: false,
  },
  // Issue 40 (SPEC 5.3): sequence-to-sequence and causal self-attention against their SAtt-SVMs
  // ("seq2seq/W/corrFro": attention, parameterization, metric), and the two-layer hierarchy's sphere
  // seeds (its Fashion-MNIST part reads the image files: CLI only).
  'seq2seq-convergence': {
    title: 'Sequence-to-sequence and causal self-attention (n = 4, T = 5, d = 10): NGD on W and (K,Q) against the Frobenius / nuclear SAtt-SVM of the final per-(sequence, query) selection',
    seeds: 100, iters: 2000,
    settings: [{ label: '', options: {} }],
    y: { label: 'mean ± std over seeds', log: false },
  },
  hierarchy: {
    title: 'Two attention layers (sphere n = 4, T = 5, d = 10): each layer against the SVM of its own selection given the other layer (layer 2: its selected set on H; layer 1: the seq2seq SAtt-SVM over all units and over the attended ones)',
    seeds: 100, iters: 2000,
    settings: [{ label: '', options: {} }],
    y: { label: 'mean ± std over seeds', log: false },
  },
  // Issue 40 (SPEC 5.3): the regularization path on the local-convergence data (radii 10^(k/4),
  // k = 0..16; iters: the Frank-Wolfe iterations per radius, the CLI's default 300 when empty).
  'reg-path': {
    title: 'Regularization path W(R) on the Frobenius, nuclear, l_1.75 and l_3 balls (sphere n = 6, T = 8, d = 10): 1 − corr with each norm\'s Att-SVM, rank and global selection against R',
    seeds: 100, iters: null,
    settings: [{ label: '', options: {} }],
    draw: drawRegPath, series: false,
  },
};
