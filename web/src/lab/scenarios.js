// Scenario presets: one per row of SPEC section 5 plus free play. The engine defines the data,
// model and training of each (engine.scenario(name)); this file holds what a reader sees: a title,
// a two- or three-sentence caption of what to notice, TeX formulas (typeset at build time as SVG,
// scripts/tex-svg.mjs), the reference SVMs shown by default, which scenario options apply, and (for
// the tests) where convergence is promised. shape: the engine's own dataset's n sequences of T tokens
// and, if not cross, its attention (seq2seq, causal: a query per token, n T rows) (the first paint reserves the current-softmax panel's height from it, prepaint.js; the wasm test
// tests/wasm/first-run.test.mjs checks it against engine.scenario(name)).

const ATT_SVM = String.raw`W^{\mathrm{mm}} = \arg\min_W \|W\|_F\ \ \text{s.t.}\ \ (x_{i\alpha_i} - x_{it})^\top W z_i \ge 1\ \ \forall i,\ t \ne \alpha_i`;
const CORR = String.raw`\operatorname{corr}(W, W^{\mathrm{mm}}) = \frac{\langle W, W^{\mathrm{mm}}\rangle}{\|W\|_F\,\|W^{\mathrm{mm}}\|_F}`;
const NGD = String.raw`W \leftarrow W - \eta\,\frac{\nabla L(W)}{\|\nabla L(W)\|_F}`;
const NUC = String.raw`W = KQ^\top \ \Rightarrow\ \frac{W(k)}{\|W(k)\|} \to \frac{W^{\mathrm{mm}}_\star}{\|W^{\mathrm{mm}}_\star\|},\ \ W^{\mathrm{mm}}_\star = \arg\min \|W\|_\star`;
const PROMPT = String.raw`p^{\mathrm{mm}} = \arg\min_p \|p\|\ \ \text{s.t.}\ \ p^\top W_k (x_{i\alpha_i} - x_{it}) \ge 1`;
const MD = String.raw`U = \nabla\psi(W) - \eta\nabla L(W),\ \ \psi(W) = \tfrac1p\|W\|_p^p \ \Rightarrow\ \frac{W(k)}{\|W(k)\|} \to \frac{W^{\mathrm{mm}}_p}{\|W^{\mathrm{mm}}_p\|}`;
const LOCAL = String.raw`\text{locally optimal: } \gamma_{i\alpha_i} > \gamma_{it}\ \ \forall t \in \mathcal T_i,\qquad \gamma_{it} = Y_i\, v^\top x_{it}`;
const HEAD = String.raw`v^{\mathrm{mm}} = \arg\min_v \|v\|\ \ \text{s.t.}\ \ Y_i\, v^\top x_{i\alpha_i} \ge 1`;
const SOFTMAX = String.raw`s_i = \operatorname{softmax}(X_i W z_i),\qquad f_i = v^\top X_i^\top s_i`;

