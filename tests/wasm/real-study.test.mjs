// The real-images study (SPEC 6.1) and regime ladder (6.2) in wasm (web/src/engine/real-study.js
// over the attnsvm-experiments build) against the native CLI (`attnsvm experiment real-study`,
// `real-ladder`) at reduced sizes: the same plan, the same step choices and the same table. The
// study's numbers are the same doubles (its runs are the kernel's, bit-identical); the ladder's
// training is bit-identical too (corr along k against the native SVM to 1e-12 when the selection is
// the same), its SVMs come from the solvers (Eigen: last-bit differences between builds), so they are
// compared at 1e-7. Results are submitted in another order in wasm: the plan does not depend on it.
// Needs Debian's dataset-fashion-mnist and a native CLI (skipped without). About 10 s in all.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadEngine, repoRoot, assertClose } from './helpers.mjs';
import { realImagesFiles } from '../../scripts/make-real-images-asset.mjs';
import { loadPair } from '../../web/src/real/asset.js';
import {
  RealStudyPlanner, RealLadderPlanner, executeStudyRun, executeLadderRun, runPlan,
} from '../../web/src/engine/real-study.js';

const DIR = process.env.ATTNSVM_FASHION_MNIST || '/usr/share/datasets/fashion-mnist';
const cli = [process.env.ATTNSVM_CLI, 'build/native-release/cli/attnsvm', 'build/native-debug/cli/attnsvm']
  .filter(Boolean).map((p) => resolve(repoRoot, p)).find((p) => existsSync(p));
const haveData = existsSync(join(DIR, 'train-images-idx3-ubyte.gz'));
const skip = !haveData ? 'dataset-fashion-mnist is not installed' : !cli ? 'no native CLI built' : false;

let files, engine, pair;
const fetchImpl = async (url) => {
  const name = `data/fashion-mnist/${url.split('/').pop()}`;
  return files[name] ? { ok: true, status: 200, arrayBuffer: async () => files[name].buffer.slice(files[name].byteOffset, files[name].byteOffset + files[name].byteLength) }
    : { ok: false, status: 404 };
};
before(async () => {
  if (skip) return;
  files = realImagesFiles(DIR);
  engine = await loadEngine('attnsvm-experiments');
  pair = await loadPair('http://x/', 7, 9, { fetchImpl, pool: true });
});

function native(name, settings) {
  const out = join(mkdtempSync(join(tmpdir(), 'attnsvm-study-')), `${name}.json`);
  execFileSync(cli, ['experiment', name, '--settings', JSON.stringify(settings), '--threads', '2', '--quiet', '--out', out],
    { stdio: ['ignore', 'ignore', 'inherit'] });
  return JSON.parse(readFileSync(out, 'utf8'));
}

// Typed arrays and plain arrays alike, numbers compared as the same doubles (NaN is null in JSON).
function plain(x) {
  if (ArrayBuffer.isView(x)) return Array.from(x);
  if (Array.isArray(x)) return x.map(plain);
  if (typeof x === 'number') return Number.isNaN(x) ? null : x;
  if (x && typeof x === 'object') return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, plain(v)]));
  return x;
}

const STUDY = {
  tasks: '7v9', nTrain: 100, nValidation: 40, nTest: 100, epochs: 4, seeds: 3, tuneSeeds: 2,
  design: 'main', methods: 'md:2,nmd:1.1,adam', ablationMethods: 'md:2,md:1.1', gridPoints: 3, maxExtensions: 1,
};

test('a reduced study gives the CLI\'s plan and table in wasm', { skip, timeout: 300000 }, async () => {
  const cliResult = native('real-study', STUDY);
  const planner = new RealStudyPlanner(engine.module, STUDY);
  try {
    // results arrive out of order: each run's result waits a different number of ticks
    let k = 0;
    const table = await runPlan(planner, async (run) => {
      const result = await executeStudyRun(engine.module, pair, run, { chunk: 3 });
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
  assert.throws(() => new RealStudyPlanner(engine.module, { methods: 'md:1' }), (e) => e.kind === 'input' && /p must be in \(1, 1000\]/.test(e.message));
  assert.throws(() => new RealStudyPlanner(engine.module, { epoch: 3 }), (e) => e.kind === 'input' && /settings\.epoch is not a field/.test(e.message));
});

const LADDER = { sizes: [8, 16], heads: 'frozen,joint', methods: 'nmd:2,nmd:1.5', maxSteps: 600, minSteps: 100, work: 8000, headSteps: 100, seeds: 1 };

test('a reduced ladder gives the CLI\'s runs and table in wasm', { skip, timeout: 300000 }, async () => {
  const cliResult = native('real-ladder', LADDER);
  const planner = new RealLadderPlanner(engine.module, LADDER);
  try {
    const table = await runPlan(planner, (run) => executeLadderRun(engine.module, pair.train, run, { chunk: 250 }), { concurrency: 2 });
    assert.equal(table.rows.length, cliResult.table.length);
    for (const [i, row] of table.rows.entries()) {
      const c = cliResult.table[i];
      for (const key of ['head', 'method', 'n', 'steps', 'seeds', 'feasible', 'infeasible', 'undecided', 'limitReached',
        'globallyOptimal', 'locallyOptimal', 'neither', 'failSlow', 'failNotSeparated', 'failSelectionMoving', 'failHeadFaster']) {
        assert.equal(row[key], c[key], `row ${i}: ${key}`);
      }
      // training is bit-identical: the softmax and accuracy measures are the same doubles
      for (const key of ['minSoftmax', 'meanSoftmax', 'trainAccuracy', 'gammaOptimal']) assert.ok(Object.is(row[key], c[key]), `row ${i}: ${key}`);
      assertClose(Array.from(row.corrAlongK), c.corrAlongK.map((x) => x ?? NaN), `row ${i}: corr along k`, 1e-7);
    }
    assert.deepEqual(plain(table.summary), plain(cliResult.summary));
    // the record: every run the CLI planned, each with its result
    const { runs, results } = planner.record();
    assert.equal(runs.length, cliResult.runCount ?? cliResult.runs.length);
    assert.equal(results.length, runs.length);
    assert.ok(results.every((r, i) => r.id === runs[i].id), 'every run has its result');
  } finally { planner.dispose(); }
});
