// The regularization path in wasm vs the native CLI: engine.path's certificate points equal
// `attnsvm path` (same fields, relative difference <= 1e-9), and the reg-path experiment's seeds
// (engine.experimentSeeds, aggregated by the lab's aggregate.js) equal `attnsvm experiment
// reg-path`. Skipped without a native CLI (build/native-release, native-debug or ATTNSVM_CLI).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { builtCli, loadEngine, assertClose, worst } from './helpers.mjs';
import { aggregate } from '../../web/src/experiments/aggregate.js';

const TOL = 1e-9;
const cli = builtCli();
const skip = cli ? false : 'no native CLI built (build/native-release or build/native-debug)';
// The CLI's JSON and what it said on stderr (its warnings are asserted, not printed into the run's log).
const runCli = (args) => {
  const r = spawnSync(cli, args, { maxBuffer: 1 << 28 });
  assert.equal(r.status, 0, `attnsvm ${args.join(' ')}: ${r.stderr}`);
  return { ...JSON.parse(r.stdout.toString()), stderr: r.stderr.toString() };
};
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
    // l_p: pmath's pow has the same bits natively and in wasm, but the oracle's sums are vectorized
    // in other orders; the duality gap, a difference of near-equal values, then differs by 9.9e-10
    // relative (measured, both native CLIs), so l_p's bar is 1e-8 (it was 1e-6 when pow was libm's).
    const tol = norm === 'lp' ? 1e-8 : TOL;
    // The CLI warns exactly when a radius is left uncertified (here R = 1000, for every norm).
    assert.equal(c.stderr.includes('some radii are not certified'), c.points.some((q) => !q.certified),
      `${norm}: the CLI's warning and its points' certified flags agree (stderr: ${c.stderr || 'empty'})`);
    w.points.forEach((p, k) => {
      const q = c.points[k];
      // A radius that did not reach the bound is wherever 500 steps left it (native and wasm
      // drift apart there, ~1e-5 for l_p); where both sides are certified every field is compared.
      assert.equal(p.certified, q.certified, `${norm} R=${radii[k]} certified`);
      if (!p.certified) {
        assertClose([p.corrOwn], nan([q.corrOwn]), `${norm} R=${radii[k]} corrOwn (uncertified)`, 1e-4);
        return;
      }
      for (const f of FIELDS) assertClose([p[f]], nan([q[f]]), `${norm} R=${radii[k]} ${f}`, tol);
      for (const f of ['iterations', 'lossResolved', 'globallyOptimal', 'rank']) {
        assert.equal(p[f], q[f], `${norm} R=${radii[k]} ${f}`);
      }
      assert.deepEqual(p.selection, q.selection);
      assertClose(p.W, q.W, `${norm} R=${radii[k]} W`, tol);
      assert.equal(p.certified, p.relativeGap <= c.gapTolerance, 'certified iff the gap meets the bound');
    });
  }
});

test('experiment reg-path: seeds and mean/std bands equal the CLI', { skip }, () => {
  const seeds = 2, iters = 200;
  const c = JSON.parse(execFileSync(cli, ['experiment', 'reg-path', '--seeds', `${seeds}`, '--iters', `${iters}`,
    '--quiet', '--threads', '2'], { maxBuffer: 1 << 28 }).toString());
  const lc = c.data.localConvergence;
  const a = aggregate([experiments.experimentSeeds('reg-path', { seedStart: 0, seedCount: seeds, iters })]);
  // The l_p balls go through pow (the l_p norm of the oracle, 300 steps per radius): there native
  // and wasm differ by up to ~1e-5 relative in 1 - corr (values ~1e-4), hence their own bar.
  for (const [name, tol] of [['fro/oneMinusCorr/fro', TOL], ['fro/oneMinusCorr/nuclear', TOL],
    ['nuclear/oneMinusCorr/nuclear', TOL], ['p1.75/oneMinusCorr/p1.75', 1e-4], ['p3/oneMinusCorr/p3', 1e-4],
    ['nuclear/rank', TOL], ['fro/global', TOL]]) {
    assertClose(a.series[name].mean, nan(lc.series[name].mean), `${name} mean`, tol);
    assertClose(a.series[name].std, nan(lc.series[name].std), `${name} std`, tol, 1);
  }
  const p2 = aggregate([experiments.experimentSeeds('reg-path', { seedStart: 0, seedCount: 1, iters, method: 'paths2d' })]);
  assertClose(p2.series['fro/oneMinusCorr/fro'].mean, nan(c.data.paths2d.series['fro/oneMinusCorr/fro'].mean),
    'paths2d fro', TOL);
});
