// The regularization path in wasm vs the native CLI: engine.path's certificate points equal
// `attnsvm path` (same fields, relative difference <= 1e-9), and the reg-path experiment's seeds
// (engine.experimentSeeds, aggregated by the lab's aggregate.js) equal `attnsvm experiment
// reg-path`. Skipped without a native CLI (build/native-release, native-debug or ATTNSVM_CLI).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadEngine, assertClose, repoRoot, worst } from './helpers.mjs';
import { aggregate } from '../../web/src/experiments/aggregate.js';

const TOL = 1e-9;
const cli = [process.env.ATTNSVM_CLI, 'build/native-release/cli/attnsvm', 'build/native-debug/cli/attnsvm']
  .filter(Boolean).map((p) => resolve(repoRoot, p)).find((p) => existsSync(p));
const skip = cli ? false : 'no native CLI built (build/native-release or build/native-debug)';
const runCli = (args) => JSON.parse(execFileSync(cli, args, { maxBuffer: 1 << 28 }).toString());
const nan = (a) => a.map((x) => (x === null ? NaN : x));

let engine, experiments;
before(async () => {
  engine = await loadEngine();
  experiments = await loadEngine('attnsvm-experiments');
});
after(() => console.log(`# largest relative difference at the 1e-9 bar: ${worst.diff.toExponential(2)} (${worst.what})`));

const FIELDS = ['radius', 'loss', 'corrOwn', 'corrGlobal', 'gap', 'relativeGap', 'logGradDual', 'norm'];

test('engine.path: the certificate of every radius equals the CLI', { skip }, () => {
  const sc = engine.scenario('local-convergence', { seed: 3 });
  const radii = [1, 10, 100, 1000];
  for (const [norm, extra, args] of [['fro', {}, []], ['nuclear', {}, []], ['lp', { p: 1.75 }, ['--p', '1.75']]]) {
    const w = engine.path({ dataset: sc.dataset, model: { ...sc.model, param: 'W' }, radii, norm, ...extra });
    const c = runCli(['path', '--scenario', 'local-convergence', '--seed', '3', '--norm', norm, ...args,
      '--radii', radii.join(',')]);
    assert.equal(w.points.length, c.points.length);
    w.points.forEach((p, k) => {
      const q = c.points[k];
      for (const f of FIELDS) assertClose([p[f]], nan([q[f]]), `${norm} R=${radii[k]} ${f}`, TOL);
      for (const f of ['iterations', 'certified', 'lossResolved', 'globallyOptimal', 'rank']) {
        assert.equal(p[f], q[f], `${norm} R=${radii[k]} ${f}`);
      }
      assert.deepEqual(p.selection, q.selection);
      assertClose(p.W, q.W, `${norm} R=${radii[k]} W`, TOL);
      assert.ok(p.certified && p.relativeGap <= c.gapTolerance);
    });
  }
});

test('experiment reg-path: seeds and mean/std bands equal the CLI', { skip }, () => {
  const seeds = 2, iters = 200;
  const c = JSON.parse(execFileSync(cli, ['experiment', 'reg-path', '--seeds', `${seeds}`, '--iters', `${iters}`,
    '--quiet', '--threads', '2'], { maxBuffer: 1 << 28 }).toString());
  const lc = c.data['local-convergence'];
  const a = aggregate([experiments.experimentSeeds('reg-path', { seedStart: 0, seedCount: seeds, iters })]);
  for (const name of ['fro/oneMinusCorr/fro', 'fro/oneMinusCorr/nuclear', 'nuclear/oneMinusCorr/nuclear',
    'lp3/oneMinusCorr/lp3', 'nuclear/rank', 'fro/global']) {
    assertClose(a.series[name].mean, nan(lc.series[name].mean), `${name} mean`, TOL);
    assertClose(a.series[name].std, nan(lc.series[name].std), `${name} std`, TOL, 1);
  }
  const p2 = aggregate([experiments.experimentSeeds('reg-path', { seedStart: 0, seedCount: 1, iters, method: 'paths2d' })]);
  assertClose(p2.series['fro/oneMinusCorr/fro'].mean, nan(c.data.paths2d.series['fro/oneMinusCorr/fro'].mean),
    'paths2d fro', TOL);
});