export const SCENARIO_INFO = {
  paths2d: {
    title: 'GD paths in 2-D',
    shape: { n: 2, T: 3 },
    caption: 'Two sequences of three tokens in the plane. Normalized gradient descent grows W without bound, and the score direction W(k) z_i of each sequence (solid path) turns until it lines up with the max-margin direction W^mm z_i (dashed arrow). Switch the parameterization to (K, Q) and the path heads for the nuclear-norm solution (dotted) instead.',
    formulas: [SOFTMAX, ATT_SVM, NGD],
    refs: ['fro', 'nuclear'],
    options: ['seed'],
    converges: { ref: 'fro', param: 'W' },
  },
  'paths2d-t5': {
    title: 'GD paths in 2-D, five tokens',
    shape: { n: 2, T: 5 },
    caption: 'Five tokens per sequence; the first of each sits apart, at (1, 0.5) and (1, -0.5). The dashed line of each sequence is its SVM margin: the non-selected tokens lying on it are the support tokens (shaded), and they alone fix the direction W z_i converges to. Drag a support token off the line and watch the direction change.',
    formulas: [ATT_SVM, String.raw`\mathcal T_i = \{t : (x_{i\alpha_i} - x_{it})^\top W^{\mathrm{mm}} z_i = 1\}`],
    refs: ['fro', 'nuclear'],
    options: ['seed'],
    converges: { ref: 'fro', param: 'W' },
  },
  'local-convergence': {
    title: 'Local convergence (sphere data)',
    shape: { n: 6, T: 8 },
    caption: 'Random unit tokens in 10 dimensions (plotted in their top-2 principal directions). Attention may settle on a selection that is only locally optimal; whatever it selects, W(k)/||W(k)|| converges to the SVM of that selection, and the selected token\'s softmax probability tends to 1. Change the seed to meet other instances.',
    formulas: [LOCAL, CORR],
    refs: ['fro', 'nuclear'],
    options: ['seed', 'n', 'T', 'd'],
    converges: { ref: 'fro', param: 'W' },
  },
  rank: {
    title: 'Rank of the SVM solutions',
    shape: { n: 5, T: 5 },
    caption: 'The Frobenius solution W^mm is full rank (up to min(d, n(T-1))) while the nuclear-norm solution, the limit of the (K, Q) parameterization, is low rank. Compare the two spectra and watch the singular values of W(k)/||W(k)|| under each parameterization.',
    formulas: [String.raw`\operatorname{rank} W^{\mathrm{mm}} = \min(d,\,n(T-1)) \quad\text{vs}\quad \operatorname{rank} W^{\mathrm{mm}}_\star \ll d`, NUC],
    refs: ['fro', 'nuclear'],
    options: ['seed', 'n', 'T', 'd'],
  },
  multitoken: {
    title: 'Several tokens kept (ReLU head)',
    shape: { n: 3, T: 4 },
    caption: 'With a nonlinear head the optimum may keep several tokens with finite softmax weights, so the softmax heatmap does not collapse to one token per sequence. The one-token SVM then explains W only partly: 1 - corr stays away from zero. The generalized SVM (solved when the run pauses or ends, from the tokens kept) predicts W(k) as W_fin + R W_dir: compare its curve.',
    formulas: [String.raw`f_i = v^\top \operatorname{relu}(V X_i^\top s_i)`, String.raw`W(k) \approx W^{\mathrm{fin}} + R\, W^{\mathrm{dir}}`],
    refs: ['fro'],
    options: ['seed', 'T', 'd'],
  },
  'prompt-global-local': {
    title: 'Prompt tuning: global vs local',
    shape: { n: 1, T: 3 },
    caption: 'One trainable prompt p is shared by all sequences; the scores are X W_k^T p, so the plane shows the two coordinates W_k keeps. Depending on the start (the start option), p converges to the globally optimal SVM direction or to a locally optimal one; the local case makes the last token (0,0,0).',
    formulas: [String.raw`a_i = X_i W_k^\top p`, PROMPT],
    refs: ['fro'],
    options: ['start', 'localCase'],
    converges: { ref: 'fro', param: 'prompt' },
  },
  'loss-function': {
    title: 'The role of the loss',
    shape: { n: 2, T: 2 },
    caption: 'Two sequences: the origin against (1, 1, C), and the origin against (1, -1, 1); the head reads the third coordinate, so C scales the first sequence\'s output while only the first two coordinates reach the scores. The theory says that with the logistic loss p tends to the max-margin direction whatever C. Compare the losses (variant: logistic or correlation -u) and several C: watch how long 1 - corr takes and how the path of W_k^T p(k) first bends toward the sequence that dominates the gradient.',
    formulas: [String.raw`\ell(u) = \log(1 + e^{-u})\ \ \text{vs}\ \ \ell(u) = -u`, PROMPT],
    refs: ['fro'],
    options: ['C', 'variant'],
  },
  'joint-pv': {
    title: 'Joint training of p and the head v',
    shape: { n: 3, T: 2 },
    caption: 'The prompt p and the linear head v train together. v tends to the max-margin classifier of the selected tokens and p to the (relaxed) prompt SVM, where sequences that are not support vectors of the head SVM only need a zero margin; both the softmax and the logistic probabilities tend to 1.',
    formulas: [HEAD, PROMPT],
    refs: ['fro'],
    options: ['variant'],
  },
  'mirror-descent': {
    title: 'l_p mirror descent',
    shape: { n: 6, T: 8 },
    caption: 'Mirror descent with the potential (1/p)||W||_p^p converges in direction to the Att-SVM with the entrywise l_p norm, not the Frobenius one. Compare the heatmaps of W(k)/||W(k)|| and W^mm_p: a smaller p gives a sparser W. The lab runs a Frobenius-normalized variant (nmd-fro, step 1, p = 1.75) so that the limit shows within 2000 steps; plain l_p-AttGD gets there too, but at a logarithmic pace, and the paper\'s own dual-norm step is the md-convergence scenario.',
    train: { optimizer: 'nmd-fro', lr: 1, p: 1.75 },
    formulas: [MD, String.raw`W^{\mathrm{mm}}_p = \arg\min_W \|W\|_p\ \ \text{s.t.}\ \ (x_{i\alpha_i} - x_{it})^\top W z_i \ge 1`],
    refs: ['fro', 'lp'],
    options: ['seed', 'n', 'T', 'd'],
    converges: { ref: 'lp', param: 'W' },
  },
  'md-convergence': {
    title: 'Mirror descent as the MD paper runs it',
    shape: { n: 6, T: 8 },
    caption: 'The mirror-descent paper\'s own setting: sphere data, W0 with N(0, 1) entries, and the normalized step divided by the dual norm ||∇L||_q + ε (1/p + 1/q = 1), η = 0.1, p = 1.75 for 1500 iterations. The curves show 1 − corr and the paper\'s Bregman divergence D_p between the l_p SVM and W(k) (dotted, log scale). Change p (and the reference SVM\'s p) to see the l_q SVM with q = p fit best; the full figure over 100 seeds is the md-convergence experiment below.',
    formulas: [String.raw`U = \nabla\psi(W) - \eta\,\frac{\nabla L(W)}{\|\nabla L(W)\|_q + \varepsilon},\ \ \tfrac1p + \tfrac1q = 1`,
      String.raw`D_p(A, B) = \psi(A) - \psi(B) - \langle \nabla\psi(B), A - B\rangle,\ \ \text{reported at } \tfrac{A}{\|A\|_p}, \tfrac{B}{\|B\|_p}`],
    refs: ['fro', 'lp'],
    options: ['seed', 'n', 'T', 'd'],
    // (no convergence promise at 0.99: the authors' eps stalls the step at corr ~0.98 by 1500 steps, docs/RESULTS.md)
  },
  'joint-wv': {
    title: 'Joint l_p training of W and v',
    shape: { n: 2, T: 3 },
    caption: 'The mirror-descent paper\'s joint experiment: two sequences of three 2-D tokens, the query of each is its first token, W and the head v both start at 0 and both take normalized l_p mirror-descent steps (dual norm, η = 0.1, p = 1.75 here). v tends to the l_p max-margin classifier of the selected tokens and W to the l_p Att-SVM of that selection; the softmax and logistic probabilities both tend to 1. Try p = 2 and p = 3: p can change which tokens win.',
    formulas: [String.raw`v^{\mathrm{mm}}_p = \arg\min_v \|v\|_p\ \ \text{s.t.}\ \ Y_i\, v^\top x_{i\alpha_i} \ge 1`,
      String.raw`W^{\mathrm{mm}}_p = \arg\min_W \|W\|_p\ \ \text{s.t.}\ \ (x_{i\alpha_i} - x_{it})^\top W z_i \ge 1`],
    refs: ['lp'],
    options: [],
  },
  overparam: {
    title: 'Overparameterization',
    shape: { n: 6, T: 8 },
    caption: 'With more dimensions than data, gradient descent more often finds the globally optimal selection (every sequence picks its highest-scoring token). Raise d and step through seeds: the verdict in the readout turns from "locally optimal" to "globally optimal" more and more often.',
    formulas: [String.raw`\alpha_i = \mathrm{opt}_i = \arg\max_t\, Y_i\, v^\top x_{it}`, LOCAL],
    refs: ['fro'],
    options: ['seed', 'n', 'T', 'd'],
  },
  sphere: {
    title: 'Free play',
    shape: { n: 6, T: 8 },
    caption: 'Random sphere data with every control open: pick n, T, d and the seed, drag tokens, change the model and the optimizer. The readout certifies each SVM solution (objective, lower bound, gap) and says whether the selection attention makes is globally or locally optimal.',
    formulas: [SOFTMAX, ATT_SVM],
    refs: ['fro', 'nuclear'],
    options: ['seed', 'n', 'T', 'd'],
  },
  // Issue 40 (SPEC 5.3): every position a query; the softmax panel shows each sequence's T x T
  // attention (a row per query), the readout the SAtt-SVM's certificates and verdict per unit.
  seq2seq: {
    title: 'Sequence-to-sequence attention',
    shape: { n: 4, T: 5, attention: 'seq2seq' },
    caption: 'Self-attention with every token a query: each (sequence i, query k) unit selects one token. The SAtt-SVM is the attention SVM with a constraint set per unit: the smallest W whose margin (x_i,selected - x_it)^T W x_ik is at least 1 for every unit and every other token; W(k)/||W(k)|| converges to the SAtt-SVM of the selection gradient descent reaches. Beside the token plane: each sequence\'s T x T attention (a block of T rows, a row per query, the selected token boxed), the readout with the SAtt-SVM\'s certificate (objective, lower bound, gap) and, unit by unit, whether the selection is globally or locally optimal, and 1 - corr with the SAtt-SVM falling. Over 100 seeds: seq2seq-convergence in Full experiments.',
    formulas: [String.raw`(x_{i\alpha_{ik}} - x_{it})^\top W x_{ik} \ge 1\ \ \forall i, k,\ t \ne \alpha_{ik}`, CORR],
    refs: ['fro', 'nuclear'],
    options: ['seed', 'n', 'T', 'd'],
  },
  causal: {
    title: 'Causal attention',
    shape: { n: 4, T: 5, attention: 'causal' },
    caption: 'Causal self-attention: query k attends only to the tokens t <= k, so each sequence\'s T x T attention is lower triangular. Its SAtt-SVM keeps only the causal constraints: the smallest W with (x_i,selected - x_it)^T W x_ik >= 1 for each unit (i, k) and each other token t <= k; query 0 has a single token and no constraint. The reader sees the triangular attention blocks with each unit\'s selection boxed beside the readout\'s certificate of the causal SAtt-SVM and its verdict per unit, and 1 - corr with it falling. Over 100 seeds: seq2seq-convergence in Full experiments.',
    formulas: [String.raw`(x_{i\alpha_{ik}} - x_{it})^\top W x_{ik} \ge 1\ \ \forall i, k,\ t \le k,\ t \ne \alpha_{ik}`, CORR],
    refs: ['fro', 'nuclear'],
    options: ['seed', 'n', 'T', 'd'],
  },
  // Its own view (web/src/real/lab-real.js), not the token panels: the engine has no scenario of this name.
  'real-images': {
    title: 'Real images (Fashion-MNIST patches)',
    caption: 'Attention pooling over the 4 x 4 patches of Fashion-MNIST images, W and the head trained jointly by l_p mirror descent or Adam.',
    formulas: [],
    refs: [],
    options: [],
    own: true,
  },
  // Issue 40 (SPEC 5.3 "Two layers", beyond the papers): a view of its own too (hierarchy-view.js):
  // one seed of `attnsvm experiment hierarchy` through the experiment API, both layers' curves.
  hierarchy: {
    title: 'Two attention layers: a hierarchy of SVMs?',
    caption: 'Two stacked attention layers: layer 1 is self-attention W1 with every token a query (sequence-to-sequence), layer 2 cross-attention W2 that reads layer 1\'s outputs H_i with the query h_i0, then a fixed linear head; W1 and W2 are trained jointly by NGD. The papers\' closing perspective says each layer should converge to the max-margin SVM of its own selection given the other layer\'s outputs; no theorem covers it. Here, per layer and snapshot: how sharp its softmax is and the corr of its weights with its own certified SVM (layer 1: the seq2seq SAtt-SVM; layer 2: the Att-SVM of the set of rows it selects). One seed of the hierarchy experiment, computed in one go, then played snapshot by snapshot; over 100 seeds: Full experiments.',
    formulas: [],
    refs: [],
    options: [],
    own: true,
  },
};

export const SCENARIO_ORDER = Object.keys(SCENARIO_INFO);

// The reference SVMs of the lab's norms: the engine's norms (engine.vocabulary().norm, the core's
// norm registry; tests/wasm/vocabulary.test.mjs), each with its checkbox, dash and label.
export const NORM_REFS = ['fro', 'nuclear', 'lp'];
export const REF_LABEL = { fro: 'Frobenius', nuclear: 'nuclear', lp: 'l_p', gen: 'generalized SVM (W_dir)', head: 'head SVM (v)' };
