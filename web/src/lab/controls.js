// What the lab's controls show for a state: pure functions from the state (and the run's
// configuration, for the scenario's own values of fields the state leaves unset) to the values,
// hints and labels that sync-controls.js writes into the control panel.
export const CONTROL_IDS = ['seed', 'n', 'T', 'd', 'C', 'start', 'variant', 'attention', 'param', 'head', 'loss', 'optimizer', 'lr', 'p', 'iterations', 'headLr', 'svmP', 'selection'];

// Scenarios whose data the engine draws from the seed (the others use the papers' hand-made tokens).
const SEEDED = ['local-convergence', 'rank', 'mirror-descent', 'md-convergence', 'overparam', 'sphere', 'multitoken', 'seq2seq', 'causal'];

// The value of each control: the state's, else the scenario's (cfg, when it is of this scenario),
// else the default. svmP: the l_p SVM's p in force.
export function controlValues(state, cfg, svmP) {
  const base = cfg && cfg.scenario === state.scenario ? cfg : null;
  return {
    seed: state.seed, n: state.n ?? base?.dataset.X.length, T: state.T ?? base?.dataset.X[0].length,
    d: state.d ?? base?.dataset.X[0][0].length, C: state.C ?? 1, start: state.start ?? 0, variant: state.variant ?? 0,
    attention: state.attention ?? base?.model.attention ?? 'cross', param: state.param ?? base?.model.param ?? 'W',
    head: state.head ?? base?.model.head ?? 'linear', loss: state.loss ?? base?.model.loss ?? 'logistic',
    optimizer: state.optimizer ?? base?.train.optimizer ?? 'ngd', lr: state.lr ?? base?.train.lr ?? 0.1,
    p: state.p ?? base?.train.p ?? 2, iterations: state.iterations ?? base?.iterations ?? 2000,
    headLr: state.headLr ?? base?.train.headLr ?? 0.1, svmP, selection: state.selection,
  };
}

// The joint-training box: the state's choice, else the scenario's.
export function jointChecked(state, cfg) {
  const base = cfg && cfg.scenario === state.scenario ? cfg : null;
  return state.joint ?? base?.train.trainHead ?? false;
}

// Whether the option `k` applies: the scenario's own options, and the sphere generator's sizes.
export function optionShown(info, state, k) {
  return info.options.includes(k) || (state.generator === 'sphere' && ['n', 'T', 'd', 'seed'].includes(k));
}

// Where the data comes from (under the generator's choice).
export function dataHint(state) {
  if (state.data) return 'Custom tokens (dragged or edited); "Generator data" below restores the generated ones.';
  if (state.generator === 'sphere') return 'Unit Gaussian tokens, queries and head; labels ±1; seeded (same data natively and in the browser).';
  return SEEDED.includes(state.scenario) ? 'This scenario draws sphere data from the seed.' : 'This scenario uses the papers\' hand-made tokens.';
}

// The caption's note when the data is not the scenario's own ('' when it is).
export function dataNote(state) {
  if (state.data) return 'Note: custom tokens (dragged or edited) replace the scenario\'s data; the caption describes the original.';
  return state.generator === 'sphere' ? 'Note: sphere data replaces the scenario\'s own; the caption describes the original.' : '';
}

// The two "variant" options' labels (the loss-function scenario varies the loss, the others a token).
export function variantLabels(scenario) {
  return scenario === 'loss-function' ? ['logistic loss', 'correlation −u'] : ['token (0.5, 1)', 'token (0.5, 1.5)'];
}
