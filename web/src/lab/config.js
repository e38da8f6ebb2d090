// The lab's configuration rules, shared by the lab and the embeds: from the state (state.js) and
// the engine's scenario (engine.scenario(name, scenarioOptions(state))) to the run configuration.
// Pure functions: no DOM, no engine calls.
import { SCENARIO_INFO } from './scenarios.js';
import { dot, transpose } from './linalg.js';
import { MIRROR_OPTIMIZERS } from './optimizers.js';

// The optimizers whose step goes through the mirror map of p (md, nmd, nmd-fro: the registry's).
export const isMD = (opt) => MIRROR_OPTIMIZERS.includes(opt);

// Options passed to engine.scenario: the seed, and the options this scenario takes (n, T, d go to
// the sphere generator instead when state.generator is 'sphere').
export function scenarioOptions(state) {
  const o = { seed: state.seed };
  for (const k of ['n', 'T', 'd', 'C', 'start', 'localCase', 'variant']) if (state[k] !== null && state[k] !== undefined) o[k] = state[k];
  const allowed = new Set(SCENARIO_INFO[state.scenario].options);
  if (state.generator === 'sphere') for (const k of ['n', 'T', 'd']) allowed.delete(k);
  for (const k of Object.keys(o)) if (!allowed.has(k) && k !== 'seed') delete o[k];
  return o;
}

// Arguments of engine.sphere(n, T, d, seed) for the sphere generator (defaults: the scenario's shape).
export function sphereArgs(state, scenarioDataset) {
  const sd = scenarioDataset;
  return [state.n ?? sd.X.length, state.T ?? sd.X[0].length, state.d ?? sd.X[0][0].length, state.seed];
}

const identity = (d) => Array.from({ length: d }, (_, i) => Array.from({ length: d }, (_, j) => (i === j ? 1 : 0)));

// The l_p exponent of the reference SVM and of the trace's l_p norm.
export function lpP(state, cfg) {
  return state.svmP ?? (cfg && isMD(cfg.train.optimizer) ? cfg.train.p : 3);
}

// The reference norms shown (no nuclear norm for a prompt: a vector's nuclear norm is its l2 norm).
export function effectiveRefs(state, cfg) {
  let list = state.refs ?? SCENARIO_INFO[state.scenario].refs;
  if (cfg?.model.param === 'prompt') list = list.filter((r) => r !== 'nuclear');
  return list;
}

// base: the engine's ScenarioJSON (its dataset possibly replaced by generated sphere data).
export function buildConfig(state, base) {
  const dataset = state.data ?? base.dataset;
  const d = dataset.X[0][0].length;
  const model = { ...base.model };
  for (const k of ['attention', 'param', 'head', 'loss']) if (state[k] !== null && state[k] !== undefined) model[k] = state[k];
  if (model.param === 'prompt' && (!model.Wk || model.Wk.length !== d)) model.Wk = identity(d);
  if (model.head === 'relu' && (!model.V || model.V.length !== d)) model.V = identity(d);
  if (model.param !== 'prompt') delete model.Wk;
  if (model.head !== 'relu') delete model.V;
  const train = { ...base.train, ...(SCENARIO_INFO[state.scenario].train ?? {}) };
  if (state.optimizer != null) train.optimizer = state.optimizer;
  if (state.lr != null) train.lr = state.lr;
  if (state.p != null) train.p = state.p;
  // joint l_p training (joint-wv): the head follows the attention's p
  if (state.p != null && train.trainHead && isMD(train.headOptimizer)) train.headP = state.p;
  if (state.joint != null) train.trainHead = state.joint;
  if (state.headLr != null) train.headLr = state.headLr;
  if (isMD(train.optimizer) && !(train.p > 1)) train.p = 3;
  const iterations = state.iterations ?? base.iterations;
  train.traceEvery = Math.max(1, Math.ceil(iterations / 1500));
  train.traceSoftmax = true;
  train.traceP = isMD(train.optimizer) ? train.p : (state.svmP ?? 3);
  // initial parameters: the scenario's, unless the parameterization or the dimension changed
  let init = base.init;
  const g = init?.given ?? {};
  const givenD = g.W?.length ?? g.K?.length ?? g.p?.length;
  const fits = d === givenD && ((model.param === 'W' && g.W) || (model.param === 'KQ' && g.K && g.Q) || (model.param === 'prompt' && g.p));
  if (!fits) init = model.param === 'KQ' ? { kind: 'random', seed: state.seed, scale: 0.1 } : { kind: 'zero' };
  else if (init.kind === 'given') init = { kind: 'given', given: { ...g, v: dataset.v } };
  return { scenario: state.scenario, dataset, model, train, init, iterations };
}

// Effective weights at iteration 0 (W, K Q^T, or p as a column), for the first snapshot.
export function initialWeights(cfg) {
  const g = cfg.init.kind === 'given' ? cfg.init.given : null;
  const d = cfg.dataset.X[0][0].length;
  if (!g) return null;
  if (cfg.model.param === 'W') return g.W ?? null;
  if (cfg.model.param === 'KQ' && g.K && g.Q) return g.K.map((row) => transpose(g.Q).map((col) => dot(row, col)));
  if (cfg.model.param === 'prompt' && g.p) return g.p.map((x) => [x]);
  return Array.from({ length: d }, () => Array(d).fill(0));
}

// Prompts use no query: validate their data as sequence-to-sequence (sizes and finiteness only).
export const validationKind = (cfg) => (cfg.model.param === 'prompt' ? 'seq2seq' : cfg.model.attention);
