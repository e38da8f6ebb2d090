// Issue 40's experiments in wasm against the native CLI: seq2seq-convergence and hierarchy (its
// sphere part; the Fashion-MNIST part reads the image files and runs natively only). The same seeds
// give the same per-seed numbers, selections, labels and, aggregated by the lab's aggregate.js,
// the same mean/std bands (relative difference <= 1e-9). Skipped without a native CLI build.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { builtCli, loadEngine, assertClose } from './helpers.mjs';
import { aggregate } from '../../web/src/experiments/aggregate.js';

const TOL = 1e-9;
const cli = builtCli();
const skip = cli ? false : 'no native CLI built (build/native-release or build/native-debug)';
const experiment = (args) =>
  JSON.parse(execFileSync(cli, ['experiment', ...args, '--quiet', '--threads', '2'], { maxBuffer: 1 << 28 }).toString());
const nan = (a) => a.map((x) => (x === null ? NaN : x));

let engine;
before(async () => { engine = await loadEngine('attnsvm-experiments'); });

test('seq2seq-convergence: per-seed finals, verdicts, selections and bands agree with the CLI', { skip }, () => {
  const seeds = 3, iters = 300, base = 4;
  const c = experiment(['seq2seq-convergence', '--seeds', `${seeds}`, '--iters', `${iters}`, '--seed-base', `${base}`]);
  const a = aggregate([engine.experimentSeeds('seq2seq-convergence', { seedStart: base + 1, seedCount: 2, iters }),
    engine.experimentSeeds('seq2seq-convergence', { seedStart: base, seedCount: 1, iters })]);
  assert.deepEqual(a.seeds, [4, 5, 6]);
  assert.deepEqual(a.iteration, c.series.iteration);
  for (const scope of c.settings.scopes) {
    assert.deepEqual(a.selections[scope], c.runs.map((r) => r[scope].selection), `${scope} selections`);
    assert.deepEqual(a.labels[`${scope}/verdict`], c.runs.map((r) => r[scope].verdict), `${scope} verdicts`);
    for (const f of ['corrFro', 'corrNuclear', 'corrOwn', 'shareOptimal', 'softmaxSelected', 'loss']) {
      assertClose(a.values[`${scope}/${f}`], nan(c.runs.map((r) => r[scope][f])), `${scope} ${f}`, TOL);
    }
    for (const s of ['softmax', 'corrFro', 'corrNuclear']) {
      const name = `${scope}/${s}`;
      assertClose(a.series[name].mean, nan(c.series[name].mean), `${name} mean`, TOL);
      assertClose(a.series[name].std, nan(c.series[name].std), `${name} std`, TOL, 1);
    }
  }
});

test('hierarchy: the sphere seeds\' series, finals, labels and selections agree with the CLI', { skip }, () => {
  const seeds = 2, iters = 200, base = 1;
  const c = experiment(['hierarchy', '--seeds', `${seeds}`, '--iters', `${iters}`, '--seed-base', `${base}`]).sphere;
  const a = aggregate([engine.experimentSeeds('hierarchy', { seedStart: base, seedCount: seeds, iters })]);
  assert.deepEqual(a.iteration, c.series.iteration);
  assert.deepEqual(Object.keys(c.series).filter((k) => k !== 'iteration').sort(), Object.keys(a.series).sort());
  for (const name of Object.keys(a.series)) {
    assertClose(a.series[name].mean, nan(c.series[name].mean), `${name} mean`, TOL);
  }
  for (const name of Object.keys(c.summary)) {
    assertClose(a.values[name], nan(c.runs.map((r) => r[name])), `${name} per seed`, TOL);
  }
  for (const name of Object.keys(c.labels)) assert.deepEqual(a.labels[name], c.runs.map((r) => r[name]), name);
  for (const sel of ['layer1', 'layer2']) assert.deepEqual(a.selections[sel], c.runs.map((r) => r[sel]), sel);
});
