// Training throughput in wasm (node, one thread): normalized-GD steps per second of single runs
// (one Trainer per seed) against the batched trainer (all seeds advanced together), through the
// experiments module's trainSeeds; and the full local-convergence experiment (100 seeds x 2000
// iterations on W and (K,Q), experimentSeeds: batched training + the SVM solves) in one thread.
// Prints the markdown rows of docs/BENCHMARKS.md ("Training, in WebAssembly"). Medians of process CPU
// time (the machine is shared), ROUNDS (env, default 5) alternating single/batched samples.
// Run: node bench/wasm/train-batched.mjs (FULL=0 skips the full experiment)
import { loadEngine } from '../../tests/wasm/helpers.mjs';
import { median, cpuMs } from './cpu-time.mjs';

const engine = await loadEngine('attnsvm-experiments');
const M = engine.module;
const ROUNDS = Number(process.env.ROUNDS ?? 5);

function run(req) {
  const r = M.trainSeeds(req);
  if (!r.ok) throw new Error(r.error);
  return r;
}
// CPU ms of one call (after one warm-up call of the same request).
function ms(req) {
  run(req);
  const t0 = cpuMs();
  run(req);
  return cpuMs() - t0;
}

const rows = [];
const shapes = [
  { label: '(6,8,10)', n: 6, T: 8, d: 10, iters: 2000, seeds: [8, 16, 32] },
  { label: '(15,15,20)', n: 15, T: 15, d: 20, iters: 400, seeds: [16] },
  { label: '(1000,49,18)', n: 1000, T: 49, d: 18, iters: 20, seeds: [8] },
].filter((s) => !process.env.ONLY || s.label === process.env.ONLY);  // ONLY='(6,8,10)': one shape
for (const s of shapes) {
  for (const count of s.seeds) {
    const base = { n: s.n, T: s.T, d: s.d, iters: s.iters, seedStart: 1, seedCount: count, optimizer: 'ngd', lr: 0.1 };
    const single = [], batched = [];
    for (let r = 0; r < ROUNDS; r++) {
      single.push(ms({ ...base, batched: false }));
      batched.push(ms({ ...base, batched: true }));
    }
    const steps = s.iters * count;
    const perSec = (t) => Math.round(steps / (t / 1e3));
    rows.push(`| ${s.label}, W, ${count} runs | ${perSec(median(single)).toLocaleString('en')} | ${perSec(median(batched)).toLocaleString('en')} | ${(median(single) / median(batched)).toFixed(2)} |`);
    console.error(rows.at(-1));
  }
}
console.log('| shape, parameterization, runs | single-run steps/s (wasm) | batched steps/s (wasm) | speed-up |');
console.log('|---|---:|---:|---:|');
for (const r of rows) console.log(r);

// The full local-convergence experiment in one thread.
if (process.env.FULL === '0') process.exit(0);
const full = [];
for (let r = 0; r < Math.max(3, Math.min(ROUNDS, 5)); r++) {
  const t0 = cpuMs();
  const res = engine.experimentSeeds('local-convergence', { seedStart: 0, seedCount: 100 });
  full.push(cpuMs() - t0);
  if (!res) throw new Error('no result');
}
console.log(`\nlocal-convergence, 100 seeds x 2000 iterations, one wasm thread (node): median ${(median(full) / 1e3).toFixed(2)} s CPU over ${full.length} runs`);
