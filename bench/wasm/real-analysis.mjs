// The lab's real-images analysis in WebAssembly at its default size (issue 26): a RealImagesRun with
// the lab's default settings (classes 7 vs 9, the core's defaults: nSvm = 500, 1000 iterations),
// trained to the end, then analyze() (the selection analysis of the first nSvm training images, the
// l_p Att-SVM of the final selection and corr / D_p) timed alone: what the worker spends after the last
// frame. Process CPU time of analyze(), median over ROUNDS (env, default 3) calls on the same run.
// Run: P=1.1,2,3 node bench/wasm/real-analysis.mjs   (P: the run's p, default 2; needs Debian's dataset-fashion-mnist)
import { loadEngine } from '../../tests/wasm/helpers.mjs';
import { realImagesFiles, fetchFromFiles } from '../../scripts/make-real-images-asset.mjs';
import { loadPair } from '../../web/src/real/asset.js';
import { RealImagesRun } from '../../web/src/engine/real-run.js';
import { median, cpuMs } from './cpu-time.mjs';

const DIR = process.env.ATTNSVM_FASHION_MNIST || '/usr/share/datasets/fashion-mnist';
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const [classA, classB] = [Number(process.env.CLASS_A ?? 7), Number(process.env.CLASS_B ?? 9)];
const files = realImagesFiles(DIR);
const fetchImpl = fetchFromFiles(files);
const engine = await loadEngine('attnsvm-experiments');
const pair = await loadPair('http://x/', classA, classB, { fetchImpl });
for (const p of (process.env.P ?? '2').split(',').map(Number)) {
  const run = new RealImagesRun(engine.module, { ...pair, settings: { classA, classB, p } });
  const t0 = cpuMs();
  for (let it = 0; it < 1000; it += 100) run.step(100, false);  // the default run: 1000 iterations (step() does not stop at iters: the page's loop does)
  const trainMs = cpuMs() - t0;
  const ms = [];
  let a;
  for (let k = 0; k < ROUNDS; ++k) {
    const t1 = cpuMs();
    a = run.analyze();
    ms.push(cpuMs() - t1);
  }
  console.log(`p = ${p}: nSvm ${a.nSvm}, training ${(trainMs / 1000).toFixed(1)} s CPU, analyze() median ${median(ms).toFixed(0)} ms CPU ` +
    `(${ms.map((x) => x.toFixed(0)).join(', ')}), verdict ${a.verdict}, status ${a.status}`);
  run.dispose();
}
