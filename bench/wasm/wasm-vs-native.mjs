// wasm (in node, through the JS API) vs native (the same core, -O3, through the reference driver
// tests/wasm/native/native_ref.cpp), same workloads; prints the markdown table of
// docs/BENCHMARKS.md ("WebAssembly"). Run: node bench/wasm/wasm-vs-native.mjs
// Medians of per-call process CPU time (batched samples) after a warm-up. Native times cover the
// core call only; wasm times
// cover the whole JS call (argument conversion, the call, copying results out), so the ratio is
// conservative.
// The machine is shared and its load drifts by 30% within a minute, so native and wasm are
// measured alternately, ROUNDS times (env, default 5), and the ratio reported is the median of
// the per-round ratios (each native/wasm pair measured seconds apart), not a ratio of medians
// taken at different times.
import { loadEngine, native, bundleSizes } from '../../tests/wasm/helpers.mjs';
import { median, time } from './cpu-time.mjs';

const engine = await loadEngine();
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const model = { attention: 'cross', param: 'W', head: 'linear', loss: 'logistic' };
const rows = [];
// rows: [label, median native ms, median wasm ms, median of the per-round wasm/native ratios]
function rounds(label, nativeMs, wasmMs) {
  const n = [], w = [], r = [];
  for (let k = 0; k < ROUNDS; k++) {
    n.push(nativeMs()); w.push(wasmMs());
    r.push(w[k] / n[k]);
  }
  rows.push([label, median(n), median(w), median(r)]);
}
function train(label, dataset, m, train, init, iterations, repeats) {
  const cfg = { dataset, model: m, train, init };
  rounds(label, () => native({ cmd: 'benchTrain', ...cfg, iterations, repeats }).ms,
    () => time(repeats, () => { const run = engine.train(cfg); run.step(iterations); run.dispose(); }));
}
function solve(label, req, repeats) {
  rounds(label, () => native({ cmd: 'benchSolve', ...req, repeats }).ms, () => time(repeats, () => engine.solve(req)));
}

const a = engine.sphere(6, 8, 10, 0);
const b = engine.sphere(15, 15, 20, 0);
train('NGD training, W, (6,8,10), 2000 iterations', a, model, { optimizer: 'ngd', lr: 0.1 }, { kind: 'zero' }, 2000, 7);
train('NGD training, (K,Q), (6,8,10), 2000 iterations', a, { ...model, param: 'KQ' }, { optimizer: 'ngd', lr: 0.1 },
  { kind: 'random', seed: 1, scale: 0.1 }, 2000, 7);
train('l_p mirror descent p=3, (6,8,10), 2000 iterations', a, model, { optimizer: 'md', lr: 0.1, p: 3 }, { kind: 'zero' }, 2000, 7);
solve('Frobenius Att-SVM, (15,15,20)', { dataset: b, norm: 'fro' }, 7);
solve('Frobenius Att-SVM, (6,8,10)', { dataset: a, norm: 'fro' }, 7);
solve('nuclear Att-SVM, (6,8,10)', { dataset: a, norm: 'nuclear' }, 7);
solve('l_p Att-SVM p=3, (6,8,10)', { dataset: a, norm: 'lp', p: 3 }, 7);

const f = (x) => (x == null ? '' : x < 1 ? x.toFixed(3) : x.toFixed(2));
console.log(`| workload | native ms | wasm ms (node, JS API) | wasm / native (median of ${ROUNDS} rounds) |`);
console.log('|---|---:|---:|---:|');
for (const [label, n, w, r] of rows) console.log(`| ${label} | ${f(n)} | ${f(w)} | ${r.toFixed(2)}x |`);

const z = await bundleSizes();
console.log('\n| file | gzipped |\n|---|---:|');
console.log(`| attnsvm.wasm | ${z.wasm} |\n| attnsvm.js (Emscripten glue, minified) | ${z.glue} |`);
console.log(`| wrapper as shipped (worker.js bundle + worker-engine.js, minified) | ${z.wrapper} |`);
console.log(`| wrapper sources (web/src/engine/*.js, unminified) | ${z.wrapperSource} |`);
console.log(`| attnsvm.single.js (SINGLE_FILE embed build) | ${z.single} |`);
console.log(`| **module + wrapper** (wasm + glue + wrapper as shipped) | **${z.total}** (${(z.total / 1024).toFixed(1)} KB) |`);
