// Tokens of dimension d (SPEC 6.5) and the (d, n) phase diagram in wasm against the native CLI:
// - the embedding is the same bits: a real-images run at d = 64 (and d = 32) on the CLI and in wasm
//   has every measurement of every frame and the final W (d x d) and v equal as doubles, which it
//   could not be unless every token and query were (the run starts at W = 0, v = 0 and is a function
//   of the tokens alone); the CLI's JSON says d;
// - a reduced phase diagram (`attnsvm experiment real-phase`) gives the CLI's plan, rows and summary
//   in wasm (RealPhasePlanner; its runs are ladder runs): training bit-identical, corr along k to 1e-7
//   (the SVM solvers' last bits differ between builds), a degenerate count and the budget's end per row.
// Needs Debian's dataset-fashion-mnist and a native CLI (skipped without).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadEngine, repoRoot, assertClose } from './helpers.mjs';
import { realImagesFiles } from '../../scripts/make-real-images-asset.mjs';
import { loadPair } from '../../web/src/real/asset.js';
import { RealImagesRun } from '../../web/src/engine/real-run.js';
import { RealPhasePlanner, executeLadderRun, runPlan } from '../../web/src/engine/real-study.js';

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

function runCli(args) {
  const out = join(mkdtempSync(join(tmpdir(), 'attnsvm-phase-')), 'out.json');
  execFileSync(cli, [...args, '--threads', '2', '--quiet', '--out', out], { stdio: ['ignore', 'ignore', 'inherit'] });
  return JSON.parse(readFileSync(out, 'utf8'));
}

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
    const run = new RealImagesRun(engine.module, { ...pair, settings: { optimizer: 'nmd', p: 1.1, lr: 0.1, nSvm: 2, nTrain: 200, nTest: 100, iters: 25, dim } });
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
  assert.throws(() => new RealImagesRun(engine.module, { ...pair, settings: { nTrain: 20, nTest: 20, dim: 100 } }),
    (e) => /dim = 100 is not offered: one of 18, 32, 64, 128, 256, 512/.test(e.message));
});

const PHASE = { dims: [18, 32], sizes: [8, 16], heads: 'frozen,joint', methods: 'nmd:2,nmd:1.1', steps: 300, headSteps: 100, seeds: 2 };

test('a reduced phase diagram gives the CLI\'s runs, table and summary in wasm', { skip, timeout: 600000 }, async () => {
  const cliResult = runCli(['experiment', 'real-phase', '--settings', JSON.stringify(PHASE)]);
  const planner = new RealPhasePlanner(engine.module, PHASE);
  try {
    const table = await runPlan(planner, (run) => executeLadderRun(engine.module, pair.train, run, { chunk: 100 }), { concurrency: 2 });
    assert.equal(table.rows.length, 2 * 2 * 2 * 2);
    assert.equal(table.rows.length, cliResult.table.length);
    for (const [i, row] of table.rows.entries()) {
      const c = cliResult.table[i];
      for (const key of ['dim', 'head', 'method', 'n', 'steps', 'seeds', 'endedByBudget', 'degenerate', 'feasible', 'infeasible',
        'undecided', 'limitReached', 'failSlow', 'failNotSeparated', 'failSelectionMoving', 'failHeadFaster', 'failDegenerate']) {
        assert.equal(row[key], c[key], `row ${i}: ${key}`);
      }
      assert.equal(row.steps, PHASE.steps, 'the budget does not depend on n');
      for (const key of ['minSoftmax', 'meanSoftmax', 'trainAccuracy', 'gammaOptimal']) assert.ok(Object.is(row[key], c[key]), `row ${i}: ${key}`);
      assertClose(Array.from(row.corrAlongK), c.corrAlongK.map((x) => x ?? NaN), `row ${i}: corr along k`, 1e-7);
    }
    assert.deepEqual(table.summary.map((s) => [s.dim, s.head, s.method, s.largestN, s.firstFailingN, s.failingBeyond]),
      cliResult.summary.map((s) => [s.dim, s.head, s.method, s.largestN, s.firstFailingN, s.failingBeyond]));
  } finally { planner.dispose(); }
});
