// The real-images study (SPEC 6.1) and regime ladder (6.2) in wasm (web/src/engine/real-study.js
// over the attnsvm-experiments build) against the native CLI (`attnsvm experiment real-study`,
// `real-ladder`) at reduced sizes: the same plan, the same step choices and the same table. The
// study's numbers are the same doubles (its runs are the kernel's, bit-identical); the ladder's
// training is bit-identical too (corr along k against the native SVM to 1e-12 when the selection is
// the same), its SVMs come from the solvers (Eigen: last-bit differences between builds), so they are
// compared at 1e-7. Results are submitted in another order in wasm: the plan does not depend on it.
// Needs Debian's dataset-fashion-mnist and a native CLI (skipped without). About 10 s in all.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RealStudyPlanner, RealLadderPlanner, executeStudyRun, executeLadderRun, runPlan } from '../../web/src/engine/real-study.js';
import { skip, useRealFixture, runExperiment, plain, assertLadderRows } from './real-fixture.mjs';

const fx = useRealFixture();

const STUDY = {
  tasks: '7v9', nTrain: 100, nValidation: 40, nTest: 100, epochs: 4, seeds: 3, tuneSeeds: 2,
  design: 'main', methods: 'md:2,nmd:1.1,adam', ablationMethods: 'md:2,md:1.1', gridPoints: 3, maxExtensions: 1,
};

test('a reduced study gives the CLI\'s plan and table in wasm', { skip, timeout: 300000 }, async () => {
  const cliResult = runExperiment('real-study', STUDY);
  const planner = new RealStudyPlanner(fx.engine.module, STUDY);
  try {
    // results arrive out of order: each run's result waits a different number of ticks
    let k = 0;
    const table = await runPlan(planner, async (run) => {
      const result = await executeStudyRun(fx.engine.module, fx.pair, run, { chunk: 3 });
      for (let t = (k++ * 7) % 5; t > 0; t--) await new Promise((r) => setTimeout(r, 0));
      return result;
    }, { concurrency: 4 });
    assert.equal(planner.record().runs.length, cliResult.runCount);
    assert.equal(table.rows.length, cliResult.table.length);
    // the same doubles: every row, grid, chosen step, statistic and interval
    assert.deepEqual(plain(table.rows), plain(cliResult.table));
    // and every run's result. Run ids are given in the order the tuning rounds complete (a
    // configuration's final seeds are added when its last tuning result arrives), which differs
    // between the CLI's threads and this out-of-order pool: runs are matched by what they are
    // (task, setting, method, step, seed), their results compared without the id.
    const { runs, results } = planner.record();
    const key = (r) => JSON.stringify([r.classA, r.classB, r.setting, r.method, r.train.lr, r.train.seed]);
    const noId = ({ id: _id, ...rest }) => rest;
    const cliByKey = new Map(cliResult.runs.map((c) => [key(c), c]));
    assert.equal(cliByKey.size, cliResult.runs.length, 'every CLI run has its own (task, setting, method, step, seed)');
    for (const [i, r] of runs.entries()) {
      const c = cliByKey.get(key(r));
      assert.ok(c, `run ${i} (${key(r)}) is in the CLI's plan`);
      assert.deepEqual(plain(noId(results[i])), plain(noId(c.result)), `run ${i} (${r.method}, lr ${r.train.lr}, seed ${r.train.seed})`);
    }
    const extended = table.rows.filter((r) => r.extendedDown + r.extendedUp > 0).length;
    console.log(`# study: ${runs.length} runs, ${table.rows.length} rows, ${extended} grids extended`);
  } finally { planner.dispose(); }
  // bad settings are an error naming the field
  assert.throws(() => new RealStudyPlanner(fx.engine.module, { methods: 'md:1' }), (e) => e.kind === 'input' && /p must be in \(1, 1000\]/.test(e.message));
  assert.throws(() => new RealStudyPlanner(fx.engine.module, { epoch: 3 }), (e) => e.kind === 'input' && /settings\.epoch is not a field/.test(e.message));
});

const LADDER = { sizes: [8, 16], heads: 'frozen,joint', methods: 'nmd:2,nmd:1.5', maxSteps: 600, minSteps: 100, work: 8000, headSteps: 100, seeds: 1 };

test('a reduced ladder gives the CLI\'s runs and table in wasm', { skip, timeout: 300000 }, async () => {
  const cliResult = runExperiment('real-ladder', LADDER);
  const planner = new RealLadderPlanner(fx.engine.module, LADDER);
  try {
    const table = await runPlan(planner, (run) => executeLadderRun(fx.engine.module, fx.pair.train, run, { chunk: 250 }), { concurrency: 2 });
    assertLadderRows(table.rows, cliResult.table);
    assert.deepEqual(plain(table.summary), plain(cliResult.summary));
    // the record: every run the CLI planned, each with its result
    const { runs, results } = planner.record();
    assert.equal(runs.length, cliResult.runCount ?? cliResult.runs.length);
    assert.equal(results.length, runs.length);
    assert.ok(results.every((r, i) => r.id === runs[i].id), 'every run has its result');
  } finally { planner.dispose(); }
});
