// Input objects reach the core through its field lists (attnsvm/vocab/fields.hpp, wasm/convert_read.cpp): a key
// that is not a field is an error naming it and listing the fields, in every object the API takes;
// the input structs round-trip through the wasm reader and writer unchanged (fieldsRoundTrip of the
// attnsvm-experiments module: dataset, model, train, params, init; the solver settings, solve request and
// scenario options are round-tripped natively in tests/cli/json_io_test.cpp, the same lists); results
// carry exactly the listed fields; the dataset carries `query` only for self attention, whoever
// produces it.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine, linearW } from './helpers.mjs';
import { toWireDataset, toWireMatrix } from '../../web/src/engine/convert.js';

let engine, experiments, fields, ds;
before(async () => {
  engine = await loadEngine();
  experiments = await loadEngine('attnsvm-experiments');
  fields = engine.vocabulary().fields;
  ds = engine.sphere(3, 4, 3, 1);
});

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
function notAField(fn, path, accepted, what = path) {
  assert.throws(fn, (e) => {
    assert.equal(e.kind, 'input', `${what}: ${e.message}`);
    assert.match(e.message, new RegExp(`^${escape(path)} is not a field; expected one of ${escape(accepted.join(', '))}$`), what);
    return true;
  }, what);
}

// assert.throws matches a RegExp against String(error) ("AttnsvmError: ..."): match the message.
const throwsMessage = (fn, pattern) => assert.throws(fn, (e) => { assert.match(e.message, pattern); return true; });

test('a misspelled key is an error naming it and listing the fields, in every input object', () => {
  const I = [[1, 0, 0], [0, 1, 0], [0, 0, 1]];
  // the examples: both trained with the defaults without a word before
  notAField(() => engine.train({ dataset: ds, model: linearW, train: { learningRate: 0.5 } }), 'train.learningRate', fields.train);
  notAField(() => engine.train({ dataset: ds, model: { parm: 'KQ' } }), 'model.parm', fields.model);
  notAField(() => engine.train({ dataset: ds, model: linearW, init: { kind: 'random', sed: 3 } }), 'init.sed', fields.init);
  notAField(() => engine.train({ dataset: ds, model: linearW, init: { kind: 'given', given: { w: I } } }), 'init.given.w', fields.params);
  notAField(() => engine.train({ dataset: { ...ds, alhpa: [0, 0, 0] }, model: linearW }), 'dataset.alhpa', fields.dataset);
  notAField(() => engine.train({ dataset: ds, model: linearW, trian: { lr: 1 } }), 'trian', ['dataset', 'model', 'train', 'init', 'references']);
  notAField(() => engine.solve({ dataset: ds, norm: 'fro', tol: 1e-9 }), 'tol', fields.solve);
  notAField(() => engine.solve({ dataset: { ...ds, labels: ds.Y }, norm: 'fro' }), 'dataset.labels', fields.dataset);
  notAField(() => engine.analyze({ dataset: ds, slection: [0, 0, 0] }), 'slection', [...fields.solve, 'W']);
  notAField(() => engine.validate({ ...ds, Zz: ds.Z }), 'dataset.Zz', fields.dataset);
  notAField(() => engine.scores({ ...ds, n: 3 }), 'dataset.n', fields.dataset);
  notAField(() => engine.forward(ds, linearW, { W: I, K2: I }), 'params.K2', fields.params);
  notAField(() => engine.forward(ds, { ...linearW, heads: 'relu' }, {}), 'model.heads', fields.model);
  notAField(() => engine.scenario('local-convergence', { sead: 1 }), 'options.sead', fields.scenarioOptions);
  notAField(() => engine.enumerate({ dataset: ds, maxSelection: 10 }), 'maxSelection', ['dataset', 'attention', 'maxSelections']);
  const softmax = [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0]];
  notAField(() => engine.generalized({ dataset: ds, softmax, attention: 'cross' }), 'attention',
    ['dataset', 'softmax', 'threshold', 'norm', 'p', 'tolerance', 'feasibilityTol', 'supportTol', 'maxIterations', 'W']);
  notAField(() => engine.path({ dataset: ds, model: linearW, radii: [1], norms: 'fro' }), 'norms',
    ['dataset', 'model', 'norm', 'p', 'iterationsPerRadius', 'gapTolerance', 'radii', 'warmStart']);
  // a key whose value is undefined is absent (what a spread such as {...ds, Z: undefined} writes)
  engine.validate({ ...ds, Z: undefined, extra: undefined }, 'self');
  // values are checked by type, with their path
  throwsMessage(() => engine.train({ dataset: ds, model: linearW, train: { trainHead: 1 } }), /^train\.trainHead must be true or false$/);
  throwsMessage(() => engine.train({ dataset: ds, model: linearW, train: { traceEvery: 1.5 } }), /^train\.traceEvery = 1\.5\d* must be an integer$/);
  throwsMessage(() => engine.train({ dataset: ds, model: linearW, train: { optimizer: 'sgd' } }),
    /^train\.optimizer = "sgd" is unknown; expected one of gd, ngd, md, nmd, nmd-fro, adam$/);
  throwsMessage(() => engine.solve({ dataset: ds, problem: 'dual' }),
    /^problem = "dual" is unknown; expected one of attention, prompt, relaxed-prompt, head$/);
  throwsMessage(() => engine.analyze({ dataset: ds, problem: 'head' }), /^analyze takes problem attention or prompt, not head$/);
  throwsMessage(() => engine.train({ dataset: ds, model: linearW, train: 5 }), /^train must be an object$/);
});

