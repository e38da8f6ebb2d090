// The hand-written types (web/src/engine/attnsvm.d.ts) against the core's one table of names
// (attnsvm/names.hpp, through engine.vocabulary()): each string-literal union of the .d.ts must list
// exactly the core's canonical names, in the same order, so that the types cannot drift from the
// engine. Also: every canonical name is accepted by the API, and aliases resolve to it.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadEngine, repoRoot, linearW } from './helpers.mjs';

const dts = readFileSync(resolve(repoRoot, 'web/src/engine/attnsvm.d.ts'), 'utf8');
const union = (name) => {
  const m = dts.match(new RegExp(`export type ${name} = ([^;]+);`));
  assert.ok(m, `attnsvm.d.ts has no 'export type ${name}'`);
  return [...m[1].matchAll(/'([^']*)'/g)].map((x) => x[1]);
};
const TYPES = {
  attention: 'AttentionKind', param: 'Parameterization', head: 'HeadKind', loss: 'LossKind',
  optimizer: 'OptimizerKind', init: 'InitKind', norm: 'NormKind', status: 'SolveStatus', verdict: 'Verdict',
};

let engine;
before(async () => { engine = await loadEngine(); });

test('attnsvm.d.ts unions equal the core vocabulary', () => {
  const vocab = engine.vocabulary();
  assert.deepEqual(Object.keys(vocab).sort(), Object.keys(TYPES).sort(), 'vocabulary fields');
  for (const [field, type] of Object.entries(TYPES)) assert.deepEqual(union(type), vocab[field], `${type} vs core ${field}`);
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
