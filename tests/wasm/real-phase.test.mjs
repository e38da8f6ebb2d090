// Tokens of dimension d (SPEC 6.5) and the (d, n) phase diagram in wasm against the native CLI:
// - the embedding is the same bits: a real-images run at d = 64 (and d = 32) on the CLI and in wasm
//   has every measurement of every frame and the final W (d x d) and v equal as doubles, which it
//   could not be unless every token and query were (the run starts at W = 0, v = 0 and is a function
//   of the tokens alone); the CLI's JSON says d;
// - a reduced phase diagram (`attnsvm experiment real-phase`) gives the CLI's plan, rows and summary
//   in wasm (RealPhasePlanner; its runs are ladder runs): training bit-identical, corr along k to 1e-7
//   (the SVM solvers' last bits differ between builds), a degenerate count and the budget's end per row.
// Needs Debian's dataset-fashion-mnist and a native CLI (skipped without).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RealImagesRun } from '../../web/src/engine/real-run.js';
import { RealPhasePlanner, executeLadderRun, runPlan } from '../../web/src/engine/real-study.js';
import { skip, useRealFixture, runCli, runExperiment, assertLadderRows } from './real-fixture.mjs';

const fx = useRealFixture();

function sameBits(a, b, what) {
  assert.equal(a.length, b.length, `${what}: lengths`);
  for (let k = 0; k < a.length; k++) {
    if (!Object.is(a[k], b[k])) assert.fail(`${what}[${k}]: wasm ${a[k]} vs native ${b[k]} (difference ${a[k] - b[k]})`);
  }
}

for (const dim of [32, 64]) {
  test(`tokens of dimension ${dim}: a run has the same bits natively and in wasm`, { skip, timeout: 300000 }, async () => {
    const native = runCli(['experiment', 'real-images', '--token-dim', String(dim), '--ps', '1.1', '--optimizer', 'nmd',
      '--seeds', '1', '--every', '1', '--iters', '25', '--train', '200', '--test', '100', '--n-svm', '2']);
    assert.equal(native.settings.dim, dim);
    const m = native.perMethod[0];
    const run = new RealImagesRun(fx.engine.module, { ...fx.pair, settings: { optimizer: 'nmd', p: 1.1, lr: 0.1, nSvm: 2, nTrain: 200, nTest: 100, iters: 25, dim } });
    try {
      const frames = [run.measure()];
      while (run.iteration < 25) frames.push(run.step(1, true).frame);
      for (const key of ['trainLoss', 'testLoss', 'trainAccuracy', 'testAccuracy', 'trainMaxSoftmax', 'testMaxSoftmax', 'sparsity']) {
        sameBits(frames.map((f) => f[key]), m.series[key].mean, key);
      }
      const { W, v } = run.params();
      assert.equal(W.length, dim, 'W is d x d');
      assert.equal(v.length, dim);
      sameBits(W.flat(), m.runs[0].W.flat(), 'W');
      sameBits(Array.from(v), m.runs[0].v, 'v');
      // the run moved (a test of bits that never left zero would prove nothing)
      assert.ok(W.flat().some((x) => x !== 0) && frames.at(-1).trainLoss < frames[0].trainLoss);
    } finally { run.dispose(); }
  });
}

test('an unoffered token dimension is an input error naming it, in wasm', { skip }, () => {
  assert.throws(() => new RealImagesRun(fx.engine.module, { ...fx.pair, settings: { nTrain: 20, nTest: 20, dim: 100 } }),
    (e) => /dim = 100 is not offered: one of 18, 32, 64, 128, 256, 512/.test(e.message));
});

const PHASE = { dims: [18, 32], sizes: [8, 16], heads: 'frozen,joint', methods: 'nmd:2,nmd:1.1', steps: 300, headSteps: 100, seeds: 2 };

test('a reduced phase diagram gives the CLI\'s runs, table and summary in wasm', { skip, timeout: 600000 }, async () => {
  const cliResult = runExperiment('real-phase', PHASE);
  const planner = new RealPhasePlanner(fx.engine.module, PHASE);
  try {
    const table = await runPlan(planner, (run) => executeLadderRun(fx.engine.module, fx.pair.train, run, { chunk: 100 }), { concurrency: 2 });
    assert.equal(table.rows.length, 2 * 2 * 2 * 2);
    assertLadderRows(table.rows, cliResult.table, ['dim', 'degenerate']);
    assert.ok(table.rows.every((r) => r.steps === PHASE.steps), 'the budget does not depend on n');
    assert.deepEqual(table.summary.map((s) => [s.dim, s.head, s.method, s.largestN, s.firstFailingN, s.failingBeyond]),
      cliResult.summary.map((s) => [s.dim, s.head, s.method, s.largestN, s.firstFailingN, s.failingBeyond]));
  } finally { planner.dispose(); }
});
