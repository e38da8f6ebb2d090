// Two builds of the experiments module (attnsvm-experiments.js/.wasm) in one node process, one thread:
// the real-images training of the lab's real-images scenario and of the regime ladder (SPEC 6; the
// kernel core/src/train/real_kernel.cpp: T = 49 patch tokens, d = 18, full-batch steps over nTrain
// images), the builds alternated per round (A B A B ...), process CPU time per call of ITERS steps
// (per instance, see INSTANCES); prints the medians, the median of the per-round B/A ratios, and
// the largest relative difference between the two builds' W and v after the same steps (0 when
// they give the same bits).
//
//   node bench/wasm/real-kernel-ab.mjs DIR_A DIR_B [SETTINGS_JSON]
//   e.g. node bench/wasm/real-kernel-ab.mjs /tmp/wasm-before web/public/wasm '{"nTrain":1000}'
// env ROUNDS (default 7), ITERS (steps per call, default 20), INSTANCES (default 3). Settings:
// RealImagesSettings (default nmd, p = 2, lr 0.1, nTrain 1000). The first call of each instance is
// a warm-up (V8 tiers the hot functions up).
import { loadEngine } from '../../tests/wasm/helpers.mjs';
import { RealImagesRun } from '../../web/src/engine/real-run.js';
import { loadPair } from '../../web/src/real/asset.js';
import { realImagesFiles, fetchFromFiles } from '../../scripts/make-real-images-asset.mjs';
import { median, cpuMs } from './cpu-time.mjs';

const [dirA, dirB, opts = '{}'] = process.argv.slice(2);
if (!dirA || !dirB) throw new Error('usage: node bench/wasm/real-kernel-ab.mjs DIR_A DIR_B [SETTINGS_JSON]');
const settings = { optimizer: 'nmd', p: 2, lr: 0.1, nSvm: 2, ...JSON.parse(opts) };
const ROUNDS = Number(process.env.ROUNDS ?? 7);
const ITERS = Number(process.env.ITERS ?? 20);
const DIR = process.env.ATTNSVM_FASHION_MNIST || '/usr/share/datasets/fashion-mnist';

const files = realImagesFiles(DIR);
const fetchImpl = fetchFromFiles(files);
const pair = await loadPair('http://x/', settings.classA ?? 7, settings.classB ?? 9, { fetchImpl });

async function load(dir) {
  const engine = await loadEngine('attnsvm-experiments', dir);
  return new RealImagesRun(engine.module, { ...pair, settings });
}
// INSTANCES module instances per build, each with its own copy of the images: one instance's time
// depends on where V8 put its code and the engine its data (two instances of the same build differed
// by up to 5 % in 31 rounds), so a round times every instance, A and B alternated, and compares the
// builds' sums.
const INSTANCES = Number(process.env.INSTANCES ?? 3);
const runs = [[], []];
for (let k = 0; k < INSTANCES; k++) {
  runs[0].push(await load(dirA));
  runs[1].push(await load(dirB));
}
const { T, d, nTrain } = runs[0][0].info;

for (let k = 0; k < INSTANCES; k++) for (const i of [0, 1]) runs[i][k].step(ITERS);  // warm-up
const ms = [[], []];
for (let r = 0; r < ROUNDS; r++) {
  const sum = [0, 0];
  for (let k = 0; k < INSTANCES; k++) {
    for (const i of (r + k) % 2 ? [1, 0] : [0, 1]) {
      const t0 = cpuMs();
      runs[i][k].step(ITERS);
      sum[i] += cpuMs() - t0;
    }
  }
  ms[0].push(sum[0] / INSTANCES);
  ms[1].push(sum[1] / INSTANCES);
}
let worst = 0;
const params = [runs[0][0].params(), runs[1][0].params()];
const flatA = [...params[0].W.flat(), ...params[0].v], flatB = [...params[1].W.flat(), ...params[1].v];
for (let k = 0; k < flatA.length; k++) {
  if (Object.is(flatA[k], flatB[k])) continue;
  const diff = Math.abs(flatA[k] - flatB[k]) / Math.max(Math.abs(flatA[k]), Math.abs(flatB[k]), 1e-300);
  worst = Math.max(worst, Number.isNaN(diff) ? Infinity : diff);
}
const ratio = median(ms[1].map((b, r) => b / ms[0][r]));
const units = nTrain * ITERS;
console.log(`real-images ${JSON.stringify(settings)} T = ${T}, d = ${d}, n = ${nTrain}, ${ITERS} steps a call: ` +
  `A ${median(ms[0]).toFixed(1)} ms (${(1e3 * median(ms[0]) / units).toFixed(3)} us/unit), ` +
  `B ${median(ms[1]).toFixed(1)} ms (${(1e3 * median(ms[1]) / units).toFixed(3)} us/unit), B/A ${ratio.toFixed(3)} ` +
  `(median of ${ROUNDS} rounds of ${INSTANCES} instances each; B/A per round ${ms[1].map((b, r) => (b / ms[0][r]).toFixed(3)).join(' ')}); ` +
  `largest relative difference of W, v after ${(ROUNDS + 1) * ITERS} steps: ${worst.toExponential(2)}`);
for (const run of [...runs[0], ...runs[1]]) run.dispose();