// fieldsRoundTrip(name, wire object) reads the object as that struct and writes it back (in the
// attnsvm-experiments build of the module: the page's module stays within its size bound).
function roundTrip(name, value) {
  const r = experiments.module.fieldsRoundTrip(name, value);
  assert.ok(r.ok, `${name}: ${r.error}`);
  return r.value;
}

test('every input struct round-trips through its field list: write -> read -> write is the identity', () => {
  const M = toWireMatrix([[1, 0.1 + 0.2], [-3, 4e-300]], 'M');
  const self = toWireDataset({ X: ds.X, query: 2, Y: ds.Y, v: ds.v, alpha: [1, 0, 3] }); // no Z: self
  const values = {
    dataset: toWireDataset(ds), // cross: X, Z, Y, v, alpha
    model: { attention: 'causal', param: 'KQ', head: 'relu', loss: 'correlation', m: 3, Wk: M, V: M },
    train: { optimizer: 'nmd-fro', lr: 0.3, p: 1.75, balance: 0.01, trainHead: true, headOptimizer: 'adam', headLr: 0.02,
      headP: 3, adamBeta1: 0.8, adamBeta2: 0.99, adamEps: 1e-7, traceEvery: 4, traceSoftmax: true, traceP: 2.5, maxNorm: 1e9 },
    params: { W: M, K: M, Q: M, p: new Float64Array([0.5, 1.5]), v: new Float64Array([1, 2]) },
    init: { kind: 'cone', seed: 2 ** 53 - 1, scale: 0.7, direction: M, coneNoise: 0.05 },
    selfDataset: self,
  };
  for (const [key, value] of Object.entries(values)) {
    const name = key === 'selfDataset' ? 'dataset' : key;
    const once = roundTrip(name, value);
    assert.deepEqual(once, value, `${name}: written as given (every field read)`);
    assert.deepEqual(roundTrip(name, once), once, `${name}: write -> read -> write`);
  }
  // the other kinds write the fields they use; defaults come from the core's structs
  for (const init of [{ kind: 'given', given: { W: M } }, { kind: 'random', seed: 4, scale: 0.2 }, { kind: 'zero' }]) {
    assert.deepEqual(roundTrip('init', init), init);
  }
  const train = roundTrip('train', {});
  assert.deepEqual(Object.keys(train), fields.train);
  assert.equal(train.optimizer, 'ngd');
  assert.equal(train.adamBeta2, 0.999);
  assert.deepEqual(roundTrip('model', { param: 'kq', loss: 'exp' }), { attention: 'cross', param: 'KQ', head: 'linear', loss: 'exponential' });
  assert.equal(experiments.module.fieldsRoundTrip('nope', {}).ok, false);
  assert.equal(engine.module.fieldsRoundTrip, undefined, 'not in the page\'s module');
});

test('the dataset carries query only for self attention, whoever writes it', () => {
  assert.ok(!('query' in engine.sphere(3, 4, 3, 1)), 'sphere (cross)');
  for (const name of engine.scenarioNames()) {
    const s = engine.scenario(name);
    assert.equal('query' in s.dataset, s.model.attention === 'self', name);
    if ('Z' in s.dataset) assert.equal(s.model.attention, 'cross', name);
  }
  const self = toWireDataset({ X: ds.X, Y: ds.Y, v: ds.v });
  assert.equal(roundTrip('dataset', self).query, 0, 'no Z: self attention, query written');
});

test('results carry exactly the core\'s fields', () => {
  // farkas only when infeasible; marginLower / marginUpper only where the large-problem path ran.
  const optional = ['farkas', 'marginLower', 'marginUpper'];
  const small = fields.solution.filter((f) => !optional.includes(f)).sort();
  const s = engine.solve({ dataset: ds, norm: 'fro' });
  assert.equal(s.status, 'optimal');
  assert.deepEqual(Object.keys(s).sort(), small);
  const infeasible = { X: [[[1, 0], [1, 0], [-1, -0.5]], [[0.5, 0.5], [-1, 0.2], [0.3, -1]]], Z: [[1, 0], [0, 1]],
    alpha: [0, 1], Y: [1, -1], v: [1, 0.5] };
  assert.deepEqual(Object.keys(engine.solve({ dataset: infeasible })).sort(), [...small, 'farkas'].sort());
  const r = engine.analyze({ dataset: ds });
  assert.deepEqual(Object.keys(r).sort(), [...fields.report].sort());
  assert.deepEqual(Object.keys(r.svm).sort(), small);
  const sc = engine.scenario('multitoken');
  assert.deepEqual(Object.keys(sc.train), fields.train);
  assert.deepEqual(Object.keys(sc.model).sort(), ['attention', 'param', 'head', 'loss', 'V'].sort());
  assert.deepEqual(Object.keys(sc.init), ['kind', 'given']);
});
