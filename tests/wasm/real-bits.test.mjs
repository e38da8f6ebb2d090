// SPEC 6.4: a real-images run gives the same bits natively and in the browser. The full-length default
// run at p = 1.1 (nmd, lr 0.1, 1000 full-batch iterations on 1000 + 1000 images of Sneaker vs Ankle
// boot, which oscillates: a perturbation of 1e-13 changes its final test accuracy), measured every 10
// iterations, by the native CLI and by the wasm module (the attnsvm-experiments build, as the lab's
// real-images scenario runs it): every measurement of every frame, and the final W and v, must be the
// same doubles. Needs Debian's dataset-fashion-mnist and a native CLI (build/native-release or
// build/native-debug, or ATTNSVM_CLI); about 10 s natively (ASan build) and 5 s in wasm.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { builtCli, loadEngine } from './helpers.mjs';
import { realImagesFiles, fetchFromFiles } from '../../scripts/make-real-images-asset.mjs';
import { loadPair } from '../../web/src/real/asset.js';
import { RealImagesRun } from '../../web/src/engine/real-run.js';

const DIR = process.env.ATTNSVM_FASHION_MNIST || '/usr/share/datasets/fashion-mnist';
const cli = builtCli();
const haveData = existsSync(join(DIR, 'train-images-idx3-ubyte.gz'));

let fetchImpl, engine;
before(async () => {
  if (!haveData) return;
  fetchImpl = fetchFromFiles(realImagesFiles(DIR));
  engine = await loadEngine('attnsvm-experiments');
});

// Same doubles: Object.is (so -0 and 0 differ and NaN equals NaN); reports the first difference.
function sameBits(a, b, what) {
  assert.equal(a.length, b.length, `${what}: lengths`);
  for (let k = 0; k < a.length; k++) {
    if (!Object.is(a[k], b[k])) assert.fail(`${what}[${k}]: wasm ${a[k]} vs native ${b[k]} (difference ${a[k] - b[k]})`);
  }
}

const SERIES = ['trainLoss', 'testLoss', 'trainAccuracy', 'testAccuracy', 'trainMaxSoftmax', 'testMaxSoftmax', 'sparsity'];

test('the full-length p = 1.1 real-images run has the same bits natively and in wasm',
  { skip: !haveData ? 'dataset-fashion-mnist is not installed' : !cli ? 'no native CLI built' : false, timeout: 300000 }, async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'attnsvm-bits-')), 'real.json');
    execFileSync(cli, ['experiment', 'real-images', '--ps', '1.1', '--optimizer', 'nmd', '--seeds', '1', '--every', '10',
      '--n-svm', '2', '--threads', '1', '--quiet', '--out', out], { stdio: ['ignore', 'ignore', 'inherit'] });
    const native = JSON.parse(readFileSync(out, 'utf8'));
    const m = native.perMethod[0];
    assert.equal(m.method, 'nmd p=1.1');
    assert.deepEqual([native.settings.iters, native.settings.nTrain, native.settings.nTest], [1000, 1000, 1000]);
    const pair = await loadPair('http://x/', 7, 9, { fetchImpl });
    const run = new RealImagesRun(engine.module, { ...pair, settings: { optimizer: 'nmd', p: 1.1, lr: 0.1, nSvm: 2 } });
    try {
      const frames = [run.measure()];
      while (run.iteration < 1000) frames.push(run.step(10, true).frame);
      assert.deepEqual(frames.map((f) => f.iteration), m.series.iteration);
      for (const key of SERIES) sameBits(frames.map((f) => f[key]), m.series[key].mean, key);
      const { W, v } = run.params();
      sameBits(W.flat(), m.runs[0].W.flat(), 'W');
      sameBits(Array.from(v), m.runs[0].v, 'v');
      // the run oscillates: its test accuracy moves by more than 0.05 between frames late in the run
      const acc = frames.slice(50).map((f) => f.testAccuracy);
      const jumps = acc.slice(1).map((a, k) => Math.abs(a - acc[k]));
      console.log(`# p = 1.1: final test accuracy ${frames.at(-1).testAccuracy}, largest jump between frames after iteration 500: ${Math.max(...jumps).toFixed(3)}`);
    } finally { run.dispose(); }
  });
