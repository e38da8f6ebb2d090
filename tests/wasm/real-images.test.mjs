// Real images (SPEC section 6) in wasm: the site's asset (scripts/make-real-images-asset.mjs) read by
// the page's loader (web/src/real/asset.js) gives the images of the IDX files in file order; the wasm
// run (attnsvm-experiments build) makes the split of SPEC section 6 from them; and a reduced run
// agrees with the native CLI `attnsvm experiment real-images` (relative difference <= 1e-9), on a
// seeded split; every seed makes the same split from the asset (the pool) as from the whole files.
// Needs Debian's dataset-fashion-mnist and the wasm build; the CLI comparison uses
// build/native-release/cli/attnsvm (or build/native-debug, or ATTNSVM_CLI) and is skipped without one.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { builtCli, loadEngine, assertClose, worst } from './helpers.mjs';
import { realImagesFiles, fetchFromFiles } from '../../scripts/make-real-images-asset.mjs';
import { loadPair, parseClassFile } from '../../web/src/real/asset.js';
import { RealImagesRun } from '../../web/src/engine/real-run.js';

const DIR = process.env.ATTNSVM_FASHION_MNIST || '/usr/share/datasets/fashion-mnist';
const TOL = 1e-9;
const cli = builtCli();

function idx(name) {
  const b = gunzipSync(readFileSync(join(DIR, name)));
  const dims = b[3];
  return { shape: Array.from({ length: dims }, (_, k) => b.readUInt32BE(4 + 4 * k)), data: b.subarray(4 + 4 * dims) };
}

let files, fetchImpl, engine, raw;
const realRun = (request) => new RealImagesRun(engine.module, request);
before(async () => {
  files = realImagesFiles(DIR);
  fetchImpl = fetchFromFiles(files);
  engine = await loadEngine('attnsvm-experiments');
  raw = { trainImages: idx('train-images-idx3-ubyte.gz'), trainLabels: idx('train-labels-idx1-ubyte.gz'),
    testImages: idx('t10k-images-idx3-ubyte.gz'), testLabels: idx('t10k-labels-idx1-ubyte.gz') };
});

// The first `per` images of each class of the pair in file order, interleaved as in the file.
function expected(images, labels, a, b, per) {
  const kept = [];
  const count = { [a]: 0, [b]: 0 };
  for (let i = 0; i < labels.data.length; i++) {
    const l = labels.data[i];
    if ((l === a || l === b) && count[l] < per) { count[l]++; kept.push(i); }
  }
  const px = 784;
  const pixels = new Uint8Array(kept.length * px);
  kept.forEach((i, j) => pixels.set(images.data.subarray(i * px, (i + 1) * px), j * px));
  return { pixels, labels: Int32Array.from(kept, (i) => labels.data[i]) };
}

for (const [pool, per] of [[false, 500], [true, 1000]]) {
  test(`the asset, merged by the page, holds the first ${per} images of each class in file order${pool ? ' (the pool of seeds > 0)' : ''}`, async () => {
    assert.equal(Object.keys(files).length, 20);
    const pair = await loadPair('http://x/', 7, 9, { fetchImpl, pool });
    assert.deepEqual(pair.perClass, { train: per, test: per });
    const e = expected(raw.trainImages, raw.trainLabels, 7, 9, per);
    assert.deepEqual(pair.train.labels, e.labels);
    assert.ok(Buffer.from(pair.train.pixels).equals(Buffer.from(e.pixels)), 'train pixels differ from the IDX file');
    const t = expected(raw.testImages, raw.testLabels, 7, 9, per);
    assert.deepEqual(pair.test.labels, t.labels);
    assert.ok(Buffer.from(pair.test.pixels).equals(Buffer.from(t.pixels)), 'test pixels differ from the IDX file');
  });
}

