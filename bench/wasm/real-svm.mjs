// The real-image max-margin solvers at n = 1000 (issue 26; docs/BENCHMARKS.md, "Max-margin solvers on
// real images"): Fashion-MNIST 7 vs 9, the first n/2 of each class (T = 49, d = 18), the default optimal
// selection and the selection of a trained W (100 iterations of normalized GD), every norm, solved by
// the wasm module through the JS API (node 20) and by the native core (tests/wasm/native/native_ref.cpp,
// -O3) alternately. Process CPU time per solve, medians over ROUNDS (env, default 3) rounds.
// Run: node bench/wasm/real-svm.mjs   (N=1000 by default; N=500 for a quicker look; NORMS=fro,nuclear
// for a subset of the norms fro, nuclear, lp1.1, lp1.5, lp3)
import { loadEngine, native, runNative } from '../../tests/wasm/helpers.mjs';
import { median, cpuMs } from './cpu-time.mjs';

const engine = await loadEngine();
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const N = Number(process.env.N ?? 1000);
const only = process.env.NORMS?.split(',');
const norms = [['fro'], ['nuclear'], ['lp', 1.1], ['lp', 1.5], ['lp', 3]].filter(
  ([norm, p]) => !only || only.includes(norm + (p ?? '')));
console.log(`| instance | norm | status | native ms | wasm ms | wasm / native |`);
console.log(`|---|---|---|---:|---:|---:|`);
for (const trained of [0, 100]) {
  const [ds] = runNative([{ cmd: 'realSvmDataset', n: N, trainIterations: trained }]).map((r) => {
    if (!r.ok) throw new Error(r.error);
    return r.result;
  });
  for (const [norm, p] of norms) {
    const req = { dataset: ds, norm, ...(p ? { p } : {}) };
    const n = [], w = [], r = [];
    let status;
    for (let k = 0; k < ROUNDS; ++k) {
      n.push(native({ cmd: 'benchSolve', ...req, repeats: 1 }).ms);
      const t0 = cpuMs();
      status = engine.solve(req).status;
      w.push(cpuMs() - t0);
      r.push(w[k] / n[k]);
    }
    console.log(`| 7v9 n=${N}${trained ? ' trained' : ''} | ${norm}${p ? ' ' + p : ''} | ${status} | ${median(n).toFixed(0)} | ${median(w).toFixed(0)} | ${median(r).toFixed(2)}x |`);
  }
}
