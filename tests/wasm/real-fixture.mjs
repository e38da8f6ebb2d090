// What the real-images tests against the native CLI share (real-study, real-phase): Debian's
// dataset-fashion-mnist served to the page's loader from memory, the attnsvm-experiments module, the
// 7 vs 9 pair, a CLI run read back as JSON, and the comparison of the regime ladder's rows (the phase
// diagram's cells are ladder rows with their d). Skipped without the dataset or a native CLI.
import { before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { builtCli, loadEngine, assertClose } from './helpers.mjs';
import { realImagesFiles, fetchFromFiles } from '../../scripts/make-real-images-asset.mjs';
import { loadPair } from '../../web/src/real/asset.js';

const DIR = process.env.ATTNSVM_FASHION_MNIST || '/usr/share/datasets/fashion-mnist';
const cli = builtCli();
const haveData = existsSync(join(DIR, 'train-images-idx3-ubyte.gz'));
export const skip = !haveData ? 'dataset-fashion-mnist is not installed' : !cli ? 'no native CLI built' : false;

// Registers the loading in a before() hook; the returned object has engine and pair once it ran.
export function useRealFixture() {
  const f = { engine: null, pair: null };
  before(async () => {
    if (skip) return;
    const fetchImpl = fetchFromFiles(realImagesFiles(DIR));
    f.engine = await loadEngine('attnsvm-experiments');
    f.pair = await loadPair('http://x/', 7, 9, { fetchImpl, pool: true });
  });
  return f;
}

// `attnsvm <args> --threads 2 --quiet --out X` and its JSON.
export function runCli(args) {
  const out = join(mkdtempSync(join(tmpdir(), 'attnsvm-real-')), 'out.json');
  execFileSync(cli, [...args, '--threads', '2', '--quiet', '--out', out], { stdio: ['ignore', 'ignore', 'inherit'] });
  return JSON.parse(readFileSync(out, 'utf8'));
}

// `attnsvm experiment <name> --settings <json>`.
export const runExperiment = (name, settings) => runCli(['experiment', name, '--settings', JSON.stringify(settings)]);

// Typed arrays and plain arrays alike, numbers compared as the same doubles (NaN is null in JSON).
export function plain(x) {
  if (ArrayBuffer.isView(x)) return Array.from(x);
  if (Array.isArray(x)) return x.map(plain);
  if (typeof x === 'number') return Number.isNaN(x) ? null : x;
  if (x && typeof x === 'object') return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, plain(v)]));
  return x;
}

// Ladder rows (wasm) against the CLI's: the counts equal, the training's measures the same doubles
// (training is bit-identical), corr along k to 1e-7 (the SVMs come from the solvers, whose last bits
// differ between builds). extraKeys: counts of the caller's (the phase's dim, ...).
export function assertLadderRows(rows, cliRows, extraKeys = []) {
  assert.equal(rows.length, cliRows.length, 'rows');
  for (const [i, row] of rows.entries()) {
    const c = cliRows[i];
    for (const key of [...extraKeys, 'head', 'method', 'n', 'steps', 'seeds', 'endedByBudget', 'feasible', 'infeasible',
      'undecided', 'limitReached', 'globallyOptimal', 'locallyOptimal', 'neither', 'failDegenerate', 'failSlow',
      'failNotSeparated', 'failSelectionMoving', 'failHeadFaster']) {
      assert.equal(row[key], c[key], `row ${i}: ${key}`);
    }
    for (const key of ['minSoftmax', 'meanSoftmax', 'trainAccuracy', 'gammaOptimal']) assert.ok(Object.is(row[key], c[key]), `row ${i}: ${key}`);
    assertClose(Array.from(row.corrAlongK), c.corrAlongK.map((x) => x ?? NaN), `row ${i}: corr along k`, 1e-7);
  }
}
