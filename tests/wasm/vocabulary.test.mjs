// The hand-written types (web/src/engine/attnsvm.d.ts) against the core's one table of names
// (attnsvm/vocab/names.hpp) and its field lists (attnsvm/vocab/fields.hpp), through engine.vocabulary(): each
// string-literal union of the .d.ts must list exactly the core's canonical names, in the same order,
// and each interface of an input or result object exactly the fields of the core's list, so that the
// types cannot drift from the engine. Also: every canonical name is accepted by the API, and aliases
// resolve to it.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadEngine, repoRoot, linearW } from './helpers.mjs';
import { OPTIMIZERS } from '../../web/src/lab/optimizers.js';
import { NORM_REFS } from '../../web/src/lab/scenarios.js';

const dts = readFileSync(resolve(repoRoot, 'web/src/engine/attnsvm.d.ts'), 'utf8');
const union = (name) => {
  const m = dts.match(new RegExp(`export type ${name} = ([^;]+);`));
  assert.ok(m, `attnsvm.d.ts has no 'export type ${name}'`);
  return [...m[1].matchAll(/'([^']*)'/g)].map((x) => x[1]);
};
const TYPES = {
  attention: 'AttentionKind', param: 'Parameterization', head: 'HeadKind', loss: 'LossKind',
  optimizer: 'OptimizerKind', init: 'InitKind', norm: 'NormKind', problem: 'SvmProblemKind',
  status: 'SolveStatus', verdict: 'Verdict',
};
// The members of `export interface NAME { ... }` (top level only: nested object types, comments and
// bracketed types are skipped).
function interfaceMembers(source, name) {
  const m = source.match(new RegExp(`export interface ${name}(?: extends [^{]+)? \\{`));
  assert.ok(m, `attnsvm.d.ts has no 'export interface ${name}'`);
  let depth = 1, top = '';
  for (let i = m.index + m[0].length; depth > 0; i++) {
    const c = source[i];
    assert.ok(c !== undefined, `interface ${name} is not closed`);
    if (c === '/' && source[i + 1] === '/') { while (source[i + 1] !== '\n') i++; continue; }
    if ('{(['.includes(c)) depth++;
    else if ('})]'.includes(c)) depth--;
    else if (depth === 1) top += c;
  }
  return [...top.matchAll(/(?:^|[;\n])\s*(?:readonly\s+)?(\w+)\??\s*:/g)].map((x) => x[1]);
}
const INTERFACES = {
  dataset: 'DatasetJSON', model: 'ModelJSON', train: 'TrainJSON', params: 'ParamsJSON', init: 'InitJSON',
  solve: 'SolveRequest', scenarioOptions: 'ScenarioOptions', solution: 'Solution', report: 'SelectionReport',
};

let engine;
before(async () => { engine = await loadEngine(); });

test('attnsvm.d.ts unions equal the core vocabulary', () => {
  const vocab = engine.vocabulary();
  assert.deepEqual(Object.keys(vocab).sort(), [...Object.keys(TYPES), 'fields', 'datasetFileExtras', 'optimizers'].sort(), 'vocabulary fields');
  for (const [field, type] of Object.entries(TYPES)) assert.deepEqual(union(type), vocab[field], `${type} vs core ${field}`);
});

// The lab's list of optimizers (web/src/lab/optimizers.js: the select, the p control, the URL's enum)
// is the core's registry: the same names in the same order, the same mirror property.
test('the lab\'s optimizers are the core\'s optimizer registry', () => {
  const { optimizers, optimizer } = engine.vocabulary();
  assert.deepEqual(optimizers.map((o) => o.name), optimizer);
  assert.deepEqual(OPTIMIZERS.map(({ name, mirror }) => ({ name, mirror })), optimizers.map(({ name, mirror }) => ({ name, mirror })));
  for (const o of optimizers) assert.deepEqual(Object.keys(o).sort(), ['batched', 'mirror', 'name', 'normalized'], o.name);
  assert.deepEqual(optimizers.filter((o) => o.mirror).map((o) => o.name), ['md', 'nmd', 'nmd-fro']);
  assert.deepEqual(optimizers.filter((o) => o.normalized).map((o) => o.name), ['ngd', 'nmd', 'nmd-fro']);
});

// The lab's reference SVMs (web/src/lab/scenarios.js: checkboxes, URL set, prepaint) are the core's
// norm registry, in its order.
test('the lab\'s reference norms are the core\'s norm registry', () => {
  assert.deepEqual(NORM_REFS, engine.vocabulary().norm);
});