test('bad asset files are named with the byte offset', () => {
  const good = gunzipSync(files['data/fashion-mnist/class-3.bin.gz']);
  assert.throws(() => parseClassFile(good.subarray(0, 10), 'f'), /f: truncated at byte offset 10 \(the header has 16 bytes\)/);
  assert.throws(() => parseClassFile(good.subarray(0, 9000), 'f'), /f: truncated at byte offset 9000 \(500 \+ 500 images of 28 x 28 need 788016 bytes\)/);
  const wrong = Buffer.from(good); wrong.write('IDX3', 0, 'latin1');
  assert.throws(() => parseClassFile(wrong, 'f'), /f: not a real-images asset \(magic "IDX3" at byte offset 0/);
  assert.throws(() => parseClassFile(good, 'f', 4), /f: holds class 3 at byte offset 5, expected 4/);
});

test('the wasm run makes the split of SPEC section 6 and reports bad requests', async () => {
  const pair = await loadPair('http://x/', 2, 5, { fetchImpl });
  const run = realRun({ ...pair, settings: { classA: 2, classB: 5, nTrain: 60, nTest: 40, iters: 5, nSvm: 20 } });
  try {
    assert.equal(run.info.nTrain, 60);
    assert.equal(run.info.nTest, 40);
    assert.equal(run.info.T, 49);
    assert.equal(run.info.d, 18);
    const t = expected(raw.testImages, raw.testLabels, 2, 5, 20);
    assert.deepEqual(run.info.testLabels, t.labels);
    assert.ok(Buffer.from(run.info.testPixels).equals(Buffer.from(t.pixels)));
    const f0 = run.measure();
    assert.equal(f0.iteration, 0);
    assert.ok(Math.abs(f0.trainLoss - Math.log(2)) < 1e-12, `loss at W = 0, v = 0 is log 2 (got ${f0.trainLoss})`);
    const r = run.step(5, true);
    assert.equal(r.taken, 5);
    assert.ok(r.frame.trainLoss < f0.trainLoss);
    const s = run.testSoftmax([0, 3]);
    assert.equal(s.length, 2 * 49);
    for (const k of [0, 1]) assert.ok(Math.abs(s.subarray(49 * k, 49 * (k + 1)).reduce((a, b) => a + b, 0) - 1) < 1e-12);
  } finally { run.dispose(); }
  assert.throws(() => realRun({ ...pair, settings: { classA: 2, classB: 2 } }), (e) => e.kind === 'input' && /class/i.test(e.message));
  assert.throws(() => realRun({ ...pair, settings: { classA: 2, classB: 5, nTrain: 61 } }), (e) => e.kind === 'input' && /61|odd/.test(e.message));
  assert.throws(() => realRun({ train: { ...pair.train, pixels: pair.train.pixels.subarray(1) }, test: pair.test, settings: { classA: 2, classB: 5 } }),
    (e) => e.kind === 'input' && /train: 783999 pixel bytes for 1000 labels/.test(e.message));
  assert.throws(() => realRun({ ...pair, settings: { classA: 2, classB: 5, optimizer: 'sgd' } }), (e) => e.kind === 'input' && /sgd/.test(e.message));
  // the settings are read through RealImagesSettings' field list: a key that is not a field is an error listing them
  const { fields } = engine.module.experimentVocabulary();
  assert.deepEqual(fields.realImagesSettings, ['classA', 'classB', 'nTrain', 'nTest', 'seed', 'patch', 'dim', 'embedSeed', 'optimizer', 'p', 'lr', 'iters',
    'nSvm', 'histogramBins']);
  assert.throws(() => realRun({ ...pair, settings: { classA: 2, classB: 5, nTrian: 60 } }),
    (e) => e.kind === 'input' && e.message === `settings.nTrian is not a field; expected one of ${fields.realImagesSettings.join(', ')}`);
  assert.throws(() => realRun({ ...pair, settings: { classA: 2, classB: 5, iters: '5' } }), (e) => e.kind === 'input' && e.message === 'settings.iters must be a number');
  // and the module's request itself (the JS wrapper passes train, test, settings)
  const handle = new engine.module.RealImagesRun();
  try {
    const r = handle.init({ train: pair.train, test: pair.test, settings: {}, setings: {} });
    assert.equal(r.ok, false);
    assert.equal(r.error, 'setings is not a field; expected one of train, test, settings');
  } finally { handle.delete(); }
});

// Every image of the two classes in file order, from the IDX files (what the native CLI reads).
function wholeFile(images, labels, a, b) {
  const kept = [];
  for (let i = 0; i < labels.data.length; i++) if (labels.data[i] === a || labels.data[i] === b) kept.push(i);
  const pixels = new Uint8Array(kept.length * 784);
  kept.forEach((i, j) => pixels.set(images.data.subarray(i * 784, (i + 1) * 784), j * 784));
  return { rows: 28, cols: 28, pixels, labels: Int32Array.from(kept, (i) => labels.data[i]) };
}

test('every seed makes the same split from the asset as from the whole IDX files (the page\'s default sizes)', async () => {
  const [A, B] = [7, 9];
  const pair = await loadPair('http://x/', A, B, { fetchImpl, pool: true });
  const whole = { train: wholeFile(raw.trainImages, raw.trainLabels, A, B), test: wholeFile(raw.testImages, raw.testLabels, A, B) };
  assert.equal(whole.train.labels.length, 12000);
  for (const seed of [0, 1, 2, 17]) {
    for (const [nTrain, nTest] of [[1000, 1000], [200, 100]]) {
      const settings = { classA: A, classB: B, nTrain, nTest, seed, iters: 3, nSvm: 20 };
      const fromAsset = realRun({ ...pair, settings }), fromFile = realRun({ ...whole, settings });
      try {
        assert.deepEqual(fromAsset.info.testLabels, fromFile.info.testLabels, `seed ${seed}: test labels`);
        assert.ok(Buffer.from(fromAsset.info.testPixels).equals(Buffer.from(fromFile.info.testPixels)), `seed ${seed}: test images`);
        // the training split shows in the training measurements: identical when the images are
        const a = [1, 2, 3].map(() => fromAsset.step(1, true).frame), f = [1, 2, 3].map(() => fromFile.step(1, true).frame);
        assert.deepEqual(a, f, `seed ${seed}, ${nTrain} / ${nTest}: the runs differ`);
      } finally { fromAsset.dispose(); fromFile.dispose(); }
    }
  }
  // seeds take different images: seed 1's split is not seed 0's
  const s0 = realRun({ ...pair, settings: { classA: A, classB: B, nTrain: 200, nTest: 100, nSvm: 20, seed: 0 } });
  const s1 = realRun({ ...pair, settings: { classA: A, classB: B, nTrain: 200, nTest: 100, nSvm: 20, seed: 1 } });
  try { assert.ok(!Buffer.from(s0.info.testPixels).equals(Buffer.from(s1.info.testPixels))); } finally { s0.dispose(); s1.dispose(); }
  assert.throws(() => realRun({ ...pair, settings: { classA: A, classB: B, seed: 1.5 } }), (e) => e.kind === 'input' && /seed must be an integer/.test(e.message));
});

// The CLI's series are per (optimizer, p), measured every iteration here (iters <= 100: every = 1);
// the wasm run of the same settings, stepped and measured one iteration at a time, must give every
// measurement, the SVM analysis and the final W (divided by its largest entry, as the JSON has it).
// The JSON's series have the names of the wasm frame's fields (docs/NAMES.md: one spelling).
const SERIES = ['trainLoss', 'testLoss', 'trainAccuracy', 'testAccuracy', 'trainMaxSoftmax', 'testMaxSoftmax', 'sparsity'];
after(() => console.log(`# largest relative difference at the 1e-9 bar: ${worst.diff.toExponential(2)} (${worst.what})`));

test('a reduced run agrees with the native CLI (every optimizer, <= 1e-9)', { skip: cli ? false : 'no native CLI built', timeout: 120000 }, async () => {
  // a seeded split (seed 0, the first images, is checked against the IDX files above)
  const [A, B, nTrain, nTest, iters, nSvm, SEED] = [7, 9, 40, 30, 25, 20, 3];
  const out = join(mkdtempSync(join(tmpdir(), 'attnsvm-real-')), 'real.json');
  execFileSync(cli, ['experiment', 'real-images', '--classes', `${A},${B}`, '--train', `${nTrain}`, '--test', `${nTest}`, '--iters', `${iters}`,
    '--n-svm', `${nSvm}`, '--ps', '1.1,3', '--optimizer', 'nmd,md,adam', '--seeds', '1', '--seed-base', `${SEED}`, '--threads', '2', '--quiet', '--out', out], { stdio: ['ignore', 'ignore', 'inherit'] });
  const native = JSON.parse(readFileSync(out, 'utf8'));
  assert.equal(native.perMethod.length, 5);
  // the settings the page passes have the JSON's names
  assert.deepEqual([native.settings.nTrain, native.settings.nTest, native.settings.nSvm, native.settings.iters], [nTrain, nTest, nSvm, iters]);
  // one list (RealImagesSettings) for both: each field is in the settings block (shared by every run), a
  // method's entry (optimizer, lr; p unless Adam) or a run (its seed), nowhere else
  const { fields } = engine.module.experimentVocabulary();
  const perMethod = ['optimizer', 'p', 'lr'], perRun = ['seed'];
  for (const f of fields.realImagesSettings) {
    const where = [f in native.settings, perMethod.includes(f), perRun.includes(f)];
    assert.equal(where.filter(Boolean).length, 1, `settings field ${f}: ${where}`);
  }
  assert.deepEqual(Object.keys(native.settings).filter((k) => fields.realImagesSettings.includes(k)).sort(),
    fields.realImagesSettings.filter((f) => !perMethod.includes(f) && !perRun.includes(f)).sort());
  assert.deepEqual([native.settings.classA, native.settings.classB, native.settings.histogramBins], [A, B, 20]);
  for (const m of native.perMethod) {
    for (const f of perMethod) assert.equal(f in m, f !== 'p' || m.optimizer !== 'adam', `${m.method}: ${f}`);
    assert.equal(m.runs[0].seed, SEED);
  }
  const pair = await loadPair('http://x/', A, B, { fetchImpl, pool: true });
  for (const m of native.perMethod) {
    const settings = { classA: A, classB: B, nTrain, nTest, seed: SEED, iters, nSvm, optimizer: m.optimizer, p: m.p ?? 2, lr: m.lr };
    const run = realRun({ ...pair, settings });
    try {
      const frames = [run.measure()];
      for (let k = 0; k < iters; k++) frames.push(run.step(1, true).frame);
      assert.deepEqual(frames.map((f) => f.iteration), native.perMethod[0].series.iteration);
      // the same names on both sides: the frame's measurements are the JSON's series, its finals and
      // a run's fields; the wasm analysis has the JSON analysis's fields (plus the SVM matrix, which the
      // JSON has as heatmapSeed0.svm)
      const measured = Object.keys(frames[0]).filter((k) => k !== 'iteration' && k !== 'histogram').sort();
      assert.deepEqual(measured, [...SERIES].sort());
      // frames and a CLI run's last frame are written through the same list (RealImagesFrame)
      assert.deepEqual(Object.keys(frames[0]), fields.realImagesFrame);
      for (const k of fields.realImagesFrame) assert.ok(k in m.runs[0], `${m.method}: runs[0].${k}`);
      assert.deepEqual(Object.keys(m.series).filter((k) => k !== 'iteration').sort(), measured, `${m.method}: series names`);
      for (const k of measured) {
        assert.ok(k in m.final, `${m.method}: final.${k}`);
        assert.ok(k in m.runs[0], `${m.method}: runs[0].${k}`);
      }
      for (const key of SERIES) {
        assertClose(frames.map((f) => f[key]), m.series[key].mean, `${m.method}: ${key}`, TOL);
      }
      const last = frames.at(-1), nr = m.runs[0];
      assertClose(Array.from(last.histogram), nr.histogram, `${m.method}: histogram`, 0);
      const a = run.analyze();
      // the CLI's analysis and the wasm one: RealImagesAnalysis' list (the SVM when there is one)
      assert.deepEqual(Object.keys(nr.analysis).sort(), fields.realImagesAnalysis.filter((k) => k !== 'svm' || a.feasible).sort(), `${m.method}: analysis field names`);
      assert.deepEqual(Object.keys(a).sort(), [...fields.realImagesAnalysis].sort());
      assert.equal(a.verdict, nr.analysis.verdict, `${m.method}: verdict`);
      assert.equal(a.feasible, nr.analysis.feasible);
      assert.deepEqual(Array.from(a.selection), nr.analysis.selection, `${m.method}: selection`);
      if (a.feasible) {
        assertClose([a.corr, a.divergence], [nr.analysis.corr, nr.analysis.divergence], `${m.method}: corr, D_p`, TOL);
        const top = Math.max(...a.svm.flat().map(Math.abs));
        // the l_p SVM is an interior-point solve stopped at a certified gap: its iterates can take one
        // step more or less across builds, so the matrix is pinned to ~1e-8 (as in cli-agreement.test.mjs);
        // corr and D_p above agree at 1e-9
        assertClose(a.svm.map((r) => r.map((x) => x / top)), m.heatmapSeed0.svm, `${m.method}: the l_p Att-SVM`, 1e-7);
      }
      const { W } = run.params();
      const top = Math.max(...W.flat().map(Math.abs));
      // For p > 2 the mirror map's inverse W = sign(U)|U|^{1/(p-1)} has an infinite slope at U = 0
      // (p = 3: a square root), so entries of W near zero carry a rounding of U of ~1e-17 as ~1e-8 (an
      // entry of W that is 0 in one build is sqrt(1e-17) in the other); everything computed from W
      // (losses, accuracies, softmax, corr, D_p) is smooth in W and agrees at 1e-9 above.
      assertClose(W.map((r) => r.map((x) => x / top)), m.heatmapSeed0.W, `${m.method}: W / max |W|`, settings.p > 2 && m.optimizer !== 'adam' ? 1e-7 : TOL);
    } finally { run.dispose(); }
  }
});