test('attnsvm.d.ts interfaces list exactly the core field lists', () => {
  const { fields } = engine.vocabulary();
  assert.deepEqual(Object.keys(fields).sort(), Object.keys(INTERFACES).sort(), 'field lists');
  for (const [list, iface] of Object.entries(INTERFACES)) {
    const core = fields[list];
    assert.equal(new Set(core).size, core.length, `core ${list} names a field twice`);
    const typed = interfaceMembers(dts, iface);
    assert.deepEqual({ missing: core.filter((f) => !typed.includes(f)), extra: typed.filter((f) => !core.includes(f)) },
      { missing: [], extra: [] }, `${iface} vs the core's ${list} fields (${core.join(', ')})`);
  }
  // the check can fail: an interface with one field more or less than the core's list
  const drifted = dts.replace('export interface TrainJSON {', 'export interface TrainJSON {\n  learningRate?: number;');
  assert.notDeepEqual(interfaceMembers(drifted, 'TrainJSON').sort(), [...fields.train].sort());
  assert.deepEqual(interfaceMembers('export interface A { b?: { c: number }; d: [number, number][]; e?: number; f: string }', 'A'),
    ['b', 'd', 'e', 'f']);
});

// The experiments' requests and results (experiment.hpp, experiment_basin.hpp, real_images.hpp): their
// lists come from the attnsvm-experiments module (experimentVocabulary), not engine.vocabulary(), so the
// page's module stays within its size bound.
const EXPERIMENT_INTERFACES = {
  experimentSeeds: 'ExperimentSeedOptions', basinMap: 'BasinMapOptions', realImagesSettings: 'RealImagesSettings',
  realImagesFrame: 'RealImagesFrame', realImagesAnalysis: 'RealImagesAnalysis',
  realStudySettings: 'RealStudySettings', realStudyRun: 'RealStudyRunSpec', realStudyRunResult: 'RealStudyRunResult',
  realStudyRow: 'RealStudyRow', realTrainSettings: 'RealTrainSettings', realLadderSettings: 'RealLadderSettings',
  realLadderRun: 'RealLadderRunSpec', realLadderRunResult: 'RealLadderRunResult', realLadderRow: 'RealLadderRow',
  realLadderSummary: 'RealLadderSummary', seriesSpread: 'SeriesSpreadOptions', seriesSpreadResult: 'SeriesSpreadResult',
};

test('attnsvm.d.ts experiment interfaces list exactly the experiments module\'s field lists', async () => {
  const experiments = await loadEngine('attnsvm-experiments');
  const r = experiments.module.experimentVocabulary();
  assert.ok(r.ok, r.error);
  assert.deepEqual(Object.keys(r.fields).sort(), Object.keys(EXPERIMENT_INTERFACES).sort(), 'experiment field lists');
  for (const [list, iface] of Object.entries(EXPERIMENT_INTERFACES)) {
    const core = r.fields[list];
    assert.equal(new Set(core).size, core.length, `core ${list} names a field twice`);
    const typed = interfaceMembers(dts, iface);
    assert.deepEqual({ missing: core.filter((f) => !typed.includes(f)), extra: typed.filter((f) => !core.includes(f)) },
      { missing: [], extra: [] }, `${iface} vs the core's ${list} fields (${core.join(', ')})`);
  }
  // the page's module has neither the entry point nor the lists
  assert.equal(engine.module.experimentVocabulary, undefined);
  for (const list of Object.keys(EXPERIMENT_INTERFACES)) assert.ok(!(list in engine.vocabulary().fields), list);
});

test('every canonical name is accepted where it is used, aliases too', () => {
  const vocab = engine.vocabulary();
  const dataset = engine.sphere(3, 4, 3, 1);
  for (const norm of vocab.norm) engine.solve({ dataset, norm, p: 3 });
  for (const attention of ['cross', 'self']) engine.validate(attention === 'self' ? { ...dataset, Z: undefined } : dataset, attention);
  for (const optimizer of vocab.optimizer) {
    const run = engine.train({ dataset, model: linearW, train: { optimizer, lr: 0.1, p: 3 }, init: { kind: 'zero' } });
    run.step(2);
    run.dispose();
  }
  for (const loss of [...vocab.loss, 'exp']) {
    const run = engine.train({ dataset, model: { ...linearW, loss }, train: { optimizer: 'ngd' }, init: { kind: 'zero' } });
    run.dispose();
  }
});

test('domain defaults live in the core: seq2seq / causal without a selection solve as in the CLI', () => {
  // Few constraints (n T (T-1)) for d^2 unknowns, so the per-query problems are feasible.
  const { Z: _z, ...dataset } = engine.sphere(2, 4, 8, 14);
  for (const attention of ['seq2seq', 'causal']) {
    const s = engine.solve({ dataset, attention, norm: 'fro' });
    assert.equal(s.status, 'optimal', attention);
    assert.ok(s.gap <= 1e-8, `${attention}: gap ${s.gap}`);
  }
});
